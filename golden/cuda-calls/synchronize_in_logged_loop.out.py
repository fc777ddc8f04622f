# mae's and DINO's training loops: `torch.cuda.synchronize()` every step, in a loop that reads
# `loss.item()` every step. The host waits for the device there anyway, so the synchronize goes
# instead of becoming a second host wait per step. The twin, `timed`, reads nothing on the host:
# its synchronize becomes xm.wait_device_ops().
import time

import torch
import torch_xla.core.xla_model as xm


def train_one_epoch(model, loader, optimizer, logger):
    for samples in loader:
        loss = model(samples).mean()
        loss_value = loss.item()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        logger.update(loss=loss_value)


def timed(model, batches):
    start = time.time()
    for x in batches:
        model(x)
        xm.wait_device_ops()
    return time.time() - start
