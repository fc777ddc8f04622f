# Twin: the collate function pads every batch to one fixed length: batches share one shape but
# the last, so drop_last=True is added (TRN215) as for any training loader.
import torch
from torch.utils.data import DataLoader

import data

device = torch.device("cuda")
model = torch.nn.Sequential(torch.nn.Embedding(100, 16), torch.nn.Flatten(0), torch.nn.LazyLinear(2))
model.to(device)
optimizer = torch.optim.Adam(model.parameters())
loader = DataLoader(data.Sentences(), batch_size=8, shuffle=True, collate_fn=data.collate_fn)

for epoch in range(2):
    for text, label in loader:
        text, label = text.to(device), label.to(device)
        optimizer.zero_grad()
        loss = model(text).sum()
        loss.backward()
        optimizer.step()
