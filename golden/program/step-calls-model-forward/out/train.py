# Class: the step calls the model through its `forward` method (`loss = model.forward(x)`) on a
# DDP wrapper of a library model: DDP's own `forward`, a call of the model. The evaluator follows
# it (the entry point runs) and TRN144 sees the inputs it feeds, already on the device.
import os

import torch
import torch.distributed as dist
import torch_xla
import torch_xla.distributed.parallel_loader as pl
import torch_xla.distributed.xla_backend
import torchvision
from torch.nn.parallel import DistributedDataParallel


def main():
    rank = int(os.environ["LOCAL_RANK"])
    dist.init_process_group("xla", init_method="xla://")
    model = torchvision.models.resnet18().to(torch_xla.device())
    model = DistributedDataParallel(model, gradient_as_bucket_view=True)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    data = torch.utils.data.TensorDataset(torch.zeros(8, 3, 32, 32))
    device = torch_xla.device()
    for (x,) in pl.MpDeviceLoader(torch.utils.data.DataLoader(data, batch_size=2), device):
        optimizer.zero_grad()
        loss = model.forward(x).sum()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
