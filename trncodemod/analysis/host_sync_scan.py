"""The first stage's view of the ``host-sync`` pass, on Python's ``ast``: whether a step loop's code
may hold a host read the pass reports, its device values over-approximated. It over-estimates and
decides no finding. What makes a value a device tensor (a model or loss call, a tensor method,
an attribute that is not metadata, a ``torch.*`` call that is not about sizes or devices) is
shared with the pass's ``_is_device_value``.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping

from trncodemod.analysis.facts import FileFacts, resolve
from trncodemod.analysis.facts import dotted as ast_dotted
from trncodemod.analysis.step_scan import StepLoop, ast_target_names, step_scan

MODEL = re.compile(
    r"^(model|net|network|module|encoder|decoder|generator|discriminator|classifier|backbone|"
    r"teacher|student|critic|actor|policy)\d*(_\w+)?$|_(model|net)$",
    re.IGNORECASE,
)
LOSS = re.compile(r"loss|criterion", re.IGNORECASE)
TENSOR_METHODS = frozenset(
    [
        "detach",
        "clone",
        "float",
        "half",
        "bfloat16",
        "double",
        "long",
        "int",
        "bool",
        "mean",
        "sum",
        "max",
        "min",
        "amax",
        "amin",
        "argmax",
        "argmin",
        "softmax",
        "log_softmax",
        "sigmoid",
        "tanh",
        "relu",
        "exp",
        "log",
        "abs",
        "sqrt",
        "norm",
        "std",
        "var",
        "round",
        "neg",
        "pow",
        "mul",
        "add",
        "sub",
        "div",
        "squeeze",
        "unsqueeze",
        "view",
        "reshape",
        "flatten",
        "t",
        "transpose",
        "permute",
        "contiguous",
        "eq",
        "ne",
        "gt",
        "lt",
        "ge",
        "le",
        "any",
        "all",
        "isnan",
        "isinf",
        "isfinite",
        "logical_not",
        "masked_fill",
        "gather",
        "expand",
    ]
)
NOT_TENSOR_ATTRIBUTES = frozenset(
    {"shape", "dtype", "device", "ndim", "requires_grad", "is_cuda", "layout", "names", "grad_fn"}
)
NOT_TENSOR_FUNCTIONS = re.compile(r"^torch\.(Size|device|dtype|is_|get_|set_|cuda\.|distributed\.)")
TRUTH_FUNCTIONS = frozenset({"torch.equal", "torch.allclose", "torch.is_nonzero"})

_AST_NON_VALUE = (ast.Is, ast.IsNot, ast.In, ast.NotIn)
_CPU = ("cpu", "cpu:0")


class _AstStep:
    """A superset of what HostSyncDiagnostics._check reports in one step loop: its device
    values over-approximated (a name is one when any value it is assigned in the step is one,
    followed to a fixed point), every finding's own condition checked on that."""

    def __init__(
        self, loop: StepLoop, imports: Mapping[str, frozenset[str]], loader: bool, hoisted: set[int]
    ) -> None:
        self.imports = imports
        self.hoisted = hoisted
        bindings: list[tuple[str, ast.expr]] = []
        known: set[str] = set()
        if loader and type(loop.node) is not ast.While:
            known |= ast_target_names(loop.node.target)  # a device loader's batches
        for node in loop.region:
            kind = type(node)
            if kind is ast.Assign:
                for target in node.targets:
                    self._bind(bindings, target, node.value)
            elif kind is ast.AnnAssign and node.value is not None:
                self._bind(bindings, node.target, node.value)
            elif kind is ast.For or kind is ast.comprehension:
                self._bind(bindings, node.target, node.iter)  # an element of what it iterates
            elif kind is ast.Call and type(node.func) is ast.Attribute:
                if node.func.attr == "backward":
                    for value in [node.func.value, *node.args, *(k.value for k in node.keywords)]:
                        if type(value) is ast.Name:
                            known.add(value.id)
        changed = True
        while changed:
            changed = False
            for name, value in bindings:
                if name not in known and self.device(value, known):
                    known.add(name)
                    changed = True
        self.known = known

    def _bind(self, bindings: list, target: ast.expr, value: ast.expr) -> None:
        kind = type(target)
        if kind is ast.Name:
            bindings.append((target.id, value))
        elif kind is ast.Tuple or kind is ast.List:
            if type(value) in (ast.Tuple, ast.List) and len(value.elts) == len(target.elts):
                for element, part in zip(target.elts, value.elts, strict=True):
                    self._bind(bindings, element, part)
            else:
                for name in ast_target_names(target):
                    bindings.append((name, value))
        elif kind is ast.Starred:
            self._bind(bindings, target.value, value)

    def device(self, node: ast.AST, known: set[str] | None = None) -> bool:
        """A superset of HostSyncDiagnostics._is_device_value."""
        known = self.known if known is None else known
        kind = type(node)
        if kind is ast.Name:
            return node.id in known
        if kind is ast.Attribute:
            return node.attr not in NOT_TENSOR_ATTRIBUTES and self.device(node.value, known)
        if kind is ast.Subscript:
            return self.device(node.value, known)
        if kind is ast.BinOp:
            return self.device(node.left, known) or self.device(node.right, known)
        if kind is ast.UnaryOp:
            return type(node.op) in (ast.USub, ast.Invert) and self.device(node.operand, known)
        if kind is ast.Compare:
            if any(isinstance(op, _AST_NON_VALUE) for op in node.ops):
                return False
            return any(self.device(o, known) for o in (node.left, *node.comparators))
        if kind is not ast.Call:
            return False
        func = node.func
        name = ast_dotted(func)
        last = name.rsplit(".", 1)[-1] if name else ""
        if MODEL.search(last) or LOSS.search(last):
            return True
        if any(
            n.startswith("torch.") and not NOT_TENSOR_FUNCTIONS.match(n)
            for n in resolve(self.imports, func)
        ):
            return True
        if type(func) is ast.Attribute:
            if func.attr in ("cuda", "to"):
                return True
            if func.attr in TENSOR_METHODS:
                return self.device(func.value, known)
        return False

    def truth(self, test: ast.AST) -> bool:
        """A superset of what _truth reports."""
        kind = type(test)
        if kind is ast.BoolOp:
            return any(self.truth(v) for v in test.values)
        if kind is ast.UnaryOp and type(test.op) is ast.Not:
            return self.truth(test.operand)
        return self.device(test) or (
            kind is ast.Call and not resolve(self.imports, test.func).isdisjoint(TRUTH_FUNCTIONS)
        )

    def reports(self, node: ast.AST, builtins: bool) -> bool:
        """Whether ``node``, in the step code, may be reported (_check, _call, _indexes)."""
        kind = type(node)
        if kind is ast.Subscript and self.device(node.slice) and not self.device(node.value):
            return True  # an element as a Python index (_indexes)
        if kind is ast.If or kind is ast.While or kind is ast.IfExp or kind is ast.Assert:
            return self.truth(node.test)
        if kind is ast.FormattedValue:
            return self.device(node.value)
        if kind is not ast.Call:
            return False
        func = node.func
        args = [a for a in node.args if type(a) is not ast.Starred]
        if type(func) is ast.Attribute:
            method = func.attr
            if not node.args and not node.keywords:
                if method == "item":
                    return id(node) not in self.hoisted
                if method == "cpu":
                    return True
                if method in ("tolist", "numpy"):
                    return self.device(func.value)
            if method == "to" and any(
                type(n) is ast.Constant and n.value in _CPU
                for a in [*node.args, *(k.value for k in node.keywords)]
                for n in ast.walk(a)
            ):
                return True
            if method == "format" and type(func.value) in (ast.Constant, ast.Name):
                values = [*args, *(k.value for k in node.keywords if k.arg is not None)]
                if any(self.device(v) for v in values):
                    return True
        if any(
            k.arg == "error_if_nonfinite"
            and type(k.value) is ast.Constant
            and k.value.value is True
            for k in node.keywords
        ):
            return True
        if type(func) is ast.Name or builtins:
            called = func.id if type(func) is ast.Name else ""
            if called == "print" or builtins:
                if any(self.device(a) for a in args):
                    return True
            if (called in ("str", "repr", "bool") or builtins) and len(node.args) + len(
                node.keywords
            ) == 1:
                value = node.args[0] if node.args else node.keywords[0].value
                if type(value) is ast.Starred:
                    value = value.value
                if self.truth(value):
                    return True
        return False


def _hoisted(loops: list[StepLoop]) -> set[int]:
    """Nodes certainly in the own statements of a step loop (of a training loop: the test is
    exact), which host-sync leaves to item-hoist."""
    return {id(n) for loop in loops if loop.train for n in loop.own}


def may_report(facts: FileFacts) -> bool:
    """Whether a step loop of the file may hold what ``HostSyncDiagnostics`` reports;
    ``HostSyncDiagnostics.candidate`` asks it."""
    # Every finding is in the code of a step loop (visit_Module), on what _AstStep checks.
    if not facts.loops:
        return False
    scan = step_scan(facts)
    if not scan.step_loops:
        return False
    imports = facts.bindings
    builtins = "builtins" in facts.identifiers  # `from builtins import print as p`
    hoisted = _hoisted(scan.step_loops)
    for loop in scan.step_loops:
        step = _AstStep(loop, imports, scan.loader, hoisted)
        if any(step.reports(node, builtins) for node in loop.region):
            return True
    return False
