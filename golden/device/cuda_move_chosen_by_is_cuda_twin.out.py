# Twin of cuda_move_chosen_by_is_cuda: the arm taken when the tensor is not on CUDA is another
# value (`fallback`), not the one moved: no single move stands for the choice, so it is not
# rewritten into one.
import numpy as np
import torch
import torch_xla


def inverse(magnitude, window, fallback):
    window_sum = torch.from_numpy(np.asarray(window, dtype=np.float32))
    window_sum = window_sum.to(torch_xla.device()) if magnitude.is_cuda else fallback
    return magnitude / window_sum
