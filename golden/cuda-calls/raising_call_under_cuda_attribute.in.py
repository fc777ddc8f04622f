# Class: a CUDA call under an attribute flag the class sets only to a test that requires CUDA
# (timm's PrefetchLoader: `self.is_cuda = device.type == 'cuda' and torch.cuda.is_available()`,
# then `if self.is_cuda: stream = torch.cuda.Stream(...)`): False on Trainium, so the call never
# runs there and is no blocker. The twin (raising_call_under_cuda_attribute_twin) sets the flag
# another way too: a blocker.
import torch


class PrefetchLoader:
    def __init__(self, loader, device=torch.device("cuda")):
        self.loader = loader
        self.device = device
        self.is_cuda = device.type == "cuda" and torch.cuda.is_available()

    def __iter__(self):
        stream = None
        if self.is_cuda:
            stream = torch.cuda.Stream(device=self.device)
        for batch in self.loader:
            if stream is not None:
                with torch.cuda.stream(stream):
                    batch = batch.to(self.device, non_blocking=True)
            yield batch
