import bitsandbytes as bnb
from bitsandbytes.optim import Lion8bit


def build(model, kwargs):
    a = bnb.optim.AdamW8bit(model.parameters(), lr=1e-4, percentile_clipping=5)
    b = bnb.optim.Adam(model.parameters(), lr=1e-4, optim_bits=8)
    c = bnb.optim.SGD8bit(model.parameters(), lr=0.01, momentum=0.9, nesterov=True)
    d = Lion8bit(model.parameters(), lr=1e-4)
    e = bnb.optim.PagedAdamW8bit(model.parameters(), **kwargs)
    opt_cls = bnb.optim.AdamW8bit
    layer = bnb.nn.Linear8bitLt(16, 16)
    return a, b, c, d, e, opt_cls, layer
