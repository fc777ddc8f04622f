# Twin of optimizer-before-wrapper-move: a layer is added to the model between the optimizer
# and the move, so an optimizer built after it would train a layer the original never
# trained: not moved, and the verdict names the optimizer as the cause.
import torch
import torch_xla
from torch import nn

from diffusion import Trainer


def warmup(step):
    return min(step, 10) / 10


def train():
    device = torch_xla.device()
    net = nn.Linear(8, 8)
    optim = torch.optim.Adam(net.parameters(), lr=1e-3)
    sched = torch.optim.lr_scheduler.LambdaLR(optim, lr_lambda=warmup)
    net.extra = nn.Linear(8, 8)
    trainer = Trainer(net, 100).to(device)
    for _ in range(10):
        x = torch.randn(4, 8).to(device)
        loss = trainer(x)
        optim.zero_grad()
        loss.backward()
        optim.step()
        torch_xla.sync()
        sched.step()


if __name__ == "__main__":
    train()
