"""Where a module does work the XLA device cannot hold, for the program model: a sparse matrix
product (`torch.spmm`, `torch.sparse.mm`, ...) and a recurrent module called on a packing call
(`self.lstm(pack_padded_sequence(...))`, or a name bound to one in the same function), and a
packing call in a function that runs `backward()` (the step differentiates through it). The same
shapes the ``off-device`` pass reports (TRN029, TRN028, TRN062), read from the module's AST with the
names of ``data/device_facts.toml``'s XLA table, so that every module of a program that reaches
one can be left as it is (``ModuleView.off_device``): ported, the program would stop there.

Only products, not the constructors, count here: a sparse tensor made on the host and made
dense before it moves (dataset code) stops nothing.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from trncodemod.analysis.device_facts import facts_for

_PRODUCTS = ("mm", "spmm", "smm", "hspmm", "sspaddmm", "addmm")


def off_device_uses(
    tree: ast.Module, full_name: Callable[[str], str], text: str | None = None
) -> tuple[tuple[int, str], ...]:
    """(line, what) of each use; ``full_name`` turns a dotted reference of the module into
    what its imports make it (`nn.LSTM` → `torch.nn.LSTM`). ``text``, the source, settles most
    modules without a walk: every sparse product ends in `mm` and every packing call starts
    with `pack`, and a full name's last part is written in the module (the call or its
    import)."""
    if text is not None and "mm" not in text and "pack" not in text:
        return ()
    facts = facts_for("xla")
    products = {n for n in facts.sparse_calls if n.rsplit(".", 1)[-1] in _PRODUCTS}
    recurrent: set[str] = set()  # names and attributes bound to a recurrent module
    # Names every binding of which is a recurrent module's class (`rnn = nn.GRU` in one branch,
    # `rnn = nn.LSTM` in another): a call of one makes a recurrent module.
    classes: dict[str, bool] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and not isinstance(node.value, ast.Call):
            is_class = full_name(_dotted(node.value)) in facts.recurrent_modules
            for target in node.targets:
                if isinstance(target, ast.Name):
                    classes[target.id] = classes.get(target.id, True) and is_class
    aliases = {name for name, is_class in classes.items() if is_class}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            func = _dotted(node.value.func)
            if full_name(func) in facts.recurrent_modules or func in aliases:
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        recurrent.add(target.id)
                    elif isinstance(target, ast.Attribute):
                        recurrent.add(target.attr)
    found: list[tuple[int, str]] = []
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        packed = _packed_names(function, facts.packing_calls, full_name)
        calls = _own_calls(function)
        if any(_is_backward(c) for c in calls):
            # A training step that packs a tensor it differentiates through (the decoder's
            # scores before the loss): the backward of the packing raises (TRN062).
            for call in calls:
                if full_name(_dotted(call.func)) in facts.packing_calls:
                    found.append((call.lineno, "a PackedSequence in a step that runs backward"))
        for call in calls:
            name = full_name(_dotted(call.func))
            if name in products:
                found.append((call.lineno, f"`{name}`, a sparse product"))
                continue
            func = call.func
            bound = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            if bound in recurrent and call.args:
                first = call.args[0]
                if (isinstance(first, ast.Name) and first.id in packed) or (
                    isinstance(first, ast.Call)
                    and full_name(_dotted(first.func)) in facts.packing_calls
                ):
                    found.append((call.lineno, "a recurrent module on a PackedSequence"))
    return tuple(sorted(set(found)))


def _packed_names(
    function: ast.AST, packing: frozenset[str], full_name: Callable[[str], str]
) -> set[str]:
    return {
        target.id
        for node in ast.walk(function)
        if isinstance(node, ast.Assign)
        and isinstance(node.value, ast.Call)
        and full_name(_dotted(node.value.func)) in packing
        for target in node.targets
        if isinstance(target, ast.Name)
    }


def _is_backward(call: ast.Call) -> bool:
    """`loss.backward()`, `accelerator.backward(loss)`, `scaler.scale(loss).backward()`."""
    return isinstance(call.func, ast.Attribute) and call.func.attr == "backward"


def _own_calls(function: ast.AST) -> list[ast.Call]:
    """The calls of ``function``'s body, not those of functions defined inside it (walked on
    their own)."""
    calls: list[ast.Call] = []
    stack = list(ast.iter_child_nodes(function))
    while stack:
        node = stack.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            continue
        if isinstance(node, ast.Call):
            calls.append(node)
        stack.extend(ast.iter_child_nodes(node))
    return calls


def _dotted(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        head = _dotted(node.value)
        return f"{head}.{node.attr}" if head else ""
    return ""
