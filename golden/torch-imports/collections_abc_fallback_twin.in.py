# Twin of collections_abc_aliases: the import of an alias has a fallback for the Python that
# lacks it, collections.abc is named already, and the other names of `collections` (OrderedDict,
# defaultdict, namedtuple) are still there in Python 3.10: nothing changes.
import collections
import collections.abc
from collections import OrderedDict, defaultdict, namedtuple

try:
    from collections import Mapping
except ImportError:
    from collections.abc import Mapping

import torch

Pair = namedtuple("Pair", "left right")


def to_device(obj, device):
    if torch.is_tensor(obj):
        return obj.to(device)
    if isinstance(obj, Mapping):
        return OrderedDict((k, to_device(v, device)) for k, v in obj.items())
    if isinstance(obj, collections.abc.Sequence) and not isinstance(obj, str):
        return [to_device(o, device) for o in obj]
    return obj


def merge(batches):
    out = defaultdict(list)
    for batch in batches:
        for key, value in batch.items():
            out[key].append(value)
    return out
