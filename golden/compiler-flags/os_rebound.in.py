from mylib import os

import torch

model = torch.nn.TransformerDecoder(torch.nn.TransformerDecoderLayer(8, 2), 1)
