# Class: `multinomial` that torch-xla 2.9 does not lower. Without replacement for more than one
# sample (or for a sample count it cannot see), or with a `generator=`, it falls back to the CPU
# (`aten::multinomial`, measured in benchmarks/xla_facts.py fallback_ops). Twin:
# sampling_lowered.in.py.
import torch
from torch import nn


class Sampler(nn.Module):
    def forward(self, probs, k, generator):
        several = torch.multinomial(probs, 4)
        unknown = torch.multinomial(probs, num_samples=k)
        spelled = probs.multinomial(2, replacement=False)
        seeded = torch.multinomial(probs, 1, generator=generator)
        return several, unknown, spelled, seeded
