# Twin of raising_call_under_cuda_attribute: the flag is also set from an argument the tool
# cannot decide, so the CUDA call under it may run on Trainium: a blocker.
import torch


class PrefetchLoader:
    def __init__(self, loader, device=torch.device("cuda"), use_stream=False):
        self.loader = loader
        self.device = device
        self.is_cuda = device.type == "cuda" and torch.cuda.is_available()
        if use_stream:
            self.is_cuda = True

    def __iter__(self):
        stream = None
        if self.is_cuda:
            stream = torch.cuda.Stream(device=self.device)
        for batch in self.loader:
            yield batch
