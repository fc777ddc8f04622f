"""The same helper builds plain loaders over sequences padded to one fixed length: every batch
has one shape, nothing to report."""
from torch.utils.data import DataLoader


def get_data_loaders(train_dataset, val_dataset, batch_size):
    train_loader = DataLoader(train_dataset, batch_size=batch_size, shuffle=True, drop_last=True)
    val_loader = DataLoader(val_dataset, batch_size=batch_size, drop_last=True)
    return train_loader, val_loader
