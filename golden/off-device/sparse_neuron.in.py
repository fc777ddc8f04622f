# golden: target=neuron
# Twin: on TorchNeuron no object is measured not to live on the device, so the off-device
# pass says nothing (the sparse op is reported by cpu-fallback, TRN419, as unverified).
import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence


class GraphConvolution(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(dim, dim))
        self.lstm = nn.LSTM(dim, dim)

    def forward(self, x, adj, lengths):
        packed = pack_padded_sequence(x, lengths)
        out, _ = self.lstm(packed)
        return torch.spmm(adj, torch.mm(out.data, self.weight))
