# An evaluation loop under no_grad that keeps its losses on the device gets the cut (one that
# reads each loss on the host does not: eval_host_read_cuts); a loop that does no device work
# does not.
import torch
import torch_xla


@torch.no_grad()
def estimate_loss(model, get_batch, eval_iters):
    model.eval()
    out = {}
    for name in ("train", "val"):
        losses = []
        for _ in range(eval_iters):
            x, y = get_batch(name)
            _, loss = model(x, y)
            losses.append(loss)
            torch_xla.sync()
        out[name] = torch.stack(losses).mean()
    return out


def host_only(rows):
    with torch.no_grad():
        count = 0
        for row in rows:
            count += len(row)
    return count
