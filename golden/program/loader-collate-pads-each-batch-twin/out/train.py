# Twin: the collate function pads every batch to one fixed length: batches share one shape but
# the last, so drop_last=True is added (TRN215) as for any training loader.
import torch
import torch_xla
import torch_xla.distributed.parallel_loader as pl
from torch.utils.data import DataLoader

import data

device = torch_xla.device()
model = torch.nn.Sequential(torch.nn.Embedding(100, 16), torch.nn.Flatten(0), torch.nn.LazyLinear(2))
model.to(device)
optimizer = torch.optim.Adam(model.parameters())
loader = DataLoader(data.Sentences(), batch_size=8, shuffle=True, collate_fn=data.collate_fn, drop_last=True)

for epoch in range(2):
    for text, label in pl.MpDeviceLoader(loader, device):
        optimizer.zero_grad()
        loss = model(text).sum()
        loss.backward()
        optimizer.step()
