from torch import nn


class TCN(nn.Module):
    def __init__(self, vocab, dim, tied_weights=False):
        super().__init__()
        self.encoder = nn.Embedding(vocab, dim)
        self.decoder = nn.Linear(dim, vocab)
