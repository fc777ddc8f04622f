import torch

DTYPE = torch.float64
ACC_DTYPE: torch.dtype = torch.double


def build(x, n, precise):
    buf = torch.zeros(n, dtype=DTYPE)
    acc = x.sum(dtype=ACC_DTYPE)
    work = torch.float64
    if not precise:
        work = torch.float16
    scratch = torch.empty(n, dtype=work)
    return buf, x.to(DTYPE), acc, scratch
