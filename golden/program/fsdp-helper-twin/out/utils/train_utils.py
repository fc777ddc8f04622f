import torch
import torch.distributed as dist
import torch_xla
import torch_xla.core.xla_model as xm


def setup():
    dist.init_process_group("gloo")


def train(model, optimizer):
    for _ in range(10):
        loss = model(torch.ones(8)).sum()
        loss.backward()
        xm.optimizer_step(optimizer)
        torch_xla.sync()
        optimizer.zero_grad()
