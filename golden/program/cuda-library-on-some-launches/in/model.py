import torch
import torch.nn as nn


class RNNModel(nn.Module):
    def __init__(self, rnn_type, ntoken, nhid):
        super().__init__()
        self.encoder = nn.Embedding(ntoken, nhid)
        if rnn_type == "LSTM":
            self.rnn = nn.LSTM(nhid, nhid)
        elif rnn_type == "QRNN":
            from torchqrnn import QRNNLayer

            self.rnn = QRNNLayer(input_size=nhid, hidden_size=nhid)
        self.decoder = nn.Linear(nhid, ntoken)

    def forward(self, x):
        output, _ = self.rnn(self.encoder(x))
        return self.decoder(output)
