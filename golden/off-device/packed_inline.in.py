# Class: GRU and RNN modules called on a packing call written in the argument, the module
# bound under another name (TRN028 at each call).
import torch.nn as nn
import torch.nn.utils.rnn as rnn_utils


class Encoder(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.gru = nn.GRU(dim, dim)
        self.plain = nn.RNN(dim, dim)

    def forward(self, sequences, padded, lengths):
        _, hidden = self.gru(rnn_utils.pack_sequence(sequences, enforce_sorted=False))
        outputs, _ = self.plain(rnn_utils.pack_padded_sequence(padded, lengths.cpu()))
        return hidden, outputs
