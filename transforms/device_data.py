"""A device move assigned to a tensor's `.data` (`x.data = x.data.cuda()`), for the ``device``
pass: on the XLA device the assignment raises, so the move becomes a rebinding of the name
where nothing else holds the tensor, and a finding elsewhere ([measured-data-assignment]).

`Tensor.data = t` is `variable.set_data(t)`, which accepts a CUDA tensor for a CPU one but not
an XLA tensor: torch 2.9 + torch-xla 2.9 raise `RuntimeError: Attempted to call
variable.set_data(tensor), but variable and tensor have incompatible tensor type` for a plain
tensor, a Parameter and a module's weight alike (``benchmarks/xla_facts.py data_assignment``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import libcst as cst

# A tensor made with one of these may require grad or be a module's parameter: rebinding it
# to a moved copy is not the same as replacing its data.
_GRAD_KEYWORDS = frozenset({"requires_grad"})
_GRAD_ATTRIBUTES = frozenset({"requires_grad", "requires_grad_", "grad", "retain_grad"})


def data_target(statement: cst.CSTNode) -> cst.Attribute | None:
    """``x.data`` where ``statement`` is `x.data = <value>` with one target."""
    if not isinstance(statement, cst.Assign) or len(statement.targets) != 1:
        return None
    target = statement.targets[0].target
    if isinstance(target, cst.Attribute) and target.attr.value == "data":
        return target
    return None


def move_receiver(call: cst.Call) -> cst.BaseExpression | None:
    """What `.cuda(...)` or `.to(...)` is called on; None for any other call."""
    func = call.func
    if isinstance(func, cst.Attribute) and func.attr.value in ("cuda", "to"):
        return func.value
    return None


def moved_argument(call: cst.Call) -> cst.BaseExpression | None:
    """The device argument of `.to(...)`: its first positional argument or `device=`."""
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == "device":
            return arg.value
    positional = [arg for arg in call.args if arg.keyword is None and not arg.star]
    return positional[0].value if positional else None


def same_tensor(receiver: cst.BaseExpression, name: str) -> bool:
    """``receiver`` is `name` or `name.data`."""
    if isinstance(receiver, cst.Attribute) and receiver.attr.value == "data":
        receiver = receiver.value
    return isinstance(receiver, cst.Name) and receiver.value == name


def fresh_values(values: Iterable[cst.BaseExpression], is_parameter: Callable) -> bool:
    """Every value the name is bound to is a call that makes a tensor which needs no grad:
    not a Parameter, no `requires_grad=`. Another name or an attribute may be shared."""
    for value in values:
        if not isinstance(value, cst.Call) or is_parameter(value.func):
            return False
        if any(
            arg.keyword is not None and arg.keyword.value in _GRAD_KEYWORDS for arg in value.args
        ):
            return False
    return True


def unshared_before(
    name: str,
    scope: cst.CSTNode,
    statement: cst.CSTNode,
    line_of: Callable[[cst.CSTNode], int | None],
    parents: dict[cst.CSTNode, cst.CSTNode],
    walk: Callable[[cst.CSTNode], Iterable[cst.CSTNode]],
) -> bool:
    """Nothing in ``scope`` can hold the tensor ``name`` names when ``statement`` runs: before
    it the name is only bound or read through an attribute (`name.data`, `name.shape`), it is
    never declared global or nonlocal, no nested function, class or lambda reads it, and its
    grad is never asked for."""
    start = line_of(statement)
    if start is None:
        return False
    nested = (cst.FunctionDef, cst.ClassDef, cst.Lambda)
    for node in walk(scope):
        if isinstance(node, cst.Global | cst.Nonlocal) and any(
            item.name.value == name for item in node.names
        ):
            return False
        if not isinstance(node, cst.Name) or node.value != name:
            continue
        parent = parents.get(node)
        if isinstance(parent, cst.Attribute) and parent.value is node:
            if parent.attr.value in _GRAD_ATTRIBUTES:
                return False
            read_through_attribute = True
        else:
            read_through_attribute = False
        inner = parents.get(node)
        while inner is not None and inner is not scope:
            if isinstance(inner, nested):
                return False
            inner = parents.get(inner)
        line = line_of(node)
        if line is None or line >= start or read_through_attribute:
            continue
        if isinstance(parent, cst.AssignTarget) and parent.target is node:
            continue
        return False  # a plain read before the move: another name or a container may hold it
    return True
