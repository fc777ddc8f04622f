# Class: an evaluation loop that reads its loss on the host on every branch of an `if`/`else`
# (`reduce_tensor(loss.data, n).item()` in distributed runs, `loss.item()` otherwise), sums the
# host numbers, and divides the sum after the loop (`val_loss = val_loss / (i + 1)`, never the
# sum's first value): the read runs the iteration's graph and nothing is carried on the
# device, so no cut (a cut after the read ran the same 9 graphs over 2 batches on XLA:CPU,
# measured in a re-review). Twin: eval_read_on_every_branch_twin (no `else`: on single-process
# runs nothing is read, so the loop is cut).
import torch
import torch.distributed as dist
import torch_xla


def reduce_tensor(tensor, n_gpus):
    rt = tensor.clone()
    dist.all_reduce(rt, op=dist.ReduceOp.SUM)
    return rt / n_gpus


def validate(model, criterion, val_loader, n_gpus, distributed_run):
    device = torch_xla.device()
    model.eval()
    with torch.no_grad():
        val_loss = 0.0
        for i, (x, y) in enumerate(val_loader):
            x, y = x.to(device), y.to(device)
            loss = criterion(model(x), y)
            if distributed_run:
                reduced_val_loss = reduce_tensor(loss.data, n_gpus).item()
            else:
                reduced_val_loss = loss.item()
            val_loss += reduced_val_loss
        val_loss = val_loss / (i + 1)
    model.train()
    return val_loss
