# Twin of packed_rnn_class_parameter: the class parameter's default is no recurrent module (a
# block of the program's own, which may take a PackedSequence), or the module built from a
# recurrent default is called on the padded batch: no blocker.
from torch import nn


class PackedBlock(nn.Module):
    def forward(self, packed, h=None):
        return packed, h


class BatchBlock(nn.Module):
    def __init__(self, block_type=PackedBlock):
        super().__init__()
        self.block = block_type()

    def forward(self, x, output_lengths, h=None):
        x = nn.utils.rnn.pack_padded_sequence(x, output_lengths)
        return self.block(x, h)


class PaddedRNN(nn.Module):
    def __init__(self, size, rnn_type=nn.LSTM):
        super().__init__()
        self.rnn = rnn_type(size, size)

    def forward(self, x, h=None):
        return self.rnn(x, h)
