from mylib import os

import torch

model = torch.nn.TransformerDecoder(torch.nn.TransformerDecoderLayer(8, 2), 1)


if __name__ == "__main__":
    model.train()
