"""A character language model whose dataset makes each sample (an input and its targets) on the
GPU; the loader's default collate stacks them there, so the batches need no move."""

import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset


class TextSampler(Dataset):
    def __init__(self, data, seq_len):
        self.data = data
        self.seq_len = seq_len

    def __getitem__(self, index):
        start = torch.randint(0, self.data.size(0) - self.seq_len - 1, (1,))
        seq = self.data[start : start + self.seq_len + 1].long()
        inputs = seq[:-1].cuda()
        targets = seq[1:].cuda()
        return inputs, targets

    def __len__(self):
        return self.data.size(0) // self.seq_len


def main():
    data = torch.randint(0, 256, (10000,), dtype=torch.uint8)
    loader = DataLoader(TextSampler(data, 32), batch_size=4, shuffle=True, drop_last=True)
    model = nn.Sequential(nn.Embedding(256, 64), nn.Linear(64, 256)).cuda()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(2):
        for inputs, targets in loader:
            logits = model(inputs)
            loss = nn.functional.cross_entropy(logits.reshape(-1, 256), targets.reshape(-1))
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()


if __name__ == "__main__":
    main()
