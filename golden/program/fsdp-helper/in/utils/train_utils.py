import torch
import torch.distributed as dist


def setup():
    dist.init_process_group("gloo")


def train(model, optimizer):
    for _ in range(10):
        loss = model(torch.ones(8)).sum()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
