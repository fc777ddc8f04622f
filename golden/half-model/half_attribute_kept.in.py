import torch

model = Net()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
use_half = config.half
