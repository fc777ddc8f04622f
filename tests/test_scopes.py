"""The scope analysis run in place (``trncodemod.analysis.cst_scopes``) is LibCST's: the same scope
for every node, and in every scope the same assignments, accesses and qualified names."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, ScopeProvider
from test_nodes import EVERY_KIND

from trncodemod.analysis.cst_scopes import resolve
from trncodemod.analysis.nodes import walk
from trncodemod.commands.golden import find_cases

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted(
    {case.input for case in find_cases(ROOT / "golden")} | set(ROOT.glob("examples/*.py"))
)
# What LibCST's scope analysis gets wrong or leaves out is not ours to fix: a string annotation,
# a name read before its binding, a class body's names, `global` and `nonlocal`.
SCOPES = """
import torch, torch.nn as nn
from typing import TYPE_CHECKING
x: "torch.Tensor" = torch.zeros(1)
def f(a, b=x):
    global x
    def g():
        nonlocal a
        a = [y for y in range(a) if y]
        return lambda q: q + a
    x = g
    return x
class C(nn.Module):
    w = 1
    def m(self):
        return w, self.w, C.w
print(late)
late = 1
del late
"""


def _summary(module: cst.Module, scopes: Any) -> list[Any]:
    """What a pass can read of the analysis, with nodes by identity and scopes by their node."""

    def key(scope: Any) -> Any:
        return None if scope is None else (type(scope).__name__, id(getattr(scope, "node", None)))

    found: list[Any] = []
    for node in walk(module):
        scope = scopes.get(node)
        found.append((type(node).__name__, key(scope)))
        if scope is not None and isinstance(node, (cst.Name, cst.Attribute, cst.Call)):
            found.append(
                sorted((q.name, q.source.name) for q in scope.get_qualified_names_for(node))
            )
    for scope in {id(s): s for s in scopes.values() if s is not None}.values():
        assignments = sorted(
            (
                name,
                type(a).__name__,
                id(getattr(a, "node", None)),
                a._index,
                sorted(id(r.node) for r in a.references),
            )
            for name in scope._assignments
            for a in scope._assignments[name]
        )
        accesses = sorted(
            (
                name,
                id(a.node),
                a._index,
                a.is_annotation,
                a.is_type_hint,
                sorted(id(getattr(r, "node", None)) for r in a.referents),
            )
            for name in scope._accesses_by_name
            for a in scope._accesses_by_name[name]
        )
        found.append((key(scope), scope._assignment_count, assignments, accesses))
    return found


@pytest.mark.parametrize(
    "source",
    [*SOURCES, None, "scopes"],
    ids=[*(p.relative_to(ROOT).as_posix() for p in SOURCES), "every", "scopes"],
)
def test_scopes_are_libcsts(source: Path | str | None) -> None:
    if source is None or source == "scopes":
        text = EVERY_KIND if source is None else SCOPES
    else:
        text = source.read_text("utf-8")  # type: ignore[union-attr]
    module = cst.parse_module(text)
    theirs = MetadataWrapper(module, unsafe_skip_copy=True).resolve(ScopeProvider)
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    ours = resolve(wrapper, ScopeProvider)
    assert wrapper.resolve(ScopeProvider) is ours  # kept for LibCST's own later asks
    assert _summary(module, ours) == _summary(module, theirs)


def test_providers_hook_only_the_module() -> None:
    """``scopes`` runs these providers' one hook without LibCST's batched walk, which would call
    nothing else."""
    from libcst.metadata import ExpressionContextProvider

    from trncodemod.analysis.cst_scopes import _ScopeProvider

    for provider in (ExpressionContextProvider, ScopeProvider, _ScopeProvider):
        assert list(provider().get_visitors()) == ["visit_Module"]
