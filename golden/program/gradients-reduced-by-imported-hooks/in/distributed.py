import torch.distributed as dist
from torch._utils import _flatten_dense_tensors, _unflatten_dense_tensors


def apply_gradient_allreduce(module):
    for p in module.state_dict().values():
        dist.broadcast(p, 0)

    def allreduce_params():
        grads = [param.grad.data for param in module.parameters() if param.grad is not None]
        coalesced = _flatten_dense_tensors(grads)
        dist.all_reduce(coalesced)
        coalesced /= dist.get_world_size()
        for buf, synced in zip(grads, _unflatten_dense_tensors(coalesced, grads)):
            buf.copy_(synced)

    for param in module.parameters():
        param.register_hook(lambda *unused: allreduce_params())
    return module
