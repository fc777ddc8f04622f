# Twin of packed_rnn_class_alias: the local name is bound to a recurrent class on one branch and
# to another module on the other (`nn.Identity`), so what it builds is not certainly recurrent;
# and a recurrent module chosen through an alias but called on the padded batch runs. Neither is
# reported.
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence


class Encoder(nn.Module):
    def __init__(self, use_rnn, size):
        super().__init__()
        if use_rnn:
            layer = nn.GRU
        else:
            layer = nn.Identity
        self.body = layer(size, size)
        cell = nn.LSTM
        self.head = cell(size, size, batch_first=True)

    def forward(self, x, length):
        packed = pack_padded_sequence(x, length.tolist(), batch_first=True)
        out = self.body(packed)
        return self.head(x)
