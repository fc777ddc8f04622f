# Twin of the unresolved-device report (TRN026): a loss helper unpacks its device from its input
# tensor with another value (`dim, device = x.shape[-1], x.device`): where the tensor lives,
# decided by the caller, not a choice of training device (a false blocker at first sight in
# x-transformers' gpt_lejepa.py). Nothing reported for it.
import torch
from torch import nn


class Wrapper(nn.Module):
    def __init__(self, net, dim):
        super().__init__()
        self.net = net
        self.proj = nn.Linear(dim, dim)

    @staticmethod
    def reg_loss(x, num_slices=16):
        dim, device = x.shape[-1], x.device
        projections = torch.randn((num_slices, dim), device=device)
        return (x @ projections.t()).pow(2).mean()

    def forward(self, x):
        hidden = self.proj(self.net(x))
        return hidden.pow(2).mean() + self.reg_loss(hidden)


if __name__ == "__main__":
    model = Wrapper(nn.Linear(8, 8), dim=8).cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(10):
        loss = model(torch.randn(2, 8).cuda())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
