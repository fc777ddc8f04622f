# golden: target=neuron
import torch

model = torch.compile(model, backend="neuron", dynamic=False)
