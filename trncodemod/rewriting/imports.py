"""Names the tool introduces (``torch_xla``, ``xm``, ``xr``, ``pl``...) never take over a name the
file already binds: a rewrite that wrote ``torch_xla.sync()`` where the user's code binds
``torch_xla = model(x)`` would call the user's object (and the step-marker pass, no longer
recognising its own marker, would add one every round).

A name is taken when any scope of the file binds it other than by importing the very module the
tool means. The tool then reuses an import of that module under another name, or imports it
under a fresh one (``import torch_xla as _torch_xla``).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass

import libcst as cst
from libcst.helpers import get_full_name_for_node
from libcst.metadata import GlobalScope, ImportAssignment, MetadataWrapper, Scope, ScopeProvider

from trncodemod.analysis.cst_scopes import resolve
from trncodemod.analysis.facts import BLOCKS, DEFINITIONS
from trncodemod.analysis.nodes import visit


@dataclass(frozen=True)
class Bindings:
    """What every scope of one module binds, by name: for each binding, the module it binds the
    name to when it is an import of one (``imported_module``; else None), and whether that import
    is the global scope's; and every identifier the module spells."""

    by_name: dict[str, list[tuple[str | None, bool]]]
    spelled: frozenset[str]


def _scopes(wrapper: MetadataWrapper) -> Iterator[Scope]:
    seen: set[int] = set()
    for scope in resolve(wrapper, ScopeProvider).values():
        if scope is not None and id(scope) not in seen:
            seen.add(id(scope))
            yield scope


def module_bindings(wrapper: MetadataWrapper) -> Bindings:
    """The bindings LibCST's scope analysis records, and `case` captures (which it does not)."""
    by_name: dict[str, list[tuple[str | None, bool]]] = {}
    for scope in _scopes(wrapper):
        for assignment in scope.assignments:
            imported = imported_module(assignment, assignment.name)
            binding = (imported, imported is not None and isinstance(scope, GlobalScope))
            by_name.setdefault(assignment.name, []).append(binding)
    spelled = _Spelled()
    visit(wrapper.module, spelled)
    for name in spelled.captures:
        by_name.setdefault(name, []).append((None, False))
    return Bindings(by_name, frozenset(spelled.names) | frozenset(by_name))


# Python's nodes that bind their ``name``, beyond functions and classes (3.12's type parameters).
_NAMED_BINDINGS = frozenset(
    {"ExceptHandler", "MatchAs", "MatchStar", "TypeVar", "ParamSpec", "TypeVarTuple"}
)


def bindings_of(tree: ast.Module) -> Bindings:
    """``module_bindings`` of the code ``tree`` was parsed from, from Python's ``ast``, without
    a scope analysis (tests/test_introduced_names.py holds the two equal). An import is the
    global scope's when no function's or class's body holds it, or that body declares its
    name `global`."""
    by_name: dict[str, list[tuple[str | None, bool]]] = {}
    spelled: set[str] = set()

    def bind(name: str, imported: str | None = None, in_global: bool = False) -> None:
        by_name.setdefault(name, []).append((imported, imported is not None and in_global))

    # (node, the names its scope holds global: None in the global scope itself)
    stack: list[tuple[ast.AST, frozenset[str] | None]] = [(tree, None)]
    while stack:
        node, declared = stack.pop()
        kind = type(node)
        if kind is ast.Name:
            spelled.add(node.id)  # type: ignore[attr-defined]
            if type(node.ctx) is ast.Store:  # type: ignore[attr-defined]
                bind(node.id)  # type: ignore[attr-defined]
            continue
        if kind is ast.Import or kind is ast.ImportFrom:
            for alias in node.names:  # type: ignore[attr-defined]
                if alias.name != "*":
                    spelled.update(alias.name.split("."))
                if alias.asname:
                    spelled.add(alias.asname)
            if kind is ast.ImportFrom and node.module:  # type: ignore[attr-defined]
                spelled.update(node.module.split("."))  # type: ignore[attr-defined]
            for key in _import_keys(node):  # type: ignore[arg-type]
                bind(key, _imported(node, key), declared is None or key in declared)  # type: ignore[arg-type]
            continue
        if kind is ast.Attribute:
            spelled.add(node.attr)  # type: ignore[attr-defined]
        elif kind is ast.arg:
            spelled.add(node.arg)  # type: ignore[attr-defined]
            bind(node.arg)  # type: ignore[attr-defined]
        elif kind is ast.keyword:
            if node.arg:  # type: ignore[attr-defined]
                spelled.add(node.arg)  # type: ignore[attr-defined]
        elif kind in DEFINITIONS or kind.__name__ in _NAMED_BINDINGS:
            if node.name:  # type: ignore[attr-defined]
                spelled.add(node.name)  # type: ignore[attr-defined]
                bind(node.name)  # type: ignore[attr-defined]
        elif kind is ast.MatchMapping:
            if node.rest:  # type: ignore[attr-defined]
                spelled.add(node.rest)  # type: ignore[attr-defined]
                bind(node.rest)  # type: ignore[attr-defined]
        elif kind is ast.MatchClass:
            spelled.update(node.kwd_attrs)  # type: ignore[attr-defined]
        elif kind is ast.Global or kind is ast.Nonlocal:
            spelled.update(node.names)  # type: ignore[attr-defined]
        elif kind is ast.Constant:
            if node.value is None or node.value is True or node.value is False:  # type: ignore[attr-defined]
                spelled.add(repr(node.value))  # type: ignore[attr-defined]  # LibCST's names
        if kind in DEFINITIONS:
            inner = _declared_global(node)  # type: ignore[arg-type]
            stack.extend((child, inner) for child in node.body)  # type: ignore[attr-defined]
            body = {id(child) for child in node.body}  # type: ignore[attr-defined]
            stack.extend((c, declared) for c in ast.iter_child_nodes(node) if id(c) not in body)
        else:
            stack.extend((child, declared) for child in ast.iter_child_nodes(node))
    return Bindings(by_name, frozenset(spelled) | frozenset(by_name))


def _import_keys(node: ast.Import | ast.ImportFrom) -> list[str]:
    """The names LibCST records an import's assignments under: `import a.b` binds `a.b` and
    `a`, `import a.b as c` and `from m import a` one each; a star import none."""
    keys: list[str] = []
    for alias in node.names:
        if alias.name == "*":
            continue
        if alias.asname:
            keys.append(alias.asname)
        else:
            parts = alias.name.split(".")
            keys.extend(".".join(parts[:end]) for end in range(len(parts), 0, -1))
    return keys


def _imported(node: ast.Import | ast.ImportFrom, name: str) -> str | None:
    """``imported_module`` of the assignment of ``name`` that ``node`` makes."""
    if type(node) is ast.Import:
        for alias in node.names:
            if alias.asname:
                if alias.asname == name:
                    return alias.name
            elif alias.name.split(".")[0] == name:
                return name
    elif not node.level and node.module:  # type: ignore[union-attr]
        for alias in node.names:
            if (alias.asname or alias.name) == name:
                return f"{node.module}.{alias.name}"  # type: ignore[union-attr]
    return None


def _declared_global(
    scope: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef,
) -> frozenset[str]:
    """The names a `global` statement of ``scope``'s own body declares (not a nested one's)."""
    names: set[str] = set()
    stack: list[ast.AST] = list(scope.body)
    while stack:
        node = stack.pop()
        if type(node) is ast.Global:
            names.update(node.names)  # type: ignore[attr-defined]
        elif type(node) not in DEFINITIONS:
            for field in BLOCKS:
                stack.extend(getattr(node, field, ()))
    return frozenset(names)


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
    return all(imported == module for imported, _global in bindings.by_name.get(name, ()))


def name_for(bindings: Bindings, module: str, preferred: str) -> str:
    """The name under which to reach ``module``: ``preferred`` when the file leaves it to that
    module, else a module-level ``import module as X`` the file already has, else a fresh name."""
    if binds_only(bindings, preferred, module):
        return preferred
    for name, assignments in sorted(bindings.by_name.items()):
        for imported, in_global in assignments:
            if in_global and imported == module and binds_only(bindings, name, module):
                return name
    return fresh_name(bindings, "_" + preferred.lstrip("_").split(".")[-1])


def fresh_name(bindings: Bindings, preferred: str) -> str:
    """``preferred``, else ``preferred2``, ``preferred3``...: the first the file never spells."""
    candidate, number = preferred, 2
    while candidate in bindings.spelled:
        candidate, number = f"{preferred}{number}", number + 1
    return candidate
