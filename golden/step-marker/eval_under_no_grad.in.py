import torch


@torch.no_grad()
def estimate_loss(model, get_batch, eval_iters):
    model.eval()
    out = {}
    for name in ("train", "val"):
        total = 0.0
        for _ in range(eval_iters):
            x, y = get_batch(name)
            _, loss = model(x, y)
            total += loss.item()
        out[name] = total / eval_iters
    return out


def host_only(rows):
    with torch.no_grad():
        count = 0
        for row in rows:
            count += len(row)
    return count
