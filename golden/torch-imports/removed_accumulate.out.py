# A private torch name the target's torch no longer has (text-recognition dataset.py): torch 2.3
# removed torch._utils._accumulate, so the import stops every program that imports the module.
# It was the pure-Python copy of itertools.accumulate, so the import takes that instead, keeping
# the local name; the names torch still has stay where they are.
import itertools
from itertools import accumulate as _accumulate
from itertools import accumulate as running_total

import torch
import torch._utils
from torch._utils import _rebuild_tensor_v2


def split(dataset, lengths):
    offsets = list(_accumulate(lengths))
    ends = list(running_total(lengths))
    totals = list(itertools.accumulate(lengths))
    return offsets, ends, totals, _rebuild_tensor_v2
