# Twin of cuda_move_in_else_of_not_is_cuda: the test is not negated (`if input.is_cuda: ...
# else: ...`), so the `else` is the arm every non-CUDA tensor takes, the XLA device's among them:
# its `.cuda()` is a move to rewrite, as anywhere.
import torch


def stage(input, scratch):
    if input.is_cuda:
        out = input * 2
    else:
        scratch = scratch.cuda()
        out = input + scratch
    return out
