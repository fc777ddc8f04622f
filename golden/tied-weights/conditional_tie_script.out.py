# golden: select=TRN001,TRN250,TRN251
# Class: a tie `__init__` makes under a test of its parameters (TCN's word_cnn and lambada,
# AWD-LSTM: `if tied_weights: self.decoder.weight = self.encoder.weight`), the model moved by a
# script. It is tied again after the move under the same test, asked of the arguments the script
# passed (`tied_weights=tied` gives `if tied:`); `model = torch.load(f)` comes after the move.
import argparse

import torch
import torch_xla
from torch import nn


class TCN(nn.Module):
    def __init__(self, vocab, dim, dropout=0.1, tied_weights=False):
        super().__init__()
        self.encoder = nn.Embedding(vocab, dim)
        self.decoder = nn.Linear(dim, vocab)
        if tied_weights:
            if dim <= 0:
                raise ValueError("dim")
            self.decoder.weight = self.encoder.weight
            print("Weight tied")
        self.drop = nn.Dropout(dropout)

    def forward(self, x):
        return self.decoder(self.drop(self.encoder(x)))


parser = argparse.ArgumentParser()
parser.add_argument("--cuda", action="store_false")
parser.add_argument("--tied", action="store_false")
args = parser.parse_args()

tied = args.tied
model = TCN(32, 8, dropout=0.2, tied_weights=tied)
if args.cuda:
    model.to(torch_xla.device())
    # moving to the XLA device unties shared weights: tie them again
    if tied:
        model.decoder.weight = model.encoder.weight

lm = TCN(32, 8, 0.2, args.tied and args.cuda).to(torch_xla.device())
# moving to the XLA device unties shared weights: tie them again
if args.tied and args.cuda:
    lm.decoder.weight = lm.encoder.weight

optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
with open("model.pt", "rb") as f:
    model = torch.load(f)
