# Aliases resolve: `import torch as th`, `from torch import nonzero as nz`.
import torch as th
from torch import nonzero as nz


class Gather(th.nn.Module):
    def forward(self, x, mask):
        hits = nz(mask)
        selected = th.masked_select(x, mask)
        return x.new_zeros(hits.shape[0]), selected.numel(), len(hits)
