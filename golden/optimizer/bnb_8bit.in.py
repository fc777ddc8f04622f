import bitsandbytes as bnb
import torch


def build(model):
    a = bnb.optim.Adam8bit(model.parameters(), lr=1e-4, betas=(0.9, 0.995))
    b = bnb.optim.AdamW8bit(model.parameters(), lr=1e-4)
    c = bnb.optim.PagedAdamW(model.parameters(), lr=2e-4, weight_decay=0.0)
    d = bnb.optim.SGD8bit(model.parameters(), lr=0.01, momentum=0.9)
    return a, b, c, d
