"""Class: evaluation batches drawn from a dict of generators built by a comprehension
(`{n: cycle(n) for n in lengths}`, walked with `.items()`): each generator makes its batch on
the device, so the evaluation inputs are there, as the training ones are."""

import torch
import torch_xla
from torch import nn

LENGTHS = (16, 32)


def cycle(length):
    device = torch_xla.device()
    while True:
        seq = torch.randint(0, 2, (8, length)).to(device)
        yield seq, seq.cumsum(dim=-1) % 2


def main():
    model = nn.Sequential(nn.Embedding(2, 16), nn.Linear(16, 2)).to(torch_xla.device())
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    train_dl = cycle(LENGTHS[-1])
    eval_dls = {length: cycle(length) for length in LENGTHS}
    for step in range(100):
        seq, labels = next(train_dl)
        loss = nn.functional.cross_entropy(model(seq).transpose(1, 2), labels)
        loss.backward()
        optimizer.step()
        torch_xla.sync()
        optimizer.zero_grad()
        if step % 10 == 0:
            with torch.no_grad():
                for length, eval_dl in eval_dls.items():
                    seq, labels = next(eval_dl)
                    wrong = (model(seq).argmax(-1) != labels).sum()
                    torch_xla.sync()


if __name__ == "__main__":
    main()
