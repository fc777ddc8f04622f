# Class: a random number drawn on the host at each pass of a decoder's time loop (inside one
# step) that chooses the next input: each pattern of draws is another graph (TRN442).
import random

import numpy as np
import torch
from torch import nn


class Seq2Seq(nn.Module):
    def __init__(self, encoder, decoder):
        super().__init__()
        self.encoder = encoder
        self.decoder = decoder

    def forward(self, src, trg, teacher_forcing_ratio):
        outputs = torch.zeros(trg.shape[0], trg.shape[1], self.decoder.output_dim)
        hidden, cell = self.encoder(src)
        input = trg[0, :]
        for t in range(1, trg.shape[0]):
            output, hidden, cell = self.decoder(input, hidden, cell)
            outputs[t] = output
            teacher_force = random.random() < teacher_forcing_ratio
            top1 = output.argmax(1)
            input = trg[t] if teacher_force else top1
        return outputs


class Greedy(nn.Module):
    def __init__(self, decoder, ratio=0.5):
        super().__init__()
        self.decoder = decoder
        self.ratio = ratio

    def forward(self, trg, hidden):
        input = trg[0]
        for t in range(1, len(trg)):
            output, hidden = self.decoder(input, hidden)
            if np.random.rand() < self.ratio:
                input = trg[t]
            else:
                input = output.argmax(1)
        return hidden
