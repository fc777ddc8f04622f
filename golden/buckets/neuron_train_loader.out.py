# golden: target=neuron
"""On TorchNeuron a smaller last batch is one more shape for the eager ops and compiled regions."""
import torch
from torch.utils.data import DataLoader


def train(model, dataset, optimizer):
    loader = DataLoader(dataset, batch_size=32, shuffle=True, drop_last=True)
    for x, y in loader:
        optimizer.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(x.to("neuron")), y.to("neuron"))
        loss.backward()
        optimizer.step()
