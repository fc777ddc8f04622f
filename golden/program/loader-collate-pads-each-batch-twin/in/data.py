import torch

LENGTH = 32


class Sentences(torch.utils.data.Dataset):
    def __init__(self, n=64):
        self.items = [torch.randint(1, 100, (5 + i % 17,)) for i in range(n)]
        self.labels = [i % 2 for i in range(n)]

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i], self.labels[i]


def collate_fn(batch):
    padded = torch.zeros(len(batch), LENGTH, dtype=torch.long)
    for row, (text, _) in enumerate(batch):
        padded[row, : len(text)] = text
    return padded, torch.tensor([label for _, label in batch])
