# golden: target=neuron
"""syncfree optimizers (module and by-name imports), the XLA seed and torch_xla's activation
checkpoint: their torch originals."""
import torch
import torch_xla
import torch_xla.core.xla_model as xm
import torch_xla.utils.checkpoint
from torch_xla.amp import syncfree
from torch_xla.amp.syncfree import SGD


def build(model, kind):
    xm.set_rng_state(1234)
    if kind == "adamw":
        return syncfree.AdamW(model.parameters(), lr=1e-3, weight_decay=0.01)
    return SGD(model.parameters(), lr=0.1, momentum=0.9)


def forward(block, x):
    return torch_xla.utils.checkpoint.checkpoint(block, x, use_reentrant=True)


def seed_twice(seed):
    torch.manual_seed(seed)
    torch_xla.manual_seed(seed)
