# golden: scale-out=true select=TRN16,TRN141
# Class: the training loader's dataset is a call (`DataLoader(TensorDataset(x, y), ...)`): bound
# to a name before the loader and given to the DistributedSampler too.
import torch
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
x, y = torch.randn(64, 4), torch.randn(64, 1)
loader = DataLoader(TensorDataset(x, y), batch_size=8, shuffle=True)
model = torch.nn.Linear(4, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for x_batch, y_batch in loader:
    optimizer.zero_grad()
    torch.nn.functional.mse_loss(model(x_batch), y_batch).backward()
    optimizer.step()
