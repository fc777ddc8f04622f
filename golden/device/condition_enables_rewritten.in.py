# golden: select=TRN00,TRN021,TRN022,TRN023,TRN024,TRN026,TRN046,TRN047,TRN111,TRN311,TRN312,TRN314
# What a test of the device's type turns on is rewritten by its own rules in the same run, so
# the test becomes a test for the XLA device: fused=True in a torch.optim call (TRN111), a
# loader's pin_memory (TRN314), synchronize and empty_cache (TRN311, TRN312), autocast's enabled=.
import torch
from torch.utils.data import DataLoader


def make_optimizer(model, device):
    use_cuda = device.type == "cuda"
    if use_cuda:
        return torch.optim.AdamW(model.parameters(), lr=1e-3, fused=True)
    return torch.optim.AdamW(model.parameters(), lr=1e-3)


def make_loader(dataset, device):
    return DataLoader(dataset, batch_size=8, pin_memory=device.type == "cuda")


def timed_step(model, x, device):
    y = model(x)
    if device.type == "cuda":
        torch.cuda.synchronize()
        torch.cuda.empty_cache()
    return y


def amp_context(device):
    use_amp = device.type == "cuda"
    return torch.autocast(device_type="xla", dtype=torch.bfloat16, enabled=use_amp)
