"""Names the tool introduces (``torch_xla``, ``xm``, ``pl``, the ``_log`` closure it writes) never
take over a name the file binds: where the file binds one, in any kind of scope, the rewrite
reaches torch_xla under another name and the user's object keeps its meaning."""

from __future__ import annotations

import ast
from pathlib import Path

import libcst as cst
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from libcst.metadata import MetadataWrapper, QualifiedNameProvider

from trncodemod.commands.golden import find_cases
from trncodemod.config import Settings
from trncodemod.pipeline.migrate import migrate_text
from trncodemod.rewriting.imports import Bindings, bindings_of, module_bindings

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted(
    {case.input for case in find_cases(ROOT / "golden")} | set(ROOT.glob("examples/*.py"))
)

# Reaches torch_xla.device, torch_xla.manual_seed, torch_xla.sync, xm.optimizer_step, xm.save,
# xm.add_step_closure (with a `_log` closure) and pl.MpDeviceLoader on the default target.
TRAINING = """\
import torch
import torch.distributed as dist
from torch.utils.data import DataLoader
{module_level}

def train(model, dataset, optimizer, epochs{parameter}):
{function_level}
    dist.init_process_group("nccl")
    torch.manual_seed(0)
    device = torch.device("cuda")
    model.to(device)
    loader = DataLoader(dataset, batch_size=8, drop_last=True)
    for epoch in range(epochs):
        for step, (x, y) in enumerate(loader):
            x, y = x.to(device), y.to(device)
            loss = torch.nn.functional.cross_entropy(model(x), y)
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
            if step % 10 == 0:
                print(f"step {{step}} loss {{loss.item():.3f}}")
    torch.save(model.state_dict(), "model.pt")
    return {name}
"""

INTRODUCED = ("torch_xla", "xm", "pl", "_log")

# Each kind of binding, as (module-level lines, function-level lines, extra parameter); `{n}`
# is the name. Function-level lines are indented by the template's four spaces.
BINDINGS = {
    "module assignment": ("{n} = 1", "    pass", ""),
    "function assignment": ("", "    {n} = 1", ""),
    "class attribute": ("class Config:\n    {n} = 1\n{n} = Config", "    pass", ""),
    "comprehension": ("", "    {n} = [{n} for {n} in range(2)]", ""),
    "import": ("import os as {n}", "    pass", ""),
    "from import": ("from os import path as {n}", "    pass", ""),
    "global": ("def configure():\n    global {n}\n    {n} = 2", "    global {n}\n    {n} = 1", ""),
    "nonlocal": ("", "    {n} = 0\n\n    def bump():\n        nonlocal {n}\n        {n} += 1", ""),
    "parameter": ("", "    pass", ", {n}=None"),
    "for target": ("", "    for {n} in range(2):\n        pass", ""),
    "walrus": ("", "    if ({n} := 1):\n        pass", ""),
    "except as": ("", "    try:\n        pass\n    except Exception as {n}:\n        pass", ""),
    "with as": ("", "    with open(__file__) as {n}:\n        pass", ""),
    "match capture": ("", "    match 1:\n        case {n}:\n            pass", ""),
}


def program(pairs: tuple[tuple[str, str], ...]) -> str:
    """The training function with each ``(name, kind)`` binding added."""
    module_level, function_level, parameters = [], [], []
    for name, kind in pairs:
        module, function, parameter = BINDINGS[kind]
        module_level.append(module.format(n=name))
        function_level.append(function.format(n=name))
        parameters.append(parameter.format(n=name))
    text = TRAINING.format(
        module_level="\n".join(module_level),
        function_level="\n".join(function_level),
        parameter="".join(parameters),
        name=pairs[0][0],
    )
    compile(text, "train.py", "exec")
    return text


def _bindings(text: str) -> dict[str, int]:
    """How many bindings of each name the text has, in all its scopes."""
    counts: dict[str, int] = {}
    for name, bound in module_bindings(MetadataWrapper(cst.parse_module(text))).by_name.items():
        counts[name] = len(bound)
    return counts


class _EmittedCalls(cst.CSTVisitor):
    """Each call whose callee the input does not spell, with what its callee resolves to."""

    METADATA_DEPENDENCIES = (QualifiedNameProvider,)

    def __init__(self, before: str) -> None:
        super().__init__()
        self.before = before
        self.calls: list[tuple[str, set[str]]] = []

    def visit_Call(self, node: cst.Call) -> None:
        func = cst.Module([]).code_for_node(node.func)
        if func not in self.before:
            names = {q.name for q in self.get_metadata(QualifiedNameProvider, node.func, set())}
            self.calls.append((func, names))


def assert_no_collision(before: str, after: str) -> None:
    wrapper = MetadataWrapper(cst.parse_module(after))
    emitted = _EmittedCalls(before)
    wrapper.visit(emitted)
    assert emitted.calls, after
    for func, names in emitted.calls:
        # A call the tool wrote resolves to torch_xla, never to a name of the user's.
        assert names and all(n.startswith("torch_xla.") for n in names), (
            f"`{func}` resolves to {names}:\n{after}"
        )
    # The rewrite binds (an import alias, a closure) none of the names under test the file spells.
    spelled = {n.value for n in _names(cst.parse_module(before))} & set(INTRODUCED)
    old, new = _bindings(before), _bindings(after)
    taken = {name for name in spelled if new.get(name, 0) > old.get(name, 0)}
    assert not taken, (taken, after)


def _names(module: cst.Module) -> list[cst.Name]:
    found: list[cst.Name] = []

    class Collect(cst.CSTVisitor):
        def visit_Name(self, node: cst.Name) -> None:
            found.append(node)

    module.visit(Collect())
    return found


def migrate_twice(text: str) -> str:
    first = migrate_text(text, "train.py", Settings()).text
    assert migrate_text(first, "train.py", Settings()).text == first, first
    return first


def test_the_five_line_crash_reaches_a_fixed_point_with_the_marker_under_another_name():
    # The loop keeps its outputs on the device (a host read there would run each iteration's
    # graph itself, and no marker would be added: step-marker/eval_host_read_cuts).
    text = (
        "import torch\n@torch.no_grad()\ndef evaluate(model, loader):\n    outputs = []\n"
        "    for x in loader:\n        torch_xla = model(x)\n        outputs.append(torch_xla)\n"
    )
    after = migrate_twice(text)
    assert "import torch_xla as _torch_xla" in after
    assert "_torch_xla.sync()" in after
    assert "outputs.append(torch_xla)" in after


def test_a_module_level_torch_xla_binding_keeps_its_meaning():
    after = migrate_twice(program((("torch_xla", "module assignment"),)))
    assert "torch_xla = 1" in after
    assert "device = _torch_xla.device()" in after
    assert_no_collision(program((("torch_xla", "module assignment"),)), after)


def test_an_existing_aliased_import_is_reused_rather_than_a_second_name():
    text = program((("xm", "function assignment"),)).replace(
        "import torch\n", "import torch\nimport torch_xla.core.xla_model as tx\n"
    )
    after = migrate_twice(text)
    assert "tx.optimizer_step(optimizer)" in after
    assert "import torch_xla.core.xla_model as xm" not in after


def test_a_file_that_binds_no_introduced_name_gets_the_usual_names():
    after = migrate_twice(program((("unrelated", "function assignment"),)))
    assert "xm.optimizer_step(optimizer)" in after
    assert "pl.MpDeviceLoader(loader, device)" in after
    assert "device = torch_xla.device()" in after


@pytest.mark.parametrize("kind", sorted(BINDINGS))
@pytest.mark.parametrize("name", INTRODUCED)
def test_a_name_bound_in_any_scope_is_never_taken_by_a_rewrite(name: str, kind: str):
    text = program(((name, kind),))
    assert_no_collision(text, migrate_twice(text))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.tuples(st.sampled_from(INTRODUCED), st.sampled_from(sorted(BINDINGS))),
        min_size=1,
        max_size=4,
        unique_by=lambda pair: pair[1],
    )
)
def test_several_introduced_names_bound_at_once_are_all_left_alone(pairs):
    try:
        text = program(tuple(pairs))
    except SyntaxError:  # e.g. `global torch_xla` after a `with ... as torch_xla` in one function
        assume(False)
    assert_no_collision(text, migrate_twice(text))


def test_the_syncfree_optimizer_is_reached_under_another_name_too():
    text = (
        "import torch\n\ndef train(model, loader):\n"
        "    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)\n"
        "    torch_xla = None\n    for x in loader:\n        model(x).backward()\n"
        "        optimizer.step()\n    return torch_xla\n"
    )
    after = migrate_text(text, "train.py", Settings(optimizer="syncfree")).text
    assert "syncfree.AdamW(model.parameters(), lr=1e-3)" in after
    assert "torch_xla.amp" not in after.split("import torch_xla.amp.syncfree as syncfree")[1]
    assert_no_collision(text, after)


# -- the names the file binds, read without a scope analysis ---------------------------------
BINDING_CASES = {
    "imports": "import a.b.c\nimport d as e, e.f\nfrom g.h import i as j, k\nfrom . import l\n"
    "from .m import n\nfrom o import *\ndef p():\n    import q\n    import r.s as t\n",
    "global imports": "def f():\n    global torch_xla, xm\n    import torch_xla\n"
    "    import torch_xla.core.xla_model as xm\n    def g():\n        import torch_xla\n"
    "class C:\n    global pl\n    import torch_xla.distributed.parallel_loader as pl\n",
    "every other binding": "a = b = 1\nc, *d = e\nf += 1\ng: int\nfor h in i: pass\n"
    "with j as (k, l): pass\ntry: pass\nexcept M as n: pass\n[o for o in p if (q := o)]\n"
    "lambda r, *s, t=1, **u: r\ndef v(w, /, x, *, y): pass\nclass Z(Base, metaclass=Meta): pass\n"
    "del a\nmatch e:\n    case {'k': aa, **bb}: pass\n    case Point(x=cc, y=[dd, *ee]): pass\n"
    "    case ff if True: pass\nprint(None, False, obj.attr, f(key=1))\n",
}


def _sorted(bindings: Bindings) -> tuple[dict[str, list[tuple[str, bool]]], frozenset[str]]:
    by_name = {
        name: sorted((m or "", g) for m, g in bound) for name, bound in bindings.by_name.items()
    }
    return by_name, bindings.spelled


@pytest.mark.parametrize("name", sorted(BINDING_CASES))
def test_bindings_read_from_the_ast_are_the_scope_analysis(name: str) -> None:
    text = BINDING_CASES[name]
    wrapper = MetadataWrapper(cst.parse_module(text))
    assert _sorted(bindings_of(ast.parse(text))) == _sorted(module_bindings(wrapper))


@pytest.mark.parametrize("source", SOURCES, ids=[p.relative_to(ROOT).as_posix() for p in SOURCES])
def test_bindings_of_golden_inputs_and_examples(source: Path) -> None:
    text = source.read_text("utf-8")
    try:
        tree = ast.parse(text)
    except SyntaxError:
        pytest.skip("Python cannot parse it; the scope analysis answers")
    wrapper = MetadataWrapper(cst.parse_module(text))
    assert _sorted(bindings_of(tree)) == _sorted(module_bindings(wrapper))
