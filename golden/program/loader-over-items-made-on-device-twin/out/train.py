"""A character language model whose dataset makes each sample on the GPU, in worker processes,
which cannot make tensors on the device: where the batches are is not shown."""

import torch
import torch_xla
from torch import nn
from torch.utils.data import DataLoader, Dataset


class TextSampler(Dataset):
    def __init__(self, data, seq_len):
        self.data = data
        self.seq_len = seq_len

    def __getitem__(self, index):
        start = torch.randint(0, self.data.size(0) - self.seq_len - 1, (1,))
        seq = self.data[start : start + self.seq_len + 1].long()
        return seq.to(torch_xla.device())

    def __len__(self):
        return self.data.size(0) // self.seq_len


def main():
    data = torch.randint(0, 256, (10000,), dtype=torch.uint8)
    loader = DataLoader(TextSampler(data, 32), batch_size=4, shuffle=True, drop_last=True,
                        num_workers=2)
    model = nn.Sequential(nn.Embedding(256, 64), nn.Linear(64, 256)).to(torch_xla.device())
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(2):
        for seq in loader:
            logits = model(seq[:, :-1])
            loss = nn.functional.cross_entropy(logits.reshape(-1, 256), seq[:, 1:].reshape(-1))
            loss.backward()
            optimizer.step()
            torch_xla.sync()
            optimizer.zero_grad()


if __name__ == "__main__":
    main()
