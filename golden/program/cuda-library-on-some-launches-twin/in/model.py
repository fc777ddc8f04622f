import torch
import torch.nn as nn

try:
    from torchqrnn import QRNNLayer
except ImportError:
    QRNNLayer = None


class RNNModel(nn.Module):
    def __init__(self, rnn_type, ntoken, nhid):
        super().__init__()
        self.encoder = nn.Embedding(ntoken, nhid)
        if rnn_type == "QRNN" and QRNNLayer is not None:
            self.rnn = QRNNLayer(input_size=nhid, hidden_size=nhid)
        else:
            self.rnn = nn.LSTM(nhid, nhid)
        self.decoder = nn.Linear(nhid, ntoken)

    def forward(self, x):
        output, _ = self.rnn(self.encoder(x))
        return self.decoder(output)
