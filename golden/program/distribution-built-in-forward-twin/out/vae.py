import torch
import torch.nn.functional as F
import torch_xla
import torch_xla.distributed.parallel_loader as pl
from torch.distributions import Distribution

from modules import VAE

model = VAE(784, 16).to(torch_xla.device())
opt = torch.optim.Adam(model.parameters(), lr=1e-3)


def train(loader):
    model.train()
    device = torch_xla.device()
    for x in pl.MpDeviceLoader(loader, device):
        x_tilde, kl_d = model(x)
        loss = F.mse_loss(x_tilde, x) + kl_d
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    Distribution.set_default_validate_args(False)
    data = torch.utils.data.DataLoader(torch.randn(64, 784), batch_size=8)
    for epoch in range(2):
        train(data)
