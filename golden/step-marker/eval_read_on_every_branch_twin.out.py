# Twin of eval_read_on_every_branch: the read is only in the distributed branch (no
# `else`), so on a single-process run the iteration reads nothing and its graph grows:
# the loop is cut.
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
                val_loss += reduce_tensor(loss.data, n_gpus).item()
            torch_xla.sync()
        val_loss = val_loss / (i + 1)
    model.train()
    return val_loss
