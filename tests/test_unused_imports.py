"""Removing imports without a scope analysis (``rewriting.unused_imports``) gives what LibCST's
``RemoveImportsVisitor`` gives, and asks LibCST wherever the text does not settle it."""

from __future__ import annotations

import libcst as cst
import pytest
from libcst.codemod import CodemodContext
from libcst.codemod.visitors import RemoveImportsVisitor

from trncodemod import passes
from trncodemod.rewriting.unused_imports import UnusedByText

# (code, scheduled removals as (module, obj, alias)), whether the text settles every answer
CASES = [
    (
        "from torch.amp import autocast\nimport torch\nx = torch.ones(1)\n",
        [("torch.amp", "autocast", None)],
        True,
    ),
    (
        "from torch.amp import autocast\nwith self.accelerator.autocast():\n    pass\n",
        [("torch.amp", "autocast", None)],
        True,
    ),
    (
        "from torch.amp import autocast\n@autocast('xla')\ndef f():\n    pass\n",
        [("torch.amp", "autocast", None)],
        True,  # read below its import, its only binding
    ),
    (  # read in the global scope above its import: not a read of it (LibCST decides)
        "autocast()\nfrom torch.amp import autocast\n",
        [("torch.amp", "autocast", None)],
        False,
    ),
    (  # read in a function above its import: a read of it, but not settled by the line
        "def f():\n    autocast()\nfrom torch.amp import autocast\n",
        [("torch.amp", "autocast", None)],
        False,
    ),
    (  # bound twice: which binding a read sees needs the scopes
        "from torch.amp import autocast\ndef f(autocast):\n    autocast()\n",
        [("torch.amp", "autocast", None)],
        False,
    ),
    (
        "from torch.cuda.amp import autocast\nfrom torch.amp import autocast\nautocast()\n",
        [("torch.cuda.amp", "autocast", None)],
        False,
    ),
    (  # an import in a function, read elsewhere
        "def f():\n    from torch.amp import autocast\ndef g():\n    autocast()\n",
        [("torch.amp", "autocast", None)],
        False,
    ),
    (
        "try:\n    from torch.amp import autocast\nexcept ImportError:\n    pass\n"
        "with autocast('xla'):\n    pass\n",
        [("torch.amp", "autocast", None)],
        True,
    ),
    (  # `del` is no read of it
        "from torch.amp import autocast\ndel autocast\n",
        [("torch.amp", "autocast", None)],
        False,
    ),
    ("from torch.amp import autocast\n# autocast here\n", [("torch.amp", "autocast", None)], False),
    (
        "from torch.amp import autocast\n__all__ = ['autocast']\n",
        [("torch.amp", "autocast", None)],
        False,
    ),
    (
        "from torch.cuda.amp import GradScaler, autocast  # amp\nscaler = 1\n",
        [("torch.cuda.amp", "GradScaler", None)],
        True,
    ),
    (
        "from torch.cuda.amp import (\n    GradScaler,  # keep me\n    autocast,\n)\nautocast()\n",
        [("torch.cuda.amp", "GradScaler", None)],
        True,
    ),
    ("import torch.cuda.amp as amp\nimport torch\n", [("torch.cuda.amp", None, "amp")], True),
    ("import torch.cuda.amp as amp\namp.autocast()\n", [("torch.cuda.amp", None, "amp")], True),
    ("import apex.amp\nimport torch\n", [("apex.amp", None, None)], True),
    ("import apex.amp\napex.amp.initialize()\n", [("apex.amp", None, None)], True),
    (
        "def f():\n    from torch.amp import autocast\n    return 1\n",
        [("torch.amp", "autocast", None)],
        True,
    ),
    ("from __future__ import annotations\nx = 1\n", [("__future__", "annotations", None)], True),
    ("from . import autocast\nx = 1\n", [("", "autocast", None)], True),
    (
        "from torch.amp import autocast as ac\nautocast = 1\n",
        [("torch.amp", "autocast", "ac")],
        True,
    ),
    ("import os; from torch.amp import autocast; x = 1\n", [("torch.amp", "autocast", None)], True),
    (
        "from torch.amp import autocast\nimport autocast.x\ny.autocast()\n",
        [("torch.amp", "autocast", None)],
        True,
    ),
    ("from torch.amp import autocast\nx = 'autocast'\n", [("torch.amp", "autocast", None)], False),
    ("from torch.amp import autocast\nimport torch\n", [("torch.nn", "autocast", None)], True),
]


@pytest.mark.parametrize(("code", "removals", "settled"), CASES)
def test_removal_is_libcsts(
    code: str, removals: list, settled: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    tree = cst.parse_module(code)

    def context() -> CodemodContext:
        made = CodemodContext(filename="x.py")
        for module, obj, alias in removals:
            RemoveImportsVisitor.remove_unused_import(made, module, obj, alias)
        return made

    expected = RemoveImportsVisitor(context()).transform_module(tree).code
    asked: list[bool] = []
    libcst_way = passes._RemoveImports.transform_module

    def ask_libcst(self, module):  # type: ignore[no-untyped-def]
        asked.append(True)
        return libcst_way(self, module)

    monkeypatch.setattr(passes._RemoveImports, "transform_module", ask_libcst)
    assert passes._remove_imports(context(), tree).code == expected
    assert asked == ([] if settled else [True])


def test_an_undecided_answer_is_used() -> None:
    tree = cst.parse_module("from torch.amp import autocast\nautocast()\nautocast = 1\n")
    alias = tree.body[0].body[0].names[0]  # type: ignore[attr-defined]
    unused = UnusedByText(tree)
    assert alias not in unused
    assert unused.undecided
