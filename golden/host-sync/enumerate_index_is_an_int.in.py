import torch
import torch_xla.core.xla_model as xm
import torch_xla.distributed.parallel_loader as pl


def train(model, loader, optimizer, device):
    device_loader = pl.MpDeviceLoader(loader, device)
    for step, (x, y) in enumerate(device_loader, 1):
        loss = torch.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        # `step` is the Python int from enumerate: formatting it reads nothing from the device.
        if step % 100 == 0:
            print(f"step {step}")
        print("finished step", step)
