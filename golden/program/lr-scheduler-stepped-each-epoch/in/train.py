import torch
from torch import nn
from torch.optim import lr_scheduler

from trainer import fit

cuda = torch.cuda.is_available()
device = torch.device("cuda" if cuda else "cpu")
model = nn.Linear(8, 2)
if cuda:
    model.cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
scheduler = lr_scheduler.StepLR(optimizer, 8, gamma=0.1)
loader = [(torch.randn(4, 8), torch.randint(0, 2, (4,))) for _ in range(10)]
fit(loader, model, nn.CrossEntropyLoss(), optimizer, scheduler, 20, device)
