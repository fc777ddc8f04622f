import torch as th
from torch import cuda
import torch_xla

dev = torch_xla.device()
net = th.nn.Linear(3, 3).to(torch_xla.device())
buf = th.zeros(3, device="xla")
