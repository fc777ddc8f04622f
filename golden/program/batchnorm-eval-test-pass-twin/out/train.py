# Twin of batchnorm-eval-test-pass: the test pass adapts the model to the test batch
# (test-time adaptation): its loss, computed in eval mode, is differentiated and stepped. The
# backward of BatchNorm with running statistics raises on torch-xla 2.9: the program does not
# run on the accelerator, and the cause is the test forward.
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch_xla
import torch_xla.core.xla_model as xm


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
        if i % 10 == 0:
            tx, ty = test[0]
            tx, ty = tx.to(device), ty.to(device)
            model.eval()
            test_loss = F.cross_entropy(model(tx), ty)
            test_loss.backward()
            optimizer.step()
            def _log(epoch, i, loss, test_loss):
                print(epoch, i, loss.item(), test_loss.item())
            xm.add_step_closure(_log, args=(epoch, i, loss, test_loss))
        torch_xla.sync()
