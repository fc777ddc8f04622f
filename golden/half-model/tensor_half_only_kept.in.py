import torch

model = Net()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
preview = image.half()
