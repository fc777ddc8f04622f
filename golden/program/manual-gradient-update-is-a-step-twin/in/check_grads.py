# Twin of manual-gradient-update-is-a-step: a module is differentiated to show its gradients
# (a check that accumulating four micro-batches gives the full batch's gradient), and nothing
# builds an optimizer or updates a tensor by its gradient: no training step.
import torch

net = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.GELU(), torch.nn.Linear(32, 1))
x = torch.randn(4, 16)
y = torch.randn(4, 1)
net.zero_grad()
loss = torch.nn.functional.mse_loss(net(x), y)
loss.backward()
print(net[0].weight.grad.view(-1)[:10])

net.zero_grad()
for i in range(4):
    loss = torch.nn.functional.mse_loss(net(x[i]), y[i]) / 4
    loss.backward()
print(net[0].weight.grad.view(-1)[:10])
