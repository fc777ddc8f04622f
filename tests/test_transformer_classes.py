"""Which classes of a module are transformer models by what they are
(``trncodemod/analysis/transformer_classes.py``)."""

from __future__ import annotations

import ast
import textwrap

from trncodemod.analysis.training import import_specs
from trncodemod.analysis.transformer_classes import transformer_classes


def _classes(source: str) -> dict[str, str]:
    tree = ast.parse(textwrap.dedent(source))
    return transformer_classes(tree, import_specs(tree)[0])


def test_a_named_module_that_reaches_attention_through_its_classes():
    found = _classes(
        """
        import torch.nn as nn
        from torch.nn import Module

        class SelfAttention(Module):
            pass

        class Block(nn.Module):
            def __init__(self):
                self.attn = SelfAttention()

        class GPTBase(nn.Module):
            pass

        class GPT(GPTBase):
            def __init__(self):
                self.blocks = [Block() for _ in range(2)]
        """
    )
    assert found == {"GPT": "GPT → Block → SelfAttention"}


def test_torch_attention_counts_and_a_name_must_say_transformer():
    found = _classes(
        """
        import torch
        from torch import nn

        class TinyTransformer(nn.Module):
            def __init__(self):
                self.attn = nn.MultiheadAttention(8, 2)

        class Encoder(nn.Module):  # attention, but not named for a transformer
            def forward(self, q, k, v):
                return torch.nn.functional.scaled_dot_product_attention(q, k, v)
        """
    )
    assert found == {"TinyTransformer": "TinyTransformer"}


def test_no_attention_or_not_a_module_is_not_a_transformer():
    found = _classes(
        """
        from torch import nn

        class BertLayerNorm(nn.Module):
            def __init__(self):
                self.norm = nn.LayerNorm(8)

        class BertConfig(object):
            attention_heads = 4

        class BertAttentionMask:  # named Attention, but not an nn.Module
            pass

        class nnModule:
            pass

        class BertLike(nnModule):
            def __init__(self):
                self.mask = BertAttentionMask()
        """
    )
    assert found == {}
