# nanoGPT/llm.c's order: the model is compiled, then wrapped in DDP under the same name. The read
# of `model` by torch.compile comes before the wrap, so it does not feed the DDP model; the step's
# inputs are moved to the device, so `device_ids` goes (kept, DDP would move every input to
# `xla:<local_rank>`, which a rank above 0 does not have). The twin, `train_fed_after`, compiles
# the DDP model: the tool does not see what that is fed, so `device_ids` is kept and reported.
import torch
import torch.distributed as dist
import torch_xla.distributed.xla_backend
from torch.nn.parallel import DistributedDataParallel as DDP


def train(model, data, local_rank, steps):
    dist.init_process_group(backend="xla", init_method="xla://")
    device = f"cuda:{local_rank}"
    model.to(device)
    model = torch.compile(model)
    model = DDP(model, gradient_as_bucket_view=True)
    for _ in range(steps):
        x = data.to(device)
        loss = model(x).sum()
        loss.backward()


def train_fed_after(model, data, local_rank, steps):
    model = DDP(model, device_ids=[local_rank])
    model = torch.compile(model)
    for _ in range(steps):
        loss = model(data.to(local_rank)).sum()
        loss.backward()
