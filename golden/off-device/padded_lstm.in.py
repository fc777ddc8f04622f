# Twin of packed_lstm: the same LSTM on the padded batch (no packing) runs on the XLA device.
import torch
from torch import nn


class Decoder(nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.lstm = nn.LSTM(dim, dim, batch_first=True)
        self.linear = nn.Linear(dim, vocab)

    def forward(self, features, captions):
        embeddings = torch.cat((features.unsqueeze(1), self.embed(captions)), 1)
        hiddens, _ = self.lstm(embeddings)
        return self.linear(hiddens)
