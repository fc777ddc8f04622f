import os

import torch


def forward(model, x):
    with torch.cuda.amp.autocast():
        out = model(x)
        loss = out.sum()
        loss.backward()
        print(loss.item())
    return loss


def main():
    os.environ["NEURON_CC_FLAGS"] = "--model-type=transformer"
