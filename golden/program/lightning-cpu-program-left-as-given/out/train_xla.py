import torch
import torch_xla
import torch_xla.distributed.parallel_loader as pl

from model import dataset
from shared import save_state


def main():
    device = torch_xla.device()
    model = torch.nn.Linear(8, 2).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = torch.utils.data.DataLoader(dataset(), batch_size=8)
    for x, y in pl.MpDeviceLoader(loader, device):
        loss = torch.nn.functional.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    save_state(model)


if __name__ == "__main__":
    main()
