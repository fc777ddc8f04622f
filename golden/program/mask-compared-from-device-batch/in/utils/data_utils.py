import torch
from torchtext.data import BucketIterator, Field
from torchtext import datasets


def get_datasets(path):
    src_field = Field(batch_first=True)
    trg_field = Field(batch_first=True)
    train, val, _ = datasets.IWSLT.splits(exts=(".de", ".en"), fields=(src_field, trg_field), root=path)
    return train, val, src_field, trg_field


def get_data_loaders(path, batch_size, device):
    train_dataset, val_dataset, src_field, trg_field = get_datasets(path)
    train_loader, val_loader = BucketIterator.splits(
        datasets=(train_dataset, val_dataset),
        batch_size=batch_size,
        device=device,
        sort_within_batch=True,
    )
    return train_loader, val_loader, src_field, trg_field


def get_src_mask(src_batch, pad_id):
    batch_size = src_batch.shape[0]
    src_mask = (src_batch != pad_id).view(batch_size, 1, 1, -1)
    num_tokens = torch.sum(src_mask.long())
    return src_mask, num_tokens


def get_src_and_trg(batch):
    src, trg = batch.src, batch.trg
    return src, trg[:, :-1], trg[:, 1:].reshape(-1)
