# Class: a script with a training loop and then a test loop in the same block, each moving its
# batch with `.cuda()`. The device variable bound before the first loop runs before the second
# too: the second loop reuses it rather than binding the same `device = torch_xla.device()`
# again. Found at first sight in PointNet's training scripts (two bindings, one reviewed as
# unneeded). Twin: device_hoisted_once_twin, whose loops are in two functions: each binds its
# own.
import torch
import torch.nn.functional as F

model = torch.nn.Linear(3, 2).cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
train = [(torch.randn(4, 3), torch.randint(0, 2, (4,))) for _ in range(8)]
test = train[:2]

for epoch in range(2):
    for x, y in train:
        x, y = x.cuda(), y.cuda()
        optimizer.zero_grad()
        F.cross_entropy(model(x), y).backward()
        optimizer.step()

correct = 0
for x, y in test:
    x, y = x.cuda(), y.cuda()
    correct += (model(x).argmax(1) == y).sum().item()
print(correct)
