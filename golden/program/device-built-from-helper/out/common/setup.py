import torch
import torch_xla


def autodetect_device_type():
    if torch.cuda.is_available():
        return "cuda"
    return "cpu"


def compute_init(device_type="xla"):
    torch.manual_seed(42)
    torch_xla.manual_seed(42)
    if device_type == "xla":
        torch.set_float32_matmul_precision("high")
    rank = 0
    device = torch.device(device_type)
    return rank, device
