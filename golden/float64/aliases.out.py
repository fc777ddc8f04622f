import numpy as onp
import torch
import torch as th
from numpy.random import rand
from torch import DoubleTensor, FloatTensor, float32, float64
from torch import tensor as T


def build(x):
    a = th.zeros(3, dtype=th.float32)
    b = x.to(float32)
    c = th.from_numpy(onp.random.randn(3, 3)).float()
    d = th.from_numpy(rand(4)).float()
    e = T(onp.zeros(5), dtype=torch.float32)
    f = FloatTensor(2, 2)
    g = th.as_tensor(onp.array([0.5, 1.5]), device="cpu", dtype=th.float32)
    th.set_default_dtype(th.float32)
    return a, b, c, d, e, f, g
