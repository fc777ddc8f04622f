"""A copy task: each batch comes from a generator function that leaves it on the host."""

import torch
import torch_xla
from torch import nn

BATCH_SIZE = 8
SEQ_LEN = 16
DEVICE = "xla"


def cycle():
    while True:
        src = torch.randint(0, 10, (BATCH_SIZE, SEQ_LEN))
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
        torch_xla.sync()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
