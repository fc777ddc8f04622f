import torch


class Batch:
    def __init__(self, x):
        self.x = x

    def pin_memory(self):
        return self


torch.cuda.is_bf16_supported = lambda: True
benchmark = torch.backends.cudnn.benchmark
use_cuda = torch.cuda.is_available()
seed_fn = torch.manual_seed
