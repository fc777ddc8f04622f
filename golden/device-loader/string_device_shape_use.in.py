import torch
import torch_xla
from torch.utils.data import DataLoader

loader = DataLoader(ds, batch_size=16, drop_last=True)
model = Model().to("xla")
for x, y in loader:
    batch_size = x.shape[0]
    x = x.to("xla")
    x = x.view(batch_size, -1)
    y = y.to("xla")
    loss = torch.nn.functional.nll_loss(model(x), y)
    loss.backward()
    optimizer.step()
