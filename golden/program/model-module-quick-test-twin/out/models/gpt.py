# Twin of model-module-quick-test: nothing imports this model module, so its `__main__` block
# makes it an entry script, and the flag goes in as for any entry script that builds a
# transformer.
import os

import torch
from torch import nn

os.environ["NEURON_CC_FLAGS"] = os.environ.get("NEURON_CC_FLAGS", "") + " --model-type=transformer"


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
