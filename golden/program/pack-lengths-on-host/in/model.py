# Class: a value the step passes to the model only as the lengths of pack_padded_sequence,
# which takes them on the CPU: not an input that must be on the device.
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence


class Captioner(nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.lstm = nn.LSTM(dim, dim, batch_first=True)
        self.linear = nn.Linear(dim, vocab)

    def forward(self, captions, lengths):
        hiddens, _ = self.lstm(self.embed(captions))
        packed = pack_padded_sequence(hiddens, lengths, batch_first=True)
        return self.linear(packed[0])
