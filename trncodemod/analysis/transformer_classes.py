"""A repository's own transformer models: which classes of a module are transformers by what
they are, read from the module's ``ast`` (for the program model, ``analysis/program.py``).

A class is one when all three hold:

* it is an ``nn.Module``: a base is ``torch.nn.Module`` (through the module's imports) or
  another such class of the same module;
* its name says so: BERT, GPT, Transformer, RoBERTa, ELECTRA, ALBERT, BART, Llama (as a word
  of the CamelCase name: ``BertForPreTraining``, ``GPT2Model``, ``MyTransformer``);
* it contains attention: following the module's own classes it names (``self.bert =
  BertModel(config)`` → ``BertEncoder`` → ``BertLayer`` → ``BertAttention``) it reaches an
  ``nn.Module`` class named ``*Attention*``, or a class that builds ``nn.MultiheadAttention`` /
  ``nn.Transformer*`` or calls ``F.scaled_dot_product_attention``.

NVIDIA's BERT (``modeling.BertForPreTraining``) is one; a ``BertLayerNorm`` (no attention) or a
``TransformerConfig`` (not a module) is not.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping

from trncodemod.analysis.training import dotted

_MODULE_BASES = frozenset({"torch.nn.Module", "torch.nn.modules.module.Module"})
_NAMED = re.compile(r"(Bert|BERT|GPT|Gpt|Transformer|Roberta|RoBERTa|Electra|Albert|Bart|Llama)")
_TORCH_ATTENTION = frozenset(
    {
        "torch.nn.MultiheadAttention",
        "torch.nn.Transformer",
        "torch.nn.TransformerEncoder",
        "torch.nn.TransformerEncoderLayer",
        "torch.nn.TransformerDecoder",
        "torch.nn.TransformerDecoderLayer",
        "torch.nn.functional.scaled_dot_product_attention",
    }
)


def _qualified(name: str, imports: Mapping[str, str]) -> str:
    """``name`` with its first part replaced by what an absolute import binds it to."""
    head, _, rest = name.partition(".")
    binding = imports.get(head)
    if binding is None or binding.startswith("."):
        return name
    module, _, imported = binding.partition(":")
    full = f"{module}.{imported}" if imported else module
    return f"{full}.{rest}" if rest else full


def transformer_classes(tree: ast.Module, imports: Mapping[str, str]) -> dict[str, str]:
    """The module's transformer classes (see the module's docstring) → why: the chain of its
    classes that reaches attention (``BertForPreTraining → BertModel → ... → BertSelfAttention``)."""
    classes = {s.name: s for s in tree.body if isinstance(s, ast.ClassDef)}
    modules: set[str] = set()
    changed = True
    while changed:  # a base may be a module class defined further down
        changed = False
        for name, cls in classes.items():
            if name in modules:
                continue
            for base in cls.bases:
                spelled = dotted(base)
                if spelled is not None and (
                    _qualified(spelled, imports) in _MODULE_BASES or spelled in modules
                ):
                    modules.add(name)
                    changed = True
                    break
    uses: dict[str, list[str]] = {}
    attention: set[str] = set()
    for name in modules:
        named: list[str] = []
        for node in ast.walk(classes[name]):
            spelled = dotted(node) if isinstance(node, ast.Name | ast.Attribute) else None
            if spelled is None:
                continue
            if spelled in modules and spelled != name and spelled not in named:
                named.append(spelled)
            if _qualified(spelled, imports) in _TORCH_ATTENTION:
                attention.add(name)
        uses[name] = named
        if "Attention" in name:
            attention.add(name)
    found = {}
    for name in sorted(modules):
        if not _NAMED.search(name):
            continue
        chain = _path_to(name, uses, attention)
        if chain is not None:
            found[name] = " → ".join(chain)
    return found


def _path_to(start: str, uses: Mapping[str, list[str]], ends: set[str]) -> list[str] | None:
    """The shortest chain of class uses from ``start`` to a class in ``ends``."""
    parents: dict[str, str | None] = {start: None}
    queue = [start]
    while queue:
        current = queue.pop(0)
        if current in ends:
            chain = [current]
            while (parent := parents[chain[-1]]) is not None:
                chain.append(parent)
            return list(reversed(chain))
        for used in uses.get(current, ()):
            if used not in parents:
                parents[used] = current
                queue.append(used)
    return None
