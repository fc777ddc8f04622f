# Class: the training process seeded by a helper in a module that places nothing on a device
# itself (`initialize(seed)` in utils.py, called by the training script): the program's run
# shows a run that trains calling that `torch.manual_seed`, so the XLA RNG is seeded beside it
# (TRN331), as it is where the seed is in the training script. Twin
# (seed-helper-of-training-run-twin): only a data-preparation script that trains nothing calls
# the helper, so it stays as it is.
import torch
import torch_xla
import torch_xla.distributed.parallel_loader as pl

from utils import initialize

if __name__ == "__main__":
    initialize(42)
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
