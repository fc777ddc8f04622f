# golden: select=TRN0,TRN3
# nanochat's shape: the seed precedes a device decided per rank further down. The XLA seed is
# added in the same run that makes the file an XLA file, so a second run adds nothing.
import torch
import torch_xla


def compute_init(device_type, ddp_local_rank, is_ddp):
    torch.manual_seed(42)
    torch_xla.manual_seed(42)
    if is_ddp and device_type == "xla":
        device = torch_xla.device()
    else:
        device = torch.device(device_type)
    return device
