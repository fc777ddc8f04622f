# Twin of the `.cuda()` rewrite (TRN001): a storage moved to the GPU (`torch.Storage(n).cuda()`,
# `x.untyped_storage().cuda()`). A storage has no `.to(device)` (`TypedStorage.to` takes the
# device by keyword only: `.to(device)` raises TypeError on torch 2.9) and an XLA tensor has no
# storage: not rewritten.
import torch


def shared_buffers(size, x):
    first = torch.Storage(size).cuda()
    second = x.untyped_storage().cuda()
    return first, second
