# Aliases resolve through qualified names: `import torch as th`, `from torch import ...`.
import torch as th
from torch import multinomial, nn
from torch.fft import rfft as spectrum


class Sampler(nn.Module):
    def forward(self, probs, frames, counts):
        token = multinomial(probs, 4)
        spec = spectrum(frames).abs()
        hist = th.bincount(counts)
        bins = th.histc(frames, bins=10)
        picked = counts.nonzero()
        return token, spec, hist, bins, picked
