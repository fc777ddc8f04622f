"""Per-step `.item()` syncs in training and evaluation loops: keep values on the device and read
them only at log steps ([xla-model, neuron-guide, xla-troubleshoot, neuron-debug, torchneuron-overview])."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

import libcst as cst
import libcst.matchers as m
from libcst.metadata import ParentNodeProvider, PositionProvider, ScopeProvider
from trncodemod.transforms.item_hoist_rules import (
    RULES,
    ItemAccumulator,
    ItemControlFlow,
    ItemLogClosure,
    ItemLogInterval,
    ItemMeter,
    ItemMeterPrints,
    ItemPerStepSync,
)
from trncodemod.transforms.item_hoist_table import (
    FLOAT_METHODS,
    HOST_CHECKS,
    LOSS_NAME,
    is_log_call,
)
from trncodemod.transforms.item_meter import file_meters, meter_call, meter_prints
from trncodemod.transforms.step_marker import EvalLoopStepMarker, TrainLoopStepMarker

from trncodemod.analysis.facts import FileFacts
from trncodemod.analysis.item_scan import REDUCTIONS, may_sync_per_step
from trncodemod.analysis.loops import (
    STEP_MARKERS,
    LoopInfo,
    dotted,
    find_step_loops,
    is_interval_guard,
    own_statements,
    top_level_expressions,
)
from trncodemod.analysis.nodes import find, walk
from trncodemod.analysis.ranks import rank_zero_test
from trncodemod.findings import Rule
from trncodemod.passes import Pass
from trncodemod.rewriting.closures import CLOSURE_NAME, step_closure
from trncodemod.targets import Target

_XLA_MODEL = "torch_xla.core.xla_model"
_DEFINITIONS = (cst.Import, cst.ImportFrom, cst.FunctionDef, cst.ClassDef)
_STATEMENTS = (cst.BaseStatement, cst.BaseSmallStatement, cst.BaseSuite)
_JUMPS = (cst.Break, cst.Continue, cst.Return)
# Flags that say this process is the master: accelerate's, Lightning's, a script's own.
_MASTER_FLAGS = frozenset(
    {"is_main_process", "is_local_main_process", "is_master", "master_process", "is_global_zero"}
)


@dataclass
class Sync:
    """A host read of a device value: ``tensor.item()``, ``float(tensor)``, ``int(tensor)``."""

    node: cst.Call
    tensor: cst.BaseExpression
    spelling: str  # "item", "tolist", "float", "int"


@dataclass
class Accumulator:
    name: str
    init: cst.BaseExpression
    syncs: list[Sync] = field(default_factory=list)
    values: list[cst.BaseExpression] = field(default_factory=list)
    first_top_index: int | None = None  # first top-level statement that accumulates
    failure: str | None = None
    interval_reads: bool = False  # read in the loop only under a logging-interval guard

    @property
    def is_list(self) -> bool:
        return isinstance(self.init, cst.List)


@dataclass
class LoggedValue:
    """``name = <device read>``, read only by the logging statements ``logs``."""

    statement: cst.SimpleStatementLine
    name: str
    syncs: list[Sync]
    logs: set[cst.CSTNode]


# Conversions of a number that format a 0-d tensor as they format its `.item()`.
_FLOAT_FORMATS = frozenset("eEfFgG")
_PERCENT = re.compile(r"%(\(?)[-#0 +]*(\*|\d+)?(?:\.(\*|\d+))?[hlL]?(.)")


def _percent_conversions(text: str) -> list[str] | None:
    """The conversion of each value a `%` format string takes, in order; None where one is
    given by name (`%(x)s`) or a width or precision is taken from the values (`%*d`)."""
    conversions = []
    for match in _PERCENT.finditer(text):
        mapping, width, precision, conversion = match.groups()
        if conversion == "%" and not (mapping or width or precision):
            continue
        if mapping or width == "*" or precision == "*":
            return None
        conversions.append(conversion)
    return conversions


@dataclass
class LogStatement:
    statement: cst.SimpleStatementLine
    call: cst.Call
    index: int  # of the top-level statement of the loop body that holds it
    guard: cst.If | None


def _code(node: cst.CSTNode) -> str:
    return cst.Module(body=[]).code_for_node(node)


def _is_count(node: cst.BaseExpression) -> bool:
    """``(a == b).sum()`` / ``pred.eq(y).sum()``: an integer tensor."""
    if not m.matches(node, m.Call(func=m.Attribute(attr=m.Name("sum")), args=[])):
        return False
    inner = node.func.value  # type: ignore[attr-defined]
    if isinstance(inner, cst.Comparison):
        return all(isinstance(c.operator, cst.Equal | cst.NotEqual) for c in inner.comparisons)
    return m.matches(inner, m.Call(func=m.Attribute(attr=m.Name("eq") | m.Name("ne"))))


def _consecutive(logs: list[LogStatement]) -> list[list[LogStatement]]:
    """Logging statements that follow each other at the loop body's top level, grouped."""
    runs: list[list[LogStatement]] = []
    for log in logs:
        if runs and runs[-1][-1].index == log.index - 1:
            runs[-1].append(log)
        else:
            runs.append([log])
    return runs


def _literal_number(node: cst.BaseExpression) -> str | None:
    """'int' / 'float' for a number literal, 'list' for ``[]``."""
    if isinstance(node, cst.Integer):
        return "int"
    if isinstance(node, cst.Float):
        return "float"
    if isinstance(node, cst.List) and not node.elements:
        return "list"
    return None


def _module_binding(module: cst.Module, dotted_name: str) -> str | None:
    """The expression that names module ``dotted_name`` after the module's top-level imports."""
    for statement in module.body:
        if not isinstance(statement, cst.SimpleStatementLine):
            continue
        for small in statement.body:
            if isinstance(small, cst.Import):
                for alias in small.names:
                    if _code(alias.name) == dotted_name:
                        return alias.evaluated_alias or dotted_name
            elif isinstance(small, cst.ImportFrom) and not isinstance(small.names, cst.ImportStar):
                if small.relative or small.module is None:
                    continue
                for alias in small.names:
                    if f"{_code(small.module)}.{_code(alias.name)}" == dotted_name:
                        return alias.evaluated_alias or alias.evaluated_name
    return None


class ItemHoist(Pass):
    name = "item-hoist"
    rules = RULES
    needles = (".item()", "float(", "int(", ".tolist()")
    # Whether interval logging runs in a step closure (TRN123) hangs on a step marker after it
    # in the loop, which the step-marker pass may insert after this pass ran.
    sees = frozenset({"step-marker"})

    @classmethod
    def candidate(cls, facts: FileFacts, target: Target) -> bool:
        return may_sync_per_step(facts)

    # -- planning, on the original tree ------------------------------------------------------
    def visit_Module(self, node: cst.Module) -> bool:
        self.tree = node
        self.expr_edits: dict[cst.CSTNode, Callable[[cst.BaseExpression], cst.BaseExpression]] = {}
        self.wrap: dict[cst.CSTNode, tuple[cst.BaseExpression, list | None]] = {}
        self.closures: dict[cst.If, dict[cst.CSTNode, tuple[list[cst.CSTNode], list]]] = {}
        self.after: dict[cst.CSTNode, list[cst.BaseStatement]] = {}
        self.counters: dict[cst.CSTNode, str] = {}  # loops that get `enumerate` for a guard
        for info in find_step_loops(node).values():
            if isinstance(info.node.body, cst.IndentedBlock):
                self._plan(info)
        return True

    def _allowed(self, node: cst.CSTNode, rule: type[Rule]) -> bool:
        line = self.get_metadata(PositionProvider, node).start.line
        return self.enabled(rule) and not self.run.suppressions.covers(line, rule.code)

    def _parent(self, node: cst.CSTNode) -> cst.CSTNode | None:
        return self.get_metadata(ParentNodeProvider, node, None)

    def _sync(self, node: cst.CSTNode, backward: set[str]) -> Sync | None:
        if not isinstance(node, cst.Call):
            return None
        func = node.func
        if isinstance(func, cst.Attribute) and not node.args:
            if func.attr.value == "item":
                return Sync(node, func.value, "item")
            if func.attr.value == "tolist" and m.matches(
                func.value, m.Call(func=m.Attribute(attr=m.OneOf(*map(m.Name, REDUCTIONS))))
            ):
                return Sync(node, func.value, "tolist")
            return None
        if (
            len(node.args) == 1
            and node.args[0].keyword is None
            and not node.args[0].star
            and self.is_any(func, {"builtins.float", "builtins.int"})
        ):
            value = node.args[0].value
            tensor = (
                (isinstance(value, cst.Name) and value.value in backward)
                or m.matches(value, m.Attribute(attr=m.Name("loss")))
                or m.matches(
                    value, m.Call(func=m.Attribute(attr=m.OneOf(*map(m.Name, REDUCTIONS))))
                )
            )
            if tensor:
                return Sync(node, value, func.value)  # type: ignore[attr-defined]
        return None

    def _value_type(self, sync: Sync, backward: set[str]) -> str | None:
        """'int' / 'float' for the Python value the sync returns; None when unknown."""
        if sync.spelling == "float":
            return "float"
        tensor = sync.tensor
        if _is_count(tensor):
            return "int"
        if sync.spelling == "int":
            return None
        if isinstance(tensor, cst.Name) and tensor.value in backward:
            return "float"
        if m.matches(tensor, m.Attribute(attr=m.Name("loss"))):
            return "float"
        if isinstance(tensor, cst.Call):
            func = tensor.func
            if isinstance(func, cst.Attribute) and func.attr.value in FLOAT_METHODS:
                return "float"
            if any(
                q.startswith("torch.nn.functional.") and ("loss" in q or "entropy" in q)
                for q in self.module_names(func)
            ):
                return "float"
            name = dotted(func)
            if name and LOSS_NAME.search(name.rsplit(".", 1)[-1]):
                return "float"
        return None

    def _is_log_call(self, node: cst.BaseExpression) -> bool:
        return is_log_call(node, self.is_any)

    def _log_statement(self, statement: cst.CSTNode) -> cst.Call | None:
        if (
            isinstance(statement, cst.SimpleStatementLine)
            and len(statement.body) == 1
            and isinstance(statement.body[0], cst.Expr)
            and self._is_log_call(statement.body[0].value)
        ):
            return statement.body[0].value  # type: ignore[return-value]
        return None

    def _is_sync_point(self, node: cst.CSTNode) -> bool:
        if not isinstance(node, cst.Call):
            return False
        if self.is_any(node.func, STEP_MARKERS):
            return True
        return self.is_any(node.func, {f"{_XLA_MODEL}.optimizer_step"}) and any(
            arg.keyword is not None
            and arg.keyword.value == "barrier"
            and m.matches(arg.value, m.Name("True"))
            for arg in node.args
        )

    def _sync_follows(self, info: LoopInfo, body: list[cst.BaseStatement], index: int) -> bool:
        """A sync runs after ``body[index]`` in every iteration, so its closures run this step."""
        for statement in body[index:]:
            nodes = list(own_statements(statement))
            if statement is not body[index] and any(self._is_sync_point(n) for n in nodes):
                return True
            if any(isinstance(n, _JUMPS) for n in nodes):
                return False
        own = own_statements(info.node.body)
        return info.iterates_device_loader and not any(
            isinstance(n, cst.Break | cst.Return) for n in own
        )

    def _no_cut(self, info: LoopInfo) -> str | None:
        """Why ``info``'s loop will have no graph cut once every pass has run, or None when it
        will: an MpDeviceLoader, a marker at the top of its body, or the step marker's. Never
        half a port: a value moved onto the device to be accumulated needs its loop's cut, so
        where the cut is declined the accumulator stays on the host (its `.item()` stays)."""
        if not self.target.is_xla or not self.target.step_marker:
            return None  # an eager backend records no graph
        if info.iterates_device_loader:
            return None
        loop = info.node
        markers = [n for n in own_statements(loop.body) if self._is_sync_point(n)]
        top = top_level_expressions(loop.body)
        if any(marker in top for marker in markers):
            return None
        if markers:
            return "its only step marker runs on some iterations (TRN103)"
        rule = TrainLoopStepMarker if info.kind == "train" else EvalLoopStepMarker
        anchors = [loop, *info.optimizer_steps, *info.backward_calls]
        if isinstance(loop, cst.For):
            anchors.append(loop.iter)
        if not self.enabled(rule) or any(not self._allowed(a, rule) for a in anchors):
            return f"{rule.code}, which would add it, is not selected or is suppressed here"
        return None

    def _enclosing_function(self, node: cst.CSTNode) -> cst.FunctionDef | None:
        parent = self._parent(node)
        while parent is not None and not isinstance(parent, cst.FunctionDef):
            parent = self._parent(parent)
        return parent

    def _interval(self, loop: cst.CSTNode) -> str:
        function = self._enclosing_function(loop)
        where: cst.CSTNode = function or self.tree
        for node in find(where, cst.Attribute):
            if node.attr.value == "log_interval" and type(node.value) is cst.Name:
                return _code(node)
        if function is not None and any(p.name.value == "args" for p in function.params.params):
            declared = any(
                m.matches(
                    node,
                    m.Call(
                        func=m.Attribute(attr=m.Name("add_argument")),
                        args=[
                            m.Arg(m.SimpleString(), keyword=None),
                            m.ZeroOrMore(),
                        ],
                    ),
                )
                and node.args[0].value.evaluated_value in ("--log-interval", "--log_interval")  # type: ignore[attr-defined]
                for node in find(self.tree, cst.Call)
            )
            if declared:
                return "args.log_interval"
        return str(self.settings.log_interval)

    def _find_init(self, loop: cst.CSTNode, name: str) -> cst.BaseExpression | None:
        """The literal ``name`` is set to before ``loop``, in the same function, with no other
        binding in between; None when there is no such certainty."""
        child: cst.CSTNode = loop
        parent = self._parent(child)
        while parent is not None:
            body = getattr(parent, "body", None)
            if isinstance(body, list | tuple) and child in body:
                for statement in reversed(body[: body.index(child)]):
                    binding = self._binding(statement, name)
                    if binding is False:
                        continue
                    return binding  # the literal, or None when bound otherwise
            if isinstance(parent, cst.For | cst.While | cst.FunctionDef | cst.ClassDef):
                return None
            child, parent = parent, self._parent(parent)
        return None

    def _binding(self, statement: cst.CSTNode, name: str) -> cst.BaseExpression | None | bool:
        """False: ``statement`` does not bind ``name``; the literal of ``name = <literal>``; else
        None."""
        if m.matches(
            statement,
            m.SimpleStatementLine(body=[m.Assign(targets=[m.AssignTarget(target=m.Name(name))])]),
        ):
            value = statement.body[0].value  # type: ignore[attr-defined]
            return value if _literal_number(value) else None
        # `total, correct, seen = 0.0, 0, 0`: unpacking a tuple of literals, name for name.
        if m.matches(
            statement,
            m.SimpleStatementLine(
                body=[m.Assign(targets=[m.AssignTarget(target=m.Tuple())], value=m.Tuple())]
            ),
        ):
            assign = statement.body[0]  # type: ignore[attr-defined]
            names = assign.targets[0].target.elements
            values = assign.value.elements
            if len(names) == len(values) and all(
                isinstance(e.value, cst.Name) and not isinstance(e, cst.StarredElement)
                for e in names
            ):
                for element, value in zip(names, values, strict=True):
                    if element.value.value == name:
                        literal = value.value
                        return literal if _literal_number(literal) else None
        for node in walk(statement):
            target = None
            if isinstance(
                node, cst.AssignTarget | cst.AugAssign | cst.AnnAssign | cst.For | cst.CompFor
            ):
                target = node.target
            elif isinstance(node, cst.AsName):
                target = node.name
            elif isinstance(node, cst.NamedExpr):
                target = node.target
            elif isinstance(node, cst.Global | cst.Nonlocal):
                if any(n.name.value == name for n in node.names):
                    return None
            if target is not None and any(
                isinstance(t, cst.Name) and t.value == name for t in walk(target)
            ):
                return None
        return False

    def _plan(self, info: LoopInfo) -> None:
        loop = info.node
        body = list(loop.body.body)  # type: ignore[union-attr]
        own = list(own_statements(loop.body))
        backward: set[str] = set()
        for node in own:
            if isinstance(node, cst.Call) and m.matches(
                node.func, m.Attribute(attr=m.Name("backward"))
            ):
                receiver = node.func.value  # type: ignore[attr-defined]
                target = node.args[0].value if node.args else receiver
                if isinstance(target, cst.Name) and (node.args or isinstance(receiver, cst.Name)):
                    backward.add(target.value)
        syncs = {n: s for n in own if (s := self._sync(n, backward)) is not None}
        top_of = {}  # node -> index of its top-level statement
        for index, statement in enumerate(body):
            for node in own_statements(statement):
                top_of[node] = index

        # logging statements: unguarded at top level, or inside an interval guard at top level
        logs: list[LogStatement] = []
        guards: list[cst.If] = []
        for index, statement in enumerate(body):
            call = self._log_statement(statement)
            if call is not None:
                logs.append(LogStatement(statement, call, index, None))  # type: ignore[arg-type]
            elif (
                isinstance(statement, cst.If)
                and statement.orelse is None
                and isinstance(statement.body, cst.IndentedBlock)
                and is_interval_guard(statement.test)
            ):
                guards.append(statement)
                for inner in statement.body.body:
                    call = self._log_statement(inner)
                    if call is not None:
                        logs.append(LogStatement(inner, call, index, statement))  # type: ignore[arg-type]
        guarded_nodes = {n for g in guards for n in walk(g.body)}
        log_nodes = {id(n): log for log in logs for n in walk(log.statement)}
        counter = info.counter
        added_counter = None
        if counter is None and self._can_add_counter(loop):
            counter = added_counter = self._counter_name()
        can_guard = counter is not None

        def handled(log: LogStatement) -> bool:
            return log.guard is not None or (can_guard and self._allowed(log.call, ItemLogInterval))

        # accumulators
        accumulators: dict[str, Accumulator] = {}
        statement_of: dict[cst.CSTNode, str] = {}
        for node in own:
            name, value = None, None
            if m.matches(node, m.AugAssign(target=m.Name(), operator=m.AddAssign())):
                name, value = node.target.value, node.value  # type: ignore[attr-defined]
            elif m.matches(
                node,
                m.Expr(
                    value=m.Call(
                        func=m.Attribute(value=m.Name(), attr=m.Name("append")),
                        args=[m.Arg(keyword=None, star="")],
                    )
                ),
            ):
                call = node.value  # type: ignore[attr-defined]
                name, value = call.func.value.value, call.args[0].value
            if name is None or value is None:
                continue
            sync = syncs.get(value)
            if sync is None and isinstance(value, cst.BinaryOperation):
                if isinstance(value.operator, cst.Multiply | cst.Divide):
                    sync = syncs.get(value.left) or (
                        syncs.get(value.right) if isinstance(value.operator, cst.Multiply) else None
                    )
            if sync is None or any(n in syncs and n is not sync.node for n in walk(value)):
                continue
            acc = accumulators.get(name)
            if acc is None:
                init = self._find_init(loop, name)
                acc = accumulators[name] = Accumulator(name, init or cst.Name("None"))
                if init is None:
                    acc.failure = f"`{name}` is not set to a number before the loop"
            acc.syncs.append(sync)
            acc.values.append(value)
            statement_of[node] = name
            index = top_of.get(node)
            parent = self._parent(node)
            at_top = parent is not None and self._parent(parent) is loop.body
            if at_top and (acc.first_top_index is None or index < acc.first_top_index):
                acc.first_top_index = index
        for acc in accumulators.values():
            self._check_accumulator(acc, loop, backward, statement_of, log_nodes, handled)

        uncut = self._no_cut(info) if accumulators else None
        for acc in accumulators.values():
            if acc.failure is None and uncut is not None:
                acc.failure = (
                    f"its loop gets no graph cut: {uncut}; summed on the device without one, "
                    f"`{acc.name}` would grow the pending graph by one forward pass a batch, so "
                    "give the loop its cut first"
                )
        converted = {name: acc for name, acc in accumulators.items() if acc.failure is None}
        done: set[cst.CSTNode] = set()  # sync nodes taken care of
        for acc in converted.values():
            if not self._convert(acc, loop, backward):
                acc.failure = "rule not selected"
                continue
            done.update(s.node for s in acc.syncs)
        converted = {name: acc for name, acc in converted.items() if acc.failure is None}

        # a loss read only to be handed to a meter class that can take the tensor
        meters = file_meters(self)
        updates: list[cst.Call] = []
        for node, sync in syncs.items():
            if node in done or node in guarded_nodes:
                continue
            target = meter_call(self, sync, backward, meters)
            if target is None:
                continue
            tensor = _code(sync.tensor)
            message = (
                f"`{_code(node)}` is handed to `{target}`, whose class only does arithmetic with "
                f"it and formats it → `{tensor}.detach()`: the meter sums on the device and is "
                "read when it is printed"
            )
            if self.report(node, ItemMeter, message, True):
                self.expr_edits[node] = self._tensor_edit(sync.spelling, False)
                done.add(node)
                updates.append(self._parent(self._parent(node)))  # type: ignore[arg-type]
        # what printing those meters then reads from the device
        for call, message in meter_prints(self, own, updates, meters):
            self.report(call, ItemMeterPrints, message, False)

        # logging
        register: cst.BaseExpression | None = None
        interval = self._interval(loop) if can_guard else ""
        by_guard: dict[cst.If, list[LogStatement]] = {}
        # each unguarded log, the first value it reads, whether it reads a running total
        unguarded: list[tuple[LogStatement, Sync | None, bool]] = []
        values, kept = self._logged_values(loop, body, logs, syncs, done, log_nodes)
        for log in logs:
            nodes = list(walk(log.statement))
            reads = [
                n
                for n in nodes
                if isinstance(n, cst.Name) and n.value in converted and self._is_read(n)
            ]
            log_syncs = [syncs[n] for n in nodes if n in syncs]
            for value in [*values.values(), *kept.values()]:
                if log.statement in value.logs:
                    log_syncs.extend(value.syncs)
            if not log_syncs and not reads:
                continue
            done.update(s.node for s in log_syncs)
            if log.guard is not None:
                by_guard.setdefault(log.guard, []).append(log)
            elif not can_guard:
                if log_syncs:
                    self.report(
                        log_syncs[0].node,
                        ItemPerStepSync,
                        f"`{_code(log_syncs[0].node)}` is logged every step and the loop has no "
                        "counter to guard it with: iterate `for step, batch in enumerate(...)` "
                        f"and log under `if step % {self.settings.log_interval} == 0:`",
                        False,
                    )
            else:
                unguarded.append((log, log_syncs[0] if log_syncs else None, bool(reads)))
        test = f"{counter} % {interval} == 0"
        every = f"every {interval} steps" if interval.isdigit() else f"every `{interval}` steps"
        staying = [
            sync
            for node, sync in syncs.items()
            if node not in done and node not in guarded_nodes and self._every_step(node, loop)
        ]
        # A copy to the host every step after the backward (`correct = pred.eq(y).cpu().sum()`)
        # runs a graph of its own every step whatever the print does: gating the print alone
        # would only thin the log.
        stepped = self._backward_index(own, top_of) if unguarded else None
        copies = [
            node
            for node in own
            if stepped is not None
            and isinstance(node, cst.Call)
            and not node.args
            and m.matches(node.func, m.Attribute(attr=m.Name("cpu")))
            and id(node) not in log_nodes
            and node not in guarded_nodes
            and top_of.get(node, -1) > stepped
            and self._every_step(node, loop)
        ]
        staying += [Sync(node, node.func.value, "cpu") for node in copies]  # type: ignore[attr-defined]
        # A metrics logger handed the loss tensor itself (`writer.add_scalar("loss", loss)`,
        # `wandb.log({"loss": loss})`) reads it on the host every step too.
        staying += [
            Sync(node, tensor, "logger")
            for node in own
            if unguarded
            and (tensor := self._logger_read(node, backward)) is not None
            and node not in guarded_nodes
            and self._every_step(node, loop)
        ]
        if unguarded and staying:
            # A value read every step that feeds the print but cannot be kept as a tensor for it
            # (`{d_x}` would print the tensor): gating the print alone would thin the log and
            # keep a host read in every step.
            where = ", ".join(
                f"`{_code(s.node)}` (line {self.get_metadata(PositionProvider, s.node).start.line})"
                for s in staying[:3]
            )
            for log, sync, _ in unguarded:
                what = f"`{_code(sync.node)}`" if sync else "a running total"
                self.report(
                    log.call,
                    ItemPerStepSync,
                    f"{what} is logged every step, and the step reads {where} on the host every "
                    "step as well: logging it every N steps alone would keep those syncs; keep "
                    "those values as tensors (`.detach()`) and read them all under "
                    f"`if {test}:`",
                    False,
                )
                if sync:
                    done.add(sync.node)
            unguarded = []
        gated: set[cst.CSTNode] = set()  # unguarded logging now under the interval guard
        for run in _consecutive([log for log, _, _ in unguarded]):
            closure = self.target.is_xla and self._sync_follows(info, body, run[-1].index)
            if not self.target.is_xla:
                how = "reading it at log steps (TorchNeuron has no step closures)"
            elif closure:
                how = "in a step closure"
            else:
                how = "reading it at log steps (no sync follows it in the loop for a step closure)"
            reported = []
            for log, sync, reads_total in unguarded:
                if log not in run:
                    continue
                staying_values = [kept[i] for i in sorted(kept) if log.statement in kept[i].logs]
                own_read = sync is not None and all(sync is not v.syncs[0] for v in staying_values)
                what = f"`{_code(sync.node)}`" if own_read else "a running total"
                through = [v for v in values.values() if log.statement in v.logs]
                if through:
                    names = ", ".join(f"`{v.name}`" for v in through)
                    what += f" (through {names}, computed only for this log, moved with it)"
                if staying_values:
                    names = ", ".join(f"`{v.name}`" for v in staying_values)
                    kind = "as tensors" if len(staying_values) > 1 else "as a tensor"
                    what = (
                        f"{what} (and {names}, kept on the device {kind})"
                        if own_read or reads_total
                        else f"{names} (kept on the device {kind})"
                    )
                message = (
                    f"{what} is logged every step → under `if {test}:`, {how}; the output now "
                    f"appears {every}"
                )
                if added_counter is not None:
                    message += (
                        f" (the loop now counts its steps: `for {added_counter}, ... in "
                        "enumerate(...)`)"
                    )
                if self.report(log.call, ItemLogInterval, message, True):
                    reported.append(log)
                    gated.add(log.statement)
                elif sync:
                    done.discard(sync.node)
                    for value in through:
                        done.difference_update(s.node for s in value.syncs)
            for part in _consecutive(reported):
                statements = [log.statement for log in part]
                # The values computed only for these logs, right before them, move with them.
                first = part[0].index
                while first - 1 in values and values[first - 1].logs <= set(statements):
                    first -= 1
                    statements.insert(0, values[first].statement)
                if added_counter is not None:
                    self.counters[loop] = added_counter
                params = (
                    self._closure_args(part[0], statements, converted, body, loop)
                    if closure
                    else None
                )
                if params is not None:
                    register = register or self._register()
                    params = [register, params]
                self.wrap[statements[0]] = (cst.parse_expression(test), params, statements)
        self._keep_on_device(kept, gated, done, every)
        for guard in guards:
            one = self._interval_of_one(guard.test)
            node = next((n for n in walk(guard.body) if n in syncs), None)
            if one is not None and node is not None:
                self.report(
                    node,
                    ItemPerStepSync,
                    f"`{_code(node)}` is read under `if {_code(guard.test)}:`, but {one}: the "
                    "guard holds every step, so the value is read on the host every step; log "
                    "every N steps (a larger interval)",
                    False,
                )
        for guard, guard_logs in by_guard.items():
            index = body.index(guard)
            if not self.target.is_xla or not self._sync_follows(info, body, index):
                continue
            statements = list(guard.body.body)  # type: ignore[union-attr]
            chosen = {log.statement for log in guard_logs}
            runs: list[list[cst.CSTNode]] = []
            for position, statement in enumerate(statements):
                if self._log_statement(statement) is None:
                    continue
                if runs and statements[position - 1] is runs[-1][-1]:
                    runs[-1].append(statement)
                else:
                    runs.append([statement])
            runs = [run for run in runs if chosen.intersection(run)]
            planned = {}
            for run in runs:
                first = next(log for log in guard_logs if log.statement in run)
                params = self._closure_args(first, run, converted, statements, loop, guard)
                if params is None:
                    continue
                if not self._report_log(
                    first,
                    ItemLogClosure,
                    "interval logging reads device values → run it in a step closure after the step's graph",
                ):
                    continue
                register = register or self._register()
                planned[run[0]] = (run, [register, params])
            if planned:
                self.closures[guard] = planned

        # everything else that still syncs every step
        for node, sync in syncs.items():
            if node in done or node in guarded_nodes:
                continue
            statement_acc = next(
                (statement_of[s] for s in statement_of if any(n is node for n in walk(s))),
                None,
            )
            self._report_other(
                sync, own, accumulators.get(statement_acc) if statement_acc else None
            )

    @staticmethod
    def _backward_index(own: list[cst.CSTNode], top_of: dict) -> int | None:
        """The index of the loop body's first statement that calls `.backward(...)`."""
        found = [
            top_of[node]
            for node in own
            if isinstance(node, cst.Call)
            and m.matches(node.func, m.Attribute(attr=m.Name("backward")))
            and node in top_of
        ]
        return min(found) if found else None

    def _every_step(self, node: cst.CSTNode, loop: cst.CSTNode) -> bool:
        """``node`` runs on every iteration of ``loop``: no ``if``, ``while`` or ``try`` handler
        between them, other than the body of an ``if`` that only asks whether this process is
        the master (`if accelerator.is_main_process:`, `if rank == 0:`), which the master runs
        every iteration."""
        current, child = self._parent(node), node
        while current is not None and current is not loop:
            if isinstance(current, cst.If) and current.body is child and self._master(current):
                pass
            elif isinstance(current, cst.If | cst.While | cst.ExceptHandler | cst.IfExp):
                return False
            current, child = self._parent(current), current
        return current is loop

    def _master(self, guard: cst.If) -> bool:
        """``guard`` tests only whether this process is the master."""
        test = guard.test
        if rank_zero_test(test, self.qualified_names) is not None:
            return True
        name = dotted(test)
        return name is not None and name.rsplit(".", 1)[-1] in _MASTER_FLAGS

    def _logger_read(self, node: cst.CSTNode, backward: set[str]) -> cst.Name | None:
        """The loss handed as a tensor to a metrics logger's call, which reads it on the host:
        `writer.add_scalar("loss", loss, step)` (TensorBoard's SummaryWriter, tensorboardX),
        `wandb.log({"loss": loss})`."""
        if not isinstance(node, cst.Call):
            return None
        func = node.func
        if not (
            isinstance(func, cst.Attribute) and func.attr.value in ("add_scalar", "add_scalars")
        ) and not self.is_any(func, {"wandb.log"}):
            return None
        for arg in node.args:
            for value in walk(arg.value):
                if isinstance(value, cst.Name) and value.value in backward:
                    parent = self._parent(value)
                    if isinstance(parent, cst.Arg) and parent.value is value:
                        return value
                    if isinstance(parent, cst.DictElement | cst.Element) and parent.value is value:
                        return value
        return None

    @staticmethod
    def _can_add_counter(loop: cst.CSTNode) -> bool:
        """A `for` loop that does not count its iterations can: `for x in it:` becomes
        `for step, x in enumerate(it):` (an `async for`, or one that already iterates an
        `enumerate(...)` with another target, is left alone)."""
        if not isinstance(loop, cst.For) or loop.asynchronous is not None:
            return False
        return not (
            isinstance(loop.iter, cst.Call) and m.matches(loop.iter.func, m.Name("enumerate"))
        )

    def _counter_name(self) -> str:
        """`step` when no variable, parameter or import of the file is spelled so (attributes
        such as `optimizer.step` and keywords do not count), else a fresh name."""
        for node in find(self.tree, cst.Name):
            if node.value == "step":
                parent = self._parent(node)
                if isinstance(parent, cst.Attribute) and parent.attr is node:
                    continue
                if isinstance(parent, cst.Arg) and parent.keyword is node:
                    continue
                return self.fresh_name("log_step")
        return "step"

    def _logged_values(
        self, loop, body, logs, syncs, done, log_nodes
    ) -> tuple[dict[int, LoggedValue], dict[int, LoggedValue]]:
        """Values read from the device only to be logged: `lossf = loss.item()` at the top of
        the loop body, whose name is read nowhere but in unguarded logging statements after it
        in the same iteration, and not after the loop. By index of the assignment: those right
        before their logging (they move with it), and those that stay where they are as tensors
        (see ``_kept``)."""
        found: dict[int, LoggedValue] = {}
        for index, statement in enumerate(body):
            if not m.matches(
                statement,
                m.SimpleStatementLine(body=[m.Assign(targets=[m.AssignTarget(target=m.Name())])]),
            ):
                continue
            assign = statement.body[0]
            target = assign.targets[0].target
            value_syncs = [syncs[n] for n in walk(assign.value) if n in syncs and n not in done]
            if not value_syncs:
                continue
            uses: set[cst.CSTNode] = set()
            for node in walk(loop.body):
                if not isinstance(node, cst.Name) or node.value != target.value or node is target:
                    continue
                log = log_nodes.get(id(node))
                if log is None or log.guard is not None or log.index <= index:
                    uses = set()
                    break
                if not self._is_read(node):
                    uses = set()
                    break
                uses.add(log.statement)
            if uses and not self._read_outside(loop, target.value):
                found[index] = LoggedValue(statement, target.value, value_syncs, uses)
        # Only a value right before its logging can move with it: the statements in between are
        # other such values, and its logging statements follow each other (`D_x = out.mean()
        # .item()` ten lines above the print reads an `out` that is rebound in between).
        logged = {log.statement: log.index for log in logs if log.guard is None}
        kept: dict[int, LoggedValue] = {}
        for index in sorted(found, reverse=True):
            indices = sorted(logged[s] for s in found[index].logs)
            between = range(index + 1, indices[0])
            if indices != list(range(indices[0], indices[-1] + 1)) or not all(
                i in found for i in between
            ):
                value = found.pop(index)
                if self._kept(value, loop):
                    kept[index] = value
        return found, kept

    def _keep_on_device(
        self,
        kept: dict[int, LoggedValue],
        gated: set[cst.CSTNode],
        done: set[cst.CSTNode],
        every: str,
    ) -> None:
        """`D_x = output.mean().item()` → `.detach()` where every log that reads `D_x` now runs
        under the interval guard; otherwise the read stays, and is reported as a per-step sync."""
        for value in kept.values():
            sync = value.syncs[0]
            if not value.logs <= gated:
                done.discard(sync.node)
                continue
            lines = ", ".join(
                str(self.get_metadata(PositionProvider, s).start.line)
                for s in sorted(
                    value.logs, key=lambda s: self.get_metadata(PositionProvider, s).start.line
                )
            )
            tensor = _code(sync.tensor)
            message = (
                f"`{_code(sync.node)}` is read every step only for the log at line {lines}, which "
                f"now runs {every} → `{tensor}.detach()`: the log formats the tensor as it "
                f"formatted the number (`%f`/`{{:f}}`), read when it runs"
            )
            if self.report(sync.node, ItemLogInterval, message, True):
                self.expr_edits[sync.node] = self._tensor_edit("item", False)
            else:
                done.discard(sync.node)

    def _kept(self, value: LoggedValue, loop: cst.CSTNode) -> bool:
        """A value that cannot move to its logging (dcgan: `D_x = output.mean().item()`, and
        `output` rebound before the print) can stay where it is as a tensor,
        `D_x = output.mean().detach()`, where that prints the same text and nothing can change
        the tensor before it is printed: the read is the whole value, `.item()` of a whole
        reduction (`.mean()`, `.sum()`, ... with no argument: a new 0-d tensor nothing else
        holds, so nothing updates it in place; not `.float()`, which may return the tensor
        itself, nor a view), and every read of
        the name is formatted as a float (`%.4f` of a `%` tuple, `{D_x:.4f}`): a 0-d tensor
        formats through its `.item()` there, as it does not with `%s`, `{}` or `str()`."""
        assign = value.statement.body[0]
        if len(value.syncs) != 1:
            return False
        sync = value.syncs[0]
        if not (
            assign.value is sync.node  # type: ignore[attr-defined]
            and sync.spelling == "item"
            and isinstance(sync.tensor, cst.Call)
            and m.matches(sync.tensor.func, m.Attribute(attr=m.OneOf(*map(m.Name, REDUCTIONS))))
            and not sync.tensor.args
        ):
            # `loss.float()` may be `loss` itself, `out.view(-1)` shares its storage; and a
            # reduction over a dim (`x.sum(0, keepdim=True)`) keeps a 1-element tensor, which an
            # f-string spec does not format (only a 0-d tensor formats as its number)
            return False
        reads = [
            node
            for node in walk(loop.body)
            if isinstance(node, cst.Name)
            and node.value == value.name
            and node is not assign.targets[0].target  # type: ignore[attr-defined]
        ]
        return bool(reads) and all(self._formatted_as_float(node) for node in reads)

    def _formatted_as_float(self, name: cst.Name) -> bool:
        parent = self._parent(name)
        if isinstance(parent, cst.FormattedStringExpression):
            spec = parent.format_spec or []
            text = "".join(p.value for p in spec if isinstance(p, cst.FormattedStringText))
            return (
                parent.conversion is None
                and bool(spec)
                and all(isinstance(p, cst.FormattedStringText) for p in spec)
                and text[-1:] in _FLOAT_FORMATS
            )
        if not isinstance(parent, cst.Element):
            return False
        pieces = self._parent(parent)
        operation = self._parent(pieces)
        if not (
            isinstance(pieces, cst.Tuple)
            and isinstance(operation, cst.BinaryOperation)
            and isinstance(operation.operator, cst.Modulo)
            and operation.right is pieces
            and isinstance(operation.left, cst.SimpleString | cst.ConcatenatedString)
        ):
            return False
        text = operation.left.evaluated_value
        if not isinstance(text, str):
            return False
        conversions = _percent_conversions(text)
        elements = list(pieces.elements)
        return (
            conversions is not None
            and len(conversions) == len(elements)
            and not any(isinstance(e, cst.StarredElement) for e in elements)
            and conversions[elements.index(parent)] in _FLOAT_FORMATS
        )

    def _is_read(self, name: cst.Name) -> bool:
        parent = self._parent(name)
        if isinstance(parent, cst.Attribute) and parent.attr is name:
            return False
        return not (isinstance(parent, cst.Arg) and parent.keyword is name)

    def _check_accumulator(self, acc, loop, backward, statement_of, log_nodes, handled) -> None:
        if acc.failure:
            return
        kind = _literal_number(acc.init)
        appends = [
            s for s, name in statement_of.items() if name == acc.name and isinstance(s, cst.Expr)
        ]
        adds = [
            s
            for s, name in statement_of.items()
            if name == acc.name and isinstance(s, cst.AugAssign)
        ]
        if (kind == "list" and adds) or (kind != "list" and appends):
            acc.failure = f"`{acc.name}` is set to `{_code(acc.init)}` but accumulated differently"
            return
        types = {self._value_type(s, backward) for s in acc.syncs}
        for sync, value in zip(acc.syncs, acc.values, strict=True):
            if sync.spelling == "int" and not _is_count(sync.tensor):
                acc.failure = f"`{_code(sync.node)}` truncates each value"
            if isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.Divide):
                types.add("float")
            elif (
                isinstance(value, cst.BinaryOperation)
                and self._value_type(sync, backward) != "float"
            ):
                types.add(None)
        if acc.failure:
            return
        if kind == "list":
            if any(s.spelling not in ("item", "tolist") for s in acc.syncs):
                acc.failure = f"`{acc.name}` collects `float(...)`/`int(...)` values"
                return
        elif kind == "float":
            acc.result = "float"  # type: ignore[attr-defined]
        elif types == {"int"}:
            acc.result = "int"  # type: ignore[attr-defined]
        elif None not in types:
            acc.result = "float"  # type: ignore[attr-defined]
        else:
            acc.failure = (
                f"cannot tell whether `{acc.name}` sums ints or floats; "
                f"initialise it as `{acc.name} = 0.0` if it sums floats"
            )
            return
        accumulating = set(statement_of)
        for node in walk(loop.body):
            if not (isinstance(node, cst.Name) and node.value == acc.name):
                continue
            parent = self._parent(node)
            if parent in accumulating:
                continue  # `acc += ...`
            if isinstance(parent, cst.Attribute) and self._parent(parent) is not None:
                call = self._parent(parent)
                if isinstance(call, cst.Call) and self._parent(call) in accumulating:
                    continue  # `acc.append(...)`
            if isinstance(parent, cst.AssignTarget):
                assign = self._parent(parent)
                reset = _literal_number(assign.value) if isinstance(assign, cst.Assign) else None
                if (
                    isinstance(assign, cst.Assign)
                    and len(assign.targets) == 1
                    and (reset == kind or (kind != "list" and reset in ("int", "float")))
                ):
                    continue  # reset (`total = 0` of a `total = 0.` sums a tensor from then on)
            log = log_nodes.get(id(node))
            if log is not None and kind != "list" and handled(log) and self._is_read(node):
                continue
            if kind != "list" and self._is_read(node) and self._under_interval_guard(node, loop):
                acc.interval_reads = True
                continue  # `cur_loss = total / log_interval` at log steps: read there
            use: cst.CSTNode = node
            parent = self._parent(use)
            while parent is not None and not isinstance(parent, _STATEMENTS):
                use, parent = parent, self._parent(parent)
            if isinstance(parent, cst.BaseSmallStatement):
                use = parent
            acc.failure = f"`{acc.name}` is also used by `{_code(use).strip()}` in the loop"
            return

    def _interval_of_one(self, test: cst.BaseExpression) -> str | None:
        """Why the interval of a logging guard (`step % log_interval == 0`) is 1, where it is:
        the literal, or a name of the module bound only to it (`log_interval = 1`)."""
        if isinstance(test, cst.BooleanOperation):
            return self._interval_of_one(test.left) or self._interval_of_one(test.right)
        if not (
            isinstance(test, cst.Comparison)
            and isinstance(test.left, cst.BinaryOperation)
            and isinstance(test.left.operator, cst.Modulo)
        ):
            return None
        interval = test.left.right
        if isinstance(interval, cst.Integer) and interval.value == "1":
            return "the interval is 1"
        if isinstance(interval, cst.Name):
            values = self.bound_values(interval)
            if values and all(isinstance(v, cst.Integer) and v.value == "1" for v in values):
                line = self.get_metadata(PositionProvider, values[0]).start.line
                return f"`{interval.value}` is 1 (line {line})"
        return None

    def _under_interval_guard(self, node: cst.CSTNode, loop: cst.CSTNode) -> bool:
        """Whether ``node`` runs only at log steps: in the body of an ``if`` of the loop whose test
        is a logging interval (``batch % log_interval == 0 and batch > 0``)."""
        child, parent = node, self._parent(node)
        while parent is not None and parent is not loop:
            if (
                isinstance(parent, cst.If)
                and child is parent.body
                and is_interval_guard(parent.test)
            ):
                return True
            child, parent = parent, self._parent(parent)
        return False

    def _convert(self, acc: Accumulator, loop: cst.CSTNode, backward: set[str]) -> bool:
        sync = acc.syncs[0]
        read_after = self._read_outside(loop, acc.name)
        if acc.is_list:
            message = f"`{_code(sync.node)}` collected every step → keep the tensors"
            if read_after:
                message += ", one transfer after the loop"
        else:
            message = f"`{_code(sync.node)}` accumulated every step → accumulate on the device"
            if acc.interval_reads:
                message += f", read as `{acc.result}({acc.name})` at log steps"  # type: ignore[attr-defined]
            if read_after:
                message += f", `{acc.result}({acc.name})` after the loop"  # type: ignore[attr-defined]
        if not self.report(sync.node, ItemAccumulator, message, True):
            return False
        for s in acc.syncs:
            keep = _is_count(s.tensor)
            self.expr_edits[s.node] = self._tensor_edit(s.spelling, keep)
        if acc.is_list:
            torch = _module_binding(self.tree, "torch")
            if torch is None:
                self.add_import("torch")
                torch = "torch"
            conversion = (
                f"{acc.name} = {torch}.stack({acc.name}).flatten().tolist() if {acc.name} else []"
            )
        else:
            conversion = f"{acc.name} = {acc.result}({acc.name})"  # type: ignore[attr-defined]
            result = acc.result  # type: ignore[attr-defined]
            for node in walk(loop.body):
                if isinstance(node, cst.Name) and node.value == acc.name and self._is_read(node):
                    parent = self._parent(node)
                    if not isinstance(parent, cst.AugAssign | cst.AssignTarget):
                        self.expr_edits.setdefault(node, self._conversion_edit(result))
        if read_after:
            self.after.setdefault(loop, []).append(cst.parse_statement(conversion))
        return True

    @staticmethod
    def _tensor_edit(
        spelling: str, keep: bool
    ) -> Callable[[cst.BaseExpression], cst.BaseExpression]:
        def edit(updated: cst.BaseExpression) -> cst.BaseExpression:
            assert isinstance(updated, cst.Call)
            item = spelling in ("item", "tolist")
            tensor = updated.func.value if item else updated.args[0].value  # type: ignore[attr-defined]
            if not keep:
                tensor = cst.Call(func=cst.Attribute(value=tensor, attr=cst.Name("detach")))
            return (
                tensor.with_changes(lpar=updated.lpar, rpar=updated.rpar)
                if updated.lpar
                else tensor
            )

        return edit

    @staticmethod
    def _conversion_edit(result: str) -> Callable[[cst.BaseExpression], cst.BaseExpression]:
        def edit(updated: cst.BaseExpression) -> cst.BaseExpression:
            return cst.Call(func=cst.Name(result), args=[cst.Arg(updated)])

        return edit

    def _read_outside(self, loop: cst.CSTNode, name: str) -> bool:
        scope = self.get_metadata(ScopeProvider, loop, None)
        if scope is None:
            return True
        inside = {id(n) for n in walk(loop)}
        return any(id(access.node) not in inside for access in scope.accesses[name])

    def _register(self) -> cst.BaseExpression:
        alias = _module_binding(self.tree, _XLA_MODEL)
        if alias is None:
            return self.emit(self.target.step_closure)
        return cst.parse_expression(f"{alias}.add_step_closure")

    def _closure_args(self, log, statements, converted, siblings, loop, guard=None) -> list | None:
        """Parameter names and argument expressions for a closure over ``statements``; None when a
        running accumulator cannot be passed safely."""
        scope = self.get_metadata(ScopeProvider, loop, None)
        names: list[str] = []
        bound = {
            target.target.value
            for statement in statements
            for small in getattr(statement, "body", ())
            if isinstance(small, cst.Assign)
            for target in small.targets
            if isinstance(target.target, cst.Name)
        }
        for statement in statements:
            for node in walk(statement):
                if not isinstance(node, cst.Name) or not self._is_read(node) or node.value in names:
                    continue
                if node.value in bound:
                    continue  # computed inside the closure itself
                if self.get_metadata(ScopeProvider, node, None) is not scope or scope is None:
                    continue
                assignments = scope.assignments[node.value]
                if assignments and not all(isinstance(a.node, _DEFINITIONS) for a in assignments):
                    names.append(node.value)
        args: list[cst.BaseExpression] = []
        for name in names:
            acc = converted.get(name)
            if acc is None:
                args.append(cst.Name(name))
                continue
            # `acc += t` updates the tensor in place: pass a snapshot unless it is rebound right
            # after, and only when it is already a tensor here.
            if acc.first_top_index is None or acc.first_top_index >= log.index:
                return None
            rest = siblings[siblings.index(statements[-1]) + 1 :] if guard is not None else []
            rebound = any(
                m.matches(
                    s,
                    m.SimpleStatementLine(body=[m.Assign(targets=[m.AssignTarget(m.Name(name))])]),
                )
                for s in rest
            )
            args.append(cst.Name(name) if rebound else cst.parse_expression(f"{name}.clone()"))
        return [names, args]

    def _report_log(self, log: LogStatement, rule: type[Rule], message: str) -> bool:
        return self.report(log.call, rule, message, True)

    def _report_other(self, sync: Sync, own: list[cst.CSTNode], acc: Accumulator | None) -> None:
        text = _code(sync.node)
        check = self._control_use(sync, own)
        if check:
            self.report(
                sync.node,
                ItemControlFlow,
                f"`{text}` {check} and syncs every step; not moved: compute it with tensor ops "
                "(`torch.where`) or check it every N steps",
                False,
            )
            return
        if acc is not None and acc.failure and acc.failure != "rule not selected":
            reason = acc.failure
        else:
            reason = "its value is used on the host"
        self.report(
            sync.node,
            ItemPerStepSync,
            f"`{text}` syncs every step and was not moved ({reason}): keep the value on the "
            "device and read it every N steps",
            False,
        )

    def _control_use(self, sync: Sync, own: list[cst.CSTNode]) -> str | None:
        child: cst.CSTNode = sync.node
        parent = self._parent(child)
        while parent is not None and not isinstance(parent, cst.BaseStatement):
            if isinstance(parent, cst.If | cst.While | cst.IfExp) and parent.test is child:
                return "decides a branch"
            if isinstance(parent, cst.Assert):
                return "is asserted"
            if isinstance(parent, cst.Comparison | cst.BooleanOperation | cst.UnaryOperation):
                return "is compared"
            if isinstance(parent, cst.Call) and child in parent.args:
                if self.is_any(parent.func, HOST_CHECKS):
                    return "is checked on the host"
                if m.matches(parent.func, m.Attribute(attr=m.Name("step"))):
                    return f"drives `{_code(parent.func)}`"
            if isinstance(parent, cst.Assign) and len(parent.targets) == 1:
                target = parent.targets[0].target
                if isinstance(target, cst.Name):
                    for node in own:
                        if isinstance(node, cst.If | cst.While):
                            uses = walk(node.test)
                        elif isinstance(node, cst.Call) and (
                            self.is_any(node.func, HOST_CHECKS)
                            or m.matches(node.func, m.Attribute(attr=m.Name("step")))
                        ):
                            uses = (a.value for a in node.args)
                        else:
                            continue
                        if any(isinstance(u, cst.Name) and u.value == target.value for u in uses):
                            return f"decides host logic through `{target.value}`"
            child, parent = parent, self._parent(parent)
        if isinstance(parent, cst.If | cst.While) and parent.test is child:
            return "decides a branch"
        return None

    # -- rewriting ---------------------------------------------------------------------------
    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        edit = self.expr_edits.get(original_node)
        return edit(updated_node) if edit else updated_node

    def leave_Name(self, original_node: cst.Name, updated_node: cst.Name) -> cst.BaseExpression:
        edit = self.expr_edits.get(original_node)
        return edit(updated_node) if edit else updated_node

    def leave_For(self, original_node: cst.For, updated_node: cst.For) -> cst.BaseStatement:
        name = self.counters.get(original_node)
        if name is None:
            return updated_node
        target = updated_node.target
        if isinstance(target, cst.Tuple) and not target.lpar:
            target = target.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
        return updated_node.with_changes(
            target=cst.Tuple([cst.Element(cst.Name(name)), cst.Element(target)], lpar=[], rpar=[]),
            iter=cst.Call(cst.Name("enumerate"), [cst.Arg(updated_node.iter)]),
        )

    def leave_If(self, original_node: cst.If, updated_node: cst.If) -> cst.BaseStatement:
        planned = self.closures.get(original_node)
        if not planned:
            return updated_node
        originals = list(original_node.body.body)  # type: ignore[union-attr]
        updated = list(updated_node.body.body)  # type: ignore[union-attr]
        body: list[cst.BaseStatement] = []
        skip: set[int] = set()
        for position, (old, new) in enumerate(zip(originals, updated, strict=True)):
            if position in skip:
                continue
            if old in planned:
                run, (register, (params, args)) = planned[old]
                group = [updated[originals.index(s)] for s in run]
                skip.update(originals.index(s) for s in run)
                head = group[0]
                group[0] = head.with_changes(leading_lines=())
                closure = step_closure(group, params, args, register, self.fresh_name(CLOSURE_NAME))
                closure[0] = closure[0].with_changes(leading_lines=head.leading_lines)
                body.extend(closure)
            else:
                body.append(new)
        return updated_node.with_changes(body=updated_node.body.with_changes(body=body))

    def _rebuild(self, original: list, updated: list) -> list:
        """The block's statements with planned guards and the statements due after loops."""
        body: list[cst.BaseStatement] = []
        taken: set[int] = set()
        for position, (old, new) in enumerate(zip(original, updated, strict=True)):
            if position in taken:
                continue
            plan = self.wrap.get(old)
            if plan is None:
                body.append(new)
            else:
                test, closure, statements = plan
                positions = [original.index(s) for s in statements]
                taken.update(positions)
                inner = [updated[p] for p in positions]
                head = inner[0]
                inner[0] = head.with_changes(leading_lines=())
                if closure:
                    register, (params, args) = closure
                    inner = step_closure(
                        inner, params, args, register, self.fresh_name(CLOSURE_NAME)
                    )
                body.append(
                    cst.If(
                        test=test,
                        body=cst.IndentedBlock(body=inner),
                        leading_lines=head.leading_lines,
                    )
                )
            body.extend(self.after.get(old, ()))
        return body

    def leave_IndentedBlock(
        self, original_node: cst.IndentedBlock, updated_node: cst.IndentedBlock
    ) -> cst.IndentedBlock:
        if not any(s in self.after or s in self.wrap for s in original_node.body):
            return updated_node
        return updated_node.with_changes(
            body=self._rebuild(list(original_node.body), list(updated_node.body))
        )

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        if not any(s in self.after or s in self.wrap for s in original_node.body):
            return updated_node
        return updated_node.with_changes(
            body=self._rebuild(list(original_node.body), list(updated_node.body))
        )
