import torch
import torch.distributed as dist


def average_gradients(model):
    size = float(dist.get_world_size())
    for param in model.parameters():
        dist.all_reduce(param.grad.data, op=dist.ReduceOp.SUM)
        param.grad.data /= size


def run(rank, size):
    dist.init_process_group("gloo", rank=rank, world_size=size)
    for data, target in train_set:
        optimizer.zero_grad()
        loss = torch.nn.functional.nll_loss(model(data), target)
        loss.backward()
        average_gradients(model)
        optimizer.step()
