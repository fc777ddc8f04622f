"""Where model and training code is in a module, for the report-only passes that look at what
runs on the device (``cpu-fallback``, ``recompilation``): a training or evaluation loop
(``trncodemod.analysis.loops``), a class that derives from ``nn.Module`` (also ``PreTrainedModel``,
``LightningModule``, ``autograd.Function``, and classes of the file derived from those), a
function that calls ``.backward()`` or steps an optimizer, a function or method that a training
step in another function or module runs every step (``ModuleView.step_functions``), and every
function of the file that this code calls by name. Collate functions and ``__getitem__``/``__iter__`` (dataset code, which
runs on the host) never are.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import libcst as cst

from trncodemod.analysis.loops import (
    dotted,
    find_step_loops,
    is_backward,
    is_optimizer_step,
    own_statements,
)
from trncodemod.analysis.nodes import children, find
from trncodemod.passes import Pass, per_tree

_MODEL_BASES = re.compile(r"(^|\.)(Module|PreTrainedModel|LightningModule|Function)$")
_HOST_FUNCTIONS = re.compile(r"collate|^__(getitem|iter|next|len)__$", re.IGNORECASE)


def _code(node: cst.CSTNode) -> str:
    return cst.Module(body=[]).code_for_node(node)


def _steps_itself(function: cst.FunctionDef) -> bool:
    return any(
        isinstance(node, cst.Call) and (is_backward(node) or is_optimizer_step(node))
        for node in own_statements(function.body)
    )


def _may_name_model(owner: Pass, base: cst.BaseExpression) -> bool:
    """Whether LibCST may name ``base`` like a model class where its spelling does not look like
    one: only an import binding it to one can (``from torch.nn import Module as M``); any other
    qualified name ends in the spelled last name."""
    facts = owner.run.facts
    name = dotted(base)
    if facts is None or name is None:
        return True
    head, _, rest = name.partition(".")
    return any(
        _MODEL_BASES.search(f"{bound}.{rest}" if rest else bound)
        for bound in facts.bindings.get(head, ())
    )


def model_code(owner: Pass, module: cst.Module) -> list[cst.CSTNode]:
    """The parts of ``module`` that run as model or training code (see the module docstring):
    worked out once per tree, for both passes that ask (what ``owner`` answers about names is
    the same for every pass on one tree)."""
    return per_tree(module, "model code", lambda tree: _model_code(owner, tree))


def _model_code(owner: Pass, module: cst.Module) -> list[cst.CSTNode]:
    roots: list[cst.CSTNode] = list(find_step_loops(module))
    classes = {c.name.value: c for c in find(module, cst.ClassDef) if isinstance(c, cst.ClassDef)}
    models: set[str] = set()
    changed = True
    while changed:
        changed = False
        for name, node in classes.items():
            if name in models:
                continue
            for base in node.bases:
                spelled = {_code(base.value)}
                if not any(_MODEL_BASES.search(s) for s in spelled) and _may_name_model(
                    owner, base.value
                ):
                    spelled |= owner.qualified_names(base.value)
                if any(_MODEL_BASES.search(s) for s in spelled) or spelled & models:
                    models.add(name)
                    changed = True
                    break
    roots.extend(classes[name] for name in models)
    functions = {
        s.name.value: s
        for s in module.body
        if isinstance(s, cst.FunctionDef) and not _HOST_FUNCTIONS.search(s.name.value)
    }
    roots.extend(f for f in functions.values() if _steps_itself(f))
    # A function or method a training step in another function runs every step (across
    # modules: `ModuleView.step_functions`): hifi-gan's `mel_spectrogram` in meldataset.py.
    reached = {name for name, _ in owner.run.program.step_functions}
    if reached:
        roots.extend(f for name, f in functions.items() if name in reached and f not in roots)
        for name, cls in classes.items():
            roots.extend(
                s
                for s in cls.body.body
                if isinstance(s, cst.FunctionDef)
                and f"{name}.{s.name.value}" in reached
                and not _HOST_FUNCTIONS.search(s.name.value)
            )
    pending = list(roots)
    seen: set[int] = set()  # nodes walked already, under another root: their calls were seen
    while pending:
        for call in walk([pending.pop()], seen):
            if type(call) is cst.Call and type(call.func) is cst.Name:  # type: ignore[attr-defined]
                function = functions.get(call.func.value)  # type: ignore[attr-defined]
                if function is not None and function not in roots:
                    roots.append(function)
                    pending.append(function)
    return roots


def walk(roots: list[cst.CSTNode], seen: set[int] | None = None) -> Iterator[cst.CSTNode]:
    """Every node under ``roots`` once, in source order, imports left out; none under a node in
    ``seen``, which gains every node walked."""
    seen = set() if seen is None else seen
    for root in roots:
        stack = [root]
        while stack:
            node = stack.pop()
            if id(node) in seen or isinstance(node, cst.Import | cst.ImportFrom):
                continue
            seen.add(id(node))
            yield node
            stack.extend(reversed(children(node)))
