import torch
from torch.utils.data import DataLoader

device = 'xla'
loader = DataLoader(ds, batch_size=32, drop_last=True)
for x, y in loader:
    flat = x.view(x.size(0), -1)
    x = x.to(device)
    y = y.to(device)
    torch.nn.functional.nll_loss(model(x), y).backward()
    log_host_batch(flat)
    optimizer.step()
