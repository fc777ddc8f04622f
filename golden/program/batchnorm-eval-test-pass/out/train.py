# Class: a periodic test pass inside the training loop. After the step (forward in training
# mode, `backward()`, optimizer step) the model is put in eval mode for a forward on a test batch
# whose loss is only read for a log line; nothing differentiates it. The backward of BatchNorm
# in eval mode raises on torch-xla 2.9, but no backward runs through this forward: the program
# runs on the accelerator. Found at first sight in a point-cloud repository (PointNet's training
# scripts), claimed "does not" there. Twin: batchnorm-eval-test-pass-twin, whose test loss is
# differentiated (test-time adaptation).
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch_xla


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 16)
        self.bn = nn.BatchNorm1d(16)
        self.out = nn.Linear(16, 4)

    def forward(self, x):
        return self.out(F.relu(self.bn(self.fc(x))))


model = Net().to(torch_xla.device())
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
train = [(torch.randn(8, 8), torch.randint(0, 4, (8,))) for _ in range(20)]
test = [(torch.randn(8, 8), torch.randint(0, 4, (8,))) for _ in range(4)]

device = torch_xla.device()
for epoch in range(2):
    for i, (x, y) in enumerate(train):
        x, y = x.to(device), y.to(device)
        optimizer.zero_grad()
        model.train()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        torch_xla.sync()
        if i % 10 == 0:
            tx, ty = test[0]
            tx, ty = tx.to(device), ty.to(device)
            model.eval()
            test_loss = F.cross_entropy(model(tx), ty)
            print(epoch, i, loss.item(), test_loss.item())
