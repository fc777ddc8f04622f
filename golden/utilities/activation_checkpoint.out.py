import torch
import torch.utils.checkpoint as cp
import torch_xla.utils.checkpoint


class Net(torch.nn.Module):
    def forward(self, x):
        x = torch_xla.utils.checkpoint.checkpoint(self.block1, x, use_reentrant=True)
        x = torch_xla.utils.checkpoint.checkpoint(self.block2, x, use_reentrant=True)
        x = torch_xla.utils.checkpoint.checkpoint(self.block3, x, preserve_rng_state=False, use_reentrant=True)
        return x
