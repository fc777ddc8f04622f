"""The first stage's view of the ``item-hoist`` pass, on Python's ``ast``: whether a step loop's own
statements hold a host read it plans from (``.item()``, a reduction's ``.tolist()``,
``float(t)``/``int(t)`` of a tensor). It over-estimates and decides no rewrite. ``REDUCTIONS``,
the tensor methods whose result it counts as a tensor, is shared with the pass's ``_sync`` and
with host-sync's ``.tolist()`` check.
"""

from __future__ import annotations

import ast

from trncodemod.analysis.facts import FileFacts
from trncodemod.analysis.step_scan import step_scan

REDUCTIONS = frozenset({"sum", "mean", "max", "min", "norm", "std", "var", "prod", "amax", "amin"})


def _backward_names(own: list[ast.AST]) -> set[str]:
    """Names ``.backward()`` is called on (or with) in a loop's own statements: a superset of
    ItemHoist._plan's ``backward`` (LibCST's arguments hold keywords too)."""
    names: set[str] = set()
    for node in own:
        if (
            type(node) is ast.Call
            and type(node.func) is ast.Attribute
            and node.func.attr == "backward"
        ):
            for value in [node.func.value, *node.args, *(k.value for k in node.keywords)]:
                if type(value) is ast.Name:
                    names.add(value.id)
    return names


def may_sync_per_step(facts: FileFacts) -> bool:
    """Whether a step loop's own statements hold a call ``ItemHoist._sync`` may take for a host
    read; ``ItemHoist.candidate`` asks it."""
    # Every finding and edit starts from a sync (_sync) in the own statements of a step
    # loop: `.item()`, `<reduction>().tolist()`, or `float(t)`/`int(t)` (any one-argument
    # call where `builtins` is spelled: `from builtins import float as f`).
    via_builtins = "builtins" in facts.identifiers
    if facts.calls.isdisjoint(("item", "tolist", "float", "int")) and not via_builtins:
        return False
    if not facts.loops:
        return False
    for loop in step_scan(facts).step_loops:
        backward: set[str] | None = None
        for node in loop.own:
            if type(node) is not ast.Call:
                continue
            func = node.func
            if type(func) is ast.Attribute and not node.args and not node.keywords:
                if func.attr == "item":
                    return True
                if (
                    func.attr == "tolist"
                    and type(func.value) is ast.Call
                    and type(func.value.func) is ast.Attribute
                    and func.value.func.attr in REDUCTIONS
                ):
                    return True
                continue
            if len(node.args) != 1 or node.keywords or type(node.args[0]) is ast.Starred:
                continue
            if not via_builtins and not (type(func) is ast.Name and func.id in ("float", "int")):
                continue
            value = node.args[0]
            if type(value) is ast.Name:
                if backward is None:
                    backward = _backward_names(loop.own)
                if value.id in backward:
                    return True
            elif (type(value) is ast.Attribute and value.attr == "loss") or (
                type(value) is ast.Call
                and type(value.func) is ast.Attribute
                and value.func.attr in REDUCTIONS
            ):
                return True
    return False
