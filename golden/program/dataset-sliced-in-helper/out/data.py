# A corpus made into columns and moved to the device whole (`batchify`), then sliced at the
# step's offset by `get_batch` (locuslab/TCN word_cnn/utils.py): a graph per offset on XLA.
import torch
import torch_xla


def batchify(data, batch_size, args):
    nbatch = data.size(0) // batch_size
    data = data.narrow(0, 0, nbatch * batch_size).view(batch_size, -1)
    if args.cuda:
        data = data.to(torch_xla.device())
    return data


def get_batch(source, i, args):
    seq_len = min(args.seq_len, source.size(1) - 1 - i)
    data = source[:, i : i + seq_len]
    target = source[:, i + 1 : i + 1 + seq_len]
    return data, target
