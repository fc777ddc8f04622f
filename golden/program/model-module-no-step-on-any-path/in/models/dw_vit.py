# Class: a model module that builds a transformer, whose `__main__` block only prints a summary
# of it, and that no training entry point reaches (train.py trains another model and does not
# import it; ViT-CIFAR's dw_vit.py): no step is on any path through it, so no NEURON_CC_FLAGS
# line goes into it. The flags belong in an entry point that trains (twin:
# model-module-no-step-on-any-path-twin, where train.py trains this model).
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
