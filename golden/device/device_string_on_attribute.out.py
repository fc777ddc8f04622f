# Class: a "cuda" device string held by an attribute (`args.device = "cuda"` in a launch
# function) or a parameter's default (`def __init__(self, device="cuda")`), read only as a
# device: directly, through the name or attribute it is stored in (`device = args.device`,
# `self.device = device`). It was left "cuda", so the model's move raised `Found no NVIDIA
# driver` on Trainium while the summary said it would run (a first-sight diffusion trainer).
import argparse

import torch
import torch.nn as nn
import torch_xla


class Embedding(nn.Module):
    def __init__(self, channels=4, device="xla"):
        super().__init__()
        self.device = device
        self.channels = channels

    def forward(self, t):
        steps = torch.arange(0, self.channels, device=self.device).float()
        return t * steps


def train(args):
    device = args.device
    model = nn.Sequential(Embedding(), nn.Linear(4, 4)).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)
    for step in range(100):
        t = torch.rand(8, 1).to(device)
        loss = model(t).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def launch():
    parser = argparse.ArgumentParser()
    args = parser.parse_args()
    args.device = "xla"
    args.lr = 3e-4
    train(args)


if __name__ == "__main__":
    launch()
