import torch
import torch.nn as nn
import torch_xla
from model import Captioner
from torch.nn.utils.rnn import pack_padded_sequence
from torch.utils.data import DataLoader, TensorDataset

device = torch_xla.device()
model = Captioner(100, 32).to(device)
optimizer = torch.optim.Adam(model.parameters())
criterion = nn.CrossEntropyLoss()
data = TensorDataset(torch.randint(100, (64, 12)), torch.full((64,), 12))
loader = DataLoader(data, batch_size=8)

for epoch in range(2):
    for captions, lengths in loader:
        captions = captions.to(device)
        targets = pack_padded_sequence(captions, lengths, batch_first=True)[0]
        loss = criterion(model(captions, lengths), targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        torch_xla.sync()
