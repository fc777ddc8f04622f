# Class: dynamic shapes the loader makes, in a script read alone. A collate function that pads
# each batch to its own longest item (`max(len(x) for x in batch)`, a collator class's
# `__call__`) and a bucketing iterator both give nearly every batch a new length, so XLA
# compiles a graph per length (TRN440, TRN441: 12 compiles in 20 batches against 2 with buckets,
# benchmarks/step_shapes/loader_shapes.py). Twin: loader_pads_to_longest_twin.
import torch
from torch.utils.data import DataLoader
from torchtext.legacy.data import BucketIterator


def collate(batch):
    longest = max(len(x) for x, _ in batch)
    tokens = torch.zeros(len(batch), longest, dtype=torch.long)
    for i, (x, _) in enumerate(batch):
        tokens[i, : len(x)] = torch.tensor(x)
    return tokens, torch.tensor([y for _, y in batch])


class PadBatch:
    def __call__(self, batch):
        width = max(x.size(0) for x in batch)
        return torch.stack([torch.nn.functional.pad(x, (0, width - x.size(0))) for x in batch])


def train(train_ds, valid_ds, model, optimizer):
    loader = DataLoader(train_ds, batch_size=32, collate_fn=collate, shuffle=True)
    for x, y in loader:
        torch.nn.functional.cross_entropy(model(x), y).backward()
        optimizer.step()
        optimizer.zero_grad()
    for x in DataLoader(train_ds, batch_size=32, collate_fn=PadBatch()):
        model(x).sum().backward()
        optimizer.step()
    train_iter, valid_iter = BucketIterator.splits(
        (train_ds, valid_ds), batch_size=64, sort_key=lambda ex: len(ex.src)
    )
    for batch in train_iter:
        model(batch.src, batch.trg).backward()
        optimizer.step()
