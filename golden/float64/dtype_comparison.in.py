import torch

DTYPE_NAMES = {torch.float64: "f64", torch.float32: "f32"}
CHECK = torch.float64
LOG_DTYPE = torch.float64


def describe(x):
    if x.dtype == torch.float64:
        return "double"
    if x.dtype in (torch.float64, torch.double):
        return "double"
    if x.dtype is CHECK:
        return "double"
    if isinstance(x, torch.DoubleTensor):
        return "double tensor"
    print("computing in", torch.float64, LOG_DTYPE)
    eps = torch.finfo(torch.double).eps
    promoted = torch.promote_types(x.dtype, torch.float64)
    return DTYPE_NAMES.get(x.dtype, str(eps) + str(promoted))
