try:
    from apex.optimizers import FusedAdam as AdamW
except ImportError:
    from torch.optim import AdamW


def build(model):
    return AdamW(model.parameters(), lr=1e-4)
