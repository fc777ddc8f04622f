# Twin of sync_batchnorm_converted: a data-parallel module that converts a model it only
# evaluates (nothing here trains): SyncBatchNorm in eval mode runs on the XLA device, no TRN052.
import torch
import torch.distributed as dist
from torch import nn


def evaluate(model, batches):
    dist.init_process_group("nccl")
    model = nn.SyncBatchNorm.convert_sync_batchnorm(model).eval()
    with torch.no_grad():
        return [model(x.cuda()) for x in batches]
