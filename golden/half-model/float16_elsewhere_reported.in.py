import torch

model = Net().half()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
buffer = torch.zeros(8, dtype=torch.float16)
