import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x, y, mask, values):
        x[mask] = 0  # a mask that does not compare `x`: its shape is not certain
        x[x > 0] = values  # a tensor value: index_put of as many values as the mask selects
        x[x > 0] += 1  # an update, not a fill
        x[y > 0] = 0  # compares another tensor
        a = x[x < 0] = 0  # two targets
        x[0 < x < 1] = 0  # a chained comparison
        x[x > 0] = float("1.5")  # a float of a string that is no special value
        return x, a
