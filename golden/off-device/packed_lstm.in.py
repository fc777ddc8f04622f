# Class: a recurrent module called on a PackedSequence in a model's forward (bound to a name
# first): raises on the XLA device, a blocker (TRN028).
import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence


class Decoder(nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.lstm = nn.LSTM(dim, dim, batch_first=True)
        self.linear = nn.Linear(dim, vocab)

    def forward(self, features, captions, lengths):
        embeddings = torch.cat((features.unsqueeze(1), self.embed(captions)), 1)
        packed = pack_padded_sequence(embeddings, lengths, batch_first=True)
        hiddens, _ = self.lstm(packed)
        return self.linear(hiddens[0])
