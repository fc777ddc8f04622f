# Class: a training step that runs an LSTM on a PackedSequence (raises on the XLA device): the
# trainer is left on the CPU (each rewrite reported, not applied), TRN028 is its cause; the
# inference script, which reaches the class but never packs, is ported.
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
        packed = pack_padded_sequence(self.embed(captions), lengths, batch_first=True)
        hiddens, _ = self.lstm(packed)
        return self.linear(hiddens[0])

    def sample(self, start, steps=5):
        token, states, found = start, None, []
        for _ in range(steps):
            hiddens, states = self.lstm(self.embed(token), states)
            token = self.linear(hiddens).argmax(-1)
            found.append(token)
        return torch.cat(found, 1)
