"""Names the tool introduces (``torch_xla``, ``xm``, ``xr``, ``pl``...) never take over a name the
file already binds: a rewrite that wrote ``torch_xla.sync()`` where the user's code binds
``torch_xla = model(x)`` would call the user's object (and the step-marker pass, no longer
recognising its own marker, would add one every round).

A name is taken when any scope of the file binds it other than by importing the very module the
tool means. The tool then reuses an import of that module under another name, or imports it
under a fresh one (``import torch_xla as _torch_xla``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import libcst as cst
from libcst.helpers import get_full_name_for_node
from libcst.metadata import GlobalScope, ImportAssignment, MetadataWrapper, Scope, ScopeProvider

from trncodemod.analysis.nodes import visit


@dataclass(frozen=True)
class Bindings:
    """What every scope of one module binds, by name, and every identifier the module spells."""

    by_name: dict[str, list[tuple[Scope | None, object]]]  # name -> (scope, assignment)
    spelled: frozenset[str]


def _scopes(wrapper: MetadataWrapper) -> Iterator[Scope]:
    seen: set[int] = set()
    for scope in wrapper.resolve(ScopeProvider).values():
        if scope is not None and id(scope) not in seen:
            seen.add(id(scope))
            yield scope


def module_bindings(wrapper: MetadataWrapper) -> Bindings:
    by_name: dict[str, list[tuple[Scope | None, object]]] = {}
    for scope in _scopes(wrapper):
        for assignment in scope.assignments:
            by_name.setdefault(assignment.name, []).append((scope, assignment))
    spelled = _Spelled()
    visit(wrapper.module, spelled)
    for name in spelled.captures:  # LibCST's scopes do not record `case` captures
        by_name.setdefault(name, []).append((None, "match capture"))
    return Bindings(by_name, frozenset(spelled.names) | frozenset(by_name))


class _Spelled(cst.CSTVisitor):
    def __init__(self) -> None:
        self.names: set[str] = set()
        self.captures: set[str] = set()

    def visit_Name(self, node: cst.Name) -> None:
        self.names.add(node.value)

    def visit_MatchAs(self, node: cst.MatchAs) -> None:
        if node.name is not None:
            self.captures.add(node.name.value)

    def visit_MatchStar(self, node: cst.MatchStar) -> None:
        if node.name is not None:
            self.captures.add(node.name.value)

    def visit_MatchMapping(self, node: cst.MatchMapping) -> None:
        if node.rest is not None:
            self.captures.add(node.rest.value)


def imported_module(assignment: object, name: str) -> str | None:
    """The module ``name`` is bound to when ``assignment`` is ``import M as name``, ``import name``
    (or ``import name.sub``: ``name`` is the package) or ``from P import M as name``; else None."""
    if not isinstance(assignment, ImportAssignment):
        return None
    node = assignment.node
    if isinstance(node, cst.Import):
        for alias in node.names:
            dotted = get_full_name_for_node(alias.name) or ""
            if alias.asname is not None:
                if get_full_name_for_node(alias.asname.name) == name:
                    return dotted
            elif dotted.split(".")[0] == name:
                return name
    elif isinstance(node, cst.ImportFrom) and not node.relative and node.module is not None:
        if isinstance(node.names, cst.ImportStar):
            return None
        base = get_full_name_for_node(node.module)
        for alias in node.names:
            bound = alias.asname.name if alias.asname is not None else alias.name
            if get_full_name_for_node(bound) == name:
                return f"{base}.{get_full_name_for_node(alias.name)}"
    return None


def binds_only(bindings: Bindings, name: str, module: str) -> bool:
    """Whether every binding of ``name`` in the file, if any, is an import of ``module``."""
    return all(
        imported_module(assignment, name) == module
        for _scope, assignment in bindings.by_name.get(name, ())
    )


def name_for(bindings: Bindings, module: str, preferred: str) -> str:
    """The name under which to reach ``module``: ``preferred`` when the file leaves it to that
    module, else a module-level ``import module as X`` the file already has, else a fresh name."""
    if binds_only(bindings, preferred, module):
        return preferred
    for name, assignments in sorted(bindings.by_name.items()):
        for scope, assignment in assignments:
            if (
                isinstance(scope, GlobalScope)
                and isinstance(assignment, ImportAssignment)
                and imported_module(assignment, name) == module
                and binds_only(bindings, name, module)
            ):
                return name
    return fresh_name(bindings, "_" + preferred.lstrip("_").split(".")[-1])


def fresh_name(bindings: Bindings, preferred: str) -> str:
    """``preferred``, else ``preferred2``, ``preferred3``...: the first the file never spells."""
    candidate, number = preferred, 2
    while candidate in bindings.spelled:
        candidate, number = f"{preferred}{number}", number + 1
    return candidate
