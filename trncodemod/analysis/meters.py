"""Meter classes that can hold a loss as a tensor: a class whose method takes the logged number
and only does arithmetic with it and formats it (pytorch/examples' `AverageMeter.update(val, n)`:
`self.val = val; self.sum += val * n; self.avg = self.sum / self.count`, read through
`fmtstr.format(**self.__dict__)`). Given `loss.detach()` instead of `loss.item()`, such a class
computes the same numbers on the device and prints the same text: a 0-d tensor formats through
its `.item()` (`Tensor.__format__`). Read from the `ast`: asked by the program model for every
class of every module, and by the ``item-hoist`` pass for the classes of its own file.

A class's meter is ``(methods, values)``: the methods whose first argument may be a tensor, and
the attributes that then hold a tensor. It is not one (None) when an attribute holding the value
is read other than by arithmetic that stores into another such attribute, a `str.format` /
f-string field (`{val:.4f}`), or an element of `torch.tensor([...])`; when one holding the value
itself (not an arithmetic result) is updated in place (`+=` would change the loss); when
`self.__dict__` is read other than as `**self.__dict__` of a `.format(...)`, or a format string
of the class converts a field with `!r`/`!s` (`str(tensor)` is `tensor(...)`, not the number).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

Meter = tuple[tuple[str, ...], tuple[str, ...]]

_ARITHMETIC = (ast.Add, ast.Sub, ast.Mult, ast.Div)


def _methods(cls: ast.ClassDef) -> Iterator[tuple[ast.FunctionDef, str]]:
    """Plain methods and the name of their instance parameter."""
    for statement in cls.body:
        if isinstance(statement, ast.FunctionDef) and statement.args.args:
            if not statement.decorator_list:
                yield statement, statement.args.args[0].arg


def _own_attribute(node: ast.AST, receiver: str) -> str | None:
    if (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == receiver
    ):
        return node.attr
    return None


def _arithmetic(node: ast.expr, receiver: str, names: set[str]) -> bool:
    """Numbers, the given names, the instance's attributes, and + - * / of them."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, int | float) and not isinstance(node.value, bool)
    if isinstance(node, ast.Name):
        return node.id in names
    if _own_attribute(node, receiver) is not None:
        return True
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        return _arithmetic(node.operand, receiver, names)
    if isinstance(node, ast.BinOp) and isinstance(node.op, _ARITHMETIC):
        return _arithmetic(node.left, receiver, names) and _arithmetic(node.right, receiver, names)
    return False


def _reads(node: ast.AST, receiver: str) -> set[str]:
    return {
        attr
        for n in ast.walk(node)
        if isinstance(getattr(n, "ctx", None), ast.Load)
        if (attr := _own_attribute(n, receiver)) is not None
    }


def _taking_method(method: ast.FunctionDef, receiver: str) -> tuple[set[str], set[str]] | None:
    """The attributes ``method`` stores its first argument in (computed, and the value itself)
    when its body is only such stores: ``self.a = <arithmetic>`` / ``self.a += <arithmetic>``."""
    if len(method.args.args) < 2 or method.args.vararg or method.args.kwarg:
        return None
    value = method.args.args[1].arg
    names = {a.arg for a in [*method.args.args[1:], *method.args.kwonlyargs]}
    holding: set[str] = set()
    itself: set[str] = set()
    for index, statement in enumerate(method.body):
        if (
            index == 0
            and isinstance(statement, ast.Expr)
            and isinstance(statement.value, ast.Constant)
        ):
            continue  # docstring
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            target, source = statement.targets[0], statement.value
        elif isinstance(statement, ast.AugAssign) and isinstance(statement.op, _ARITHMETIC):
            target, source = statement.target, statement.value
        else:
            return None
        attr = _own_attribute(target, receiver)
        if attr is None or not _arithmetic(source, receiver, names):
            return None
        carries = any(isinstance(n, ast.Name) and n.id == value for n in ast.walk(source))
        carries = carries or bool(_reads(source, receiver) & holding)
        if not carries:
            continue
        if isinstance(statement, ast.AugAssign) and attr in itself:
            return None
        holding.add(attr)
        alias = (isinstance(source, ast.Name) and source.id == value) or (
            _own_attribute(source, receiver) in itself
        )
        if alias and isinstance(statement, ast.Assign):
            itself.add(attr)
    return (holding, itself) if holding else None


def _parents(tree: ast.AST) -> dict[int, ast.AST]:
    return {id(child): node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


def _safe_read(node: ast.Attribute, parents: dict[int, ast.AST]) -> bool:
    """An attribute holding a tensor is read where a tensor gives the same result."""
    parent = parents.get(id(node))
    if isinstance(parent, ast.FormattedValue) and parent.conversion == -1:
        return True  # f"{self.avg:.3f}"
    if isinstance(parent, ast.keyword) and parent.arg is not None:
        call = parents.get(id(parent))
        return _is_format(call)
    if isinstance(parent, ast.List | ast.Tuple):
        call = parents.get(id(parent))
        return (
            isinstance(call, ast.Call)
            and call.args[:1] == [parent]
            and isinstance(call.func, ast.Attribute)
            and call.func.attr == "tensor"
            and isinstance(call.func.value, ast.Name)
            and call.func.value.id == "torch"
        )
    return False


def _is_format(node: ast.AST | None) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "format"
    )


def class_meter(cls: ast.ClassDef) -> Meter | None:
    """The meter of ``cls`` (see the module's docstring); None where it is not one."""
    methods = list(_methods(cls))
    taking: dict[str, tuple[set[str], set[str]]] = {}
    for method, receiver in methods:
        if not method.name.startswith("__"):
            found = _taking_method(method, receiver)
            if found is not None:
                taking[method.name] = found
    if not taking:
        return None
    holding = set().union(*(h for h, _ in taking.values()))
    itself = set().union(*(i for _, i in taking.values()))
    for node in ast.walk(cls):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if any(conversion in node.value for conversion in ("!r", "!s", "!a")):
                return None
    parents = _parents(cls)
    # Arithmetic over a holding attribute stored in another one (`all_reduce`'s
    # `self.avg = self.sum / self.count`) holds a tensor too.
    changed = True
    while changed:
        changed = False
        for method, receiver in methods:
            for node in ast.walk(method):
                if not isinstance(node, ast.Assign | ast.AugAssign):
                    continue
                if not _reads(node.value, receiver) & holding:
                    continue
                if not _arithmetic(node.value, receiver, _names(method)):
                    continue
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    attr = _own_attribute(target, receiver)
                    if attr is not None and attr not in holding:
                        holding.add(attr)
                        changed = True
    for method, receiver in methods:
        for node in ast.walk(method):
            if isinstance(node, ast.AugAssign) and _own_attribute(node.target, receiver) in itself:
                return None  # `+=` on the loss tensor itself
            if method.name not in taking and not _plain_store(node, receiver, holding):
                return None  # `self.sum = torch.zeros(())`: a tensor `+=` would meet
            if isinstance(node, ast.Name) and node.id == receiver:
                parent = parents.get(id(node))
                if not (isinstance(parent, ast.Attribute) and parent.value is node):
                    return None  # the instance handed on (`vars(self)`, `log(self)`)
            if not isinstance(node, ast.Attribute) or not isinstance(node.ctx, ast.Load):
                continue
            attr = _own_attribute(node, receiver)
            if attr == "__dict__":
                parent = parents.get(id(node))
                if not (
                    isinstance(parent, ast.keyword)
                    and parent.arg is None
                    and _is_format(parents.get(id(parent)))
                ):
                    return None
                continue
            if attr not in holding or _safe_read(node, parents):
                continue
            statement = parents.get(id(node))
            while statement is not None and not isinstance(statement, ast.stmt):
                statement = parents.get(id(statement))
            if isinstance(statement, ast.Assign | ast.AugAssign):
                targets = (
                    statement.targets if isinstance(statement, ast.Assign) else [statement.target]
                )
                stores = all(_own_attribute(t, receiver) in holding for t in targets)
                if stores and _arithmetic(statement.value, receiver, _names(method)):
                    continue
            return None
    return tuple(sorted(taking)), tuple(sorted(holding))


def _plain_store(node: ast.AST, receiver: str, holding: set[str]) -> bool:
    """Outside the methods that take the value, a holding attribute is set only to a number, to
    arithmetic over the instance's attributes, or to a number of `.tolist()` unpacked."""
    if isinstance(node, ast.AugAssign):
        targets, value = [node.target], node.value
    elif isinstance(node, ast.Assign):
        targets, value = node.targets, node.value
    else:
        return True
    for target in targets:
        if _own_attribute(target, receiver) in holding:
            if not _arithmetic(value, receiver, set()):
                return False
        elif isinstance(target, ast.Tuple | ast.List):
            stored = {_own_attribute(e, receiver) for e in target.elts} & holding
            tolist = (
                isinstance(value, ast.Call)
                and isinstance(value.func, ast.Attribute)
                and value.func.attr == "tolist"
            )
            if stored and not tolist:
                return False
    return True


def _names(method: ast.FunctionDef) -> set[str]:
    return {a.arg for a in [*method.args.args[1:], *method.args.kwonlyargs]}


def module_meters(tree: ast.Module) -> dict[str, Meter]:
    """The meter classes of a module's top level, by name."""
    return {
        statement.name: meter
        for statement in tree.body
        if isinstance(statement, ast.ClassDef)
        if (meter := class_meter(statement)) is not None
    }
