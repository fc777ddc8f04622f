from matcher import match


def compute_loss(model, batch):
    out = model(batch)
    indices = match(out)
    return out.sum() + indices


def unused(x):
    return x.item()
