import torch
import torch_xla
import torch_xla.distributed.parallel_loader as pl
from torch.utils.data import DataLoader

from audio import Clips


def main():
    device = torch_xla.device()
    model = torch.nn.Conv1d(129, 1, 1).to(device)
    optimizer = torch.optim.Adam(model.parameters())
    loader = DataLoader(Clips([torch.randn(1024) for _ in range(8)]), batch_size=4)
    for clip, spec in pl.MpDeviceLoader(loader, device):
        generated = model(spec).squeeze(1)
        loss = (generated - spec.mean(1)).abs().mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
