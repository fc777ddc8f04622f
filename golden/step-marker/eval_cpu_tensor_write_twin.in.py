# Twin of eval_cpu_tensor_write: the marker stays where the tensor written into is on the device
# (`device=`, or moved with `.to`), where nothing is copied to the host and the graph grows by a
# forward pass a batch.
import torch
import torch_xla


@torch.no_grad()
def validate(model, val_dataloader, max_iters, loss_fn):
    device = torch_xla.device()
    model.eval()
    losses = torch.zeros(max_iters, device=device)
    for k, batch in enumerate(val_dataloader):
        logits = model(batch["input_ids"].to(device))
        losses[k] = loss_fn(logits, batch["labels"].to(device))
    return losses.mean()


@torch.no_grad()
def score(model, loader):
    device = torch_xla.device()
    scores = torch.zeros(len(loader)).to(device)
    for i, (x, y) in enumerate(loader):
        x, y = x.to(device), y.to(device)
        scores[i] = (model(x).argmax(1) == y).float().mean()
    return scores

