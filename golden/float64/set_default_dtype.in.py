import torch


def _mp_fn(index, flags):
    torch.set_default_dtype(torch.float64)
    torch.set_default_tensor_type(torch.DoubleTensor)
    torch.set_default_tensor_type("torch.DoubleTensor")
    torch.set_default_tensor_type(torch.cuda.DoubleTensor)
    eps = torch.finfo(torch.float64).eps
    return eps
