import torch
from torch import nn

from trainer import train_epoch

cuda = torch.cuda.is_available()
model = nn.Linear(8, 2)
if cuda:
    model.cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
loader = [(torch.randn(4, 8), torch.randint(0, 2, (4,))) for _ in range(10)]
for epoch in range(20):
    train_epoch(loader, model, nn.CrossEntropyLoss(), optimizer, cuda)
