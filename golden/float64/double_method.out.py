import numpy as np
import torch


def train_step(model, x, y, criterion):
    model = model.float()
    out = model(x.float())
    loss = criterion(out, y.float())
    accuracy = (out.argmax(1) == y).float().mean()
    feats = torch.from_numpy(np.random.rand(4, 2)).float()
    half = np.double(0.5)  # a NumPy scalar, not a tensor method
    return loss * half, accuracy, feats
