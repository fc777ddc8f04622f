# Twin of helper-called-only-off-launch-path: run.sh launches the script twice, once with
# `--batch-size -1`: that launch runs the helper, whose CUDA query stops the script: a blocker
# that names the launch line taking it, though the documented run (the default) leaves it off.
import argparse

import torch

from autobatch import check_batch


def train(opt, device):
    epochs, lr = opt.epochs, opt.lr
    batch_size = opt.batch_size
    model = torch.nn.Linear(4, 2).to(device)
    if batch_size == -1:
        batch_size = check_batch(model, batch_size)
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    for _ in range(epochs):
        x = torch.randn(batch_size, 4).to(device)
        loss = model(x).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--batch-size", type=int, default=16, help="-1 for autobatch")
    parser.add_argument("--lr", type=float, default=0.1)
    opt = parser.parse_args()
    train(opt, torch.device("cuda"))
