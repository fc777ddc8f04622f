from torch.utils.data import DataLoader as DL


def make_loaders(train_ds, val_ds, args):
    train_loader = DL(train_ds, batch_size=args.batch_size, shuffle=True)
    val_loader = DL(val_ds, batch_size=args.batch_size)
    loader = DL(train_ds, args.batch_size, True)
    return train_loader, val_loader, loader
