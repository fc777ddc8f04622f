# The six package and a local module named _six are not torch._six: left alone.
import six
import torch
from six import string_types

from ._six import inf


def check(x):
    return isinstance(x, string_types) and six.PY3 and torch.tensor(inf)
