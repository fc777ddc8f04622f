# golden: select=TRN00,TRN021,TRN022,TRN023,TRN024,TRN026,TRN046,TRN047
# timm's PrefetchLoader: `is_cuda` only picks a CUDA side stream; the batches go to
# `self.device` either way. Made true the check would run torch.cuda.Stream, so it is kept, and
# since it decides no device that is a warning (TRN046), not a blocker (gate_enables_cuda_only).
from contextlib import suppress
from functools import partial

import torch


class PrefetchLoader:
    def __init__(self, loader, device):
        self.loader = loader
        self.device = device
        self.is_cuda = torch.cuda.is_available()

    def __iter__(self):
        if self.is_cuda:
            stream = torch.cuda.Stream(device=self.device)
            stream_context = partial(torch.cuda.stream, stream=stream)
        else:
            stream_context = suppress
        for x, y in self.loader:
            with stream_context():
                x = x.to(device=self.device, non_blocking=True)
                y = y.to(device=self.device, non_blocking=True)
            yield x, y
