# Twin of device-choice-in-imported-self-test: the choice is at the module's top level and the
# model reads it (a mask built on that device), so every launch that imports the
# module runs it: without `--cuda` (this program has no launch line that sets it) the mask
# stays on the CPU while the training script moves the batch to the accelerator: a blocker.
import argparse

import torch
import torch.nn as nn
import torch_xla

parser = argparse.ArgumentParser(description="model options")
parser.add_argument("--cuda", action="store_true")
args, _ = parser.parse_known_args()
device = torch.device("xla" if args.cuda else "cpu")


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)
        self.mask = torch.ones(2).to(device)

    def forward(self, x):
        return self.fc(x) * self.mask
