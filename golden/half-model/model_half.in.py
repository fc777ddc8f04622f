import torch

model = Net().half()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for x, y in loader:
    loss = torch.nn.functional.cross_entropy(model(x.half()), y)
    loss.backward()
    optimizer.step()
