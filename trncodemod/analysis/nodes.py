"""Walking a LibCST tree without LibCST's visitor machinery, for the analyses that only read it.

``node.children``, ``m.findall`` and a ``CSTVisitor`` all go through the node's
``_visit_and_replace_children``, which builds (and validates) a new copy of every node on the way:
about a parse's worth of work for one walk of a module. Reading the fields directly gives the same
nodes in the same order at a quarter of that (llama's modeling file: 26 ms for ``children``, 27 ms
for ``m.findall``, 17 ms for a plain visitor, 6 ms here).

The order is LibCST's own: a node class's ``_visit_and_replace_children`` visits its fields in the
order its source names them (``visit_required(self, "body", ...)``), which is read once per class.
``tests/test_nodes.py`` holds ``children`` equal to ``node.children`` for every node of the golden
inputs and examples.

``transform`` runs a transformer the same way: the passes' own walk, rebuilding only the nodes
whose children changed (LibCST rebuilds every node it visits, changed or not).
"""

from __future__ import annotations

import ast
import contextlib
import inspect
import itertools
import textwrap
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import libcst as cst

# By node class: its fields in the order LibCST visits them, each with the `visit_*` helpers its
# `_visit_and_replace_children` uses for it (ImportFrom's `names` has two: a star or a sequence).
_FIELDS: dict[type, tuple[tuple[str, frozenset[str]], ...] | None] = {}


def _visit_fields(kind: type) -> tuple[tuple[str, frozenset[str]], ...] | None:
    """The fields ``kind._visit_and_replace_children`` visits, in order, with how; None where
    its source cannot be read (then LibCST's own methods are used)."""
    try:
        source = textwrap.dedent(inspect.getsource(kind._visit_and_replace_children))  # type: ignore[attr-defined]
    except (OSError, TypeError):
        return None
    visits = sorted(
        (call.lineno, call.col_offset, call.args[1].value, call.func.id)
        for call in ast.walk(ast.parse(source))
        if isinstance(call, ast.Call)
        and isinstance(call.func, ast.Name)
        and call.func.id.startswith("visit_")
        and len(call.args) >= 2
        and isinstance(call.args[1], ast.Constant)
        and isinstance(call.args[1].value, str)
    )
    how: dict[str, set[str]] = {}
    for _line, _column, name, helper in visits:
        how.setdefault(name, set()).add(helper)
    return tuple((name, frozenset(helpers)) for name, helpers in how.items())


def _fields(kind: type) -> tuple[tuple[str, frozenset[str]], ...] | None:
    try:
        return _FIELDS[kind]
    except KeyError:
        found = _FIELDS[kind] = _visit_fields(kind)
        if found == ():
            _LEAVES.add(kind)
        return found


# The kinds whose ``_visit_and_replace_children`` visits no field (whitespace, a newline, a
# comment): they never have children, and they are two fifths of the nodes walks meet (741,724
# of 1,867,665 asks of ``children`` on the training corpus were a ``SimpleWhitespace``).
_LEAVES: set[type] = set()


# What a visited field holds when it holds no node (checked by type: `isinstance(x, cst.CSTNode)`
# goes through ABCMeta, a tenth of a walk's time when asked for every field of every node).
_NONE = type(None)


# Nodes that hold nothing but other such nodes: whitespace, comments, punctuation and operators,
# two thirds of a real module's nodes (denoising-diffusion-pytorch's 1,000-line module: 13,700 of
# 20,900). A walk whose visitor has no hook for any of them skips them: visiting one would call
# no hook and change nothing (``tests/test_nodes.py`` holds the closure).
TOKENS: frozenset[type] = frozenset(
    {
        cst.SimpleWhitespace,
        cst.ParenthesizedWhitespace,
        cst.TrailingWhitespace,
        cst.EmptyLine,
        cst.Comment,
        cst.Newline,
        cst.Comma,
        cst.Dot,
        cst.Colon,
        cst.Semicolon,
        cst.AssignEqual,
        cst.LeftParen,
        cst.RightParen,
        cst.LeftSquareBracket,
        cst.RightSquareBracket,
        cst.LeftCurlyBrace,
        cst.RightCurlyBrace,
        cst.ImportStar,
        cst.Asynchronous,
        *(
            kind
            for base in (
                cst.BaseBinaryOp,
                cst.BaseBooleanOp,
                cst.BaseCompOp,
                cst.BaseUnaryOp,
                cst.BaseAugOp,
            )
            for kind in vars(cst).values()
            # `base in kind.__mro__`, not `issubclass`: the node classes are ABCs, and asking
            # `issubclass` of each cost 0.12 s at every start of the tool
            if isinstance(kind, type) and base in kind.__mro__ and kind is not base
        ),
    }
)
_NOTHING: frozenset[type] = frozenset()
_SKIPS: dict[type, frozenset[type]] = {}


def _skippable(kind: type) -> frozenset[type]:
    """``TOKENS`` where the visitor class ``kind`` has no ``visit_``/``leave_`` hook of its own
    for any of them (LibCST's base classes have a stub for every kind, which does nothing), else
    nothing."""
    found = _SKIPS.get(kind)
    if found is None:
        hooked = False
        for token in TOKENS:
            for prefix in ("visit", "leave"):
                name = f"{prefix}_{token.__name__}"
                method = getattr(kind, name, None)
                if method is not None and all(
                    method is not getattr(base, name, None) for base in _STUBS
                ):
                    hooked = True
        found = _SKIPS[kind] = _NOTHING if hooked else TOKENS
    return found


_STUBS = (cst.CSTTransformer, cst.CSTVisitor)
_STUB_CLASSES = frozenset(kind for base in _STUBS for kind in base.__mro__)


# Each node's children, by the node's id (with the node, which keeps the id from being reused):
# a node never changes, and the analyses walk the same nodes over and over, within a version of
# a tree and across versions, which share every node a rewrite left alone (1.76 million asks on
# four training modules). Emptied by ``forget_children`` before the engine reads each file.
_CHILDREN: dict[int, tuple[cst.CSTNode, tuple[cst.CSTNode, ...]]] = {}
# Past this many nodes the table is emptied, whoever forgets to.
_CHILDREN_KEPT = 2_000_000


def children(node: cst.CSTNode) -> tuple[cst.CSTNode, ...]:
    """The nodes ``node.children`` lists, in its order, without copying the node: a tuple, since
    every caller shares it."""
    kind = type(node)
    if kind in _LEAVES:
        return ()
    known = _CHILDREN.get(id(node))
    if known is not None and known[0] is node:
        return known[1]
    fields = _FIELDS.get(kind) or _fields(kind)
    if fields is None:
        return tuple(node.children)
    found: list[cst.CSTNode] = []
    for field, _how in fields:
        value = getattr(node, field)
        kind = type(value)
        if kind is tuple or kind is list:
            found.extend(value)  # LibCST's helpers visit every item: each is a node
        elif kind is not _NONE and kind is not cst.MaybeSentinel:
            found.append(value)  # a visited field holds a node, nothing, or MaybeSentinel
    if len(_CHILDREN) >= _CHILDREN_KEPT:
        _CHILDREN.clear()
    result = _CHILDREN[id(node)] = (node, tuple(found))
    return result[1]


def forget_children() -> None:
    """Let go of the nodes ``children`` and ``_below`` keep (the engine calls it before each
    file)."""
    _CHILDREN.clear()
    _BELOW.clear()


# A bit for each kind of node LibCST has, for ``_below``'s masks.
_BITS: dict[type, int] = {
    kind: 1 << i
    for i, kind in enumerate(
        k for k in vars(cst).values() if isinstance(k, type) and cst.CSTNode in k.__mro__
    )
}
_KINDS_BY_NAME: dict[str, type] = {kind.__name__: kind for kind in _BITS}


def kinds_of(base: type) -> frozenset[type]:
    """The node classes LibCST exports that are ``base`` or under it (every class a node can
    have), for `type(node) in ...` where `isinstance(node, base)` would go through ABCMeta."""
    return frozenset(kind for kind in _BITS if base in kind.__mro__)


ANY_KIND = -1  # the mask of a walk that skips nothing
# By node id (with the node): the kinds of the node and of every node under it but tokens.
_BELOW: dict[int, tuple[cst.CSTNode, int]] = {}


def _bit(kind: type) -> int:
    try:
        return _BITS[kind]
    except KeyError:  # a kind LibCST does not export: no visitor can name it, every walk enters
        return ANY_KIND


def _below(node: cst.CSTNode) -> int:
    """The mask of the kinds of ``node`` and every node under it, tokens left out."""
    known = _BELOW.get(id(node))
    if known is not None and known[0] is node:
        return known[1]
    mask = _bit(type(node))
    for child in children(node):
        if type(child) not in TOKENS:
            mask |= _below(child)
    if len(_BELOW) >= _CHILDREN_KEPT:
        _BELOW.clear()
    _BELOW[id(node)] = (node, mask)
    return mask


_HOOKED: dict[type, int] = {}


def _hooked(kind: type) -> int:
    """The mask of the kinds the visitor class ``kind`` has a `visit_<Node>` or `leave_<Node>`
    hook of its own for: a walk need not enter a node with none of them under it, where no hook
    would be called and nothing could change. ``ANY_KIND`` where it hooks a token (whose kinds
    the masks leave out) or something that names no kind (an attribute hook)."""
    found = _HOOKED.get(kind)
    if found is None:
        found = 0
        # The names the classes above LibCST's stubs define: ``dir(kind)`` lists the stubs'
        # 1,635 names too, each then looked up, for every new class (a visitor class defined in
        # a function is a new class at every call): nearly 1 % of a training run.
        names = {name for base in kind.__mro__ if base not in _STUB_CLASSES for name in vars(base)}
        for name in names:
            prefix, _, suffix = name.partition("_")
            if prefix not in ("visit", "leave") or not suffix:
                continue
            method = getattr(kind, name, None)
            if method is None or any(method is getattr(base, name, None) for base in _STUBS):
                continue
            hooked = _KINDS_BY_NAME.get(suffix)
            if hooked is None or hooked in TOKENS:
                found = ANY_KIND
                break
            found |= _BITS[hooked]
        _HOOKED[kind] = found
    return found


def walk(root: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """``root`` and every node under it, in source order (a parent before its children)."""
    stack = [root]
    pop, extend = stack.pop, stack.extend
    while stack:
        node = pop()
        yield node
        if type(node) not in _LEAVES:
            extend(reversed(children(node)))


def find(root: object, *kinds: type) -> list:  # type: ignore[type-arg]
    """The nodes under ``root`` (itself included) of one of ``kinds``, in source order: what
    ``m.findall(root, m.Call())`` gives for ``find(root, cst.Call)`` (nothing for a sentinel).
    A module's nodes are listed once (``_module_nodes``): passes look for kinds of node in the
    whole module over and over (every `Assign`, every string), each time a walk of it."""
    if type(root) not in _BITS and not isinstance(root, cst.CSTNode):
        return []
    matches, skip = _matches(kinds)
    if type(root) is not cst.Module or skip is _NOTHING:
        return _find_under(root, kinds, matches, skip)  # type: ignore[arg-type]
    nodes, positions = _module_nodes(root)  # type: ignore[arg-type]
    wanted = [at for kind, at in positions.items() if _match(matches, kind, kinds)]
    if not wanted:
        return []
    at = wanted[0] if len(wanted) == 1 else sorted(itertools.chain.from_iterable(wanted))
    return [nodes[i] for i in at]


# By the ``kinds`` of a ``find``: whether each class of node is one of them (`issubclass`, worked
# out once: the node classes are ABCs, and `isinstance` against an ABC that a node is not costs
# as much as the rest of a walk's step), and the kinds its walk need not enter: tokens, which
# hold nothing but tokens, where none is asked for.
_MATCHES: dict[tuple[type, ...], tuple[dict[type, bool], frozenset[type]]] = {}


def _matches(kinds: tuple[type, ...]) -> tuple[dict[type, bool], frozenset[type]]:
    found = _MATCHES.get(kinds)
    if found is None:
        matches = {kind: issubclass(kind, kinds) for kind in _BITS}
        skip = _NOTHING if any(matches[token] for token in TOKENS) else TOKENS
        found = _MATCHES[kinds] = (matches, skip)
    return found


def _match(matches: dict[type, bool], kind: type, kinds: tuple[type, ...]) -> bool:
    found = matches.get(kind)
    if found is None:  # a class LibCST does not export
        found = matches[kind] = issubclass(kind, kinds)
    return found


def _find_under(
    root: cst.CSTNode, kinds: tuple[type, ...], matches: dict[type, bool], skip: frozenset[type]
) -> list[cst.CSTNode]:
    """``find`` by a walk of ``root`` (``walk``'s order) that does not enter the kinds ``skip``."""
    found: list[cst.CSTNode] = []
    stack = [root]
    pop, extend = stack.pop, stack.extend
    while stack:
        node = pop()
        kind = type(node)
        hit = matches.get(kind)
        if hit is None:
            hit = _match(matches, kind, kinds)
        if hit:
            found.append(node)
        if kind not in skip and kind not in _LEAVES:
            extend(reversed(children(node)))
    return found


# The newest module ``find`` was asked about: its nodes but tokens (and what is under them) in
# source order, and by kind their positions in that list. A tree never changes, and the engine
# runs the passes on one tree until one of them rewrites it.
_NODES: tuple[cst.Module, list[cst.CSTNode], dict[type, list[int]]] | None = None


def _module_nodes(module: cst.Module) -> tuple[list[cst.CSTNode], dict[type, list[int]]]:
    global _NODES
    if _NODES is None or _NODES[0] is not module:
        nodes: list[cst.CSTNode] = []
        positions: defaultdict[type, list[int]] = defaultdict(list)
        stack: list[cst.CSTNode] = [module]
        pop, extend, append = stack.pop, stack.extend, nodes.append
        while stack:
            node = pop()
            kind = type(node)
            if kind in TOKENS:
                continue
            positions[kind].append(len(nodes))
            append(node)
            if kind not in _LEAVES:
                extend(reversed(children(node)))
        _NODES = (module, nodes, dict(positions))
    return _NODES[1], _NODES[2]


def transform(node: cst.CSTNode, visitor: cst.CSTTransformer) -> Any:
    """``node.visit(visitor)`` for a transformer without per-attribute hooks
    (``visit_Call_func``): the same calls of ``on_visit`` and ``on_leave`` in the same order,
    with the same ``original_node``, and an ``updated_node`` equal to LibCST's (the node itself
    where no child changed, where LibCST passes a copy). Removal and flattening follow LibCST's
    ``visit_*`` helpers."""
    if _fields(cst.Module) is None:  # LibCST installed without its source: its own walk
        return node.visit(visitor)
    kind = type(visitor)
    if (
        kind.on_visit is cst.CSTTransformer.on_visit
        and kind.on_leave is cst.CSTTransformer.on_leave
    ):
        hooks = _plain_hooks(visitor)
        skip = _skippable(kind)
        hooked = _hooked(kind)
    else:
        hooks = (visitor.on_visit, visitor.on_leave)
        skip = _NOTHING
        hooked = ANY_KIND
    result = _transform(node, *hooks, skip, hooked)
    if isinstance(node, cst.Module):  # Module.visit
        if isinstance(result, cst.RemovalSentinel):
            return node.with_changes(body=(), header=(), footer=())
        if isinstance(result, cst.FlattenSentinel):
            raise TypeError("cannot flatten a Module")
    return result


def _plain_hooks(visitor: cst.CSTTransformer | cst.CSTVisitor) -> tuple[Any, Any]:
    """LibCST's ``on_visit`` and ``on_leave`` (call ``visit_<Node>``/``leave_<Node>`` where the
    transformer or visitor has one), with each looked up once per node class. A visitor's
    ``on_leave`` takes the node alone."""
    visits: dict[type, Any] = {}
    leaves: dict[type, Any] = {}

    def hook(hooks: dict[type, Any], prefix: str, kind: type) -> Any:
        try:
            return hooks[kind]
        except KeyError:
            found = hooks[kind] = getattr(visitor, f"{prefix}_{kind.__name__}", None)
            return found

    def on_visit(node: cst.CSTNode) -> bool:
        method = visits.get(type(node)) or hook(visits, "visit", type(node))
        return method is None or method(node) is not False

    def on_leave(original: cst.CSTNode, updated: Any) -> Any:
        method = leaves.get(type(original)) or hook(leaves, "leave", type(original))
        return updated if method is None else method(original, updated)

    def on_leave_visitor(original: cst.CSTNode) -> None:
        method = leaves.get(type(original)) or hook(leaves, "leave", type(original))
        if method is not None:
            method(original)

    return on_visit, on_leave if isinstance(visitor, cst.CSTTransformer) else on_leave_visitor


def _transform(
    node: cst.CSTNode,
    on_visit: Callable[[cst.CSTNode], bool],
    on_leave: Callable[[cst.CSTNode, Any], Any],
    skip: frozenset[type],
    hooked: int,
) -> Any:
    """``node`` transformed; the nodes of ``skip`` kinds under it are left as they are, unvisited,
    and so is a node with no kind of ``hooked`` in it (``_below``)."""
    updated = node
    if on_visit(node):
        fields = _FIELDS.get(type(node)) or _fields(type(node))
        if fields is None:  # transform() checked that LibCST's source is there
            raise RuntimeError(f"LibCST's source of {type(node).__name__} cannot be read")
        else:
            changes: dict[str, Any] = {}
            for field, how in fields:
                value = getattr(node, field)
                kind = type(value)
                if kind is tuple or kind is list:
                    items = _transform_sequence(
                        value, on_visit, on_leave, "visit_body_sequence" in how, skip, hooked
                    )
                    if items is not None:
                        changes[field] = items
                elif kind in skip:
                    continue
                elif kind is not _NONE and kind is not cst.MaybeSentinel:
                    if hooked != ANY_KIND and not _below(value) & hooked:
                        continue
                    new = _transform(value, on_visit, on_leave, skip, hooked)
                    if new is value:
                        continue
                    if isinstance(new, cst.FlattenSentinel):
                        raise TypeError(f"{type(node).__name__}.{field} cannot be flattened")
                    if isinstance(new, cst.RemovalSentinel):
                        if "visit_optional" in how:
                            new = None
                        elif "visit_sentinel" in how:
                            new = cst.MaybeSentinel.DEFAULT
                        else:
                            raise TypeError(f"{type(node).__name__}.{field} cannot be removed")
                    changes[field] = new
            if changes:
                updated = node.with_changes(**changes)
    result = on_leave(node, updated)
    if result is not updated and not isinstance(
        result, (cst.CSTNode, cst.RemovalSentinel, cst.FlattenSentinel)
    ):
        raise cst.CSTValidationError(
            "Expected a node of type CSTNode or a RemovalSentinel, "
            f"but got a return value of {type(result).__name__}"
        )
    return result


def _transform_sequence(
    items: Sequence[Any],
    on_visit: Callable[[cst.CSTNode], bool],
    on_leave: Callable[[cst.CSTNode, Any], Any],
    body: bool,
    skip: frozenset[type],
    hooked: int,
) -> tuple[Any, ...] | None:
    """The visited ``items`` (``visit_sequence``, or ``visit_body_sequence`` for a body, which
    drops a statement emptied by a removal); None where none changed."""
    new_items: list[Any] = []
    changed = False
    for item in items:
        if type(item) in skip or (hooked != ANY_KIND and not _below(item) & hooked):
            new_items.append(item)
            continue
        new = _transform(item, on_visit, on_leave, skip, hooked)
        if new is item:
            new_items.append(item)
            continue
        changed = True
        if isinstance(new, cst.RemovalSentinel):
            continue
        for one in new if isinstance(new, cst.FlattenSentinel) else (new,):
            if body and not item._is_removable() and one._is_removable():
                continue
            new_items.append(one)
    return tuple(new_items) if changed else None


def visit(node: cst.CSTNode, visitor: cst.CSTVisitor) -> None:
    """``node.visit(visitor)`` for a visitor without per-attribute hooks: ``on_visit`` and
    ``on_leave`` in LibCST's order, without copying a node (``visit_<Node>`` and
    ``leave_<Node>`` looked up once per node class where the visitor keeps LibCST's
    dispatch)."""
    kind = type(visitor)
    if kind.on_visit is cst.CSTVisitor.on_visit and kind.on_leave is cst.CSTVisitor.on_leave:
        on_visit, on_leave = _plain_hooks(visitor)
        _visit(node, on_visit, on_leave, _skippable(kind), _hooked(kind))
    else:
        _visit(node, visitor.on_visit, visitor.on_leave, _NOTHING, ANY_KIND)


def _visit(
    node: cst.CSTNode,
    on_visit: Callable[[cst.CSTNode], bool | None],
    on_leave: Callable[[cst.CSTNode], None],
    skip: frozenset[type],
    hooked: int,
) -> None:
    if on_visit(node):
        for child in children(node):
            if type(child) not in skip and (hooked == ANY_KIND or _below(child) & hooked):
                _visit(child, on_visit, on_leave, skip, hooked)
    on_leave(node)


# LibCST's own walk, which ``in_place_visits`` stands in for while LibCST's visitors run.
_LIBCST_VISIT = cst.CSTNode.visit
# By (visitor class, node class): ``_plan``; None where LibCST's own walk is taken (a
# transformer, a node class whose fields cannot be read).
_PLANS: dict[tuple[type, type], Any] = {}


def _own(kind: type, name: str) -> Any:
    """``kind``'s method ``name`` where it is not LibCST's stub (``CSTTypedVisitorFunctions``
    gives every visitor a `visit_<Node>`, a `leave_<Node>` and their attribute hooks)."""
    method = getattr(kind, name, None)
    return None if method is None or method is getattr(cst.CSTVisitor, name, None) else method


def _plan(visitor_kind: type, node_kind: type) -> Any:
    """How a visitor of ``visitor_kind`` visits a ``node_kind``: its own `visit_<Node>` and
    `leave_<Node>` (None for LibCST's stub; ``_MISSING`` where it dispatches otherwise than
    ``CSTVisitor``), whether its attribute hooks are ``CSTVisitor``'s, and each field: whether
    its attribute hooks are called where it holds nothing, and the visitor's own attribute hooks
    for it; no fields where no attribute hook is called (its ``children`` are then visited)."""
    fields = _fields(node_kind)
    if fields is None or not issubclass(visitor_kind, cst.CSTVisitor):
        _PLANS[(visitor_kind, node_kind)] = None
        return None
    name = node_kind.__name__
    plain = (
        visitor_kind.on_visit_attribute is cst.CSTVisitor.on_visit_attribute
        and visitor_kind.on_leave_attribute is cst.CSTVisitor.on_leave_attribute
    )
    visited: tuple[tuple[str, bool, Any, Any], ...] | None = tuple(
        (
            field,
            # LibCST's helpers for an optional node call the hooks for a missing one too
            bool(how & {"visit_optional", "visit_sentinel"}),
            _own(visitor_kind, f"visit_{name}_{field}") if plain else None,
            _own(visitor_kind, f"leave_{name}_{field}") if plain else None,
        )
        for field, how in fields
    )
    if plain and all(hooks[2:] == (None, None) for hooks in visited):  # type: ignore[union-attr]
        visited = None
    found = _PLANS[(visitor_kind, node_kind)] = (
        _own(visitor_kind, f"visit_{name}")
        if visitor_kind.on_visit is cst.CSTVisitor.on_visit
        else _MISSING,
        _own(visitor_kind, f"leave_{name}")
        if visitor_kind.on_leave is cst.CSTVisitor.on_leave
        else _MISSING,
        plain,
        visited,
    )
    return found


_MISSING = object()


def _visit_in_place(self: cst.CSTNode, visitor: Any) -> Any:
    """``CSTNode.visit`` for a ``CSTVisitor``: the same hooks, attribute hooks included, called
    in the same order on the same nodes, without building a copy of every node (LibCST's
    ``_visit_and_replace_children`` does, then drops it: a visitor cannot change the tree)."""
    plan = _PLANS.get((type(visitor), type(self)), _MISSING)
    if plan is _MISSING:
        plan = _plan(type(visitor), type(self))
    if plan is None:
        return _LIBCST_VISIT(self, visitor)
    hook, leave, plain, fields = plan
    if hook is _MISSING:
        go = visitor.on_visit(self)
    else:
        go = hook is None or hook(visitor, self) is not False
    if go and fields is None:
        for child in children(self):
            child.visit(visitor)
    elif go:
        for field, hooked_if_empty, visit_field, leave_field in fields:
            value = getattr(self, field)
            kind = type(value)
            sequence = kind is tuple or kind is list
            node = not sequence and kind is not _NONE and kind is not cst.MaybeSentinel
            if not (sequence or node or hooked_if_empty):
                continue  # `format_spec=visit_sequence(...) if format_spec is not None else None`
            if not plain:
                visitor.on_visit_attribute(self, field)
            elif visit_field is not None:
                visit_field(visitor, self)
            if sequence:
                for item in value:
                    item.visit(visitor)
            elif node:
                value.visit(visitor)
            if not plain:
                visitor.on_leave_attribute(self, field)
            elif leave_field is not None:
                leave_field(visitor, self)
    if leave is _MISSING:
        visitor.on_leave(self)
    elif leave is not None:
        leave(visitor, self)
    return self


@contextlib.contextmanager
def in_place_visits() -> Iterator[None]:
    """While it lasts, ``node.visit(visitor)`` walks a ``CSTVisitor`` over the tree in place
    (``_visit_in_place``); a transformer's walk is LibCST's. For LibCST's metadata providers,
    whose visitors call ``child.visit(self)`` themselves: the scope analysis of a training
    module spends a third of its time copying nodes (tests/test_nodes.py holds the scopes,
    assignments and accesses equal to LibCST's); and for the passes' ``m.findall``. It may be
    entered while it lasts: the walk in force before is restored."""
    before = cst.CSTNode.visit
    cst.CSTNode.visit = _visit_in_place  # type: ignore[method-assign]
    try:
        yield
    finally:
        cst.CSTNode.visit = before  # type: ignore[method-assign]


def is_main_test(test: cst.BaseExpression) -> bool:
    """`__name__ == "__main__"` (either way round): a script's block that runs when it is run,
    never when it is imported."""
    if not isinstance(test, cst.Comparison) or len(test.comparisons) != 1:
        return False
    if not isinstance(test.comparisons[0].operator, cst.Equal):
        return False
    sides = (test.left, test.comparisons[0].comparator)
    return any(isinstance(x, cst.Name) and x.value == "__name__" for x in sides) and any(
        isinstance(x, cst.SimpleString) and x.evaluated_value == "__main__" for x in sides
    )
