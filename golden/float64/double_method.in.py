import numpy as np
import torch


def train_step(model, x, y, criterion):
    model = model.double()
    out = model(x.double())
    loss = criterion(out, y.double())
    accuracy = (out.argmax(1) == y).double().mean()
    feats = torch.from_numpy(np.random.rand(4, 2)).double()
    half = np.double(0.5)  # a NumPy scalar, not a tensor method
    return loss * half, accuracy, feats
