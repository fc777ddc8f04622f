# Twin of model-module-no-step-on-any-path: train.py imports this model module and trains its
# transformer, so a training entry point reaches it: the flag goes into train.py, the entry
# point that trains (this module, which train.py imports, gets none).
import torch
from torch import nn


class VisionTransformer(nn.Module):
    def __init__(self, dim=16, heads=4):
        super().__init__()
        self.encoder = nn.TransformerEncoderLayer(dim, heads, batch_first=True)
        self.head = nn.Linear(dim, 2)

    def forward(self, x):
        return self.head(self.encoder(x).mean(dim=1))


if __name__ == "__main__":
    net = VisionTransformer()
    print(net(torch.randn(2, 4, 16)).shape)
