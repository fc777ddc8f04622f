# PY37 and with_metaclass have no one-line equivalent: the exact names are replaced and the
# rest is kept, with a blocker.
from math import inf

import torch
from torch._six import PY37, with_metaclass


class Meta(type):
    pass


class Base(with_metaclass(Meta, object)):
    limit = inf if PY37 else torch.finfo(torch.float32).max
