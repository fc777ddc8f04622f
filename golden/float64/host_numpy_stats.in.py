import numpy as np
import torch


def evaluate(model, loader):
    losses = np.zeros(len(loader))
    for step, (x, y) in enumerate(loader):
        loss = model(x, y)
        losses[step] = loss.item()
    mean = np.mean(losses, dtype=np.float64)
    noise = np.random.randn(1000)
    spread = np.std(noise.astype(np.float64))
    scale = np.float64(0.5) * torch.ones(3)  # a float64 scalar times a float32 tensor stays float32
    values = torch.tensor([0.1, 0.2, 0.3])  # Python floats: float32 tensor
    return mean, spread, scale, values
