# golden: select=TRN00,TRN021,TRN022,TRN023,TRN024,TRN026,TRN046,TRN047,TRN312
# imagenet's worker with TRN312 selected: set_device_index is removed in the same run, so the
# availability check is made true; a loader option under the check (mnist's cuda_kwargs) only
# warns on the target and does not block it.
import torch
import torch.nn as nn
import torch_xla


def main_worker(gpu, args):
    use_accel = not args.no_accel
    if use_accel:
        device = torch_xla.device()
        loader_kwargs = {"num_workers": 1, "pin_memory": True}
    else:
        device = torch.device("cpu")
        loader_kwargs = {}
    model = nn.Linear(8, 8).to(device)
    return model, loader_kwargs
