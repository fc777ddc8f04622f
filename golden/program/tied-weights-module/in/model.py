from torch import nn


class RNNModel(nn.Module):
    def __init__(self, ntoken, ninp, dropout=0.5, tie_weights=False):
        super().__init__()
        self.encoder = nn.Embedding(ntoken, ninp)
        self.decoder = nn.Linear(ninp, ntoken)
        if tie_weights:
            self.decoder.weight = self.encoder.weight
        self.tie_weights = tie_weights
