# Class: an optimizer (and a scheduler built on it) over a model's parameters, then the model
# moved inside a module built around it (`trainer = Trainer(net, T).to(device)`): on the XLA
# device `.to()` gives the model new parameters, so the optimizer steps the old CPU ones (a
# reviewer measured a DDPM so: weights unchanged to 0.0 a step). The program's run shows the
# stale optimizer; the optimizer and its scheduler go below the move (TRN053), and the run is
# "runs". Twin: optimizer-before-wrapper-move-twin (the model is changed between: not moved).
import torch
import torch_xla
from torch import nn

from diffusion import Trainer


def warmup(step):
    return min(step, 10) / 10


def train():
    device = torch_xla.device()
    net = nn.Linear(8, 8)
    trainer = Trainer(net, 100).to(device)
    optim = torch.optim.Adam(net.parameters(), lr=1e-3)
    sched = torch.optim.lr_scheduler.LambdaLR(optim, lr_lambda=warmup)
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
