import torch as th
from torch import cuda

dev = th.device("cuda" if cuda.is_available() else "cpu")
net = th.nn.Linear(3, 3).cuda()
buf = th.zeros(3, device="cuda")
