import torch

model = torch.nn.Linear(4, 4)
use_cuda = torch.cuda.is_available()
if use_cuda:
    model = model.cuda()
for step in range(10):
    x = torch.randn(2, 4)
    if torch.cuda.is_available():
        x = x.cuda()
    model(x).sum().backward()
