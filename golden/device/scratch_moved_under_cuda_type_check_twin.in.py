# Twin of scratch_moved_under_cuda_type_check: a CPU type checked, a test with an `else`, and a
# body that does more than move the scratch tensor are not made unconditional.
import torch


def pad_cpu(x, extra):
    pads = torch.zeros(x.size(0), extra)
    if isinstance(x, torch.FloatTensor):
        pads = pads.double()
    return torch.cat([x, pads], dim=1)


def pad_either(x, extra):
    pads = torch.zeros(x.size(0), extra)
    if isinstance(x, torch.cuda.FloatTensor):
        pads = pads.cuda()
    else:
        pads = pads.float()
    return torch.cat([x, pads], dim=1)


def pad_and_log(x, extra):
    pads = torch.zeros(x.size(0), extra)
    if isinstance(x, torch.cuda.FloatTensor):
        pads = pads.cuda()
        print("moved")
    return torch.cat([x, pads], dim=1)
