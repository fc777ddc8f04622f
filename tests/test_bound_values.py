"""``Pass.bound_values`` without a scope analysis (``plain_values``) finds what it finds with one.

For a name of the table's ``plain`` (every binding of it assigns a value, in function bodies or
the global scope), the values are read from the statements of the bodies around the read. For every name with a scope
in the golden inputs, the examples and the cases below, they must be the values of the
assignments LibCST's ``ScopeProvider`` gives (in any order: the scopes keep them in a set).
"""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest
from libcst.metadata import Assignment, MetadataWrapper, ParentNodeProvider, ScopeProvider

from trncodemod.analysis.facts import facts_of_text
from trncodemod.analysis.nodes import walk
from trncodemod.commands.golden import find_cases
from trncodemod.passes import own_assignments, visible_assignments

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted(
    {case.input for case in find_cases(ROOT / "golden")} | set(ROOT.glob("examples/*.py"))
)
# Each case: the source, and the names that must be plain (+) or must not (-).
CASES = {
    "global": ("loader = make()\nfor x in loader:\n    loader.y\n", {"loader"}, set()),
    "two values": ("d = 1\nif c:\n    d = f()\nelse:\n    d: int = 2\nuse(d)\n", {"d"}, set()),
    "chained": ("a = b = load()\nuse(a, b)\n", {"a", "b"}, set()),
    "function": (
        "def f():\n    dl = make()\n    def g(x=dl):\n        return dl, lambda: dl, [dl for _ in dl]\n"
        "    class C:\n        y = dl\n    return dl\ndl\n",
        {"dl"},
        set(),
    ),
    "two functions": (
        "def f():\n    dl = 1\n    return dl\ndef g():\n    dl = 2\n    return dl, h\n"
        "def k():\n    h = 3\n    def m():\n        h = 4\n        return h\n    return h, dl\n"
        "h = 5\nclass C:\n    def n(self):\n        return h\n",
        {"dl", "h"},
        set(),
    ),
    "bound otherwise": (
        "a = 1\nfor a in x: pass\nb = 1\nb += 1\nc = 1\nc, d = 2, 3\ne: int\ne = 1\n"
        "f = 1\ndef f(): pass\ng = 1\ndef h(g): return g\ni = 1\nwith x as i: pass\n"
        "j = 1\n[j for j in x]\nk = 1\n(k := 2)\nl = 1\ndel l\nm = 1\nimport m\n"
        "n = 1\ntry:\n    pass\nexcept E as n:\n    pass\nuse(a, b, c, d, e, f, g, i, j, k, l, m, n)\n",
        {"a", "b", "c", "d", "e", "f", "g", "i", "m", "n"},
        {"j", "k", "l"},
    ),
    "parameters and loops in functions": (
        "def f(dl, *rest, key=None, **options):\n    for x in dl:\n        dl = x\n    return dl, rest\n"
        "def g():\n    dl = load()\n    train, dl = split(dl)\n    return dl\nq = 1\nh = lambda q: q\n"
        "import dl2.sub, dl3 as dl4\ndl4 = dl2 = 1\nwith a as (b, [c, *d]):\n    pass\n",
        {"dl", "rest", "key", "options", "x", "b", "c", "d", "dl4"},
        {"q"},
    ),
    "global statement": (
        "x = 1\ndef f():\n    global x\n    x = 2\ndef g():\n    nonlocal_x = x\n",
        {"nonlocal_x"},
        {"x"},
    ),
    "class body": ("class C:\n    t = 1\n    u = t\nC.t\n", set(), {"t", "u"}),
    "match capture": ("p = 1\nmatch v:\n    case [p]:\n        pass\n", set(), {"p"}),
    "attribute name": ("x = 1\nobj.x\nf(x=2)\n", {"x"}, set()),
    "own scope": (
        "u = 1\ndef f():\n    u = 2\n    u = 3\n    return u, lambda: u\ndef g():\n    return u\n"
        "class C:\n    w = u\n",
        {"u"},
        set(),
    ),
    "read in the defaults of the binding function": (
        "def f(a=v, *, b: v = 2) -> v:\n    v = 1\n    return v\n",
        {"v"},
        set(),
    ),
}


def bindings_from_scopes(
    wrapper: MetadataWrapper, name: cst.Name, own: bool
) -> list[int | str] | None:
    """LibCST's ``scope[name.value]`` (``own``: ``scope.assignments[name.value]``) for ``name``,
    as the id of the statement of each assignment of a value to it as a whole target, "other"
    for each other binding; builtins left out. None where it has no scope."""
    scope = wrapper.resolve(ScopeProvider).get(name)
    if scope is None:
        return None
    parents = wrapper.resolve(ParentNodeProvider)
    found: list[int | str] = []
    for assignment in scope.assignments[name.value] if own else scope[name.value]:
        if not isinstance(assignment, Assignment):
            continue
        target = assignment.node
        parent = parents.get(target)
        if isinstance(parent, cst.AssignTarget) and parent.target is target:
            found.append(id(parents[parent]))
        elif isinstance(parent, cst.AnnAssign) and parent.target is target and parent.value:
            found.append(id(parent))
        else:
            found.append("other")
    return sorted(found, key=str)


def _ids(found: list[cst.CSTNode | None] | None) -> list[int | str] | None:
    if found is None:
        return None
    return sorted((id(s) if s is not None else "other" for s in found), key=str)


def wrong_answers(text: str) -> list[str]:
    """Every name of the table's ``simple`` whose bindings, as ``visible_assignments`` and
    ``own_assignments`` read them, are not the scopes'."""
    facts = facts_of_text(text)
    assert facts is not None
    module = cst.parse_module(text)
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    wrong = []
    for node in walk(module):
        if type(node) is not cst.Name or node.value not in facts.names.simple:
            continue
        visible = bindings_from_scopes(wrapper, node, own=False) or []
        if _ids(visible_assignments(module, node)) != visible:
            wrong.append(f"{node.value}: {visible_assignments(module, node)} visible")
        own = _ids(own_assignments(module, node))
        if own is not None and own != (bindings_from_scopes(wrapper, node, own=True) or []):
            wrong.append(f"{node.value}: {own_assignments(module, node)} own")
    return wrong


@pytest.mark.parametrize("name", sorted(CASES))
def test_cases(name: str) -> None:
    text, plain, not_plain = CASES[name]
    table = facts_of_text(text).names  # type: ignore[union-attr]
    assert plain <= table.simple
    assert not not_plain & table.simple
    assert wrong_answers(text) == []


@pytest.mark.parametrize("source", SOURCES, ids=[p.relative_to(ROOT).as_posix() for p in SOURCES])
def test_golden_inputs_and_examples(source: Path) -> None:
    text = source.read_text("utf-8")
    if facts_of_text(text) is None:
        pytest.skip("Python cannot parse it; LibCST reports it")
    assert wrong_answers(text) == []
