# Class: a device choice in the `if __name__ == "__main__":` self-test of a module that the
# training script imports. No launch that imports the module runs that block; the module's own
# run (a forward on random data) trains nothing. The training script's run is not judged by it:
# train.py runs on the accelerator, and the choice is no blocker. Found at first sight in a
# language-model repository (Transformer-XL's `mem_transformer.py` self-test), where it was
# called a blocker of every entry point. Twin: device-choice-in-imported-self-test-twin, whose
# choice is at the module's top level, read by a function the model calls.
import argparse

import torch
import torch.nn as nn
import torch_xla


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)

    def forward(self, x):
        return self.fc(x)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="unit test")
    parser.add_argument("--cuda", action="store_true")
    args = parser.parse_args()
    device = torch.device("xla" if args.cuda else "cpu")
    model = Net().to(device)
    print(model(torch.randn(3, 4).to(device)).shape)
