# Class: a move to the GPU chosen by a conditional expression on a flag the script sets from
# an availability check (`net.cuda() if params.cuda else net`): the check decides the training
# device, as under an `if` statement, and is made true (TRN021); before, the move was read as
# never running and the verdict blamed a model built on the CPU.
import torch
import torch_xla


class Params:
    pass


params = Params()
params.cuda = True
model = torch.nn.Linear(8, 2).to(torch_xla.device()) if params.cuda else torch.nn.Linear(8, 2)
optimizer = torch.optim.Adam(model.parameters())

device = torch_xla.device()
for step in range(10):
    x, y = torch.randn(4, 8), torch.randn(4, 2)
    if params.cuda:
        x, y = x.to(device), y.to(device)
    loss = torch.nn.functional.mse_loss(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    torch_xla.sync()
