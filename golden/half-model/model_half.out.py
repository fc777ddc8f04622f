import torch

model = Net().bfloat16()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for x, y in loader:
    loss = torch.nn.functional.cross_entropy(model(x.bfloat16()), y)
    loss.backward()
    optimizer.step()
