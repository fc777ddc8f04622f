# Class: a BLAS-style call that torch-xla runs on the CPU in model code. `addmm` with an `alpha`
# or `beta` other than 1 (the nearest-codebook distance of a VQ-VAE), `addmv` and `addbmm` at any
# scale: written as the matmul they compute where the scales are literal numbers and the result
# is a value; reported with what to write otherwise (a scale held in a name, `out=`, the in-place
# form, `beta=0`).
import torch
import torch.nn as nn
from torch import addmm


class VectorQuantizer(nn.Module):
    def __init__(self, codes, dim):
        super().__init__()
        self.codebook = nn.Parameter(torch.randn(codes, dim))

    def forward(self, inputs):
        flat = inputs.view(-1, self.codebook.size(1))
        codebook_sqr = torch.sum(self.codebook**2, dim=1)
        inputs_sqr = torch.sum(flat**2, dim=1, keepdim=True)
        distances = torch.addmm(codebook_sqr + inputs_sqr,
            flat, self.codebook.t(), alpha=-2.0, beta=1.0)
        nearest = torch.addmm(inputs_sqr, flat, self.codebook.t(), alpha=-2.0).argmin(1)
        return distances.argmin(1), nearest


class Mixer(nn.Module):
    def forward(self, bias, x, w, v, batch1, batch2, scale, out):
        blended = bias.addmm(x, w, beta=0.5, alpha=0.1)
        summed = torch.addmm(bias + 1, x * scale, w, beta=0.5)
        difference = torch.addmm(bias, x, w, alpha=-1)
        doubled = torch.addmm(bias, x, w, alpha=2)
        projected = torch.addmv(bias[0], w.t(), v)
        pooled = torch.addbmm(bias, batch1, batch2, beta=0.5)
        scaled = torch.addmm(bias, x, w, alpha=scale)
        torch.addmm(bias, x, w, alpha=-2.0, out=out)
        bias.addmm_(x, w, alpha=-2.0)
        product = torch.addmm(bias, x, w, beta=0, alpha=-2.0)
        return blended, summed, difference, doubled, projected, pooled, scaled, product


class Spellings(nn.Module):
    # Parenthesized where the sum needs it; a comment inside the call keeps it reported.
    def forward(self, bias, x, w, flag):
        picked = addmm(bias, x, w, alpha=0.5) if flag else bias
        squared = torch.addmm(bias, x, w, alpha=3) ** 2
        kept = torch.addmm(bias,  # the bias
                           x, w, alpha=2.0)
        return torch.addmm(bias, x, w, alpha=2), picked, squared, kept
