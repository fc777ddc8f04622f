# Twin of model-module-quick-test: nothing imports this model module, so its `__main__` block
# makes it an entry script; the block trains, so the flag goes in as for any entry script that
# trains a transformer (model-module-no-step-on-any-path: one whose block only prints gets none).
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
    model = GPT().cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(3):
        model(torch.randn(2, 4, 16).cuda()).pow(2).mean().backward()
        optimizer.step()
        optimizer.zero_grad()
