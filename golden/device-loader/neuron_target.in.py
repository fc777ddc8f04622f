# golden: target=neuron
import torch
from torch.utils.data import DataLoader

device = torch.device("neuron")
loader = DataLoader(ds, batch_size=16, drop_last=True)
for x, y in loader:
    x, y = x.to(device), y.to(device)
    torch.nn.functional.mse_loss(model(x), y).backward()
    optimizer.step()
