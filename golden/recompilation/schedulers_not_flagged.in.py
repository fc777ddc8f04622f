# Python scalars that change every step are not a source of recompilation ([xla-recompile-sources];
# [measured-python-scalars]): learning-rate schedules, loss weights, temperatures.
import math

import torch


def train(model, loader, optimizer, scheduler, total_steps):
    for step, (x, y) in enumerate(loader):
        x, y = x.to("xla"), y.to("xla")
        for group in optimizer.param_groups:
            group["lr"] = 1e-3 * 0.5 * (1 + math.cos(math.pi * step / total_steps))
        temperature = max(0.1, 1.0 - step / total_steps)
        loss = torch.nn.functional.cross_entropy(model(x) / temperature, y) * (step / total_steps)
        loss.backward()
        optimizer.step()
        scheduler.step()
        optimizer.zero_grad()
