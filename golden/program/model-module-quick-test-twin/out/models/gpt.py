# Twin of model-module-quick-test: nothing imports this model module, so its `__main__` block
# makes it an entry script; the block trains, so the flag goes in as for any entry script that
# trains a transformer (model-module-no-step-on-any-path: one whose block only prints gets none).
import os

import torch
import torch_xla
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
    model = GPT().to(torch_xla.device())
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    device = torch_xla.device()
    for _ in range(3):
        model(torch.randn(2, 4, 16).to(device)).pow(2).mean().backward()
        optimizer.step()
        torch_xla.sync()
        optimizer.zero_grad()
