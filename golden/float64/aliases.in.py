import numpy as onp
import torch as th
from numpy.random import rand
from torch import DoubleTensor, float64
from torch import tensor as T


def build(x):
    a = th.zeros(3, dtype=th.float64)
    b = x.to(float64)
    c = th.from_numpy(onp.random.randn(3, 3))
    d = th.from_numpy(rand(4))
    e = T(onp.zeros(5))
    f = DoubleTensor(2, 2)
    g = th.as_tensor(onp.array([0.5, 1.5]), device="cpu")
    th.set_default_dtype(th.double)
    return a, b, c, d, e, f, g
