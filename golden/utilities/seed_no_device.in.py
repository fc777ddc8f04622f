import numpy as np
import torch


def make_splits(seed: int):
    # A data script: it seeds the shuffle and never puts a tensor on a device, so it needs no
    # XLA seed and no `import torch_xla`.
    torch.manual_seed(seed)
    np.random.seed(seed)
    order = torch.randperm(1000)
    return order[:800], order[800:]
