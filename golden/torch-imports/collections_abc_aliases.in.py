# Class: a module that reaches collections.abc's classes through the aliases `collections` held
# until Python 3.10 (`collections.Mapping`, `from collections import Sequence`), in code that
# walks a batch of nested dicts and lists. torch 2.9 requires Python 3.10 or later, so the
# aliases raise there: each becomes collections.abc's class. Found at first sight in a
# segmentation repository's batch-copying helper (ADE20K's `async_copy_to`). Twin:
# collections_abc_fallback_twin (a fallback import, collections.abc already, other names of
# collections).
import collections
from collections import OrderedDict, Sequence

import torch


def to_device(obj, device):
    if torch.is_tensor(obj):
        return obj.to(device)
    if isinstance(obj, collections.Mapping):
        return OrderedDict((k, to_device(v, device)) for k, v in obj.items())
    if isinstance(obj, Sequence) and not isinstance(obj, str):
        return [to_device(o, device) for o in obj]
    return obj


def merge(batches):
    out = collections.defaultdict(list)
    for batch in batches:
        assert isinstance(batch, (collections.MutableMapping, dict))
        for key, value in batch.items():
            out[key].append(value)
    return out
