# A training script that already skips its checks during neuron_parallel_compile's trial run
# (NEURON_EXTRACT_GRAPHS_ONLY) gets the compile-cache note without the advice to do so.
import os

import torch


def train(model, loader, optimizer):
    checks = not os.environ.get("NEURON_EXTRACT_GRAPHS_ONLY")
    for x, y in loader:
        loss = torch.nn.functional.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if checks:
            assert torch.isfinite(loss).item()
