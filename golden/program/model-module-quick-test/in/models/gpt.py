# A model module with a quick test under `__main__`, imported by the training script: it is a
# library, so no NEURON_CC_FLAGS line goes into it (it would be set in every program that imports
# it); the training script gets it (twin: model-module-quick-test-twin, where nothing imports it).
import torch
from torch import nn


class Attention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.qkv = nn.Linear(dim, dim * 3)

    def forward(self, x):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        return torch.nn.functional.scaled_dot_product_attention(q, k, v)


class GPT(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.attn = Attention(dim)

    def forward(self, x):
        return self.attn(x)


if __name__ == "__main__":
    print(GPT()(torch.randn(2, 4, 16)).shape)
