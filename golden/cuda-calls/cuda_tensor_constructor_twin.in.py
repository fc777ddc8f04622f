# Twin of cuda_tensor_constructor: calls of a CUDA tensor type that are not certainly sizes in
# code that runs when called are reported as blockers, not rewritten (one argument: data or a
# size; a list among the arguments; a starred or keyword argument; float16, which the half pass
# turns into bf16; at import); under `if x.is_cuda:`, which never holds on Trainium, a warning
# (dino's PCA.apply). Not touched: the CPU types, `.type(torch.cuda.FloatTensor)`,
# `isinstance`, a type chosen by a flag or rebound to a CPU type, and a call under
# `if torch.cuda.is_available():`.
import torch

BUFFER = torch.cuda.FloatTensor(2, 3)
Tensor = torch.cuda.FloatTensor if torch.cuda.is_available() else torch.FloatTensor


def build(x, ids, shape, n):
    cpu = torch.FloatTensor(2, 3).fill_(0)
    longs = torch.LongTensor(n, 2)
    data = torch.cuda.FloatTensor([1.0, 2.0])
    index = torch.cuda.LongTensor(ids)
    sized = torch.cuda.FloatTensor(n)
    nested = torch.cuda.FloatTensor([n], 2)
    starred = torch.cuda.FloatTensor(*shape)
    placed = torch.cuda.FloatTensor(n, 2, device=0)
    half = torch.cuda.HalfTensor(n, 2)
    moved = x.type(torch.cuda.FloatTensor)
    if isinstance(x, torch.cuda.FloatTensor):
        x = x.float()
    if torch.cuda.is_available():
        x = x + torch.cuda.FloatTensor(n, 2).fill_(0)
    chosen = Tensor(n, 2)
    return cpu, longs, data, index, sized, nested, starred, placed, half, moved, chosen


def whiten(x, mean, dvt):
    if x.is_cuda:
        x -= torch.cuda.FloatTensor(mean)
        return torch.mm(torch.cuda.FloatTensor(dvt), x.transpose(0, 1)).transpose(0, 1)
    return torch.mm(torch.FloatTensor(dvt), (x - torch.FloatTensor(mean)).transpose(0, 1))


def rebound(n, cpu_only):
    Kind = torch.cuda.FloatTensor
    if cpu_only:
        Kind = torch.FloatTensor
    return Kind(n, 2)


def flagged(opt, mean):
    if opt.is_cuda:  # a flag of the options, not a tensor's place: the call stays a blocker
        return torch.cuda.FloatTensor(mean)
    return torch.FloatTensor(mean)
