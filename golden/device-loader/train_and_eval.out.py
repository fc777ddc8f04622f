import torch
import torch_xla
import torch_xla.distributed.parallel_loader as pl
from torch.utils.data import DataLoader
from torch.utils.data.distributed import DistributedSampler

device = torch_xla.device()
sampler = DistributedSampler(train_set)
train_loader = DataLoader(train_set, batch_size=32, sampler=sampler, drop_last=True)
test_loader = DataLoader(test_set, batch_size=64)
model = Net().to(device)

for epoch in range(3):
    sampler.set_epoch(epoch)
    for step, (x, y) in enumerate(pl.MpDeviceLoader(train_loader, device)):
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch}: {len(train_loader)} steps over {len(train_loader.dataset)} samples")

with torch.no_grad():
    for data, target in pl.MpDeviceLoader(test_loader, device):
        output = model(data)
        correct += (output.argmax(1) == target).sum()
