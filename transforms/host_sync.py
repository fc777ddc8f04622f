"""Host reads of device values inside a training or evaluation step (reference D1, R6 caveats, §5).
Report only.

A *step* is a training or evaluation loop (``trncodemod.analysis.loops``): its body and the loops nested in
it, but not functions or lambdas defined there (step closures run after the step), not the body of
an interval guard (``if step % N == 0:``, where reading is the fix) and not a nested loop that is
itself a step loop (it is checked on its own). Code outside any step loop is never reported.

Which values are device tensors is not known statically, so the pass only reports values that
visibly are: a name the step calls ``.backward()`` on; a name bound in the step, and only there,
to a model call (``model(x)``, ``self.net(x)``), a loss (``criterion(...)``, ``loss_fn(...)``,
``F.cross_entropy(...)``), a ``torch.*`` call, a ``.to(device)``/``.cuda()``, or an attribute,
subscript or tensor method of such a value (``out.logits``, ``out[0]``, ``logits.argmax(-1)``);
the targets of a loop over a device loader.

Split with the ``item-hoist`` pass: it owns ``.item()``, ``float(t)``/``int(t)`` and
``<reduction>().tolist()`` in the step loop's own statements (TRN121–TRN125). This pass reports
``.item()`` only in loops nested in the step, where item-hoist does not look, and every other
spelling of a host read.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Mapping

import libcst as cst
import libcst.matchers as m
from libcst.metadata import ParentNodeProvider, QualifiedNameProvider, QualifiedNameSource

from trncodemod.analysis.facts import FileFacts, resolve
from trncodemod.analysis.facts import dotted as ast_dotted
from trncodemod.analysis.fallback_facts import moves_to_cpu
from trncodemod.analysis.item_scan import REDUCTIONS
from trncodemod.analysis.loops import (
    Loop,
    LoopInfo,
    dotted,
    find_step_loops,
    is_interval_guard,
    own_statements,
    root_name,
    target_names,
)
from trncodemod.analysis.nodes import children, find
from trncodemod.analysis.step_scan import StepLoop, ast_target_names, step_scan
from trncodemod.findings import Rule, Safety, Severity
from trncodemod.passes import Pass
from trncodemod.targets import Target


class ItemInInnerLoop(Rule):
    """## What it does
    Reports `.item()` in a loop nested inside a training or evaluation step (for example over
    parameters or over the items of a batch). Nothing is rewritten. `.item()` in the step loop's
    own body is the `item-hoist` pass's (TRN121–TRN125).

    ## Why
    Each `.item()` executes the pending graph and copies one value to the host (reference D1,
    measured: one transfer each); inside an inner loop that is once per inner iteration, every
    step. When the value decides a branch, every branch combination is also another graph.

    ## Example
    ```python
    for x, y in loader:
        ...
        for name, p in model.named_parameters():
            if p.grad.norm().item() > 10:
                print(name)
    ```

    ## Use instead
    ```python
    norms = torch.stack([p.grad.norm() for p in model.parameters()])   # on the device
    if step % 100 == 0:
        print(norms.max().item())                                      # one read every N steps
    ```
    """

    code = "TRN401"
    name = "item-in-inner-loop"
    summary = "`.item()` in a loop nested in the step: a sync per inner iteration (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.WARNING
    source = "reference D1, R6"


class TolistInStep(Rule):
    """## What it does
    Reports `t.tolist()` on a device tensor inside a training or evaluation step. A reduction's
    `.tolist()` (`x.sum().tolist()`) in the step loop's own body is `item-hoist`'s, and a
    `.tolist()` after `.cpu()` is reported at the `.cpu()`.

    ## Why
    Executes the pending graph and copies the whole tensor to the host every step (reference D1,
    measured: 1 execution, 1 transfer).

    ## Example
    ```python
    predictions.extend(logits.argmax(-1).tolist())
    ```

    ## Use instead
    ```python
    predictions.append(logits.argmax(-1))           # on the device
    ...
    predictions = torch.cat(predictions).tolist()   # once, after the loop
    ```
    """

    code = "TRN402"
    name = "tolist-in-step"
    summary = "`.tolist()` of a device tensor every step (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.WARNING
    source = "reference D1"


class CopyToHostInStep(Rule):
    """## What it does
    Reports `.cpu()`, `.to("cpu")`, `.to(device="cpu")` and `.to(torch.device("cpu"))` inside a
    training or evaluation step (one finding per chain: `x.detach().cpu().numpy()` is reported at
    `.cpu()`). A loop target that the step never moves to the device is a host batch and is not
    reported.

    ## Why
    An explicit device-to-host copy: it executes the pending graph and waits for the transfer,
    every step (reference D1, measured: 0–1 executions, 1 transfer). On TorchNeuron host reads
    synchronise too (reference §5).

    ## Example
    ```python
    all_preds.append(logits.argmax(-1).cpu())
    ```

    ## Use instead
    ```python
    all_preds.append(logits.argmax(-1))          # keep on the device
    all_preds = torch.cat(all_preds).cpu()       # one copy after the loop
    ```
    """

    code = "TRN403"
    name = "copy-to-host-in-step"
    summary = "`.cpu()` / `.to('cpu')` every step (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.WARNING
    source = "reference D1, §5"


class NumpyOnDevice(Rule):
    """## What it does
    Reports `.numpy()` called directly on a device tensor (no `.cpu()` before it) inside a
    training or evaluation step.

    ## Why
    It raises: `TypeError: can't convert xla:0 device type tensor to numpy. Use Tensor.cpu() to
    copy the tensor to host memory first.` (measured on torch_xla 2.9). Code that ran on the CPU
    before the migration breaks once its tensors live on the device.

    ## Example
    ```python
    scores = torch.sigmoid(logits).detach().numpy()
    ```

    ## Use instead
    ```python
    scores = torch.sigmoid(logits).detach().cpu().numpy()   # better: once, after the loop
    ```
    """

    code = "TRN404"
    name = "numpy-on-device"
    summary = "`.numpy()` on a device tensor raises `TypeError` (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.ERROR
    source = "measured on torch_xla 2.9; reference D1"


class PrintTensorInStep(Rule):
    """## What it does
    Reports a device tensor that a step formats as text: an argument of `print(...)`, a value in
    an f-string, an argument of `str.format(...)`, `str(t)` or `repr(t)`. Printing `.item()` is
    `item-hoist`'s.

    ## Why
    Formatting a tensor reads its value: one execution and one transfer each time (reference D1;
    Neuron: "when you explicitly request the value of a tensor such as by calling `loss.item()` or
    `print(loss)`"). On TorchNeuron printing synchronises too (reference §5).

    ## Example
    ```python
    print(f"step {step} loss {loss}")
    ```

    ## Use instead
    ```python
    if step % 10 == 0:
        print(f"step {step} loss {loss}")   # on XLA, inside xm.add_step_closure
    ```
    """

    code = "TRN405"
    name = "print-tensor-in-step"
    summary = "printing or formatting a device tensor every step (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.WARNING
    source = "reference D1, R6, §5"


class TensorTruthInStep(Rule):
    """## What it does
    Reports the truth value of a device tensor taken inside a step: `if t…:`, `while t…:`,
    `assert t…`, `x if t… else y`, `bool(t)`, `not t`, including comparisons with a device tensor
    (`if loss < best:`) and `torch.isnan(...)`, `torch.equal(...)`, `torch.allclose(...)`. A test
    that an interval guard short-circuits (`step % 100 == 0 and torch.isnan(loss).any()`) is not
    reported. `if t.item() …` is `item-hoist`'s (TRN124).

    ## Why
    Python needs the value to go on: the graph executes and one value is copied to the host
    (`aten::_local_scalar_dense`, reference D1, measured), and each combination of branches is
    another graph (`source_of_recompilation.md` §3).

    ## Example
    ```python
    if torch.isnan(loss):
        break
    ```

    ## Use instead
    ```python
    loss = torch.where(torch.isnan(loss), torch.zeros_like(loss), loss)   # stay on the device
    # or check it every N steps: if step % 100 == 0 and torch.isnan(loss): break
    ```
    """

    code = "TRN406"
    name = "tensor-truth-in-step"
    summary = "`if`/`while`/`assert`/`bool()` on a device tensor every step (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.WARNING
    source = "reference D1"


class ClipGradNonfinite(Rule):
    """## What it does
    Reports `torch.nn.utils.clip_grad_norm_(..., error_if_nonfinite=True)` inside a step.

    ## Why
    The check for a non-finite norm happens on the host: measured on torch_xla 2.9, 2 graph
    executions and 2 device-to-host transfers per call, against 0 and 0 with the default
    `error_if_nonfinite=False` (reference D1).

    ## Example
    ```python
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0, error_if_nonfinite=True)
    ```

    ## Use instead
    ```python
    norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    if step % 100 == 0 and not torch.isfinite(norm):
        raise RuntimeError("non-finite gradient norm")
    ```
    """

    code = "TRN407"
    name = "clip-grad-nonfinite"
    summary = "`clip_grad_norm_(..., error_if_nonfinite=True)` syncs twice per step (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.WARNING
    source = "reference D1"


# -- what the pass recognises --------------------------------------------------------------------
_MODEL = re.compile(
    r"^(model|net|network|module|encoder|decoder|generator|discriminator|classifier|backbone|"
    r"teacher|student|critic|actor|policy)\d*(_\w+)?$|_(model|net)$",
    re.IGNORECASE,
)
_LOSS = re.compile(r"loss|criterion", re.IGNORECASE)
_TENSOR_METHODS = frozenset(
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
_NOT_TENSOR_ATTRIBUTES = frozenset(
    {"shape", "dtype", "device", "ndim", "requires_grad", "is_cuda", "layout", "names", "grad_fn"}
)
_NOT_TENSOR_FUNCTIONS = re.compile(
    r"^torch\.(Size|device|dtype|is_|get_|set_|cuda\.|distributed\.)"
)
_TRUTH_FUNCTIONS = frozenset({"torch.equal", "torch.allclose", "torch.is_nonzero"})
_CLIP = frozenset(
    f"torch.nn.utils.{module}{name}"
    for module in ("", "clip_grad.")
    for name in ("clip_grad_norm_", "clip_grad_norm")
)
_NON_VALUE_COMPARISONS = (cst.Is, cst.IsNot, cst.In, cst.NotIn)
_SCOPES = (cst.FunctionDef, cst.ClassDef, cst.Lambda)


def _code(node: cst.CSTNode) -> str:
    return cst.Module(body=[]).code_for_node(node)


def _method(node: cst.CSTNode, *names: str) -> bool:
    return m.matches(node, m.Call(func=m.Attribute(attr=m.OneOf(*map(m.Name, names)))))


# -- the first stage: the step code as Python's `ast` shows it ------------------------------------
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
            return node.attr not in _NOT_TENSOR_ATTRIBUTES and self.device(node.value, known)
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
        if _MODEL.search(last) or _LOSS.search(last):
            return True
        if any(
            n.startswith("torch.") and not _NOT_TENSOR_FUNCTIONS.match(n)
            for n in resolve(self.imports, func)
        ):
            return True
        if type(func) is ast.Attribute:
            if func.attr in ("cuda", "to"):
                return True
            if func.attr in _TENSOR_METHODS:
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
            kind is ast.Call and not resolve(self.imports, test.func).isdisjoint(_TRUTH_FUNCTIONS)
        )

    def reports(self, node: ast.AST, builtins: bool) -> bool:
        """Whether ``node``, in the step code, may be reported (_check, _call)."""
        kind = type(node)
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


class HostSyncDiagnostics(Pass):
    name = "host-sync"
    rules = (
        ItemInInnerLoop,
        TolistInStep,
        CopyToHostInStep,
        NumpyOnDevice,
        PrintTensorInStep,
        TensorTruthInStep,
        ClipGradNonfinite,
    )
    needles = ("for ", "while ")

    @classmethod
    def candidate(cls, facts: FileFacts, target: Target) -> bool:
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

    def visit_Module(self, node: cst.Module) -> bool:
        loops = find_step_loops(node)
        # item-hoist's domain: the own statements of every step loop
        self.hoisted = {id(n) for loop in loops for n in own_statements(loop.body)}
        for info in loops.values():
            self._check(info, loops)
        return False  # report only: nothing to transform

    # -- the step's code -----------------------------------------------------------------------
    def _region(self, loop: Loop, loops: dict[Loop, LoopInfo]) -> Iterator[cst.CSTNode]:
        stack: list[cst.CSTNode] = [loop.body]
        while stack:
            node = stack.pop()
            yield node
            for child in reversed(children(node)):
                if isinstance(child, _SCOPES) or child in loops:
                    continue
                if isinstance(child, cst.If) and is_interval_guard(child.test):
                    stack.append(child.test)  # the guard's test runs every step; its body not
                    if child.orelse is not None:
                        stack.append(child.orelse)
                    continue
                stack.append(child)

    def _check(self, info: LoopInfo, loops: dict[Loop, LoopInfo]) -> None:
        nodes = list(self._region(info.node, loops))
        self.known = self._device_values(info, nodes)
        self.host_batch = set()
        if isinstance(info.node, cst.For) and not info.iterates_device_loader:
            assigned = {
                n.value
                for node in nodes
                if isinstance(node, cst.AssignTarget | cst.AugAssign | cst.AnnAssign)
                for n in find(node.target, cst.Name)
                if isinstance(n, cst.Name)
            }
            self.host_batch = target_names(info.node.target) - assigned
        for node in nodes:
            if isinstance(node, cst.Call):
                self._call(node)
            elif isinstance(node, cst.FormattedStringExpression):
                if self._is_device_value(node.expression):
                    self._report_print(node.expression, "is formatted in an f-string")
            elif isinstance(node, cst.If | cst.While | cst.IfExp):
                self._truth(
                    node.test, f"decides {'a loop' if isinstance(node, cst.While) else 'a branch'}"
                )
            elif isinstance(node, cst.Assert):
                self._truth(node.test, "is asserted")

    def _device_values(self, info: LoopInfo, nodes: list[cst.CSTNode]) -> set[str]:
        """Names that visibly hold a device tensor in this step (see the module docstring)."""
        bindings: dict[str, list[cst.BaseExpression | None]] = {}
        for node in nodes:
            if isinstance(node, cst.Assign):
                for target in node.targets:
                    self._bind(bindings, target.target, node.value)
            elif isinstance(node, cst.AnnAssign) and node.value is not None:
                self._bind(bindings, node.target, node.value)
            elif isinstance(node, cst.For | cst.CompFor | cst.NamedExpr | cst.AsName):
                target = node.name if isinstance(node, cst.AsName) else node.target
                for name in find(target, cst.Name):
                    bindings.setdefault(name.value, []).append(None)  # type: ignore[union-attr]
        known: set[str] = set()
        if info.iterates_device_loader and isinstance(info.node, cst.For):
            # The batch is on the device; the index of `enumerate` is a Python int.
            known |= target_names(info.node.target) - {info.counter}
        for node in nodes:
            if isinstance(node, cst.Call) and m.matches(
                node.func, m.Attribute(attr=m.Name("backward"))
            ):
                receiver = node.func.value  # type: ignore[attr-defined]
                value = node.args[0].value if node.args else receiver
                if isinstance(value, cst.Name):
                    known.add(value.value)
        for _ in range(3):  # values bound from values bound earlier
            for name, values in bindings.items():
                if values and all(
                    v is not None and self._is_device_value(v, known) for v in values
                ):
                    known.add(name)
        return known

    def _bind(self, bindings: dict, target: cst.BaseExpression, value: cst.BaseExpression) -> None:
        if isinstance(target, cst.Name):
            bindings.setdefault(target.value, []).append(value)
        elif isinstance(target, cst.Tuple | cst.List):
            values = value.elements if isinstance(value, cst.Tuple | cst.List) else None
            for index, element in enumerate(target.elements):
                if values is not None and len(values) == len(target.elements):
                    self._bind(bindings, element.value, values[index].value)
                elif self._is_model_call(value):  # `logits, aux = model(x)`
                    self._bind(bindings, element.value, value)
                else:
                    for name in find(element.value, cst.Name):
                        bindings.setdefault(name.value, []).append(None)  # type: ignore[union-attr]

    def _is_model_call(self, node: cst.BaseExpression) -> bool:
        if not isinstance(node, cst.Call):
            return False
        name = dotted(node.func)
        last = name.rsplit(".", 1)[-1] if name else ""
        return bool(_MODEL.search(last) or _LOSS.search(last))

    def _is_device_value(self, node: cst.BaseExpression, known: set[str] | None = None) -> bool:
        known = self.known if known is None else known
        if isinstance(node, cst.Name):
            return node.value in known
        if isinstance(node, cst.Attribute):
            return node.attr.value not in _NOT_TENSOR_ATTRIBUTES and self._is_device_value(
                node.value, known
            )
        if isinstance(node, cst.Subscript):
            return self._is_device_value(node.value, known)
        if isinstance(node, cst.BinaryOperation):
            return self._is_device_value(node.left, known) or self._is_device_value(
                node.right, known
            )
        if isinstance(node, cst.UnaryOperation) and isinstance(
            node.operator, cst.Minus | cst.BitInvert
        ):
            return self._is_device_value(node.expression, known)
        if isinstance(node, cst.Comparison):
            if any(isinstance(c.operator, _NON_VALUE_COMPARISONS) for c in node.comparisons):
                return False
            operands = [node.left, *(c.comparator for c in node.comparisons)]
            return any(self._is_device_value(o, known) for o in operands)
        if not isinstance(node, cst.Call):
            return False
        if self._is_model_call(node):
            return True
        names = self._imported(node.func)
        if any(n.startswith("torch.") and not _NOT_TENSOR_FUNCTIONS.match(n) for n in names):
            return True
        func = node.func
        if isinstance(func, cst.Attribute) and not names:
            if func.attr.value == "cuda" or (func.attr.value == "to" and not moves_to_cpu(node)):
                return True
            if func.attr.value in _TENSOR_METHODS:
                return self._is_device_value(func.value, known)
        return False

    def _imported(self, func: cst.BaseExpression) -> set[str]:
        """Qualified names of ``func`` that come from an import: ``th.sigmoid`` is
        ``torch.sigmoid``; a method of a local value (``logits.softmax``) has none."""
        if dotted(func) is None:
            return set()
        return {
            q.name
            for q in self.get_metadata(QualifiedNameProvider, func, set())
            if q.source is QualifiedNameSource.IMPORT
        }

    # -- the findings --------------------------------------------------------------------------
    def _later(self) -> str:
        if self.target.is_xla:
            return "every N steps (in `xm.add_step_closure`) or once after the loop"
        return "every N steps or once after the loop"

    def _call(self, call: cst.Call) -> None:
        func = call.func
        if isinstance(func, cst.Attribute) and not call.args:
            method = func.attr.value
            if method == "item" and id(call) not in self.hoisted:
                self._item(call)
            elif method == "tolist":
                self._tolist(call)
            elif method == "cpu":
                self._to_host(call)
            elif method == "numpy":
                self._numpy(call)
        if _method(call, "to") and moves_to_cpu(call):
            self._to_host(call)
        if self.is_any(func, {"builtins.print"}):
            for arg in call.args:
                if arg.keyword is None and not arg.star and self._is_device_value(arg.value):
                    self._report_print(arg.value, "is printed")
        elif self.is_any(func, {"builtins.str", "builtins.repr"}) and len(call.args) == 1:
            if self._is_device_value(call.args[0].value):
                self._report_print(call.args[0].value, f"is turned into text by `{_code(func)}`")
        elif _method(call, "format") and isinstance(func.value, cst.SimpleString | cst.Name):  # type: ignore[union-attr]
            for arg in call.args:
                if not arg.star and self._is_device_value(arg.value):
                    self._report_print(arg.value, "is formatted by `str.format`")
        elif self.is_any(func, {"builtins.bool"}) and len(call.args) == 1:
            self._truth(call.args[0].value, "is converted by `bool()`")
        elif self.is_any(func, _CLIP):
            self._clip(call)

    def _host_chain(self, node: cst.BaseExpression) -> bool:
        """A `.cpu()`/`.numpy()`/`.to("cpu")` already sits in the receiver chain of ``node``."""
        while isinstance(node, cst.Call | cst.Attribute | cst.Subscript):
            if isinstance(node, cst.Call):
                if _method(node, "cpu", "numpy") or (_method(node, "to") and moves_to_cpu(node)):
                    return True
                node = node.func
            else:
                node = node.value
        return False

    def _item(self, call: cst.Call) -> None:
        use = ""
        parent = self.get_metadata(ParentNodeProvider, call, None)
        if isinstance(parent, cst.If | cst.While | cst.IfExp | cst.Comparison):
            use = ", and its value decides a branch"
        self.report(
            call,
            ItemInInnerLoop,
            f"`{_code(call)}` in a loop inside the step syncs once per inner iteration{use}: keep "
            f"the values on the device (`torch.stack`) and read them {self._later()}",
            False,
        )

    def _tolist(self, call: cst.Call) -> None:
        receiver = call.func.value  # type: ignore[attr-defined]
        if self._host_chain(receiver) or not self._is_device_value(receiver):
            return
        # item-hoist's own `.tolist()` spelling (ItemHoist._sync): a reduction's result.
        if id(call) in self.hoisted and _method(receiver, *REDUCTIONS):
            return  # item-hoist's
        self.report(
            call,
            TolistInStep,
            f"`{_code(call)}` copies a device tensor to the host every step: keep the tensors "
            f"on the device and convert them {self._later()}",
            False,
        )

    def _to_host(self, call: cst.Call) -> None:
        receiver = call.func.value  # type: ignore[attr-defined]
        if self._host_chain(receiver) or root_name(receiver) in self.host_batch:
            return
        self.report(
            call,
            CopyToHostInStep,
            f"`{_code(call)}` copies to the host every step and waits for the graph: keep the "
            f"values on the device and copy them {self._later()}",
            False,
        )

    def _numpy(self, call: cst.Call) -> None:
        receiver = call.func.value  # type: ignore[attr-defined]
        if self._host_chain(receiver) or not self._is_device_value(receiver):
            return
        self.report(
            call,
            NumpyOnDevice,
            f"`{_code(call)}` on a device tensor raises `TypeError: can't convert xla device type "
            f"tensor to numpy`: copy with `.cpu()` first, and only {self._later()}",
            False,
        )

    def _report_print(self, node: cst.BaseExpression, how: str) -> None:
        self.report(
            node,
            PrintTensorInStep,
            f"device tensor `{_code(node)}` {how}, which reads its value every step: print it "
            f"{self._later()}",
            False,
        )

    def _truth(self, test: cst.BaseExpression, how: str) -> None:
        operands = [test]
        while operands:
            node = operands.pop(0)
            if isinstance(node, cst.BooleanOperation):
                if isinstance(node.operator, cst.And) and is_interval_guard(node.left):
                    continue  # evaluated only at interval steps
                operands[:0] = [node.left, node.right]
                continue
            if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Not):
                operands.insert(0, node.expression)
                continue
            truth = self._is_device_value(node) or (
                isinstance(node, cst.Call) and self.is_any(node.func, _TRUTH_FUNCTIONS)
            )
            if truth:
                self.report(
                    node,
                    TensorTruthInStep,
                    f"device tensor `{_code(node)}` {how}: Python reads its value every step "
                    "(one sync, and a graph per branch combination); compute with `torch.where` "
                    "on the device, or check it every N steps",
                    False,
                )

    def _clip(self, call: cst.Call) -> None:
        flag = next(
            (
                a
                for a in call.args
                if a.keyword is not None and a.keyword.value == "error_if_nonfinite"
            ),
            None,
        )
        if flag is None or not m.matches(flag.value, m.Name("True")):
            return
        self.report(
            call,
            ClipGradNonfinite,
            "`error_if_nonfinite=True` checks the norm on the host: 2 graph executions and 2 "
            "transfers every step; keep the default and check `torch.isfinite(norm)` every N steps",
            False,
        )
