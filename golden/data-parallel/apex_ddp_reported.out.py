import torch
import torch.distributed as dist
import torch_xla.distributed.xla_backend
from apex.parallel import DistributedDataParallel as ApexDDP


def main():
    dist.init_process_group("xla", init_method="env://")
    model = ApexDDP(Net().cuda())
    for x, y in loader:
        loss = criterion(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
