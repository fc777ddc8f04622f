"""A copy task: each batch comes from a generator function that makes it on the GPU."""

import torch
from torch import nn

BATCH_SIZE = 8
SEQ_LEN = 16
DEVICE = "cuda"


def cycle():
    while True:
        src = torch.randint(0, 10, (BATCH_SIZE, SEQ_LEN)).to(DEVICE)
        yield src, src.clone()


def main():
    model = nn.Sequential(nn.Embedding(10, 32), nn.Linear(32, 10)).to(DEVICE)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    batches = cycle()
    for step in range(100):
        src, tgt = next(batches)
        logits = model(src)
        loss = nn.functional.cross_entropy(logits.view(-1, 10), tgt.view(-1))
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
