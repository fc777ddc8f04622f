import torch
import torch.utils.checkpoint as cp
from torch.utils.checkpoint import checkpoint


class Net(torch.nn.Module):
    def forward(self, x):
        x = checkpoint(self.block1, x)
        x = cp.checkpoint(self.block2, x, use_reentrant=True)
        x = torch.utils.checkpoint.checkpoint(self.block3, x, preserve_rng_state=False)
        return x
