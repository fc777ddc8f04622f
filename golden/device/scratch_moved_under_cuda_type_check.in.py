# Class: a scratch tensor moved with `.cuda()` only `if isinstance(x, torch.cuda.FloatTensor):`
# (ResNet's type-A shortcut pads with zeros built on the CPU): the test is False for a tensor on
# the XLA or Neuron device, as `x.is_cuda` is, so the move is skipped there and `torch.cat` meets
# a CPU tensor ("not an XLA tensor", measured on XLA:CPU, torch-xla 2.9). As for `is_cuda`, the
# whole `if` becomes the unconditional `.to(x.device)`.
# Twin: scratch_moved_under_cuda_type_check_twin.
import torch
import torch.nn.functional as F


def downsample_basic_block(x, planes, stride):
    out = F.avg_pool3d(x, kernel_size=1, stride=stride)
    zero_pads = torch.zeros(out.size(0), planes - out.size(1), out.size(2), out.size(3), out.size(4))
    if isinstance(out.data, torch.cuda.FloatTensor):
        zero_pads = zero_pads.cuda()
    return torch.cat([out.data, zero_pads], dim=1)


def pad_channels(x, extra):
    pads = torch.zeros(x.size(0), extra, x.size(2), x.size(3))
    if isinstance(x, (torch.cuda.FloatTensor, torch.cuda.HalfTensor)):
        pads = pads.cuda()
    return torch.cat([x, pads], dim=1)
