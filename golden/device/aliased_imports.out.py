import torch as th
import torch_xla
from torch import cuda

dev = torch_xla.device()
net = th.nn.Linear(3, 3).to(torch_xla.device())
buf = th.zeros(3, device="xla")
