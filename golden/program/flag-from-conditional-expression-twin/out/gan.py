# The twin: the device is the accelerator wherever it is decided, so the model and the
# batches are on it.
import torch
import torch_xla
import torch_xla.distributed.parallel_loader as pl
from torch.utils.data import DataLoader

device = torch_xla.device()


class Generator(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(8, 8)

    def forward(self, x):
        return self.fc(x)


if __name__ == "__main__":
    generator = Generator().to(device)
    optimizer = torch.optim.Adam(generator.parameters(), lr=1e-3)
    loader = DataLoader(torch.randn(64, 8), batch_size=8)
    for imgs in pl.MpDeviceLoader(loader, device):
        real = imgs
        optimizer.zero_grad()
        loss = generator(real).pow(2).mean()
        loss.backward()
        optimizer.step()
