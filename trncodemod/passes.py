"""What a pass is: a LibCST codemod over one parsed module that returns a tree and findings.

A pass never prints, never touches the file system and never knows the output format. The engine
builds a new instance for every file (LibCST #1334: one instance shared across files carried
state between them), so passes may keep per-file state on ``self``.
"""

from __future__ import annotations

import ast
import builtins
import functools
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

import libcst as cst
from libcst._metadata_dependent import LazyValue  # not re-exported; what get_metadata unwraps
from libcst.codemod import (
    Codemod,
    CodemodContext,
    ContextAwareTransformer,
    ContextAwareVisitor,
    VisitorBasedCodemodCommand,
)
from libcst.codemod.visitors import AddImportsVisitor, RemoveImportsVisitor
from libcst.codemod.visitors._add_imports import _GatherTopImportsBeforeStatements
from libcst.helpers import get_full_name_for_node
from libcst.metadata import (
    Assignment,
    CodeRange,
    MetadataWrapper,
    ParentNodeProvider,
    PositionProvider,
    QualifiedName,
    QualifiedNameProvider,
    QualifiedNameSource,
    ScopeProvider,
)
from libcst.metadata.position_provider import NEWLINE_RE, PositionProvidingCodegenState

from trncodemod.analysis.cst_scopes import resolve
from trncodemod.analysis.facts import FileFacts, NameTable
from trncodemod.analysis.nodes import children, in_place_visits, kinds_of, transform, walk
from trncodemod.analysis.program import LONE, ModuleView
from trncodemod.analysis.training import TrainingProfile
from trncodemod.config import Settings
from trncodemod.findings import Rule, Severity
from trncodemod.pipeline.suppressions import Suppressions
from trncodemod.rewriting.import_order import place_added_imports
from trncodemod.rewriting.imports import (
    Bindings,
    bindings_of,
    binds_only,
    fresh_name,
    module_bindings,
    name_for,
)
from trncodemod.rewriting.unused_imports import UnusedByText
from trncodemod.targets import Api, Target

if TYPE_CHECKING:
    from trncodemod.analysis.device import DeviceFacts

_MISSING = object()
T = TypeVar("T")
# What was worked out about one tree, by the tree's identity: the engine shares one tree (and
# wrapper) between the passes until a pass changes it, so the newest tree is the only one kept.
_tree: tuple[cst.Module, dict[str, Any]] | None = None


def per_tree(module: cst.Module, what: str, compute: Callable[[cst.Module], T]) -> T:
    """``compute(module)``, worked out once for the newest tree asked about. What it returns is
    shared: callers must not change it."""
    global _tree
    if _tree is None or _tree[0] is not module:
        _tree = (module, {})
    known = _tree[1]
    if what not in known:
        known[what] = compute(module)
    return known[what]


@functools.lru_cache(maxsize=1024)
def _last_parts(names: tuple[str, ...] | frozenset[str]) -> frozenset[str]:
    return frozenset(name.rsplit(".", 1)[-1] for name in names)


def known_names(full: str, table: NameTable) -> set[QualifiedName] | None:
    """What the scope analysis names a node of the tree ``table`` was read from whose name is
    ``full`` (``get_full_name_for_node``), where the first part is a name ``table`` settles:
    an import name names the import's name and the rest, a global-only name itself. None
    otherwise."""
    head = full.partition(".")[0]
    bound = table.imports.get(head)
    if bound is not None:
        return {QualifiedName(bound + full[len(head) :], QualifiedNameSource.IMPORT)}
    if head in table.global_only:
        return {QualifiedName(full, QualifiedNameSource.LOCAL)}
    return None


def known_names_at(
    module: cst.Module, node: cst.CSTNode, full: str, table: NameTable
) -> set[QualifiedName] | None:
    """``known_names``; for a shadowed name of the table, itself where no scope around ``node``
    (a node of ``module``) binds it (``_binds_around``); and for a name nothing binds, or only
    scopes that are not around ``node``, a builtin's name (`builtins.len` for `len`, and for
    `str.join`) or none."""
    names = known_names(full, table)
    if names is None:
        head = full.partition(".")[0]
        if head in table.shadowed:
            if not _binds_around(module, node, head):
                names = {QualifiedName(full, QualifiedNameSource.LOCAL)}
        elif (head not in table.bound and head not in table.imported) or (
            head in table.local_only and not _binds_around(module, node, head)
        ):
            names = (
                {QualifiedName(f"builtins.{head}", QualifiedNameSource.BUILTIN)}
                if hasattr(builtins, head)
                else set()
            )
    return names


# What opens a scope of its own; the first three have a body that is not their parent's scope.
_SCOPE_NODES = (
    cst.FunctionDef,
    cst.Lambda,
    cst.ClassDef,
    cst.ListComp,
    cst.SetComp,
    cst.DictComp,
    cst.GeneratorExp,
)
_NESTED_BODIES = (cst.FunctionDef, cst.Lambda, cst.ClassDef)
# The same, to test by class: `isinstance` against a LibCST class a node is not of goes through
# ABCMeta (a call in Python), and the way up from a node passes mostly such nodes.
_SCOPE_KINDS = frozenset(_SCOPE_NODES)


def _binds_around(module: cst.Module, node: cst.CSTNode, name: str) -> bool:
    """Whether a scope around ``node`` (a function, lambda, class or comprehension it lies in)
    may bind ``name``."""
    index = per_tree(module, "index", _index)
    bindings = per_tree(module, "scope bindings", lambda _module: {})
    current = index.parents.get(node)
    while current is not None:
        if type(current) in _SCOPE_KINDS:
            bound = bindings.get(current)
            if bound is None:
                bound = bindings[current] = _scope_binds(current)
            if name in bound:
                return True
        current = index.parents.get(current)
    return False


def _parameter_around(module: cst.Module, node: cst.CSTNode, name: str) -> bool:
    """Whether a function or lambda whose body holds ``node`` has a parameter ``name``: a read
    of it resolves to that function's scope or one inside it (a parameter is bound before any
    read in the body), never to the global scope or a builtin."""
    parents = per_tree(module, "index", _index).parents
    child, current = node, parents.get(node)
    while current is not None and current is not module:
        if type(current) in (cst.FunctionDef, cst.Lambda) and child is current.body:  # type: ignore[attr-defined]
            params = current.params  # type: ignore[attr-defined]
            stars = (params.star_arg, params.star_kwarg)
            every = (*params.posonly_params, *params.params, *params.kwonly_params, *stars)
            if any(isinstance(p, cst.Param) and p.name.value == name for p in every):
                return True
        child, current = current, parents.get(current)
    return False


def _function_binding(module: cst.Module, node: cst.CSTNode, name: str) -> bool | None:
    """For a read ``node`` of ``name`` (a name of the table's ``simple``: the scopes between a
    read and the function bodies around it bind nothing of it): True where it resolves to the
    bindings of a function around it, certainly: the first function body around it that binds
    the name (``first_bindings``) does so in a function nested around the read, or before the
    statement that holds it (LibCST counts a binding of the read's own scope only once its
    statement has ended, and otherwise looks further out). False where no body around it, the
    module's included, binds the name. None where that is not certain."""
    parents = per_tree(module, "index", _index).parents
    below, child, current = None, node, parents.get(node)
    nested = False  # a function's body lies between the read and ``current``
    parameter = False  # ``node`` is a parameter's name
    while current is not None and current is not module:
        if type(current) is cst.Param and child is current.name:  # type: ignore[attr-defined]
            parameter = True
        elif type(current) is cst.Lambda:
            parameter = False  # a lambda's parameter (never one of a ``simple`` name)
        elif type(current) is cst.FunctionDef and parameter and child is current.params:  # type: ignore[attr-defined]
            return True
        elif type(current) is cst.FunctionDef and child is current.body:  # type: ignore[attr-defined]
            at = first_bindings(module, current).get(name)  # type: ignore[arg-type]
            if at is not None:
                if nested or at == -1:
                    return True
                later = current.body.body[at + 1 :]  # type: ignore[attr-defined]
                return True if any(statement is below for statement in later) else None
            nested = True
        below, child, current = child, current, parents.get(current)
    return None if current is None or name in first_bindings(module, module) else False


def _scope_binds(scope: cst.CSTNode) -> frozenset[str]:
    """Every name ``scope`` may bind, generously: every name under an assignment, loop, `with`,
    `except`, walrus, `del` or `match` target, a parameter's, an import's, a `global` or
    `nonlocal` statement's, and a nested function's or class's (whose body is another scope,
    but whose decorators, defaults and bases are walked too)."""
    names: set[str] = set()
    stack = list(children(scope))
    while stack:
        node = stack.pop()
        kind = type(node)
        target = _TARGETS.get(kind)
        if target is not None:
            value = getattr(node, target)
            if isinstance(value, cst.CSTNode):
                names.update(n.value for n in walk(value) if type(n) is cst.Name)
        elif kind is cst.Param:
            names.add(node.name.value)  # type: ignore[attr-defined]
        elif kind is cst.Import or kind is cst.ImportFrom:
            aliases = node.names  # type: ignore[attr-defined]
            for alias in () if isinstance(aliases, cst.ImportStar) else aliases:
                bound = alias.evaluated_alias or alias.evaluated_name
                names.add(bound.split(".", 1)[0])
            continue
        elif kind is cst.Global or kind is cst.Nonlocal:
            names.update(item.name.value for item in node.names)  # type: ignore[attr-defined]
        elif kind is cst.MatchCase:
            names.update(n.value for n in walk(node.pattern) if type(n) is cst.Name)  # type: ignore[attr-defined]
        if kind in _NESTED_BODIES:
            if kind is not cst.Lambda:
                names.add(node.name.value)  # type: ignore[attr-defined]
            body = node.body  # type: ignore[attr-defined]
            stack.extend(child for child in children(node) if child is not body)
        else:
            stack.extend(children(node))
    return frozenset(names)


# The field that holds what a node binds.
_TARGETS = {
    cst.AssignTarget: "target",
    cst.AnnAssign: "target",
    cst.AugAssign: "target",
    cst.For: "target",
    cst.CompFor: "target",
    cst.WithItem: "asname",
    cst.ExceptHandler: "name",
    cst.ExceptStarHandler: "name",
    cst.NamedExpr: "target",
    cst.Del: "target",
    cst.TypeParam: "param",
}


@functools.lru_cache(maxsize=1024)
def _heads(names: tuple[str, ...] | frozenset[str]) -> frozenset[str]:
    return frozenset(name.partition(".")[0] for name in names)


def module_names_of(
    full: str, facts: FileFacts, module: cst.Module | None = None, node: cst.CSTNode | None = None
) -> set[str] | None:
    """``Pass.module_names`` of a node of the tree ``facts`` were read from whose name is
    ``full``, where the file's names settle it: None where the scopes must. A first part the
    name table settles names what ``known_names`` says. One that no import and no binding of
    the global scope binds has, from LibCST, a builtin's name (where it is a builtin's and
    nothing binds it anywhere) or a function's or class's local name, or none."""
    known = (
        known_names(full, facts.names)
        if module is None or node is None
        else known_names_at(module, node, full, facts.names)
    )
    if known is not None:
        return {q.name for q in known}
    head = full.partition(".")[0]
    table = facts.names
    if module is not None and node is not None and head not in table.declared:
        if head not in table.imported and _parameter_around(module, node, head):
            return set()  # a local's, whichever binding of the function's the read resolves to
        if head in table.simple:
            around = _function_binding(module, node, head)
            if around is True:
                if head not in table.imported:
                    return set()  # a local's
                target = table.import_targets.get(head)
                if target is not None and head not in table.bound:
                    return {target + full[len(head) :]}  # every binding imports ``target``
            elif around is False:
                return {f"builtins.{head}"} if hasattr(builtins, head) else set()
    if head in facts.bindings or head in facts.imported:
        return None
    if not hasattr(builtins, head):
        return set()
    if head in facts.names.bound:
        return None
    return {f"builtins.{head}"}


# A file without one of these is not PyTorch training code for any pass.
PYTORCH_SIGNS = ("torch", "transformers", "apex", "bitsandbytes", ".backward(")


def _same_line(line: int) -> int:
    return line


@dataclass(frozen=True)
class PassRun:
    """What a pass may read about the run: target, settings, enabled rules, suppressions, and
    the kind of training the file does (worked out once per file, from the text given)."""

    target: Target
    settings: Settings
    enabled: frozenset[str]
    suppressions: Suppressions
    profile: TrainingProfile
    # The names of the code the pass runs on (None: Python's parser refused it).
    facts: FileFacts | None = None
    # What the program the file belongs to says about it (analysis/program.py).
    program: ModuleView = LONE
    # A line of the text given -> the line of the code the pass runs on (earlier passes may
    # have added lines): the program's places are in the coordinates of the text given.
    from_original: Callable[[int], int] = _same_line
    # A line of the code the pass runs on -> the line of the text given (for related places).
    to_original: Callable[[int], int] = _same_line


@dataclass(frozen=True)
class RawFinding:
    """A finding in the coordinates of the text the pass was given (1-based line and column)."""

    line: int
    column: int
    rule: type[Rule]
    message: str
    fixed: bool
    related: tuple[str, ...] = ()  # other places of the same cause, "path:line:column"
    # Less than the rule's severity where the program says so (a blocker behind an opt-in flag).
    severity: Severity | None = None


class _PlainDispatch:
    """Plain ``visit_<Node>``/``leave_<Node>`` dispatch for a transformer that uses no matcher
    decorators (`@m.visit`, `@m.call_if_inside`) and no per-attribute hooks (`visit_Call_func`):
    LibCST's machinery for them tests every node against every decorator and looks up two hooks
    per child, which cost more than the passes' own work (measured on examples/gpt_amp.py: 6.4 s
    -> 4.8 s a file before the other savings; see benchmarks/README.md)."""

    on_visit = cst.CSTTransformer.on_visit
    on_leave = cst.CSTTransformer.on_leave

    def on_visit_attribute(self, node: cst.CSTNode, attribute: str) -> None:
        return None

    def on_leave_attribute(self, original_node: cst.CSTNode, attribute: str) -> None:
        return None


class PlainVisitor(cst.CSTVisitor):
    """A ``CSTVisitor`` without per-attribute hooks (``visit_Call_func``), which LibCST would
    look up by name twice for every child of every node; for the project's own walks."""

    def on_visit_attribute(self, node: cst.CSTNode, attribute: str) -> None:
        return None

    def on_leave_attribute(self, original_node: cst.CSTNode, attribute: str) -> None:
        return None


@dataclass(frozen=True)
class _Index:
    """Of one tree: every node's parent (what ParentNodeProvider gives), and the nodes the
    scope analysis gives no scope (an attribute's name, a keyword's, anything in an import or
    a `global` or `nonlocal` statement), whose qualified names are then none."""

    parents: dict[cst.CSTNode, cst.CSTNode]
    scopeless: set[int]
    # A node the tree holds in two places (a rewrite may reuse one): metadata keyed by node
    # cannot tell the two apart.
    repeated: bool


# Statements the scope analysis gives no scope to anything in.
_SCOPELESS_STATEMENTS = (cst.Import, cst.ImportFrom, cst.Global, cst.Nonlocal)


def _index(module: cst.Module) -> _Index:
    """One fast walk (``trncodemod.analysis.nodes``): gpt_amp.py 4 ms, where the provider took
    52 ms and a plain visitor 9 ms."""
    parents: dict[cst.CSTNode, cst.CSTNode] = {}
    scopeless: set[int] = set()
    stack: list[cst.CSTNode] = [module]
    pop, extend = stack.pop, stack.extend
    edges = 0
    while stack:
        node = pop()
        found = children(node)
        if not found:
            continue  # a leaf: nothing below it to index
        edges += len(found)
        for child in found:
            parents[child] = node
        extend(found)
        kind = type(node)
        if kind is cst.Attribute:
            scopeless.add(id(node.attr))  # type: ignore[attr-defined]
        elif kind is cst.Arg:
            if node.keyword is not None:  # type: ignore[attr-defined]
                scopeless.add(id(node.keyword))  # type: ignore[attr-defined]
        elif kind in _SCOPELESS_STATEMENTS:
            scopeless.update(id(below) for below in walk(node) if below is not node)
    return _Index(parents, scopeless, edges != len(parents))


def holds_no_node_twice(module: cst.Module) -> bool:
    """Whether every node of ``module`` has one place in it, so that metadata keyed by node
    (parents, scopes, positions) can be worked out on it; the walk is the one the passes' index
    of the tree needs, kept for them."""
    return not per_tree(module, "index", _index).repeated


def visible_assignments(
    module: cst.Module, name: cst.Name
) -> list[cst.Assign | cst.AnnAssign | None]:
    """What LibCST's scope analysis gives as ``scope[name.value]`` for ``name``, a node of
    ``module`` whose name is of the file's ``NameTable.simple``: the bindings of the first
    function body around it (then the module) that binds the name, as the statement of each
    that assigns a value to it as a whole target (`x = v`, `a = x = v`, `x: T = v`) and None
    for each other (a parameter, a loop target, an import...); [] where none binds it or
    ``name`` has no scope. The scopes between (a class's, a lambda's, a comprehension's) bind
    nothing of such a name."""
    if not _has_scope(module, name):
        return []
    for body in _bodies_around(module, name):
        if body is not None:
            found = body_bindings(module, body).get(name.value)
            if found:
                return found
    return []


def own_assignments(
    module: cst.Module, name: cst.Name
) -> list[cst.Assign | cst.AnnAssign | None] | None:
    """``Pass.own_assignments`` of ``name``, a node of ``module`` whose name is of the table's
    ``simple``: None where a lambda, class or comprehension lies between it and the body around
    it (of whose scope it may or may not be); [] where it has no scope."""
    if not _has_scope(module, name):
        return []
    body = next(_bodies_around(module, name), None)
    return None if body is None else body_bindings(module, body).get(name.value, [])


def _bodies_around(
    module: cst.Module, node: cst.CSTNode
) -> Iterator[cst.Module | cst.FunctionDef | None]:
    """The functions whose body holds ``node`` (a node of ``module``), innermost first, then the
    module; None for each lambda, class or comprehension on the way."""
    parents = per_tree(module, "index", _index).parents
    child, current = node, parents.get(node)
    parameter = False  # the way up passed a parameter's name, which its function binds
    while current is not None:
        kind = type(current)
        if kind is cst.FunctionDef:
            if child is current.body or parameter and child is current.params:  # type: ignore[attr-defined]
                yield current  # type: ignore[misc]
        elif current is module:
            yield current
        elif kind in _SCOPE_NODES:
            yield None
        if kind is cst.Param and child is current.name:  # type: ignore[attr-defined]
            parameter = True
        elif kind in _SCOPE_NODES:
            parameter = False
        child, current = current, parents.get(current)


def body_bindings(
    module: cst.Module, scope: cst.Module | cst.FunctionDef
) -> dict[str, list[cst.Assign | cst.AnnAssign | None]]:
    """Name -> what the statements of ``scope``'s body (``scope`` a node of ``module``) and its
    parameters bind it by: the statement, for an assignment of a value to it as a whole target
    (once for each such target); None for any other binding. Nested blocks count, a nested
    function's or class's body does not (its name does). Expressions are not walked: what they
    bind (a walrus, a comprehension's or lambda's names) no name of the table's ``simple`` is
    bound by."""
    return _body(module, scope)[0]


def first_bindings(module: cst.Module, scope: cst.Module | cst.FunctionDef) -> dict[str, int]:
    """Name -> the position in ``scope``'s body of the first statement that binds it (as
    ``body_bindings`` counts bindings); -1 for a parameter."""
    return _body(module, scope)[1]


def _body(
    module: cst.Module, scope: cst.Module | cst.FunctionDef
) -> tuple[dict[str, list[cst.Assign | cst.AnnAssign | None]], dict[str, int]]:
    known = per_tree(module, "body bindings", lambda _module: {})
    read = known.get(scope)
    if read is not None:
        return read  # type: ignore[no-any-return]
    found: dict[str, list[cst.Assign | cst.AnnAssign | None]] = {}
    first: dict[str, int] = {}
    known[scope] = (found, first)
    index = -1

    def bind(name: str, statement: cst.Assign | cst.AnnAssign | None) -> None:
        found.setdefault(name, []).append(statement)
        first.setdefault(name, index)

    def other(target: cst.CSTNode | None) -> None:
        for bound in _target_names(target):
            bind(bound, None)

    if isinstance(scope, cst.FunctionDef):
        params = scope.params
        for param in (*params.posonly_params, *params.params, *params.kwonly_params):
            other(param.name)
        for star in (params.star_arg, params.star_kwarg):
            if isinstance(star, cst.Param):
                other(star.name)
    statements = scope.body.body if isinstance(scope, cst.FunctionDef) else scope.body
    for position, top in enumerate(statements):
        index = position  # what ``bind`` records
        stack: list[cst.CSTNode] = [top]
        while stack:
            node = stack.pop()
            kind = type(node)
            if kind is cst.Assign:
                for target in node.targets:  # type: ignore[attr-defined]
                    if type(target.target) is cst.Name:
                        bind(target.target.value, node)  # type: ignore[arg-type]
                    else:
                        other(target.target)
                continue
            if kind is cst.AnnAssign:
                if node.value is not None and type(node.target) is cst.Name:  # type: ignore[attr-defined]
                    bind(node.target.value, node)  # type: ignore[arg-type,attr-defined]
                else:
                    other(node.target)  # type: ignore[attr-defined]
                continue
            if kind is cst.AugAssign or kind is cst.For:
                other(node.target)  # type: ignore[attr-defined]
            elif kind is cst.WithItem or kind is cst.ExceptHandler or kind is cst.ExceptStarHandler:
                bound = node.asname if kind is cst.WithItem else node.name  # type: ignore[attr-defined]
                if bound is not None:
                    other(bound.name)
            elif kind is cst.Import or kind is cst.ImportFrom:
                aliases = node.names  # type: ignore[attr-defined]
                for alias in () if isinstance(aliases, cst.ImportStar) else aliases:
                    name = alias.evaluated_alias or alias.evaluated_name
                    bind(name.split(".", 1)[0], None)
                continue
            elif kind in _NESTED_BODIES:
                if kind is not cst.Lambda:
                    bind(node.name.value, None)  # type: ignore[attr-defined]
                continue
            if kind not in _EXPRESSIONS:
                stack.extend(reversed(children(node)))
    return found, first


# Every class of expression, for ``_body``'s walk of the statements (by class, as above).
_EXPRESSIONS = kinds_of(cst.BaseExpression)


def _target_names(target: cst.CSTNode | None) -> list[str]:
    """The names a target binds: itself, or the names in a tuple or list of targets (not an
    attribute's or a subscript's)."""
    names: list[str] = []
    stack = [target]
    while stack:
        node = stack.pop()
        if type(node) is cst.Name:
            names.append(node.value)  # type: ignore[union-attr]
        elif type(node) in (cst.Tuple, cst.List):
            stack.extend(element.value for element in node.elements)  # type: ignore[union-attr]
    return names


class _Positions:
    """What PositionProvider gives a node, worked out for the top-level statement that holds it
    only: LibCST's provider generates the code of the whole module with a position for every
    node, where a finding needs one or two. Each statement's first line comes from the code of
    the statements before it (a fifth of the provider's cost), and its positions from the same
    codegen state the provider uses, started on that line. tests/test_positions.py holds every
    node's range to the provider's."""

    def __init__(self, module: cst.Module, tree: ast.Module | None = None) -> None:
        self.module = module
        self.tree = tree  # Python's ast of the same code, when it has one
        self.ranges: dict[cst.CSTNode, CodeRange] = {}  # what the codegen state records
        self._computed = self.ranges  # the state's provider: this, for ``_computed``
        self.first_lines: dict[cst.CSTNode, int] | None = None
        # Each top-level statement's ast statement (the first, for a line of several), where
        # the two trees pair up.
        self.paired: dict[cst.CSTNode, ast.stmt] | None = None
        self.done: set[cst.CSTNode] = set()

    def range(self, node: cst.CSTNode) -> CodeRange | None:
        """``node``'s range; None for the module, its header and footer, and a node not in it.
        With the ast, the code generated is that of the innermost statement of a block around
        ``node`` (not of a whole class): its first line is its ast statement's."""
        known = self.ranges.get(node)
        if known is not None:
            return known
        parents = _parents(self.module)
        path = [node]
        while (parent := parents.get(path[-1])) is not None and parent is not self.module:
            path.append(parent)
        top = path[-1]
        if parent is None or top in self.done:
            return None
        if self.first_lines is None:
            self.first_lines = self._first_lines()
        line = self.first_lines.get(top)
        if line is None:
            return None
        anchor, indents = top, []
        if self.paired is not None and top in self.paired:
            anchor, line, indents = _innermost(path[::-1], self.paired[top], line, self.module)
        state = PositionProvidingCodegenState(
            default_indent=self.module.default_indent,
            default_newline=self.module.default_newline,
            provider=self,  # type: ignore[arg-type]
            line=line,
        )
        state.indent_tokens = indents
        anchor._codegen(state)
        self.done.add(anchor)
        return self.ranges.get(node)

    def _first_lines(self) -> dict[cst.CSTNode, int]:
        if self.tree is not None:
            found = _first_lines_of(self.module, self.tree)
            if found is not None:
                first, self.paired = found
                return first
        line = 1 + sum(_lines(self.module.code_for_node(h)) for h in self.module.header)
        first: dict[cst.CSTNode, int] = {}
        for statement in self.module.body:
            first[statement] = line
            line += _lines(self.module.code_for_node(statement))
        return first


def _first_lines_of(
    module: cst.Module, tree: ast.Module
) -> tuple[dict[cst.CSTNode, int], dict[cst.CSTNode, ast.stmt]] | None:
    """Each top-level statement's first line, from Python's ast of the same code: the line of
    its first small statement (or decorator), less the blank and comment lines LibCST gives it
    (``leading_lines``, one line each); and its (first) ast statement. None where the two
    trees' statements do not pair up."""
    statements = iter(tree.body)
    first: dict[cst.CSTNode, int] = {}
    paired: dict[cst.CSTNode, ast.stmt] = {}
    for statement in module.body:
        count = len(statement.body) if isinstance(statement, cst.SimpleStatementLine) else 1
        found = [next(statements, None) for _ in range(count)]
        if found[0] is None or found[-1] is None:
            return None
        head = found[0]
        first[statement] = _first_line(statement, head)
        paired[statement] = head
    return None if next(statements, None) is not None else (first, paired)


def _first_line(statement: cst.BaseStatement, head: ast.stmt) -> int:
    line = min([head.lineno, *(d.lineno for d in getattr(head, "decorator_list", ()))])
    return line - len(statement.leading_lines)


# The ast statements a compound statement of LibCST's pairs with.
_COMPOUND_ASTS: dict[type, tuple[type, ...]] = {
    cst.FunctionDef: (ast.FunctionDef, ast.AsyncFunctionDef),
    cst.ClassDef: (ast.ClassDef,),
    cst.If: (ast.If,),
    cst.For: (ast.For, ast.AsyncFor),
    cst.While: (ast.While,),
    cst.With: (ast.With, ast.AsyncWith),
    cst.Try: (ast.Try,),
}


def _innermost(
    down: list[cst.CSTNode], head: ast.stmt, line: int, module: cst.Module
) -> tuple[cst.CSTNode, int, list[str]]:
    """Of the path ``down`` from a top-level statement (paired with ``head``, first line
    ``line``) to a node: the innermost statement of an indented block on it whose ast statement
    is certain, with its first line and the indentation of the blocks around it."""
    anchor, indents = down[0], []
    current, paired = down[0], head
    at = 1
    while at < len(down) and type(current) in _COMPOUND_ASTS:
        if not isinstance(paired, _COMPOUND_ASTS[type(current)]):
            break
        child = down[at]
        statements: list[ast.stmt] | None = None
        if child is getattr(current, "body", None):
            statements = paired.body  # type: ignore[attr-defined]
        elif type(child) is cst.If and child is getattr(current, "orelse", None):
            orelse = paired.orelse  # type: ignore[attr-defined]  # an `elif`: the ast's If
            if len(orelse) != 1 or type(orelse[0]) is not ast.If:
                break
            current, paired, at = child, orelse[0], at + 1
            continue
        else:  # a clause whose body is the block: `else`, `except`, `finally`
            statements = _clause_statements(current, child, paired)
            at += 1
            child = down[at] if at < len(down) else None
        if statements is None or type(child) is not cst.IndentedBlock or at + 1 >= len(down):
            break
        statement = down[at + 1]
        count = 0
        for sibling in child.body:  # type: ignore[union-attr]
            if sibling is statement:
                break
            count += len(sibling.body) if type(sibling) is cst.SimpleStatementLine else 1  # type: ignore[attr-defined]
        else:
            break  # the block's header or footer, not a statement of it
        if count >= len(statements):
            break
        found = statements[count]
        if type(statement) is cst.SimpleStatementLine:
            if isinstance(found, _COMPOUND):
                break
        elif not isinstance(found, _COMPOUND_ASTS.get(type(statement), ())):
            break
        indents.append(module.default_indent if child.indent is None else child.indent)  # type: ignore[union-attr]
        anchor, line = statement, _first_line(statement, found)  # type: ignore[arg-type]
        current, paired, at = statement, found, at + 2
    return anchor, line, indents


def _clause_statements(
    current: cst.CSTNode, clause: cst.CSTNode, paired: ast.stmt
) -> list[ast.stmt] | None:
    """The ast statements of the body of ``clause`` (an `else`, `except` or `finally` of
    ``current``, paired with ``paired``); None for anything else on the path (a test, a
    decorator, whitespace)."""
    if type(clause) is cst.Else and clause is getattr(current, "orelse", None):
        return paired.orelse  # type: ignore[attr-defined,no-any-return]
    if type(clause) is cst.ExceptHandler and type(current) is cst.Try:
        index = next(i for i, h in enumerate(current.handlers) if h is clause)
        return paired.handlers[index].body  # type: ignore[attr-defined,no-any-return]
    if type(clause) is cst.Finally and clause is getattr(current, "finalbody", None):
        return paired.finalbody  # type: ignore[attr-defined,no-any-return]
    return None


_COMPOUND = tuple(kind for kinds in _COMPOUND_ASTS.values() for kind in kinds) + (
    ast.Match,
    *((ast.TryStar,) if hasattr(ast, "TryStar") else ()),
)


def _lines(code: str) -> int:
    """How many line breaks ``code`` holds, as the codegen state counts them."""
    return len(NEWLINE_RE.findall(code))


def _parents(module: cst.Module) -> dict[cst.CSTNode, cst.CSTNode]:
    return per_tree(module, "index", _index).parents


def _has_scope(module: cst.Module, node: cst.CSTNode) -> bool:
    """Whether the scope analysis of ``module`` gives ``node`` a scope: a node of the tree, and
    not one of ``_Index.scopeless``."""
    index = per_tree(module, "index", _index)
    return node in index.parents and id(node) not in index.scopeless


class _NoMatcherSetUp(ContextAwareTransformer):
    """Set up as ``ContextAwareTransformer`` does, less the matcher base's scan of every attribute
    of the class for decorated methods (15 ms an instance on a 20-line file): for transformers
    with plain dispatch. Placed after a LibCST codemod in the bases, it is what that codemod's
    ``super().__init__(context)`` calls."""

    def __init__(self, context: CodemodContext) -> None:
        Codemod.__init__(self, context)
        cst.CSTTransformer.__init__(self)


class _NoMatcherVisitorSetUp(ContextAwareVisitor):
    """Set up as ``ContextAwareVisitor`` is, less the matcher base's scans of every attribute of
    the class for decorated methods, for a visitor that has none and declares no metadata.
    Placed after a LibCST visitor in the bases, it is what that visitor's
    ``super().__init__(context)`` calls."""

    def __init__(self, context: CodemodContext) -> None:
        cst.MetadataDependent.__init__(self)
        cst.CSTVisitor.__init__(self)
        self.context = context


class _TopImports(_GatherTopImportsBeforeStatements, _NoMatcherVisitorSetUp):
    """LibCST's gatherer of the imports a module starts with. Its one hook, ``leave_Module``,
    reads the module's leading statements itself, so it is called on the module instead of
    walked over it: a walk would call nothing else, after the matcher machinery had scanned the
    class and tested every node (the set-up, the scans and the walk were a twentieth of a
    training run)."""


class _AddImports(_PlainDispatch, AddImportsVisitor, _NoMatcherSetUp):
    def visit_Module(self, node: cst.Module) -> None:
        # AddImportsVisitor.visit_Module of LibCST 1.9 (codemod/visitors/_add_imports.py), with
        # its gatherer of the imports already there (``_TopImports``) called on the module, not
        # walked over it.
        gatherer = _TopImports(self.context)
        gatherer.leave_Module(node)
        self.all_imports = gatherer.all_imports

        self.module_imports = self.module_imports - gatherer.module_imports
        for module, alias in gatherer.module_aliases.items():
            if module in self.module_aliases and self.module_aliases[module] == alias:
                del self.module_aliases[module]
        for module, aliases in gatherer.alias_mapping.items():
            for obj, alias in aliases:
                if module in self.alias_mapping and (obj, alias) in self.alias_mapping[module]:
                    self.alias_mapping[module].remove((obj, alias))
                    if len(self.alias_mapping[module]) == 0:
                        del self.alias_mapping[module]

        for module, imports in gatherer.object_mapping.items():
            if module not in self.module_mapping:
                continue  # not an import the module is given
            elif "*" in imports:
                del self.module_mapping[module]  # a star import already imports everything
            else:
                self.module_mapping[module] = self.module_mapping[module] - imports
                if not self.module_mapping[module]:
                    del self.module_mapping[module]

    def on_visit(self, node: cst.CSTNode) -> bool:
        # It changes only the module and its top-level `from` imports (leave_ImportFrom acts on
        # the gathered ones alone): nothing inside another statement needs visiting.
        if isinstance(node, cst.BaseCompoundStatement) or (
            isinstance(node, cst.SimpleStatementLine)
            and not any(isinstance(small, cst.ImportFrom) for small in node.body)
        ):
            return False
        return super().on_visit(node)


class _RemoveImports(_PlainDispatch, RemoveImportsVisitor, _NoMatcherSetUp):
    pass


class _RemoveImportsByText(_RemoveImports):
    """``_RemoveImports`` answered by ``UnusedByText`` instead of a scope analysis of a copy of
    the tree; it visits import statements and what holds them only."""

    def __init__(self, context: CodemodContext, unused: UnusedByText) -> None:
        super().__init__(context)
        self._unused_imports = unused  # type: ignore[assignment]

    def visit_Module(self, node: cst.Module) -> None:
        return None  # RemoveImportsVisitor's gathers the unused imports with the scopes

    def on_visit(self, node: cst.CSTNode) -> bool:
        if isinstance(node, cst.BaseExpression) or (
            isinstance(node, cst.BaseSmallStatement) and not isinstance(node, _IMPORTS)
        ):
            return False
        return super().on_visit(node)


_IMPORTS = (cst.Import, cst.ImportFrom)


def _remove_imports(context: CodemodContext, tree: cst.Module) -> cst.Module:
    """What ``RemoveImportsVisitor`` makes of ``tree``: without LibCST's scope analysis where the
    tree's text settles which of the imports it would remove are unused (``UnusedByText``)."""
    unused = UnusedByText(tree)
    removed = transform(tree, _RemoveImportsByText(context, unused))
    if not unused.undecided:
        return removed  # type: ignore[no-any-return]
    with in_place_visits():  # its scope analysis (of a copy of the tree) walks in place
        return _RemoveImports(context).transform_module(tree)


class Pass(_PlainDispatch, VisitorBasedCodemodCommand, _NoMatcherSetUp):
    name: ClassVar[str]
    rules: ClassVar[tuple[type[Rule], ...]]
    # Text prefilter: the pass can only act on a file that contains one of these strings.
    needles: ClassVar[tuple[str, ...]]
    # Passes whose rewrites this one must look at again wherever they land; otherwise it runs
    # again on a rewritten file only where the rewrite added or removed one of its needles.
    sees: ClassVar[frozenset[str]] = frozenset()
    # Names whose import, added or removed by another pass, changes this pass's verdict on
    # code that does not read them (a file that imports torch_xla is an XLA file); otherwise an
    # import matters to it only where the code it did not change reads the name.
    imports_seen: ClassVar[frozenset[str]] = frozenset()

    METADATA_DEPENDENCIES = (
        PositionProvider,
        QualifiedNameProvider,
        ParentNodeProvider,
        ScopeProvider,
    )

    def __init__(self, context: CodemodContext, run: PassRun) -> None:
        super().__init__(context)  # _NoMatcherSetUp: no pass uses matcher decorators
        self.run = run
        self.target = run.target
        self.settings = run.settings
        self.findings: list[RawFinding] = []

    def transform_module_impl(self, tree: cst.Module) -> cst.Module:
        """LibCST's walk (``tree.visit(self)``), without rebuilding the nodes that did not
        change (``trncodemod.analysis.nodes.transform``; tests/test_nodes.py holds the two
        equal)."""
        return transform(tree, self)  # type: ignore[no-any-return]

    def transform_with(self, wrapper: MetadataWrapper) -> cst.Module:
        """Run on ``wrapper.module``, resolving metadata through ``wrapper``: passes that run on the
        same tree share one wrapper, so scopes and qualified names are computed once per tree
        rather than once per pass (LibCST's ``transform_module`` builds a wrapper per codemod)."""
        self._wrapper = wrapper
        self.metadata = {}
        self.context = replace(self.context, wrapper=wrapper)
        # Its visitors' walks (``m.findall``'s among them) in place: LibCST's copies every node
        # it passes, which was a twelfth of a training run.
        with in_place_visits():
            try:
                tree = self.transform_module_impl(wrapper.module)
            finally:
                self.metadata = {}
        if AddImportsVisitor.CONTEXT_KEY in self.context.scratch:
            # It reads no metadata: no wrapper, so no copy of the tree.
            tree = _AddImports(self.context).transform_module_impl(tree)
        if RemoveImportsVisitor.CONTEXT_KEY in self.context.scratch:
            tree = _remove_imports(self.context, tree)
        return tree if tree is wrapper.module else place_added_imports(wrapper.module, tree)

    def get_metadata(self, key, node, default=_MISSING):  # type: ignore[no-untyped-def]
        """LibCST's lookup, with each provider resolved on first use rather than before the pass
        runs: a pass that finds nothing to do never pays for scopes, parents or positions, and the
        wrapper keeps what was resolved for the next pass on the same tree. Qualified names and
        parents are worked out here, the same values for a fraction of the providers' time, and
        positions a top-level statement at a time (``_Positions``)."""
        if key is QualifiedNameProvider:
            return self._qualified(node, default)
        if key is ParentNodeProvider:
            parents = _parents(self._wrapper.module)
            return parents[node] if default is _MISSING else parents.get(node, default)
        if key is PositionProvider and key not in self.metadata:
            module = self._wrapper.module
            facts = self.run.facts
            lone_cr = facts is not None and facts.text.count("\r") != facts.text.count("\r\n")
            tree = None if facts is None or lone_cr else facts.tree  # lone CR: line counts differ
            found = per_tree(module, "positions", lambda m: _Positions(m, tree)).range(node)
            if found is not None:
                return found
            if node is not module and node not in _parents(module):  # not a node of the tree
                if default is _MISSING:
                    raise KeyError(node)
                return default
        table = self.metadata.get(key)
        if table is None:
            table = self.metadata[key] = resolve(self._wrapper, key)
        value = table[node] if default is _MISSING else table.get(node, default)
        return value() if isinstance(value, LazyValue) else value

    def _qualified(self, node, default):  # type: ignore[no-untyped-def]
        """What QualifiedNameProvider gives (``scope.get_qualified_names_for(node)``, none where
        the node has no scope), asked of the scope only for the nodes a pass looks at (the
        provider walks every node and costs as much as the scopes: gpt_amp.py 61 of 124 ms),
        and only where the file's name table does not settle them (``known_names``: most of
        what passes ask, at a fraction of a scope analysis)."""
        known = per_tree(self._wrapper.module, "qualified names", lambda _module: {})
        names = known.get(node)
        if names is None:
            if not _has_scope(self._wrapper.module, node):
                return set() if default is _MISSING else default
            full = get_full_name_for_node(node)
            facts = self.run.facts
            if full is None:
                names = set()
            elif (
                facts is None
                or (names := known_names_at(self._wrapper.module, node, full, facts.names)) is None
            ):
                names = self.get_metadata(ScopeProvider, node).get_qualified_names_for(node)
            known[node] = names
        return names

    # -- what the engine asks before running the pass --------------------------------------
    @classmethod
    def applies_to(cls, target: Target) -> bool:
        return cls.name not in target.skip_passes

    @classmethod
    def may_match(cls, text: str) -> bool:
        # Every pass is about PyTorch code: a file with no sign of it is not parsed (TorchFix's
        # "torch" prefilter, widened to the libraries and the autograd call our rules cover), and
        # a loop calling another library's .step() is left alone.
        return any(sign in text for sign in PYTORCH_SIGNS) and any(
            needle in text for needle in cls.needles
        )

    @classmethod
    def candidate(cls, facts: FileFacts, target: Target) -> bool:
        """The first stage (``trncodemod.analysis.facts``): False only where the pass, run on the
        code ``facts`` were read from, would neither report nor change anything, so the engine
        need not run it (nor parse the file, when no pass is a candidate). It may say True too
        often, never False where the pass acts: ``tests/test_first_stage.py`` holds every pass
        to that over the golden inputs, and ``benchmarks/first_stage.py`` over real code."""
        return True

    @classmethod
    def asked_by(cls, program: ModuleView) -> bool:
        """Whether the program asks the pass to act on this module whatever its code (a device
        decided here that other modules use): run it even where ``candidate`` says no."""
        return False

    # -- what a pass uses ------------------------------------------------------------------
    def enabled(self, rule: type[Rule]) -> bool:
        return rule.code in self.run.enabled

    def report(self, node: cst.CSTNode, rule: type[Rule], message: str, fixed: bool) -> bool:
        """Record a finding at ``node`` (an original node). False, and nothing recorded, when the
        rule is not selected or a comment suppresses it there: the pass must then leave the code
        as it is."""
        if not self.enabled(rule):
            return False
        start = self.get_metadata(PositionProvider, node).start
        if self.run.suppressions.covers(start.line, rule.code):
            return False
        self.findings.append(
            RawFinding(start.line, start.column + 1, rule, message, fixed and rule.fixable)
        )
        return True

    def place(self, node: cst.CSTNode) -> str:
        """``node``'s place in the text given, as related places name it: "path:line:column"."""
        start = self.get_metadata(PositionProvider, node).start
        return f"{self.context.filename}:{self.run.to_original(start.line)}:{start.column + 1}"

    def parents(self) -> dict[cst.CSTNode, cst.CSTNode]:
        """Every node of the tree the pass runs on, with its parent (ParentNodeProvider's)."""
        return _parents(self._wrapper.module)

    def qualified_names(self, node: cst.CSTNode) -> set[str]:
        return {q.name for q in self.get_metadata(QualifiedNameProvider, node, set())}

    def device_facts(self, module: cst.Module) -> DeviceFacts:
        """The training device of ``module`` and what decides it (``analysis.device``), worked
        out once a tree for every pass, with the flags it reads that another module sets
        (``ModuleView.imported_flags``)."""
        from trncodemod.analysis.device import analyse  # it walks with this module's visitors

        view = self.run.program
        return per_tree(
            module,
            "device",
            lambda tree: analyse(
                tree,
                self.module_names,
                view.imported_flags,
                view.launch_flags,
                view.deciding_checks,
            ),
        )

    def module_names(self, node: cst.CSTNode) -> frozenset[str]:
        """What ``qualified_names`` gives, less the names of a function's or a class's own
        (`f.<locals>.x`, `C.x`): the names under a module (through an import, or a binding of
        the global scope: `torch = None` names `torch.x` "torch.x") and `builtins`. For a pass
        that looks for library names, which a local never has; most of what it asks about
        (`model.to`, `self.linear`) then needs no scope analysis (``module_names_of``).

        Worked out once a node for every pass on the same tree: the answer hangs on the tree and
        the facts of its text alone, and the passes ask about the same calls (every call's
        `func`) over and over, 33,785 times for 10,370 nodes on four training modules. What it
        returns is shared: a frozenset, so that no caller can change it."""
        module = self._wrapper.module
        known = per_tree(module, "module names", lambda _module: {})
        names = known.get(node)
        if names is None:
            names = known[node] = frozenset(self._module_names(module, node))
        return names

    def _module_names(self, module: cst.Module, node: cst.CSTNode) -> set[str]:
        full = get_full_name_for_node(node)
        if full is None or not _has_scope(module, node):
            return set()
        facts = self.run.facts
        fast = None if facts is None else module_names_of(full, facts, module, node)
        if fast is None:
            fast = {
                q.name
                for q in self.get_metadata(QualifiedNameProvider, node, set())
                if q.source is not QualifiedNameSource.LOCAL or q.name == full
            }
        if not fast and facts is not None:
            # A name no binding of the file gives, that a star import of a given module does
            # (`torch` through `from utils import *`).
            head, dot, rest = full.partition(".")
            star = self.run.program.star_modules.get(head)
            table = facts.names
            if star is not None and head not in table.bound and head not in table.imported:
                return {star + dot + rest}
        return fast

    def is_any(self, node: cst.CSTNode, names: Iterable[str]) -> bool:
        """Whether ``node`` resolves to one of ``names``. A qualified name of `a.b.attr` ends in
        `attr`, and one of a name no import binds ends in that name: when no name asked for
        ends so, the answer is no without resolving scopes (98% of the calls on real training
        scripts, a fifth of their run)."""
        names = names if isinstance(names, (tuple, frozenset)) else tuple(names)
        last = _last_parts(names)
        if isinstance(node, cst.Attribute):
            if node.attr.value not in last:
                return False
        elif isinstance(node, cst.Name) and node.value not in last:
            facts = self.run.facts
            if facts is not None and not ({node.value, "*"} & facts.imported):
                return False
        facts = self.run.facts
        if facts is not None and _heads(names).isdisjoint(facts.global_names):
            # No name asked for can be a function's or class's local (those start with the
            # name of a function or class of the global scope).
            return not self.module_names(node).isdisjoint(names)
        return not self.qualified_names(node).isdisjoint(names)

    def bound_values(self, name: cst.Name) -> list[cst.BaseExpression] | None:
        """Every value ``name`` is bound to where it is read (its scope and the enclosing ones):
        ``name = value``, ``a = name = value`` or ``name: T = value``. None when one binding is
        anything else (a parameter, a loop target, tuple unpacking, ``+=``, an import), or there
        is none: then what the name holds is not certain."""
        facts = self.run.facts
        if facts is not None and name.value not in facts.assigned:
            return None  # no binding of it anywhere is an assignment of a value
        found = self.visible_assignments(name)
        if found is not None:
            if not found or None in found:
                return None
            return [statement.value for statement in found]  # type: ignore[union-attr,misc]
        scope = self.get_metadata(ScopeProvider, name, None)
        assignments = scope[name.value] if scope is not None else ()
        if not assignments:
            return None
        values = []
        for assignment in assignments:
            if not isinstance(assignment, Assignment):
                return None
            target = assignment.node
            parent = self.get_metadata(ParentNodeProvider, target, None)
            if isinstance(parent, cst.AssignTarget) and parent.target is target:
                values.append(self.get_metadata(ParentNodeProvider, parent).value)
            elif isinstance(parent, cst.AnnAssign) and parent.target is target and parent.value:
                values.append(parent.value)
            else:
                return None
        return values

    def visible_assignments(self, name: cst.Name) -> list[cst.Assign | cst.AnnAssign | None] | None:
        """LibCST's ``scope[name.value]`` for the scope ``name`` is read in (the bindings of
        the first scope around it that binds it), where the file's names settle it without a
        scope analysis (``NameTable.simple``): the statement of each assignment of a value to
        it as a whole target, None for each other binding. None where they do not."""
        facts = self.run.facts
        if facts is None or name.value not in facts.names.simple:
            return None
        return visible_assignments(self._wrapper.module, name)

    def own_assignments(self, name: cst.Name) -> list[cst.Assign | cst.AnnAssign | None] | None:
        """LibCST's ``scope.assignments[name.value]`` for the scope ``name`` is read in, as
        ``visible_assignments`` gives them, where the file's names settle it: read in a
        function's body or the global scope's. None otherwise."""
        facts = self.run.facts
        if facts is None or name.value not in facts.names.simple:
            return None
        return own_assignments(self._wrapper.module, name)

    def emit(self, api: Api) -> cst.BaseExpression:
        """The target's expression for ``api``, with its import scheduled once per module. Where
        the file binds the name the import would (``xm = ...``, a local ``torch_xla``), the
        module is reached under another name (``trncodemod.rewriting.imports``)."""
        name = self.add_import(api.module, api.alias)
        expr = api.expr
        if api.alias and name != api.alias:
            expr = name + expr[len(api.alias) :]
        elif not api.alias and name != api.module.split(".")[0]:
            prefix = api.module if expr.startswith(api.module) else api.module.split(".")[0]
            expr = name + expr[len(prefix) :]
        return cst.parse_expression(expr)

    def add_import(self, module: str, alias: str = "", obj: str | None = None) -> str:
        """Schedule ``import module [as alias]`` (or ``from module import obj``); the name that
        reaches it. A ``torch_xla`` module whose name the file binds otherwise is imported under
        another name, which callers must then use (``emit`` does)."""
        root = module.split(".")[0]
        name = alias or obj or root
        bindings = self._bindings()
        if obj is None and root == "torch_xla" and bindings is not None:
            if alias:
                name = name_for(bindings, module, alias)
            elif not binds_only(bindings, root, root):
                name = name_for(bindings, module, module.split(".")[-1])
            if name != root or alias:
                AddImportsVisitor.add_needed_import(self.context, module, None, name)
                return name
        AddImportsVisitor.add_needed_import(self.context, module, obj, alias or None)
        return name

    def fresh_name(self, preferred: str) -> str:
        """A name for something the pass defines (a closure, a helper): ``preferred`` unless the
        file already spells it, then ``preferred2``, ``preferred3``..."""
        bindings = self._bindings()
        return preferred if bindings is None else fresh_name(bindings, preferred)

    def _bindings(self) -> Bindings | None:
        wrapper = getattr(self, "_wrapper", None)
        if wrapper is None:  # not run through the engine (a test building a pass by hand)
            return None
        facts = self.run.facts
        if facts is not None:  # the same, without a scope analysis
            return per_tree(wrapper.module, "bindings", lambda _module: bindings_of(facts.tree))
        return per_tree(wrapper.module, "bindings", lambda _module: module_bindings(wrapper))
