import torch
from copy import deepcopy

model = Net()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
model.half().float()  # pre-reduce anchor precision
torch.save({"model": deepcopy(model).half()}, "last.pt")
