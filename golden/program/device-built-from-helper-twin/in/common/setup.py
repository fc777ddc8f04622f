import torch


def autodetect_device_type():
    return "cuda"


def compute_init(device_type="cuda"):
    torch.manual_seed(42)
    if device_type == "cuda":
        torch.set_float32_matmul_precision("high")
    rank = 0
    device = torch.device(device_type)
    return rank, device
