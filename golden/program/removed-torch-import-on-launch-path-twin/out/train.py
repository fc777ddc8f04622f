# Class: an import of a private torch name the target's torch no longer has, in a module the
# entry point imports (text-recognition dataset.py): the import raises ImportError, so the entry
# point stops there before training (twin: a removed name with an exact replacement, rewritten:
# the entry point runs).
import torch
import torch_xla
from dataset import batches


def main():
    device = torch_xla.device()
    model = torch.nn.Linear(8, 2).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in batches():
        x, y = x.to(device), y.to(device)
        loss = torch.nn.functional.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        torch_xla.sync()


if __name__ == "__main__":
    main()
