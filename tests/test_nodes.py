"""The fast walk (``trncodemod.analysis.nodes``) gives LibCST's own children, in LibCST's order."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import libcst.matchers as m
import pytest

from trncodemod.analysis.nodes import (
    _BITS,
    ANY_KIND,
    TOKENS,
    _below,
    _hooked,
    _skippable,
    _visit_in_place,
    children,
    find,
    in_place_visits,
    transform,
    visit,
    walk,
)
from trncodemod.commands.golden import find_cases

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted(
    {case.input for case in find_cases(ROOT / "golden")} | set(ROOT.glob("examples/*.py"))
)
# Syntax the golden inputs may lack: every kind of node LibCST parses on the running Python.
EVERY_KIND = """
from . import a as b, c
from .m import (x, y,)
import p.q as r
@decorator(1)
async def f(a, /, b: int = 2, *args, c, d=3, **kw) -> "T":
    global g
    async with x as (y, z), w:
        async for i in aiter():
            await i
    nonlocal_ = lambda q, *r, s=1, **t: (yield)
    return [k async for k in it if k] + {k: v for k, v in d} | {s for s in t}
class C(B, metaclass=M):
    x: int = 1
    def g(self):
        nonlocal_ = 1
        del self.x, y[0]
        raise E from err
try:
    pass
except* (A, B) as e:
    pass
else:
    pass
finally:
    pass
with (open(a) as f, open(b)):
    pass
match point:
    case {"x": 0, **rest} | [1, *others] | Point(x=0, y=_) as p if p:
        pass
    case 1 | -2 | 3.0j | "s" | None:
        pass
while not a < b <= c is not d in e not in f:
    assert x, f"{a!r:>{width}} {b=}" "and" 'more'
    x = y if z else ~w ** 2 // 3 @ m
    x += 1; y >>= 2
    print(*a, **k, sep=(yield from g))
    z = a[1:2:3, ...]
    (n := 10)
    break
else:
    continue_ = ...
"""


@pytest.mark.parametrize(
    "source", [*SOURCES, None], ids=[*(p.relative_to(ROOT).as_posix() for p in SOURCES), "every"]
)
def test_children_are_libcsts(source: Path | None) -> None:
    module = cst.parse_module(EVERY_KIND if source is None else source.read_text("utf-8"))
    preorder: list[int] = []
    stack: list[cst.CSTNode] = [module]
    while stack:
        node = stack.pop()
        preorder.append(id(node))
        expected = list(node.children)
        assert [id(c) for c in children(node)] == [id(c) for c in expected], type(node).__name__
        stack.extend(reversed(expected))
    assert [id(n) for n in walk(module)] == preorder
    calls = find(module, cst.Call)
    assert [id(c) for c in calls] == [id(c) for c in m.findall(module, m.Call())]


class _Rewriter(cst.CSTTransformer):
    """Renames, removes, flattens and empties, and records every call it gets."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[tuple[str, int, str]] = []
        self.stack: list[cst.CSTNode] = []

    def on_visit(self, node: cst.CSTNode) -> bool:
        self.calls.append(("visit", id(node), type(node).__name__))
        self.stack.append(node)
        return not isinstance(node, cst.Lambda)

    def on_leave(self, original_node, updated_node):  # type: ignore[no-untyped-def]
        self.calls.append(("leave", id(original_node), type(updated_node).__name__))
        self.stack.pop()
        parent = self.stack[-1] if self.stack else None
        if isinstance(updated_node, cst.Name) and updated_node.value == "x":
            return updated_node.with_changes(value="renamed")
        if isinstance(updated_node, cst.Pass):
            return cst.RemoveFromParent()
        if isinstance(updated_node, cst.Annotation) and isinstance(parent, cst.Param):
            return cst.RemoveFromParent()  # an optional field: None
        if isinstance(updated_node, cst.Semicolon):
            return cst.RemoveFromParent()  # a sentinel field: MaybeSentinel.DEFAULT
        if isinstance(updated_node, cst.SimpleStatementLine) and "flatten" in cst.Module(
            []
        ).code_for_node(original_node):
            return cst.FlattenSentinel([updated_node, updated_node])
        return updated_node

    def on_visit_attribute(self, node: cst.CSTNode, attribute: str) -> None:
        return None

    def on_leave_attribute(self, original_node: cst.CSTNode, attribute: str) -> None:
        return None


@pytest.mark.parametrize(
    "source", [*SOURCES, None], ids=[*(p.relative_to(ROOT).as_posix() for p in SOURCES), "every"]
)
def test_transform_is_libcsts(source: Path | None) -> None:
    text = EVERY_KIND if source is None else source.read_text("utf-8")
    text += "\ndef g(x: int) -> str:\n    pass\nflatten(x, y); z = 1\nif x:\n    pass\n"
    module = cst.parse_module(text)
    theirs, ours = _Rewriter(), _Rewriter()
    expected = module.visit(theirs)
    assert transform(module, ours).code == expected.code
    assert ours.calls == theirs.calls
    assert transform(module, cst.CSTTransformer()) is module  # nothing changed: nothing rebuilt


class _PlainRewriter(cst.CSTTransformer):
    """LibCST's own dispatch (``visit_<Node>``/``leave_<Node>``), which transform looks up once
    per node class."""

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False

    def leave_Name(self, original_node: cst.Name, updated_node: cst.Name) -> cst.Name:
        return (
            updated_node.with_changes(value="renamed")
            if original_node.value == "x"
            else updated_node
        )

    def leave_Pass(self, original_node, updated_node):  # type: ignore[no-untyped-def]
        return cst.RemoveFromParent()


def test_plain_dispatch_is_libcsts() -> None:
    module = cst.parse_module(EVERY_KIND + "\ndef g(x):\n    pass\n")
    assert transform(module, _PlainRewriter()).code == module.visit(_PlainRewriter()).code


class _Counter(cst.CSTVisitor):
    def __init__(self) -> None:
        super().__init__()
        self.seen: list[tuple[str, int]] = []

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        self.seen.append(("lambda", id(node)))
        return False

    def visit_Name(self, node: cst.Name) -> None:
        self.seen.append(("name", id(node)))

    def leave_Call(self, original_node: cst.Call) -> None:
        self.seen.append(("call", id(original_node)))


def test_visit_is_libcsts() -> None:
    module = cst.parse_module(EVERY_KIND)
    theirs, ours = _Counter(), _Counter()
    module.visit(theirs)
    visit(module, ours)
    assert ours.seen == theirs.seen


@pytest.mark.parametrize(
    "source", [*SOURCES, None], ids=[*(p.relative_to(ROOT).as_posix() for p in SOURCES), "every"]
)
def test_tokens_hold_only_tokens(source: Path | None) -> None:
    """A walk may skip a node of ``TOKENS`` whole only where nothing under it is another kind."""
    module = cst.parse_module(EVERY_KIND if source is None else source.read_text("utf-8"))
    for node in walk(module):
        if type(node) in TOKENS:
            assert all(type(child) in TOKENS for child in children(node)), type(node)


class _CommaRewriter(_PlainRewriter):
    """A hook for one of ``TOKENS``: the walk must then visit them all."""

    def leave_Comma(self, original_node: cst.Comma, updated_node: cst.Comma) -> cst.Comma:
        return updated_node.with_changes(whitespace_after=cst.SimpleWhitespace("  "))


class _TokenCounter(_Counter):
    def visit_SimpleWhitespace(self, node: cst.SimpleWhitespace) -> None:
        self.seen.append(("whitespace", id(node)))


def test_a_hook_for_a_token_turns_the_skip_off() -> None:
    module = cst.parse_module(EVERY_KIND + "\ndef g(x, y):\n    pass\n")
    assert _skippable(_PlainRewriter) == TOKENS
    assert not _skippable(_CommaRewriter)
    assert transform(module, _CommaRewriter()).code == module.visit(_CommaRewriter()).code
    theirs, ours = _TokenCounter(), _TokenCounter()
    module.visit(theirs)
    visit(module, ours)
    assert ours.seen == theirs.seen
    assert ("whitespace", id(module.body[0].body[0].whitespace_before_import)) in ours.seen  # type: ignore[attr-defined]


class _Recorder(cst.CSTVisitor):
    """Every hook LibCST calls, attribute hooks included, with the node it is called on."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[tuple[str, int]] = []

    def on_visit(self, node: cst.CSTNode) -> bool:
        self.seen.append(("visit", id(node)))
        return not isinstance(node, cst.Lambda)  # a subtree left unvisited

    def on_leave(self, original_node: cst.CSTNode) -> None:
        self.seen.append(("leave", id(original_node)))

    def on_visit_attribute(self, node: cst.CSTNode, attribute: str) -> None:
        self.seen.append((f"visit {attribute}", id(node)))

    def on_leave_attribute(self, original_node: cst.CSTNode, attribute: str) -> None:
        self.seen.append((f"leave {attribute}", id(original_node)))


class _Hooked(_Counter):
    """Dispatch through ``CSTVisitor``'s own hooks, with attribute hooks of its own."""

    def visit_ClassDef_bases(self, node: cst.ClassDef) -> None:
        self.seen.append(("bases", id(node)))

    def leave_Call_func(self, original_node: cst.Call) -> None:
        self.seen.append(("func", id(original_node)))


@pytest.mark.parametrize("kind", [_Recorder, _Hooked])
def test_in_place_visits_are_libcsts(kind: type) -> None:
    module = cst.parse_module(EVERY_KIND)
    theirs, ours = kind(), kind()
    assert module.visit(theirs) is module
    with in_place_visits():
        assert module.visit(ours) is module
    assert ours.seen == theirs.seen
    assert cst.CSTNode.visit is not _visit_in_place  # LibCST's walk again


@pytest.mark.parametrize(
    "source", [*SOURCES, None], ids=[*(p.relative_to(ROOT).as_posix() for p in SOURCES), "every"]
)
def test_a_walk_enters_what_a_hook_sees_as_libcst_does(source: Path | None) -> None:
    """A walk leaves out a node with no hooked kind under it (``_below``): the hooks that are
    called, and the code made, are LibCST's."""
    module = cst.parse_module(EVERY_KIND if source is None else source.read_text("utf-8"))
    assert transform(module, _PlainRewriter()).code == module.visit(_PlainRewriter()).code
    theirs, ours = _Counter(), _Counter()
    module.visit(theirs)
    visit(module, ours)
    assert ours.seen == theirs.seen


def test_the_kinds_a_walk_enters_for() -> None:
    assert _hooked(_Counter) == _BITS[cst.Lambda] | _BITS[cst.Name] | _BITS[cst.Call]
    assert _hooked(_PlainRewriter) == _BITS[cst.Lambda] | _BITS[cst.Name] | _BITS[cst.Pass]
    assert _hooked(_Hooked) == ANY_KIND  # attribute hooks name no kind
    assert _hooked(_TokenCounter) == ANY_KIND  # the masks leave tokens out
    assert _hooked(_CommaRewriter) == ANY_KIND
    assignment, call = cst.parse_module("x = 1\nf(a)\n").body
    assert not _below(assignment) & _BITS[cst.Call]
    assert _below(assignment) & _BITS[cst.Integer]
    assert _below(call) & _BITS[cst.Call] and _below(call) & _BITS[cst.Name]
    assert not _below(call) & _BITS[cst.Comma]  # tokens are left out


def test_in_place_visits_leave_transformers_to_libcst() -> None:
    module = cst.parse_module(EVERY_KIND + "\ndef g(x):\n    pass\n")
    with in_place_visits():
        ours = module.visit(_PlainRewriter()).code
    assert ours == module.visit(_PlainRewriter()).code


@pytest.mark.parametrize(
    "source", [*SOURCES, None], ids=[*(p.relative_to(ROOT).as_posix() for p in SOURCES), "every"]
)
def test_find_in_a_module_is_a_walk(source: Path | None) -> None:
    """``find`` over a whole module reads its list of nodes: the same nodes as a walk, in order,
    for concrete and abstract kinds, and again for a second module."""
    text = EVERY_KIND if source is None else source.read_text("utf-8")
    for module in (cst.parse_module(text), cst.parse_module(text + "\nx = 1\n")):
        for kinds in ((cst.Call,), (cst.Assign, cst.SimpleString), (cst.BaseCompoundStatement,)):
            expected = [node for node in walk(module) if isinstance(node, kinds)]
            assert find(module, *kinds) == expected
            assert [id(node) for node in find(module, *kinds)] == [id(node) for node in expected]


class _Plain(cst.CSTVisitor):
    """A visitor with no attribute hooks: its in-place walk visits ``children`` itself."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[tuple[str, str, int]] = []

    def on_visit(self, node: cst.CSTNode) -> bool:
        self.seen.append(("visit", type(node).__name__, id(node)))
        return True

    def on_leave(self, original_node: cst.CSTNode) -> None:
        self.seen.append(("leave", type(original_node).__name__, id(original_node)))


@pytest.mark.parametrize(
    "source",
    [*SOURCES[:40], None],
    ids=[*(p.relative_to(ROOT).as_posix() for p in SOURCES[:40]), "every"],
)
def test_an_in_place_walk_without_attribute_hooks_is_libcsts(source: Path | None) -> None:
    module = cst.parse_module(EVERY_KIND if source is None else source.read_text("utf-8"))
    theirs, ours = _Plain(), _Plain()
    module.visit(theirs)
    with in_place_visits():
        module.visit(ours)
    assert ours.seen == theirs.seen


def test_in_place_visits_nest_and_restore_the_walk_before() -> None:
    module = cst.parse_module(EVERY_KIND)
    libcsts = cst.CSTNode.visit
    theirs, inner, outer = _Plain(), _Plain(), _Plain()
    module.visit(theirs)
    with in_place_visits():
        with in_place_visits():
            module.visit(inner)
        assert cst.CSTNode.visit is _visit_in_place  # the outer one still holds
        module.visit(outer)
    assert cst.CSTNode.visit is libcsts
    assert inner.seen == outer.seen == theirs.seen


@pytest.mark.parametrize(
    "source",
    [*SOURCES[:40], None],
    ids=[*(p.relative_to(ROOT).as_posix() for p in SOURCES[:40]), "every"],
)
def test_find_under_a_node_and_of_tokens_is_a_walk(source: Path | None) -> None:
    """``find`` from a node that is not the module (a function, a class, a statement), and for
    kinds that are tokens (`Comma`, `Dot`) or hold them: the nodes a walk meets, in order."""
    module = cst.parse_module(EVERY_KIND if source is None else source.read_text("utf-8"))
    roots = [module, *list(module.body)[:25]]
    kinds_list = ((cst.Comma,), (cst.Dot, cst.Name), (cst.Call, cst.LeftParen), (cst.BaseSuite,))
    for root in roots:
        for kinds in kinds_list:
            expected = [node for node in walk(root) if isinstance(node, kinds)]
            assert [id(n) for n in find(root, *kinds)] == [id(n) for n in expected]
