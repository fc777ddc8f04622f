# Twin of lambda_moves_each_tensor: the two-parameter lambda is a map_location function, handed
# each storage and its location by torch.load; what it restores to is TRN005's, and the storage
# move inside it is no tensor move: it is left as written.
import torch


def restore(path):
    return torch.load(path, map_location=lambda storage, loc: storage)


def restore_to_gpu(path):
    state = torch.load(path, map_location=lambda storage, loc: storage.cuda())
    return {k: v.float() for k, v in state.items()}
