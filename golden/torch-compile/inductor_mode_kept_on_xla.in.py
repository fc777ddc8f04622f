import torch

model = torch.compile(model, backend="inductor", mode="max-autotune", fullgraph=True)
