import bitsandbytes as bnb


def build(model, lr):
    return bnb.optim.PagedAdam8bit(
        model.parameters(),
        lr,
        (0.9, 0.95),
        1e-8,
    )
