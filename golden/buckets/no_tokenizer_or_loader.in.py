"""Names that look like the pass's targets but are not."""

import torch

tok = "hello"
tokens = tok.split()
padded = torch.nn.functional.pad(torch.ones(3), (0, 5))


def pad_sequence(xs, batch_first=True):
    return xs


def collate(batch):
    return pad_sequence(batch)


class DataLoader:
    def __init__(self, items, batch_size):
        self.items = items


train_loader = DataLoader([], batch_size=8)
