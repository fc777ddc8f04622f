import torch_xla.distributed.spmd.xla_sharding as xs
import torch_xla.experimental.xla_sharding
from torch_xla.distributed.spmd import xla_sharding as xs2
from torch_xla.distributed.spmd.xla_sharded_tensor import XLAShardedTensor
from torch_xla.experimental import xla_sharding, pjrt

mesh = xs.Mesh([0], (1,))
