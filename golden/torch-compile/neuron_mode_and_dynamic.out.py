# golden: target=neuron
import torch

model = torch.compile(
    model,
    dynamic=False,
    backend="neuron",
)
