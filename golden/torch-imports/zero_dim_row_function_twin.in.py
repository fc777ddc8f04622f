"""Twin of zero_dim_loss_function: functions of the file whose results are not certainly 0-dim
(one returns a loss per element, one a tensor's row, one a sum over a dimension, one may return a
row on one path): `x.data[0]` of each is its first row or element, and stays."""
import torch
import torch.nn as nn

per_element = nn.MSELoss(reduction="none")


def loss_rows(recon_x, x):
    return per_element(recon_x, x)


def first_rows(x):
    return x[:2]


def summed_over_batch(x):
    return torch.sum(x, 0)


def either(x, flat):
    if flat:
        return torch.sum(x)
    return x


def report(model, img):
    recon = model(img)
    rows = loss_rows(recon, img)
    head = first_rows(recon)
    column = summed_over_batch(recon)
    maybe = either(recon, False)
    print(rows.data[0], head.data[0], column.data[0], maybe.data[0])
