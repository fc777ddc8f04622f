# Twin of loader_pads_to_longest: a collate function that pads every batch to one fixed length,
# a largest taken over something that is not the batch's items (a configured list), and a
# plain iterator and sampler: one shape for every batch, nothing reported.
import torch
from torch.utils.data import DataLoader, RandomSampler

MAX_LEN = 128
SIZES = [64, 128]


def collate(batch):
    tokens = torch.zeros(len(batch), MAX_LEN, dtype=torch.long)
    for i, (x, _) in enumerate(batch):
        tokens[i, : min(len(x), MAX_LEN)] = torch.tensor(x[:MAX_LEN])
    return tokens, torch.tensor([y for _, y in batch])


def collate_to_largest_size(batch):
    width = max(SIZES)
    return torch.stack([torch.nn.functional.pad(x, (0, width - x.size(0))) for x in batch])


def train(train_ds, model, optimizer):
    loader = DataLoader(train_ds, batch_size=32, collate_fn=collate, sampler=RandomSampler(train_ds))
    for x, y in loader:
        torch.nn.functional.cross_entropy(model(x), y).backward()
        optimizer.step()
        optimizer.zero_grad()
    for x in DataLoader(train_ds, batch_size=32, collate_fn=collate_to_largest_size):
        model(x).sum().backward()
        optimizer.step()
