import os

import torch

os.environ["NEURON_CC_FLAGS"] = os.environ.get("NEURON_CC_FLAGS", "") + " --auto-cast=none"


def train(model, loader, optimizer):
    for x, y in loader:
        with torch.autocast("xla", dtype=torch.bfloat16):
            loss = model(x, y)
        loss.backward()
        optimizer.step()
