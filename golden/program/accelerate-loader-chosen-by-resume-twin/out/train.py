# Twin of accelerate-loader-chosen-by-resume: the other branch iterates a loader that was never
# prepared (a plain DataLoader of the same dataset): its batches do not cut the step, nor are they
# on the device, so the verdict is not "runs".
import argparse
import os

import torch
import torch_xla
from accelerate import Accelerator
from torch.utils.data import DataLoader, TensorDataset

parser = argparse.ArgumentParser()
parser.add_argument("--resume-step", type=int, default=0)
parser.add_argument("--output-dir", default="out")
parser.add_argument("--epochs", type=int, default=2)


def main():
    args = parser.parse_args()
    accelerator = Accelerator()
    model = torch.nn.Linear(8, 2)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    dataset = TensorDataset(torch.randn(64, 8), torch.randint(0, 2, (64,)))
    train_loader = DataLoader(dataset, batch_size=8)
    model, optimizer, train_loader = accelerator.prepare(model, optimizer, train_loader)
    for epoch in range(args.epochs):
        if os.path.isdir(args.output_dir) and epoch == 0:
            active_loader = DataLoader(dataset, batch_size=8)
        else:
            active_loader = train_loader
        for x, y in active_loader:
            loss = torch.nn.functional.cross_entropy(model(x), y)
            accelerator.backward(loss)
            optimizer.step()
            torch_xla.sync()
            optimizer.zero_grad()


if __name__ == "__main__":
    main()
