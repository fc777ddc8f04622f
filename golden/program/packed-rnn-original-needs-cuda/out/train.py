# Class: a recurrent module called on a PackedSequence (TRN028: it raises on the XLA device) in
# a program that, as written, moves its model to CUDA on the launch path with nothing around
# the move (`Decoder(...).cuda()`): on the target's host, which has no CUDA, the original does
# not run either. The port is applied (the tool's promise never to crash where the original
# runs does not apply), and the recurrent call stays the blocker. Twin
# (packed-rnn-original-needs-cuda-twin): the move is under `if torch.cuda.is_available():`,
# the original trains on the CPU there, and every module it runs is left as it is.
import torch
import torch.nn as nn
import torch_xla
from model import Decoder
from torch.nn.utils.rnn import pack_padded_sequence

model = Decoder(100, 32).to(torch_xla.device())
optimizer = torch.optim.Adam(model.parameters())
criterion = nn.CrossEntropyLoss()

device = torch_xla.device()
for step in range(100):
    captions = torch.randint(100, (8, 12)).to(device)
    lengths = [12] * 8
    targets = pack_padded_sequence(captions, lengths, batch_first=True)[0]
    loss = criterion(model(captions, lengths), targets)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    torch_xla.sync()
