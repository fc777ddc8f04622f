# golden: target=xla-2.1
# torch 2.1.2 still has torch._utils._accumulate (removed in 2.3): nothing to change there.
from torch._utils import _accumulate

offsets = list(_accumulate([1, 2, 3]))
