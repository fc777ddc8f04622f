"""Train a small encoder."""

from __future__ import annotations

import os

import torch.nn as nn

os.environ["NEURON_CC_FLAGS"] = os.environ.get("NEURON_CC_FLAGS", "") + " --model-type=transformer"


# the model
class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.TransformerEncoder(nn.TransformerEncoderLayer(64, 4), 2)


if __name__ == "__main__":
    model = Encoder()
