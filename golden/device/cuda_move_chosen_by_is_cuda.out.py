# Class: a value moved with `.cuda()` only when another tensor is on CUDA, as a conditional
# expression (`window_sum = window_sum.cuda() if magnitude.is_cuda else window_sum`): `is_cuda`
# is False for an XLA tensor, so the value stays on the CPU beside it and the next operation
# mixes devices. The expression becomes `window_sum.to(magnitude.device)`: the same move on
# CUDA, none on the CPU, and the one the XLA device needs (the statement form, `if x.is_cuda:
# y = y.cuda()`, is scratch_moved_under_is_cuda). Twin: cuda_move_chosen_by_is_cuda_twin (the
# other arm is another value: the choice is left as it is).
import numpy as np
import torch


def inverse(magnitude, window):
    window_sum = torch.from_numpy(np.asarray(window, dtype=np.float32))
    window_sum = window_sum.to(magnitude.device)
    return magnitude / window_sum
