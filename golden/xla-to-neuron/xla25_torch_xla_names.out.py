# golden: target=neuron
"""torch-xla 2.5+ spellings: torch_xla.device(), torch_xla.sync(), torch_xla.manual_seed,
xm.wait_device_ops, and a graph cut alone in a block."""
import time

import torch


def train(model, loader, optimizer, steps):
    torch.manual_seed(42)
    device = torch.device("neuron")
    model = model.to(device)
    for step, (x, y) in enumerate(loader):
        x, y = x.to(device), y.to(device)
        loss = torch.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if step == steps:
            break
    start = time.time()
    torch.accelerator.synchronize()
    return time.time() - start


def train_with_step_context(model, loader, optimizer):
    for x, y in loader:
        # one training step
        loss = model(x, y)
        loss.backward()
        optimizer.step()
