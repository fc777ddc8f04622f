"""The notebook case's twin: the same training as a script, which torchrun launches: the
scale-out advice gives the torchrun launch line."""
import torch
import torch.nn as nn
import torch_xla
import torch_xla.distributed.parallel_loader as pl

if __name__ == "__main__":
    device = torch_xla.device()
    model = nn.Linear(8, 2).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    data = torch.utils.data.TensorDataset(torch.randn(64, 8), torch.randint(0, 2, (64,)))
    loader = torch.utils.data.DataLoader(data, batch_size=16, drop_last=True)
    for x, y in pl.MpDeviceLoader(loader, device):
        loss = nn.functional.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
