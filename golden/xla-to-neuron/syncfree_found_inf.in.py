# golden: target=neuron
"""A syncfree optimizer stepped with found_inf: torch.optim's step does not take it, so the
optimizer is a blocker (drop the scaler first)."""
import torch
from torch_xla.amp import syncfree


def step(model, scaler, loss):
    optimizer = syncfree.Adam(model.parameters(), lr=1e-3)
    scaler.scale(loss).backward()
    found_inf = torch.zeros(1)
    optimizer.step(found_inf=found_inf)
