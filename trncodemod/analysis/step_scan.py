"""The loops of a file as Python's ``ast`` shows them, and which of them may be step loops: the
first stage's view of ``trncodemod.analysis.loops`` (``Pass.candidate`` of the step-level passes asks it).

Every loop ``find_step_loops`` finds on the LibCST tree is a ``StepLoop`` here with ``maybe``
set; the training test is exact, the evaluation test a superset (a loop that calls anything named like
a model, or a method of the file's classes, may be a sampling loop).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from trncodemod.analysis.ast_nodes import nodes
from trncodemod.analysis.facts import FileFacts, dotted
from trncodemod.analysis.facts import target_names as ast_target_names
from trncodemod.analysis.loops import _OPTIMIZER, _SCALER, DEVICE_LOADERS, is_model_name
from trncodemod.analysis.model_names import ast_is_scaler_call

_AST_LOOPS = (ast.For, ast.AsyncFor, ast.While)
_AST_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
# What a training loop's own body calls (loops.is_backward / is_optimizer_step).
_TRAIN_CALLS = frozenset({"backward", "step", "optimizer_step"})
# What an evaluation loop's own body calls: a move of its batch, or a value read under no_grad.
_EVAL_CALLS = frozenset({"to", "cuda"})
_READS = frozenset({"item", "tolist", "sum", "mean", "detach"})  # loops._TENSOR_READS


def ast_root_name(node: ast.AST) -> str | None:
    """loops.root_name: the leftmost name of ``a.b[c].d(...)``."""
    while True:
        kind = type(node)
        if kind is ast.Name:
            return node.id
        if kind is ast.Attribute or kind is ast.Subscript:
            node = node.value
        elif kind is ast.Call:
            node = node.func
        else:
            return None


def _ast_is_optimizer_step(call: ast.Call) -> bool:
    """loops.is_optimizer_step on the ast."""
    func = call.func
    if ast_is_scaler_call(call):
        return True
    if type(func) is not ast.Attribute:
        return False
    if func.attr == "optimizer_step":
        return True
    if func.attr != "step":
        return False
    receiver = dotted(func.value)
    if receiver is None:
        return False
    last = receiver.rsplit(".", 1)[-1]
    if _SCALER.search(last):
        return bool(call.args or call.keywords)
    return bool(_OPTIMIZER.search(last)) and "sched" not in last.lower()


@dataclass(eq=False)
class StepLoop:
    """A ``for``/``while`` loop of the ast. ``own``: the nodes of its body that run in its own
    iteration (loops.own_statements: nested loops, functions, classes and lambdas not entered);
    ``region``: every node of its body outside functions, classes and lambdas (nested loops
    entered: the step code of host-sync and recompilation is a part of it)."""

    node: ast.AST
    parent: StepLoop | None
    own: list[ast.AST] = field(default_factory=list)
    region: list[ast.AST] = field(default_factory=list)
    train: bool = False  # exactly loops' test: `.backward()`/an optimizer step in `own`
    maybe: bool = False  # may be a training or evaluation loop of find_step_loops


class StepScan:
    """The loops of one file and which of them may be step loops; worked out once per tree."""

    def __init__(self, facts: FileFacts) -> None:
        self.loops: list[StepLoop] = []
        identifiers = facts.identifiers
        # An evaluation loop: iterates a device loader (a loader class must be spelled, also to
        # alias it), moves its batch (`.to`/`.cuda`), or reads values under no_grad.
        self.loader = not identifiers.isdisjoint(DEVICE_LOADERS)
        self._no_grad = not identifiers.isdisjoint(("no_grad", "inference_mode"))
        # Method names of the file's classes: `self.<method>(...)` in a loop may call the model
        # (loops.is_model_call follows the method; here any method is enough).
        self._methods = (
            {
                item.name
                for node in nodes(facts.tree)
                if type(node) is ast.ClassDef
                for item in node.body
                if type(item) in (ast.FunctionDef, ast.AsyncFunctionDef)
            }
            if facts.loops
            else set()
        )
        if facts.loops:
            self._statements(facts.tree.body)
        for loop in self.loops:
            loop.train, loop.maybe = self._classify(loop)
        self.step_loops = [loop for loop in self.loops if loop.maybe]

    def _statements(self, body: list[ast.stmt]) -> None:
        # Loops are statements: only statements are searched until one is found.
        for statement in body:
            kind = type(statement)
            if kind in _AST_LOOPS:
                self._visit(statement, [], None)
            elif kind is not ast.Expr and kind is not ast.Assign and kind is not ast.Return:
                for name in ("body", "orelse", "finalbody", "handlers", "cases"):
                    inner = getattr(statement, name, None)
                    if inner:
                        self._statements(inner)

    def _visit(self, node: ast.AST, stack: list[StepLoop], own: StepLoop | None) -> None:
        kind = type(node)
        if kind in _AST_SCOPES:
            # Neither own statements nor step code of an enclosing loop; its loops are its own.
            for child in ast.iter_child_nodes(node):
                self._visit(child, [], None)
            return
        for loop in stack:
            loop.region.append(node)
        if kind in _AST_LOOPS:
            loop = StepLoop(node, stack[-1] if stack else None)
            self.loops.append(loop)
            for name in ("target", "iter", "test"):
                child = getattr(node, name, None)
                if child is not None:
                    self._visit(child, stack, None)
            for child in node.orelse:
                self._visit(child, stack, None)
            inner = [*stack, loop]
            for child in node.body:
                self._visit(child, inner, loop)
            return
        if own is not None:
            own.own.append(node)
        for child in ast.iter_child_nodes(node):
            if not isinstance(child, ast.expr_context):
                self._visit(child, stack, own)

    def _classify(self, loop: StepLoop) -> tuple[bool, bool]:
        calls = [n for n in loop.own if type(n) is ast.Call]
        for call in calls:
            func = call.func
            if (type(func) is ast.Attribute and func.attr == "backward") or (
                _ast_is_optimizer_step(call)  # `loss_scaler(loss, optimizer)` is a name's call
            ):
                return True, True
        for call in calls:
            if self._may_call_model(call.func):
                return False, True
        # A loop over a sampler generator of its class (loops._consumes_sampler).
        iterable = getattr(loop.node, "iter", None)
        while type(iterable) is ast.Call and type(iterable.func) is ast.Name and iterable.args:
            iterable = iterable.args[0]  # enumerate(...), tqdm(...)
        if type(iterable) is ast.Call and self._may_call_model(iterable.func):
            return False, True
        if type(loop.node) is ast.While:
            return False, False
        if self.loader:
            return False, True
        names = ast_target_names(loop.node.target)
        for call in calls:
            func = call.func
            if (
                type(func) is ast.Attribute
                and func.attr in _EVAL_CALLS
                and ast_root_name(func.value) in names
            ):
                return False, True
        if self._no_grad:
            for node in loop.own:
                if type(node) is ast.Call:
                    if type(node.func) is ast.Attribute and node.func.attr in ("item", "tolist"):
                        return False, True
                elif type(node) is ast.AugAssign and any(
                    type(n) is ast.Call and type(n.func) is ast.Attribute and n.func.attr in _READS
                    for n in ast.walk(node.value)
                ):
                    return False, True
        return False, False

    def _may_call_model(self, func: ast.AST) -> bool:
        """loops.is_model_call, a superset: any method of the file's classes may call it."""
        if type(func) is ast.Name:
            return func.id == "self" or is_model_name(func.id)
        if type(func) is ast.Attribute:
            value = func.value
            if type(value) is ast.Name and value.id == "self" and func.attr in self._methods:
                return True
            return is_model_name(func.attr)
        return False


_scan: tuple[ast.Module, StepScan] | None = None


def step_scan(facts: FileFacts) -> StepScan:
    """The StepScan of ``facts``' tree, kept for the newest tree asked about (the engine asks
    every pass about one version of a file before the next)."""
    global _scan
    if _scan is None or _scan[0] is not facts.tree:
        _scan = (facts.tree, StepScan(facts))
    return _scan[1]


def may_have_step_loop(facts: FileFacts) -> bool:
    """Whether ``find_step_loops`` may find a loop in this code: the calls a training loop
    needs, or those an evaluation loop needs, then the loops themselves."""
    if not facts.loops:
        return False
    calls = facts.calls
    if (
        calls.isdisjoint(_TRAIN_CALLS | _EVAL_CALLS)
        and not (
            facts.spells(*DEVICE_LOADERS)
            or (facts.spells("no_grad", "inference_mode") and not calls.isdisjoint(_READS))
        )
        and not facts.spells("self")
        and not any(is_model_name(call) for call in calls)
    ):
        return False
    return bool(step_scan(facts).step_loops)
