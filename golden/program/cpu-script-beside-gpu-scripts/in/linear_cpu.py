# Class: a training script that places nothing on a device, beside another script of the same
# repository that uses the GPU (a tutorial collection). No module imports it and its own run
# reaches no module that moves anything: it is a program of its own, which trains on the CPU
# wherever it runs (TRN804): its model and each batch are moved to the device, as in a program
# that places nothing, rather than given cuts that would serve no run. Twin:
# cpu-script-beside-gpu-scripts-twin (the GPU script imports this module's model).
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 1)

    def forward(self, x):
        return self.fc(x)


model = Net()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
data = [(torch.randn(8, 4), torch.randn(8, 1)) for _ in range(10)]
for epoch in range(3):
    for x, y in data:
        loss = nn.functional.mse_loss(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
torch.save(model.state_dict(), "linear.pth")
