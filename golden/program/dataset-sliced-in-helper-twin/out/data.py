# The corpus stays on the host and `get_batch` moves each slice: one graph for every offset.
import torch
import torch_xla


def batchify(data, batch_size, args):
    nbatch = data.size(0) // batch_size
    return data.narrow(0, 0, nbatch * batch_size).view(batch_size, -1)


def get_batch(source, i, args):
    seq_len = min(args.seq_len, source.size(1) - 1 - i)
    data = source[:, i : i + seq_len]
    target = source[:, i + 1 : i + 1 + seq_len]
    if args.cuda:
        data, target = data.to(torch_xla.device()), target.to(torch_xla.device())
    return data, target
