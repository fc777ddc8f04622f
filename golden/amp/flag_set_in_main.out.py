import os

import torch


def forward(model, x):
    with torch.autocast("xla", dtype=torch.bfloat16):
        out = model(x)
        loss = out.sum()
        loss.backward()
        print(loss.item())
    return loss


def main():
    os.environ["NEURON_CC_FLAGS"] = "--model-type=transformer"
