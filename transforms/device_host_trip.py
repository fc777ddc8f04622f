"""A host array's round trip through the device: ``op(torch.from_numpy(a).cuda(), ...)`` whose
result the function reads straight back to the host (``keep.cpu().numpy()``). The op's inputs
and its output live on the host; on CUDA the move bought a fast kernel, on the XLA device it buys
copies each way for the same result: torchvision's `nms` falls back to the CPU there, so 300-500
proposals cost two device-to-host copies and 0.9-6.6 ms against 0.4-0.7 ms on the CPU, with the
same indices (``benchmarks/xla_facts.py host_round_trip``). The `.cuda()` is dropped there
instead of rewritten.
"""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst
from libcst.metadata import Scope

# Reads that bring a tensor to the host, as a chain's last calls (`keep.cpu().numpy()`).
_HOST_READS = frozenset({"cpu", "numpy", "tolist", "item"})
# Made on the host from a NumPy array: a CPU tensor, whatever the array.
_FROM_HOST = frozenset({"torch.from_numpy"})


def host_round_trip(
    move: cst.Call,
    parent_of: Callable[[cst.CSTNode], cst.CSTNode | None],
    scope_of: Callable[[cst.CSTNode], Scope | None],
    is_any: Callable[[cst.BaseExpression, set[str]], bool],
) -> cst.Call | None:
    """The op ``move`` (`torch.from_numpy(a).cuda()`) is handed to, where every tensor the op
    takes is made on the host that way and everything the function does with its result is
    read it back to the host, or slice it and do so; else None."""
    func = move.func
    if not (
        isinstance(func, cst.Attribute)
        and isinstance(func.value, cst.Call)
        and is_any(func.value.func, set(_FROM_HOST))
    ):
        return None
    argument = parent_of(move)
    op = parent_of(argument) if isinstance(argument, cst.Arg) else None
    if not isinstance(op, cst.Call):
        return None
    # The tensors first, all made on the host; then the op's numbers (`nms(boxes, scores, 0.7)`,
    # `self.nms_thresh`): a name before the last of them may be a device tensor.
    made = [_from_host(a.value, is_any) for a in op.args]
    last = max(i for i, m in enumerate(made) if m)
    if not all(made[: last + 1]) or not all(_plain(a.value) for a in op.args[last + 1 :]):
        return None
    holder = parent_of(op)
    if _read_on_host(op, parent_of):
        return op
    if not (
        isinstance(holder, cst.Assign)
        and len(holder.targets) == 1
        and isinstance(holder.targets[0].target, cst.Name)
    ):
        return None
    return op if _only_host_reads(holder.targets[0].target, parent_of, scope_of, set()) else None


def _from_host(value: cst.BaseExpression, is_any) -> bool:
    """`torch.from_numpy(a).cuda()` (or with no move)."""
    if (
        isinstance(value, cst.Call)
        and isinstance(value.func, cst.Attribute)
        and value.func.attr.value == "cuda"
    ):
        value = value.func.value
    return isinstance(value, cst.Call) and is_any(value.func, set(_FROM_HOST))


def _plain(value: cst.BaseExpression) -> bool:
    """A number, or a name or attribute read (a threshold): not a tensor made here."""
    return isinstance(value, (cst.Integer, cst.Float, cst.Name, cst.Attribute)) or (
        isinstance(value, cst.UnaryOperation)
        and isinstance(value.expression, (cst.Integer, cst.Float))
    )


def _read_on_host(node: cst.BaseExpression, parent_of) -> bool:
    """``node`` is the start of a chain that ends on the host (`x.cpu().numpy()`, `x[:n].cpu()`)."""
    while True:
        parent = parent_of(node)
        if isinstance(parent, cst.Subscript) and parent.value is node:
            node = parent
            continue
        if isinstance(parent, cst.Attribute) and parent.value is node:
            call = parent_of(parent)
            if isinstance(call, cst.Call) and call.func is parent:
                return parent.attr.value in _HOST_READS
        return False


def _only_host_reads(name: cst.Name, parent_of, scope_of, seen: set[int]) -> bool:
    """Every read of the value ``name`` binds is read back to the host, or sliced into a name
    whose every read is (`keep = keep[:n]`)."""
    if id(name) in seen:
        return True  # already being shown (`keep = keep[:n]` reads the name it binds)
    scope = scope_of(name)
    if scope is None:
        return False
    seen.add(id(name))
    bindings = [a for a in scope.assignments[name.value] if getattr(a, "node", None) is name]
    if len(bindings) != 1 or not bindings[0].references:
        return False
    for access in bindings[0].references:
        node = access.node
        if _read_on_host(node, parent_of):
            continue
        sliced = parent_of(node)
        holder = parent_of(sliced) if isinstance(sliced, cst.Subscript) else None
        if not (
            isinstance(holder, cst.Assign)
            and len(holder.targets) == 1
            and isinstance(holder.targets[0].target, cst.Name)
            and _only_host_reads(holder.targets[0].target, parent_of, scope_of, seen)
        ):
            return False
    return True
