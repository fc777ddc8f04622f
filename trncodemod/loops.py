"""Finding training and evaluation loops, the unit that the step-level passes work on.

A *training loop* is a ``for``/``while`` whose own body (not a nested loop, function or class)
calls ``.backward()`` or steps an optimizer. An *evaluation loop* is a ``for`` loop without those
whose own body moves a batch taken from the loop target to a device (``.to(...)``/``.cuda()``)
or that iterates a device loader. Loops are found on the original tree, before any rewrite, and
keyed by node identity, so a transformer can look them up in ``leave_For``/``leave_While`` with
``original_node``. Call ``find_step_loops`` from the pass's ``visit_Module``: LibCST's metadata
wrapper copies the module, and only the copy's nodes are the ``original_node`` a pass sees.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Literal

import libcst as cst
import libcst.matchers as m

Loop = cst.For | cst.While
_OPTIMIZER = re.compile(r"(^|_)(optim|optimizer|opt|optimiser)(\d*|_\w*)$", re.IGNORECASE)
_SCALER = re.compile(r"scaler", re.IGNORECASE)
_SCOPE_BREAKERS = (cst.For, cst.While, cst.FunctionDef, cst.ClassDef, cst.Lambda)
DEVICE_LOADERS = ("MpDeviceLoader", "ParallelLoader")


def dotted(node: cst.BaseExpression) -> str | None:
    """``a.b.c`` for a Name/Attribute chain, else None."""
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        head = dotted(node.value)
        return f"{head}.{node.attr.value}" if head else None
    return None


def root_name(node: cst.BaseExpression) -> str | None:
    """The leftmost name of ``a.b[c].d(...)``."""
    while True:
        if isinstance(node, cst.Name):
            return node.value
        if isinstance(node, cst.Attribute | cst.Subscript):
            node = node.value
        elif isinstance(node, cst.Call):
            node = node.func
        else:
            return None


def target_names(target: cst.BaseExpression) -> set[str]:
    """Names bound by a ``for`` target: ``x``, ``(x, y)``, ``i, (x, y)``."""
    if isinstance(target, cst.Name):
        return {target.value}
    if isinstance(target, cst.Tuple | cst.List):
        names: set[str] = set()
        for element in target.elements:
            names |= target_names(element.value)
        return names
    return set()


def is_optimizer_step(call: cst.Call) -> bool:
    """``optimizer.step()``, ``opt_d.step()``, ``scaler.step(optimizer)``, ``xm.optimizer_step(o)``."""
    func = call.func
    if not isinstance(func, cst.Attribute):
        return False
    if func.attr.value == "optimizer_step":
        return True
    if func.attr.value != "step":
        return False
    receiver = dotted(func.value)
    if receiver is None:
        return False
    last = receiver.rsplit(".", 1)[-1]
    if _SCALER.search(last):
        return bool(call.args)
    return bool(_OPTIMIZER.search(last)) and "sched" not in last.lower()


def is_backward(call: cst.Call) -> bool:
    """``loss.backward()`` and ``accelerator.backward(loss)``."""
    return m.matches(call.func, m.Attribute(attr=m.Name("backward")))


def own_statements(body: cst.BaseSuite) -> Iterator[cst.CSTNode]:
    """Every node in ``body`` that runs in the same iteration: nested loops, functions, classes
    and lambdas are not entered."""
    stack: list[cst.CSTNode] = [body]
    while stack:
        node = stack.pop()
        yield node
        for child in reversed(node.children):
            if not isinstance(child, _SCOPE_BREAKERS):
                stack.append(child)


@dataclass
class LoopInfo:
    node: Loop
    kind: Literal["train", "eval"]
    optimizer_steps: list[cst.Call] = field(default_factory=list)
    backward_calls: list[cst.Call] = field(default_factory=list)
    # The per-iteration counter: the index of `enumerate(...)`, or a name incremented by
    # `name += 1` at the loop body's top level.
    counter: str | None = None
    counter_offset: int = 0  # `enumerate(x, 1)` counts from 1
    iterates_device_loader: bool = False

    @property
    def iterable(self) -> cst.BaseExpression | None:
        return self.node.iter if isinstance(self.node, cst.For) else None


def _counter(loop: Loop) -> tuple[str | None, int]:
    if isinstance(loop, cst.For) and isinstance(loop.iter, cst.Call):
        call = loop.iter
        if m.matches(call.func, m.Name("enumerate")) and isinstance(loop.target, cst.Tuple):
            first = loop.target.elements[0].value if loop.target.elements else None
            start = 0
            for index, arg in enumerate(call.args):
                is_start = (arg.keyword and arg.keyword.value == "start") or (
                    index == 1 and arg.keyword is None
                )
                if is_start and isinstance(arg.value, cst.Integer):
                    start = int(arg.value.value)
            if isinstance(first, cst.Name):
                return first.value, start
    body = loop.body
    if isinstance(body, cst.IndentedBlock):
        for statement in body.body:
            if isinstance(statement, cst.SimpleStatementLine):
                for small in statement.body:
                    if m.matches(
                        small,
                        m.AugAssign(target=m.Name(), operator=m.AddAssign(), value=m.Integer("1")),
                    ):
                        return small.target.value, 0  # type: ignore[union-attr]
    return None, 0


def _moves_loop_batch(loop: cst.For, nodes: list[cst.CSTNode]) -> bool:
    names = target_names(loop.target)
    for node in nodes:
        if isinstance(node, cst.Call) and m.matches(
            node.func, m.Attribute(attr=m.Name("to") | m.Name("cuda"))
        ):
            receiver = node.func.value  # type: ignore[union-attr]
            if root_name(receiver) in names:
                return True
    return False


def iterates_device_loader(loop: Loop) -> bool:
    if not isinstance(loop, cst.For):
        return False
    iterable = loop.iter
    if isinstance(iterable, cst.Call) and m.matches(iterable.func, m.Name("enumerate")):
        iterable = iterable.args[0].value if iterable.args else iterable
    if isinstance(iterable, cst.Call):
        name = dotted(iterable.func) or ""
        return name.rsplit(".", 1)[-1] in DEVICE_LOADERS
    return False


class _LoopCollector(cst.CSTVisitor):
    def __init__(self) -> None:
        self.loops: dict[Loop, LoopInfo] = {}

    def _visit(self, loop: Loop) -> None:
        nodes = list(own_statements(loop.body))
        calls = [n for n in nodes if isinstance(n, cst.Call)]
        steps = [c for c in calls if is_optimizer_step(c)]
        backwards = [c for c in calls if is_backward(c)]
        counter, offset = _counter(loop)
        if steps or backwards:
            kind: Literal["train", "eval"] = "train"
        elif isinstance(loop, cst.For) and (
            _moves_loop_batch(loop, nodes) or iterates_device_loader(loop)
        ):
            kind = "eval"
        else:
            return
        self.loops[loop] = LoopInfo(
            node=loop,
            kind=kind,
            optimizer_steps=steps,
            backward_calls=backwards,
            counter=counter,
            counter_offset=offset,
            iterates_device_loader=iterates_device_loader(loop),
        )

    def visit_For(self, node: cst.For) -> None:
        self._visit(node)

    def visit_While(self, node: cst.While) -> None:
        self._visit(node)


def find_step_loops(module: cst.Module) -> dict[Loop, LoopInfo]:
    """Training and evaluation loops of ``module``, keyed by the (original) loop node."""
    collector = _LoopCollector()
    module.visit(collector)
    return collector.loops
