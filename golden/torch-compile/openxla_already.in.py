import torch

model = torch.compile(model, backend="openxla")
