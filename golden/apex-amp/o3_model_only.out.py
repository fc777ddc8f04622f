import torch

model.to(torch.bfloat16)
