"""Where a torch.optim optimizer that reads its state on the host every step (ASGD, Rprop without
`capturable=True`) is built, for the ``optimizer`` pass: whether its parameters are on the XLA
device when it is built, which decides whether `capturable=True` may be added
([measured-capturable-optimizers]).

`capturable=True` raises where the parameters are on the CPU (torch 2.9: "params ... must be on
supported devices"), so the keyword is added only where the module that owns them is moved to the
device before the optimizer is built, in the same function or script, on every run: the move is
not under a loop or a condition the device analysis cannot decide, and the module is not rebound
between the move and the optimizer.
"""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from trncodemod.analysis.device import ACCELERATOR, DeviceFacts
from trncodemod.analysis.loops import dotted
from trncodemod.analysis.nodes import find


def _move_of(call: cst.Call, owner: str, parents: dict[cst.CSTNode, cst.CSTNode]) -> bool:
    """``call`` is `owner.to(...)`/`owner.cuda()`, or a `.to`/`.cuda` whose value is bound to
    ``owner`` (`model = Net().to(device)`)."""
    func = call.func
    if not isinstance(func, cst.Attribute) or func.attr.value not in ("to", "cuda"):
        return False
    if dotted(func.value) == owner:
        return True
    assign = parents.get(call)
    return (
        isinstance(assign, cst.Assign)
        and assign.value is call
        and any(dotted(target.target) == owner for target in assign.targets)
    )


def _to_device(call: cst.Call, facts: DeviceFacts, device_string: str) -> bool:
    """The move goes to the accelerator: `.cuda()` (the device pass makes it the target's), or
    `.to(d)` with `d` the accelerator on the target."""
    assert isinstance(call.func, cst.Attribute)
    if call.func.attr.value == "cuda":
        return not call.args
    device = next((a.value for a in call.args if a.keyword and a.keyword.value == "device"), None)
    if device is None:
        positional = [a for a in call.args if a.keyword is None and not a.star]
        device = positional[0].value if positional else None
    if device is None:
        return False
    if isinstance(device, cst.SimpleString):
        return device.evaluated_value in ("cuda", "cuda:0", device_string)
    return facts.kinds(device) == frozenset({ACCELERATOR})


def _always_runs(
    node: cst.CSTNode, scope: cst.CSTNode, parents: dict[cst.CSTNode, cst.CSTNode], facts
) -> bool:
    """``node`` runs whenever ``scope``'s body reaches it: every `if` around it is decided its
    way on the target, and no loop or `except` holds it."""
    child, current = node, parents.get(node)
    while current is not None and current is not scope:
        if isinstance(current, cst.For | cst.While | cst.ExceptHandler | cst.Lambda):
            return False
        if isinstance(current, cst.FunctionDef | cst.ClassDef):
            return False
        if isinstance(current, cst.If):
            truth = facts.truth(current.test)
            if child is current.body and truth is not True:
                return False
            if child is current.orelse and truth is not False:
                return False
        child, current = current, parents.get(current)
    return current is scope


def _scope_of(node: cst.CSTNode, parents: dict[cst.CSTNode, cst.CSTNode]) -> cst.CSTNode | None:
    current = parents.get(node)
    while current is not None and not isinstance(current, cst.FunctionDef | cst.Module):
        current = parents.get(current)
    return current


def moved_before(
    owner: str,
    optimizer: cst.Call,
    module: cst.Module,
    parents: dict[cst.CSTNode, cst.CSTNode],
    line_of: Callable[[cst.CSTNode], int | None],
    facts: DeviceFacts,
    device_string: str,
) -> bool:
    """``owner`` (the module whose `.parameters()` the optimizer takes) is moved to the
    accelerator before ``optimizer`` is built, on every run, and is not rebound in between."""
    built = line_of(optimizer)
    scope = _scope_of(optimizer, parents)
    if built is None or scope is None:
        return False
    moved_at = None
    for call in find(module, cst.Call):
        if not _move_of(call, owner, parents) or _scope_of(call, parents) is not scope:
            continue
        line = line_of(call)
        if line is None or line >= built:
            continue
        if _to_device(call, facts, device_string) and _always_runs(call, scope, parents, facts):
            moved_at = max(moved_at or 0, line)
    if moved_at is None:
        return False
    # A rebinding between the move and the optimizer (`model = torch.load(f)`), or a call of a
    # function that rebinds it as a global, may bring parameters from elsewhere.
    rebinders = {
        function.name.value
        for function in find(module, cst.FunctionDef)
        if any(
            item.name.value == owner
            for statement in find(function, cst.Global)
            for item in statement.names
        )
    }
    for node in find(scope, cst.Assign, cst.Call):
        line = line_of(node)
        if line is None or not moved_at < line < built:
            continue
        if isinstance(node, cst.Assign) and any(
            dotted(target.target) == owner for target in node.targets
        ):
            return False
        if isinstance(node, cst.Call) and dotted(node.func) in rebinders:
            return False
    return True
