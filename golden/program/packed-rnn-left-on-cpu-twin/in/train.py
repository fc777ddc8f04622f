import torch
import torch.nn as nn
from model import Decoder
from torch.nn.utils.rnn import pack_padded_sequence

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = Decoder(100, 32).to(device)
optimizer = torch.optim.Adam(model.parameters())
criterion = nn.CrossEntropyLoss()

for step in range(100):
    captions = torch.randint(100, (8, 12)).to(device)
    lengths = [12] * 8
    targets = pack_padded_sequence(captions, lengths, batch_first=True)[0]
    loss = criterion(model(captions, lengths), targets)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
