"""The calls and ``with`` statements of a module that may name an autocast, a GradScaler or
``custom_fwd``/``custom_bwd``, found in one plain walk, computed once per tree: the ``amp`` pass
asks LibCST for qualified names only where ``may_name`` says they may end in one of
``LAST_PARTS``, since the other calls' names, worked out one by one, cost more than the rest of
the pass.
"""

from __future__ import annotations

import libcst as cst

from trncodemod.analysis.nodes import find

# The last part of every name the pass resolves a node to (autocast, scalers, custom_fwd/bwd).
LAST_PARTS = frozenset({"autocast", "GradScaler", "custom_fwd", "custom_bwd"})


class CallsAndWiths:
    """Every call and `with` in source order (what `m.findall` gives, read from the module's
    list of nodes: ``nodes.find``), and every name an import binds to something named like an
    autocast or a scaler."""

    def __init__(self) -> None:
        self.calls: list[cst.Call] = []
        self.withs: list[cst.With] = []
        self.imported: set[str] = set()

    def add(self, node: cst.CSTNode) -> None:
        kind = type(node)
        if kind is cst.Call:
            self.calls.append(node)  # type: ignore[arg-type]
        elif kind is cst.With:
            self.withs.append(node)  # type: ignore[arg-type]
        elif kind is cst.Import or kind is cst.ImportFrom:
            names = node.names  # type: ignore[attr-defined]
            if not isinstance(names, cst.ImportStar):
                for alias in names:
                    # A name an import binds resolves to the imported name, whose last part
                    # is the alias's own: `from torch.cuda.amp import autocast as ac`.
                    real = alias.evaluated_name
                    if real.rsplit(".", 1)[-1] in LAST_PARTS:
                        bound = alias.evaluated_alias or real
                        self.imported.add(bound.split(".", 1)[0])


def calls_and_withs(module: cst.Module) -> CallsAndWiths:
    found = CallsAndWiths()
    for node in find(module, cst.Call, cst.With, cst.Import, cst.ImportFrom):
        found.add(node)
    return found


def may_name(func: cst.BaseExpression, imported: set[str]) -> bool:
    """Whether LibCST may resolve ``func`` to a name ending in one of ``LAST_PARTS``, so that
    the pass need not ask for its qualified names where it cannot. LibCST names
    `f(...)` and `f[i]` as `f`; an attribute `a.b.c` keeps its last part `c` in every qualified
    name; a plain name keeps its own (`builtins.x`, `f.<locals>.x`, a class scope's `C.x`) but
    where an import binds it to another (`autocast as ac`)."""
    while True:
        if isinstance(func, cst.Call):
            func = func.func
        elif isinstance(func, cst.Subscript):
            func = func.value
        else:
            break
    if isinstance(func, cst.Attribute):
        return func.attr.value in LAST_PARTS
    if isinstance(func, cst.Name):
        return func.value in LAST_PARTS or func.value in imported
    return False
