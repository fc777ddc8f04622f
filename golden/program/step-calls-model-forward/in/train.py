# Class: the step calls the model through its `forward` method (`loss = model.forward(x)`) on a
# DDP wrapper of a library model: DDP's own `forward`, a call of the model. The evaluator follows
# it (the entry point runs) and TRN144 sees the inputs it feeds, already on the device.
import os

import torch
import torch.distributed as dist
import torchvision
from torch.nn.parallel import DistributedDataParallel


def main():
    rank = int(os.environ["LOCAL_RANK"])
    dist.init_process_group("nccl")
    model = torchvision.models.resnet18().cuda(rank)
    model = DistributedDataParallel(model, device_ids=[rank])
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    data = torch.utils.data.TensorDataset(torch.zeros(8, 3, 32, 32))
    for (x,) in torch.utils.data.DataLoader(data, batch_size=2):
        x = x.cuda(rank, non_blocking=True)
        optimizer.zero_grad()
        loss = model.forward(x).sum()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
