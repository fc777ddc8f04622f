# Model code with no training loop: a size read is still found when `len` comes from builtins
# under another name, and code that reads no size at all is settled before any scope analysis.
import torch
from builtins import len as count_of


class Router(torch.nn.Module):
    def forward(self, x, mask):
        hits = torch.nonzero(mask)
        return x.new_zeros(count_of(hits))


class Plain(torch.nn.Module):
    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        return x[:, 0] * mask.float()
