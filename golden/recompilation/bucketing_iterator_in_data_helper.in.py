"""A data helper module with no loop of its own builds the bucketing iterators the training
script iterates: each batch is padded to its own longest, a new length nearly every batch."""
from torchtext.data import BucketIterator


def get_data_loaders(train_dataset, val_dataset, batch_size, device):
    train_loader, val_loader = BucketIterator.splits(
        datasets=(train_dataset, val_dataset),
        batch_size=batch_size,
        device=device,
        sort_within_batch=True,
    )
    return train_loader, val_loader
