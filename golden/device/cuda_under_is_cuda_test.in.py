# `.cuda()` under a test of `.is_cuda` (directly, or through a name bound to it): `is_cuda` is
# False on the XLA or Neuron device, so a rewritten line would never run and the value would stay
# on the CPU. Where the test is a tensor's own `is_cuda` and its body only moves a name onto
# itself (`warp`), the `if` becomes `grid = grid.to(input.device)` (scratch_moved_under_is_cuda);
# through a name bound to the test, no rewrite: a finding says to test the device instead.
import torch
import torch.nn.functional as F


def warp(input, grid):
    if input.is_cuda:
        grid = grid.cuda()
    return F.grid_sample(input, grid)


class Net(torch.nn.Module):
    def predict(self, imgs):
        on_cuda = next(self.parameters()).is_cuda
        if on_cuda:
            imgs = imgs.cuda()
        return self(imgs)
