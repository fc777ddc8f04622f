# Must not rewrite: a call that passes `fn=` (itertools.accumulate spells it `func=`), names with
# nothing the same in torch or the standard library (reported: the import fails), an import with
# its own fallback, and private names torch 2.9 still has.
import operator

import torch.utils.ffi
from torch._utils import _accumulate, _get_device_index
from torch.nn.modules.utils import _pair
from torch.optim.lr_scheduler import _LRScheduler
from torch.utils.data.dataloader import _DataLoaderIter, default_collate, numpy_type_map

try:
    from torch.utils.data.dataloader import string_classes
except ImportError:
    string_classes = (str, bytes)

products = list(_accumulate([1, 2, 3], fn=operator.mul))
