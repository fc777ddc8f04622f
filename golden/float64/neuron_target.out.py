# golden: target=neuron
import numpy as np
import torch


def step(model, x, device):
    model = model.float()
    batch = torch.from_numpy(np.random.rand(16, 4)).float().to(device)
    labels = torch.from_numpy(np.random.randint(0, 2, size=(16,))).to(device)
    out = model(batch.to(torch.float32))
    if out.dtype == torch.float64:
        print("double")
    return out, labels
