# The step also prints the device it is handed, a use other than as a device: the "cuda" that
# train.py hands it stays (a decided device, CUDA: the verdict says so), while the one handed to
# `uniform`, read only as a device, becomes the target's.
import torch
import torch_xla


def train_step(model, optimizer, batch, device):
    loss = model(batch.to(device)).sum()
    loss.backward()
    optimizer.step()
    torch_xla.sync()
    print(f"step on {device}")
