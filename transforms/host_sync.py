"""Host reads of device values inside a training or evaluation step ([xla-troubleshoot, neuron-debug, xla-model, neuron-guide, torchneuron-overview]).
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

from collections.abc import Iterator

import libcst as cst
import libcst.matchers as m
from libcst.metadata import ParentNodeProvider, QualifiedNameProvider, QualifiedNameSource
from trncodemod.transforms.host_sync_rules import (
    RULES,
    ClipGradNonfinite,
    CopyToHostInStep,
    ElementReadsOfDeviceTensor,
    HostReadReachedFromStep,
    ItemInInnerLoop,
    NumpyOnDevice,
    PrintTensorInStep,
    TensorTruthInStep,
    TolistInStep,
)

from trncodemod.analysis.facts import FileFacts
from trncodemod.analysis.fallback_facts import moves_to_cpu
from trncodemod.analysis.host_sync_scan import (
    LOSS,
    MODEL,
    NOT_TENSOR_ATTRIBUTES,
    NOT_TENSOR_FUNCTIONS,
    TENSOR_METHODS,
    TRUTH_FUNCTIONS,
    may_report,
)
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
from trncodemod.analysis.program import ModuleView
from trncodemod.passes import Pass, RawFinding
from trncodemod.targets import Target

# -- what the pass recognises --------------------------------------------------------------------
_CLIP = frozenset(
    f"torch.nn.utils.{module}{name}"
    for module in ("", "clip_grad.")
    for name in ("clip_grad_norm_", "clip_grad_norm")
)
_NON_VALUE_COMPARISONS = (cst.Is, cst.IsNot, cst.In, cst.NotIn)
_ELEMENT_LOOPS = (cst.For, cst.While, cst.ListComp, cst.GeneratorExp, cst.SetComp, cst.DictComp)
# Tensor methods that return a tuple of tensors on the receiver's device.
_UNPACKED_METHODS = ("max", "min")
_SCOPES = (cst.FunctionDef, cst.ClassDef, cst.Lambda)


def _code(node: cst.CSTNode) -> str:
    return cst.Module(body=[]).code_for_node(node)


def _element_of(node: cst.BaseExpression, elements: set[str]) -> bool:
    """``node`` is a loop's element or a part of one (`row`, `row[i]`), not a call on it."""
    while isinstance(node, cst.Subscript):
        node = node.value
    return isinstance(node, cst.Name) and node.value in elements


def _cpu_string(value: str) -> bool:
    return value.strip("'\"").startswith("cpu")


def _method(node: cst.CSTNode, *names: str) -> bool:
    return m.matches(node, m.Call(func=m.Attribute(attr=m.OneOf(*map(m.Name, names)))))


class HostSyncDiagnostics(Pass):
    name = "host-sync"
    rules = RULES
    needles = ("for ", "while ")

    @classmethod
    def candidate(cls, facts: FileFacts, target: Target) -> bool:
        return may_report(facts)

    @classmethod
    def asked_by(cls, program: ModuleView) -> bool:
        # a step in another function reaches code here, or code here calls a function that
        # reads a parameter element by element
        return bool(program.step_reads or program.element_calls)

    def visit_Module(self, node: cst.Module) -> bool:
        self._report_step_reads(self.run.program)
        loops = find_step_loops(node)
        # item-hoist's domain: the own statements of every step loop
        self.hoisted = {id(n) for loop in loops for n in own_statements(loop.body)}
        for info in loops.values():
            self._check(info, loops)
        return False  # report only: nothing to transform

    def _report_step_reads(self, program: ModuleView) -> None:
        rule = HostReadReachedFromStep
        for given, column, what, chain, host, guard in program.step_reads:
            line = self.run.from_original(given)  # earlier passes may have added lines
            if not self.enabled(rule) or self.run.suppressions.covers(line, rule.code):
                continue
            then = f", and `{host[0]}` computes on the host" if host else ""
            when = f" where `{guard}`" if guard else ""
            message = (
                f"`.{what}()` runs every training step{when} ({chain}){then}: if it reads a "
                "device value, it waits for the step's graph and copies to the host each time; "
                "keep the value on the device, or read it every N steps"
            )
            self.findings.append(RawFinding(line, column, rule, message, False))

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
        self.strict = self._strict_values(nodes)
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
        self._indexes(nodes)

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

    def _strict_values(self, nodes: list[cst.CSTNode]) -> set[str]:
        """Names bound in the step only to values ``_on_device`` accepts (its fixed point)."""
        bindings: dict[str, list[cst.BaseExpression | None]] = {}
        for node in nodes:
            if isinstance(node, cst.Assign):
                for target in node.targets:
                    self._bind(bindings, target.target, node.value)
            elif isinstance(node, cst.For | cst.CompFor | cst.NamedExpr | cst.AsName):
                target = node.name if isinstance(node, cst.AsName) else node.target
                for name in find(target, cst.Name):
                    bindings.setdefault(name.value, []).append(None)  # type: ignore[union-attr]
        self.strict: set[str] = set()
        for _ in range(3):
            for name, values in bindings.items():
                if name in self.strict or not values or None in values:
                    continue
                if not any(self._on_device(v) for v in values):  # type: ignore[arg-type]
                    continue
                self.strict.add(name)  # `preds = preds[:, :n]` keeps a device value on it
                if not all(self._on_device(v) for v in values):  # type: ignore[arg-type]
                    self.strict.discard(name)
        return self.strict

    def _bind(self, bindings: dict, target: cst.BaseExpression, value: cst.BaseExpression) -> None:
        if isinstance(target, cst.Name):
            bindings.setdefault(target.value, []).append(value)
        elif isinstance(target, cst.Tuple | cst.List):
            values = value.elements if isinstance(value, cst.Tuple | cst.List) else None
            for index, element in enumerate(target.elements):
                if values is not None and len(values) == len(target.elements):
                    self._bind(bindings, element.value, values[index].value)
                elif self._is_model_call(value) or _method(value, *_UNPACKED_METHODS):
                    # `logits, aux = model(x)`; `_, index = preds.max(2)`: tensors of its device
                    self._bind(bindings, element.value, value)
                else:
                    for name in find(element.value, cst.Name):
                        bindings.setdefault(name.value, []).append(None)  # type: ignore[union-attr]

    def _is_model_call(self, node: cst.BaseExpression) -> bool:
        if not isinstance(node, cst.Call):
            return False
        name = dotted(node.func)
        last = name.rsplit(".", 1)[-1] if name else ""
        return bool(MODEL.search(last) or LOSS.search(last))

    def _is_device_value(self, node: cst.BaseExpression, known: set[str] | None = None) -> bool:
        known = self.known if known is None else known
        if isinstance(node, cst.Name):
            return node.value in known
        if isinstance(node, cst.Attribute):
            return node.attr.value not in NOT_TENSOR_ATTRIBUTES and self._is_device_value(
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
        if any(n.startswith("torch.") and not NOT_TENSOR_FUNCTIONS.match(n) for n in names):
            return True
        func = node.func
        if isinstance(func, cst.Attribute) and not names:
            if func.attr.value == "cuda" or (func.attr.value == "to" and not moves_to_cpu(node)):
                return True
            if func.attr.value in TENSOR_METHODS:
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
        spelling = dotted(func)
        if spelling and spelling in self.run.program.element_calls:
            self._element_reads(call, self.run.program.element_calls[spelling])
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
        if self._feeds_element_reads(call):
            return  # one copy where the function would read each element: TRN447's fix
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

    def _element_reads(self, call: cst.Call, entries: tuple) -> None:
        """A device tensor passed to a function that reads it element by element in a Python
        loop on the host (``ModuleView.element_calls``): reported once per call, at its first
        such argument, with every function the call may run that reads it."""
        positional = []
        for arg in call.args:
            if arg.keyword is not None or arg.star:
                break
            positional.append(arg.value)
        keywords = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
        passed: dict[int, tuple[cst.BaseExpression, list[str]]] = {}
        for position, param, where, function, read in sorted(entries):
            value = keywords.get(param)
            if value is None and position < len(positional):
                value = positional[position]
            if value is None or self._host_chain(value) or not self._on_device(value):
                continue
            passed.setdefault(position, (value, []))[1].append(f"`{function}` ({where}: `{read}`)")
        if not passed:
            return
        value, functions = passed[min(passed)]
        if len(functions) > 2:
            functions[2:] = [f"{len(functions) - 2} more"]
        tensor = _code(value)
        self.report(
            call,
            ElementReadsOfDeviceTensor,
            f"`{_code(call.func)}(...)` passes the device tensor `{tensor}` to "
            f"{' or '.join(functions)}, which reads it element by element in a Python loop: a "
            f"graph execution and a copy to the host for each element, every step; copy it to "
            f"the host once before the call, `{tensor}.cpu()`",
            False,
        )

    def _indexes(self, nodes: list[cst.CSTNode]) -> None:
        """An element of a device tensor used as a Python index in a loop inside the step
        (`vocab[preds[i]]`, `for x in preds[k]: chars.append(vocab[x])`): reported once per
        loop. Truth values of elements are TRN406's."""
        seen: set[int] = set()
        for loop in nodes:
            if not isinstance(loop, _ELEMENT_LOOPS) or id(loop) in seen:
                continue
            elements: set[str] = set()  # loop targets that are rows or elements of one
            for f in find(loop, cst.For, cst.CompFor):
                if isinstance(f.target, cst.Name) and (
                    self._on_device(f.iter) or _element_of(f.iter, elements)
                ):
                    elements.add(f.target.value)
            for node in find(loop, *_ELEMENT_LOOPS):
                seen.add(id(node))
            for node in find(loop, cst.Subscript):
                if len(node.slice) != 1 or not isinstance(node.slice[0].slice, cst.Index):
                    continue
                index = node.slice[0].slice.value
                element = (
                    isinstance(index, cst.Subscript)
                    and (self._on_device(index.value) or _element_of(index.value, elements))
                ) or (isinstance(index, cst.Name) and index.value in elements)
                if not element or self._on_device(node.value):
                    continue
                self.report(
                    node,
                    ElementReadsOfDeviceTensor,
                    f"`{_code(node)}` uses an element of a device tensor as a Python index in a "
                    "loop: a graph execution and a copy to the host for each element, every step; "
                    "copy the tensor to the host once before the loop (`.cpu()`)",
                    False,
                )
                break

    def _feeds_element_reads(self, node: cst.CSTNode) -> bool:
        """``node`` is an argument of a call of a function that reads a parameter element by
        element (``ModuleView.element_calls``)."""
        parent = self.get_metadata(ParentNodeProvider, node, None)
        if not isinstance(parent, cst.Arg):
            return False
        call = self.get_metadata(ParentNodeProvider, parent, None)
        spelling = dotted(call.func) if isinstance(call, cst.Call) else None
        return bool(spelling) and spelling in self.run.program.element_calls

    def _on_device(self, node: cst.BaseExpression) -> bool:
        """Visibly a device tensor, more strictly than ``_is_device_value``: a torch function
        counts only with a device operand or a device given (`torch.IntTensor([...])` is on the
        host)."""
        if isinstance(node, cst.Name):
            return node.value in self.strict
        if isinstance(node, cst.Attribute):
            return node.attr.value not in NOT_TENSOR_ATTRIBUTES and self._on_device(node.value)
        if isinstance(node, cst.Subscript):
            return self._on_device(node.value)
        if isinstance(node, cst.BinaryOperation):
            return self._on_device(node.left) or self._on_device(node.right)
        if not isinstance(node, cst.Call):
            return False
        if self._is_model_call(node):
            return True
        func = node.func
        if self._imported(func):
            device = next(
                (a.value for a in node.args if a.keyword and a.keyword.value == "device"), None
            )
            if device is not None:
                return not m.matches(device, m.SimpleString(m.MatchIfTrue(_cpu_string)))
            return any(not a.keyword and self._on_device(a.value) for a in node.args)
        if isinstance(func, cst.Attribute):
            if func.attr.value == "cuda" or (func.attr.value == "to" and not moves_to_cpu(node)):
                return True
            if func.attr.value in TENSOR_METHODS:
                return self._on_device(func.value)
        return False

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
                isinstance(node, cst.Call) and self.is_any(node.func, TRUTH_FUNCTIONS)
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
