"""Class: a wrapper module that holds the network and no module or parameter of its own
(`ar_wrapper = ARWrapper(model)`), trained while the script moves the network it holds
(`model.to(device)`): the wrapper's parameters are the network's, so it trains on the device."""

import torch
import torch_xla
from torch import nn


class ARWrapper(nn.Module):
    def __init__(self, net, ignore_index=-100):
        super().__init__()
        self.net = net
        self.ignore_index = ignore_index

    def forward(self, x):
        logits = self.net(x[:, :-1])
        return nn.functional.cross_entropy(
            logits.transpose(1, 2), x[:, 1:], ignore_index=self.ignore_index
        )


model = nn.Sequential(nn.Embedding(16, 32), nn.Linear(32, 16))
ar_wrapper = ARWrapper(model)
model.to(torch_xla.device())
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
device = torch_xla.device()
for step in range(100):
    loss = ar_wrapper(torch.randint(0, 16, (4, 9)).to(device))
    loss.backward()
    optimizer.step()
    torch_xla.sync()
    optimizer.zero_grad()
