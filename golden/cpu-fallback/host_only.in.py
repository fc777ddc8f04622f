# Host-only code: dataset methods, collate functions, NumPy, `.cpu()` operands, and setup code
# that is neither model nor training code. Nothing here is reported.
import numpy as np
import torch
from torch.utils.data import Dataset


class Tokens(Dataset):
    def __init__(self, ids):
        self.ids = ids
        self.classes = torch.unique(torch.tensor(ids))

    def __getitem__(self, index):
        row = torch.tensor(self.ids[index])
        return row[row > 0]

    def __len__(self):
        return len(self.ids)


def collate(batch):
    lengths = torch.tensor([len(b) for b in batch])
    return torch.repeat_interleave(torch.arange(len(batch)), lengths)


def class_weights(labels):
    counts = torch.bincount(torch.tensor(labels))
    return counts.float() / counts.sum()


def train(model, loader, optimizer, device):
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        logits = model(x)
        loss = torch.nn.functional.cross_entropy(logits, y)
        loss.backward()
        optimizer.step()
        preds = logits.argmax(-1).cpu()
        seen = torch.unique(preds)
        counts = np.bincount(y.cpu().numpy())
        where = torch.where(y > 0, logits.max(-1).values, 0.0)
        print(seen, counts, where)
