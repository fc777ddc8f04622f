"""Train a small encoder."""

from __future__ import annotations

import torch.nn as nn


# the model
class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.TransformerEncoder(nn.TransformerEncoderLayer(64, 4), 2)


if __name__ == "__main__":
    model = Encoder()
