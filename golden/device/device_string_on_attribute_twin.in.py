# Must not fire (twin of device_string_on_attribute): the attribute and the default are also
# read as text (a log line, a file name), so changing them changes more than the device: they
# are left for a person (the device use is reported by the rules that see it).
import argparse

import torch
import torch.nn as nn


class Embedding(nn.Module):
    def __init__(self, channels=4, device="cuda"):
        super().__init__()
        self.device = device
        self.tag = "embedding-" + device
        self.channels = channels

    def forward(self, t):
        steps = torch.arange(0, self.channels, device=self.device).float()
        return t * steps


def train(args):
    print("training on " + args.device)
    model = nn.Sequential(Embedding(device="cpu"), nn.Linear(4, 4)).to(args.device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)
    for step in range(100):
        t = torch.rand(8, 1).to(args.device)
        loss = model(t).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def launch():
    parser = argparse.ArgumentParser()
    args = parser.parse_args()
    args.device = "cuda"
    args.lr = 3e-4
    train(args)


if __name__ == "__main__":
    launch()
