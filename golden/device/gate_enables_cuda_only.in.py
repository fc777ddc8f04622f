# imagenet's worker: the availability check decides the device, but made true it would run
# torch.accelerator.set_device_index, which raises under torch-xla; with TRN312 not selected
# nothing removes it, so the check is kept and reported as a blocker.
import torch
import torch.nn as nn


def main_worker(gpu, args):
    use_accel = not args.no_accel and torch.accelerator.is_available()
    if use_accel:
        if gpu is not None:
            torch.accelerator.set_device_index(gpu)
        device = torch.accelerator.current_accelerator()
    else:
        device = torch.device("cpu")
    model = nn.Linear(8, 8).to(device)
    return model
