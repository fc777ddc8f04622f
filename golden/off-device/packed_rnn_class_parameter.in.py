# Class: the recurrent module is built from a class parameter whose default is one
# (`rnn_type=nn.LSTM`, then `self.rnn = rnn_type(...)`) and called on a PackedSequence in the
# forward: nn.LSTM, nn.GRU and nn.RNN all raise there on the XLA device, a blocker (TRN028).
# Twin: packed_rnn_class_parameter_twin.
from torch import nn


class BatchRNN(nn.Module):
    def __init__(self, input_size, hidden_size, rnn_type=nn.LSTM, bidirectional=False):
        super().__init__()
        self.rnn = rnn_type(input_size=input_size, hidden_size=hidden_size, bidirectional=bidirectional)

    def forward(self, x, output_lengths, h=None):
        x = nn.utils.rnn.pack_padded_sequence(x, output_lengths)
        x, h = self.rnn(x, h)
        x, _ = nn.utils.rnn.pad_packed_sequence(x)
        return x, h
