import torch


def build(model, lr):
    return torch.optim.AdamW(
        model.parameters(),
        lr,
        (0.9, 0.95),
        1e-8,
        weight_decay=0,
    )
