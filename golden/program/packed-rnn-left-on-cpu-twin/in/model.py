# Twin: the LSTM runs on the padded batch, and the packing only flattens its outputs for the
# loss (pack_padded_sequence of an XLA tensor runs): every script is ported.
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence


class Decoder(nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.lstm = nn.LSTM(dim, dim, batch_first=True)
        self.linear = nn.Linear(dim, vocab)

    def forward(self, captions, lengths):
        hiddens, _ = self.lstm(self.embed(captions))
        packed = pack_padded_sequence(hiddens, lengths, batch_first=True)
        return self.linear(packed[0])

    def sample(self, start, steps=5):
        token, states, found = start, None, []
        for _ in range(steps):
            hiddens, states = self.lstm(self.embed(token), states)
            token = self.linear(hiddens).argmax(-1)
            found.append(token)
        return torch.cat(found, 1)
