"""What ``analysis/weight_ties.py`` reads of a module's classes: the ties each `__init__` makes,
the tests of its parameters they depend on, and the ties made by what it calls."""

from __future__ import annotations

import ast
from pathlib import Path
from textwrap import dedent

import pytest

from trncodemod.analysis.weight_ties import CONDITIONAL, SIGNATURE, Ties, module_ties

ROOT = Path(__file__).resolve().parent.parent


def _ties(source: str) -> dict[str, tuple[str, ...]]:
    return module_ties(ast.parse(dedent(source)))


HEAD = """
from torch import nn

class M(nn.Module):
    def __init__(self, vocab, dim, tie=True, share=False):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.out = nn.Linear(dim, vocab)
"""


def test_a_tie_under_a_test_of_a_parameter_keeps_the_test_and_the_signature() -> None:
    ties = Ties.read(
        _ties(HEAD + "        if tie:\n            self.out.weight = self.emb.weight\n")["M"]
    )
    assert ties.carried == (("out.weight", "emb.weight", "tie"),)
    assert ties.signature is not None and not ties.conditional


def test_a_tie_in_the_else_branch_depends_on_the_negated_test() -> None:
    body = "        if tie and not share:\n            pass\n        else:\n            self.out.weight = self.emb.weight\n"
    assert _ties(HEAD + body)["M"][0] == "out.weight=emb.weight if not (tie and (not share))"


@pytest.mark.parametrize(
    "body",
    [
        "        if self.training:\n            self.out.weight = self.emb.weight\n",
        "        if self.training:\n            if tie:\n                self.out.weight = self.emb.weight\n",
        "        if flag():\n            self.out.weight = self.emb.weight\n",
        "        tie = not tie\n        if tie:\n            self.out.weight = self.emb.weight\n",
        "        if share:\n            return\n        self.out.weight = self.emb.weight\n",
        "        for _ in range(2):\n            self.out.weight = self.emb.weight\n",
    ],
    ids=["instance-attribute", "nested-under-attribute", "call", "rebound", "early-return", "loop"],
)
def test_a_tie_under_a_test_the_caller_cannot_ask_is_conditional(body: str) -> None:
    assert _ties(HEAD + body)["M"] == (CONDITIONAL,)


def test_ties_made_by_a_method_a_base_and_an_inner_module_count() -> None:
    found = _ties(
        """
        from torch import nn

        class Dec(nn.Module):
            def __init__(self, v, d):
                super().__init__()
                self.emb = nn.Embedding(v, d)
                self.out = nn.Linear(d, v)
                self.tie_weights()

            def tie_weights(self):
                self.out.weight = self.emb.weight

        class Child(Dec):
            pass

        class Outer(nn.Module):
            def __init__(self, v, d):
                super().__init__()
                self.dec = Dec(v, d)
        """
    )
    assert found["Dec"] == ("out.weight=emb.weight",)
    assert found["Child"] == ("out.weight=emb.weight",)
    assert found["Outer"] == ("dec.out.weight=dec.emb.weight",)
    assert not any(t.startswith(SIGNATURE) for t in found["Outer"])


def test_every_kept_python_file_is_read_without_error() -> None:
    files = [*ROOT.glob("golden/**/*.py"), *ROOT.glob("examples/**/*.py")]
    assert files
    for path in files:
        try:
            tree = ast.parse(path.read_text(encoding="utf-8", errors="replace"))
        except SyntaxError:
            continue
        module_ties(tree)
