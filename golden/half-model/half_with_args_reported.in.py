import torch

model.half()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
batch = batch.half(memory_format=torch.channels_last)
