# Twin of device_chosen_by_is_cuda: the same choice where the name is not only a device (it is
# printed and compared as text, where `x.device` would read differently), and a choice by an
# options flag (`args.is_cuda`, not a tensor), are not rewritten to a tensor's device.
import torch


def describe(x):
    where = 'cuda' if x.is_cuda else 'cpu'
    print("running on", where)
    if where == 'cuda':
        torch.cuda.synchronize()
    return where


def pick(args):
    device = torch.device('cuda') if args.is_cuda else torch.device('cpu')
    return device
