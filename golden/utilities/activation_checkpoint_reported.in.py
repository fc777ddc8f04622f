import torch
from torch.utils.checkpoint import checkpoint, checkpoint_sequential


class Net(torch.nn.Module):
    def forward(self, x, flag, **kw):
        x = checkpoint(self.block1, x, use_reentrant=False)
        x = checkpoint(self.block2, x, use_reentrant=flag)
        x = checkpoint(self.block3, x, debug=True)
        x = checkpoint(self.block4, x, **kw)
        return checkpoint_sequential(self.layers, 2, x, use_reentrant=True)
