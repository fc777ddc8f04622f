# golden: select=TRN00,TRN131,TRN32,TRN101
import torch
import torch_xla
import torch_xla.core.xla_model as xm
import torch_xla.distributed.parallel_loader as pl
from torch.utils.data import DataLoader


def main(model, ds, loss_fn, optimizer):
    device = torch_xla.device()
    train_loader = DataLoader(ds, batch_size=32, drop_last=True)
    for step, (data, target) in enumerate(pl.MpDeviceLoader(train_loader, device)):
        optimizer.zero_grad()
        loss_fn(model(data), target).backward()
        optimizer.step()
        if step % 500 == 0:
            torch.save(model.state_dict(), "ckpt.pt")
    torch_xla.sync()
    xm.save(model.state_dict(), "final.pt")
