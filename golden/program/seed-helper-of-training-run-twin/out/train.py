# Twin of seed-helper-of-training-run: the seeding helper is called only by a data-preparation
# script that trains nothing (prepare.py); the training script seeds nothing. The helper module
# places nothing on a device and no run that trains calls it: no XLA seed there.
import torch
import torch_xla
import torch_xla.distributed.parallel_loader as pl

if __name__ == "__main__":
    device = torch_xla.device()
    model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Dropout(0.1), torch.nn.Linear(8, 2))
    model = model.to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    data = torch.utils.data.TensorDataset(torch.randn(32, 4), torch.randn(32, 2))
    for x, y in pl.MpDeviceLoader(torch.utils.data.DataLoader(data, batch_size=8, drop_last=True), device):
        loss = ((model(x) - y) ** 2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
