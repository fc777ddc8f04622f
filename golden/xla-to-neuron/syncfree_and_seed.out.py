# golden: target=neuron
"""syncfree optimizers (module and by-name imports), the XLA seed and torch_xla's activation
checkpoint: their torch originals."""
import torch


def build(model, kind):
    torch.manual_seed(1234)
    if kind == "adamw":
        return torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.01)
    return torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)


def forward(block, x):
    return torch.utils.checkpoint.checkpoint(block, x, use_reentrant=True)


def seed_twice(seed):
    torch.manual_seed(seed)
