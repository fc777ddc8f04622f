# Class: an evaluation loop that reads on the host every batch, its read spelled as a write into
# a CPU tensor (`losses = torch.zeros(n)`; `losses[k] = loss`). The write copies the loss to the
# host and runs the iteration's graph; nothing made on the device outlives the iteration, so a
# marker adds an execution a batch (benchmarks/xla_quirks/cpu_tensor_write.py: 7 executions for
# 6 batches with no cut, 12 with a cut after the write). No marker (twin:
# eval_cpu_tensor_write_twin).
import torch
import torch_xla


@torch.no_grad()
def validate(model, val_dataloader, max_iters, loss_fn):
    model.eval()
    losses = torch.zeros(min(len(val_dataloader), max_iters))
    for k, batch in enumerate(val_dataloader):
        if k >= max_iters:
            break
        input_ids, targets = batch["input_ids"], batch["labels"]
        logits = model(input_ids)
        losses[k] = loss_fn(logits[..., :-1, :], targets[..., 1:])
    val_loss = losses.mean()
    model.train()
    return val_loss


@torch.no_grad()
def score(model, loader):
    device = torch_xla.device()
    scores = torch.empty(len(loader))
    for i, (x, y) in enumerate(loader):
        x, y = x.to(device), y.to(device)
        scores[i] = (model(x).argmax(1) == y).float().mean()
    return scores
