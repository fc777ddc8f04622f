import torch

model = torch.compile(model, backend="openxla", mode="max-autotune", fullgraph=True)
