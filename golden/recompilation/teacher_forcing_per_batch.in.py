# Twin of teacher_forcing_per_step: the draw made once per batch before the time loop, a ratio
# of 1.0 (the draw decides nothing), and a draw in the step loop itself (one of two graphs per
# step, each compiled once): no TRN442.
import random

import torch
from torch import nn


class Seq2Seq(nn.Module):
    def __init__(self, encoder, decoder):
        super().__init__()
        self.encoder = encoder
        self.decoder = decoder

    def forward(self, src, trg, teacher_forcing_ratio):
        hidden, cell = self.encoder(src)
        input = trg[0, :]
        teacher_force = random.random() < teacher_forcing_ratio
        for t in range(1, 8):
            output, hidden, cell = self.decoder(input, hidden, cell)
            input = trg[t] if teacher_force else output.argmax(1)
        return hidden


class AlwaysForced(nn.Module):
    def __init__(self, decoder):
        super().__init__()
        self.decoder = decoder

    def forward(self, trg, hidden):
        input = trg[0]
        for t in range(1, 8):
            output, hidden = self.decoder(input, hidden)
            input = trg[t] if random.random() < 1.0 else output.argmax(1)
        return hidden


def train(model, loader, optimizer, criterion):
    for src, trg in loader:
        if random.random() < 0.5:
            src = torch.flip(src, dims=[0])
        loss = criterion(model(src, trg, 0.5), trg)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
