# Twin of sampling_without_replacement.in.py: one sample, or any number with replacement, is
# lowered by torch-xla 2.9 (`xla::multinomial`, no `aten::` fallback, measured in
# benchmarks/xla_facts.py fallback_ops): nothing to report.
import torch
from torch import nn


class Sampler(nn.Module):
    def forward(self, probs, k):
        one = torch.multinomial(probs, 1)
        named = torch.multinomial(probs, num_samples=1)
        replaced = torch.multinomial(probs, k, replacement=True)
        positional = probs.multinomial(4, True)
        word_id = torch.multinomial(probs.exp(), num_samples=1).item()
        return one, named, replaced, positional, word_id
