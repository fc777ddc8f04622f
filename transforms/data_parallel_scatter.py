"""What a DataParallel model is fed (TRN149).

On CUDA, `nn.DataParallel.forward` scatters every tensor of its inputs onto the GPUs, so a
loop may feed it a loader's batch as it comes (`output = model(input)`, only `target` moved).
On XLA there is no CUDA device: `DataParallel.__init__` finds no device type, keeps
`device_ids = []`, and `forward` calls the module directly, so the CPU batch meets the
model's XLA weights and the forward raises. The plan follows the DataParallel model to its calls
with the DDP machinery (``DdpInputs``) and each input back to where it is made; a batch element
the loop never moves is moved beside the loop's move of another element of the same batch
(`input = input.to(device)` after `target = target.to(device)`), a tensor made on the CPU by a
torch factory is moved at the call, and everything else is reported.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import libcst as cst
from libcst.metadata import ParentNodeProvider, PositionProvider
from trncodemod.transforms.data_parallel_inputs import CPU, MOVED, DdpInputs
from trncodemod.transforms.loader_values import is_xla_device

from trncodemod.analysis.enabled import never_runs
from trncodemod.analysis.facts import FileFacts
from trncodemod.analysis.nodes import find, walk
from trncodemod.analysis.shape_reads import is_shape_read
from trncodemod.findings import Rule, Safety, Severity
from trncodemod.passes import Pass
from trncodemod.targets import Target


class DataParallelInputs(Rule):
    """## What it does
    On XLA targets, follows each `nn.DataParallel` model moved to the device
    (`nn.DataParallel(model).cuda()`, ported to `.to(torch_xla.device())`) to its calls (its
    variable, `self.model` in its class, a function of the module it is passed to) and each
    tensor it is fed back to where it is made. An element of a loader's batch that the loop
    feeds to the model as it comes is moved beside the loop's move of another element of the
    same batch, with the same arguments (`input = input.to(device)` after `target =
    target.to(device)`), where the loop reads it only for its shape otherwise; a tensor made on
    the CPU by a torch factory (`torch.randn(2, 3)`) is moved with `.to(<device>)` at the call.
    Where an input stays on the CPU and the tool cannot move it with certainty (no other element
    of the batch is moved, the loop uses it for more than its shape), a blocker says what to
    move, unless the loop's batches come from an iterator built with the device
    (`corpus.get_iterator(..., device=device)`): then a warning names it and what to check; where the input's origin or the model's calls are out of sight, a finding says what
    to check.

    ## Why
    On CUDA, `DataParallel.forward` scatters the inputs onto `device_ids` before the forward
    pass, so the program never moved them. Without CUDA, `DataParallel.__init__` finds no
    device type, keeps `device_ids = []` and `forward` calls the module directly (PyTorch
    v2.9.0 `torch/nn/parallel/data_parallel.py`): a CPU input meets the model's XLA weights and
    the forward raises `RuntimeError: Input type (torch.FloatTensor) and weight type
    (XLAFloatType) should be the same` ([torch-data-parallel, measured-data-parallel-inputs],
    with torch-xla 2.9 on XLA:CPU). `review`, because where the inputs are moved changes.

    ## Example
    ```python
    model = torch.nn.DataParallel(model).cuda()
    for input, target in val_loader:
        target = target.cuda()
        output = model(input)
    ```

    ## Use instead
    ```python
    model = torch.nn.DataParallel(model).to(torch_xla.device())
    device = torch_xla.device()
    for input, target in val_loader:
        target = target.to(device)
        input = input.to(device)
        output = model(input)
    ```
    """

    code = "TRN149"
    name = "data-parallel-inputs"
    summary = "DataParallel input left on the CPU (it scattered it on CUDA) → moved to the device"
    safety = Safety.REVIEW
    severity = Severity.ERROR
    sources = ("torch-data-parallel", "measured-data-parallel-inputs")


DATA_PARALLEL = frozenset(
    {
        "torch.nn.DataParallel",
        "torch.nn.parallel.DataParallel",
        "torch.nn.parallel.data_parallel.DataParallel",
    }
)
_WHY = (
    "on CUDA DataParallel scattered its inputs onto the GPUs; on XLA it has no device to scatter "
    "to (`device_ids` is []) and calls the module directly, so a CPU input meets the model's XLA "
    "weights and the forward raises (`Input type (torch.FloatTensor) and weight type "
    "(XLAFloatType) should be the same`)"
)


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


@dataclass(frozen=True)
class Report:
    """A finding of the plan, and its fix: ``node`` moved at the call (``at_call``), or the
    statement ``added`` after the batch move ``beside``."""

    node: cst.CSTNode
    message: str
    fixed: bool = False
    severity: Severity | None = None
    at_call: bool = False
    beside: cst.SimpleStatementLine | None = None
    added: cst.SimpleStatementLine | None = None


class DataParallelScatter(Pass):
    """Runs after the device pass (the loop's moves are in their ported form) and before the
    device loader, which may then turn a loop that now moves its whole batch into an
    MpDeviceLoader loop."""

    name = "data-parallel-inputs"
    rules = (DataParallelInputs,)
    needles = ("DataParallel",)

    @classmethod
    def applies_to(cls, target: Target) -> bool:
        # TorchNeuron is a device type DataParallel may find: only XLA is known to scatter nothing.
        return target.is_xla and super().applies_to(target)

    @classmethod
    def candidate(cls, facts: FileFacts, target: Target) -> bool:
        return target.is_xla and facts.calls_one_of(*DATA_PARALLEL)

    def __init__(self, context, run) -> None:  # type: ignore[no-untyped-def]
        super().__init__(context, run)
        self.at_call: set[cst.BaseExpression] = set()  # CPU-made inputs: moved at the call
        # Batch moves -> the statements added after them.
        self.after: dict[cst.SimpleStatementLine, list[cst.SimpleStatementLine]] = {}

    def visit_Module(self, node: cst.Module) -> None:
        calls = [c for c in find(node, cst.Call) if isinstance(c, cst.Call)]
        for each in plan_data_parallel(self, calls):
            if not self.report(each.node, DataParallelInputs, each.message, each.fixed):
                continue
            if each.severity is not None:
                self.findings[-1] = replace(self.findings[-1], severity=each.severity)
            if each.fixed and each.at_call:
                self.at_call.add(each.node)  # type: ignore[arg-type]
            if each.fixed and each.beside is not None and each.added is not None:
                self.after.setdefault(each.beside, []).append(each.added)

    def leave_Arg(self, original_node: cst.Arg, updated_node: cst.Arg) -> cst.Arg:
        if original_node.value not in self.at_call:
            return updated_node
        value = updated_node.value
        if isinstance(value, cst.BinaryOperation | cst.UnaryOperation | cst.IfExp):
            value = value.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
        moved = cst.Call(
            func=cst.Attribute(value=value, attr=cst.Name("to")),
            args=[cst.Arg(self.emit(self.target.device))],
        )
        return updated_node.with_changes(value=moved)

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> cst.SimpleStatementLine | cst.FlattenSentinel:
        added = self.after.get(original_node)
        return cst.FlattenSentinel([updated_node, *added]) if added else updated_node


def plan_data_parallel(owner: Pass, calls: list[cst.Call]) -> list[Report]:
    """The findings and fixes for the DataParallel constructions among ``calls`` (every call of
    the module)."""
    constructions = [c for c in calls if owner.is_any(c.func, DATA_PARALLEL)]
    plan: list[Report] = []
    if not constructions:
        return plan
    outers = [_whole(owner, c) for c in constructions]
    # Every DataParallel model's output is on its device, moved or not (`g = nn.DataParallel(g)`
    # of a generator moved before it feeds an Inception network on the device).
    inputs = DdpInputs(owner, outers)
    planner = _Planner(owner, inputs, plan)
    for construction, outer in zip(constructions, outers, strict=True):
        if never_runs(owner, construction):
            continue  # `if torch.cuda.device_count() > 1:`: no DataParallel on the target
        first = construction.args[0].value if construction.args else None
        if inputs.kind(outer)[0] == MOVED or (
            first is not None
            and not construction.args[0].keyword
            and inputs.kind(first)[0] == MOVED
        ):
            planner.plan(outer)
    return plan


def _whole(owner: Pass, construction: cst.Call) -> cst.Call:
    """The whole expression that builds the model: `nn.DataParallel(m)` with the moves chained
    on it (`.cuda()`, `.to(torch_xla.device())`)."""
    node: cst.Call = construction
    while True:
        attribute = owner.get_metadata(ParentNodeProvider, node, None)
        call = owner.get_metadata(ParentNodeProvider, attribute, None) if attribute else None
        if not (
            isinstance(attribute, cst.Attribute)
            and attribute.value is node
            and attribute.attr.value in ("to", "cuda")
            and isinstance(call, cst.Call)
            and call.func is attribute
        ):
            return node
        node = call


class _Planner:
    def __init__(self, owner: Pass, inputs: DdpInputs, plan: list[Report]) -> None:
        self.owner = owner
        self.inputs = inputs
        self.out = plan
        self._done: set[tuple[int, str]] = set()  # (loop, name) already moved or reported
        self._forwards: set[int] = set()  # ids of the forward calls of the model planned

    def _parent(self, node: cst.CSTNode) -> cst.CSTNode | None:
        return self.owner.get_metadata(ParentNodeProvider, node, None)

    def _line(self, node: cst.CSTNode) -> int:
        # In the coordinates of the code the pass runs on: the engine maps each "(line N)" of a
        # message to the text given.
        return self.owner.get_metadata(PositionProvider, node).start.line

    def plan(self, construction: cst.Call) -> None:
        calls, blocked = self.inputs.forward_calls(construction)
        if blocked is not None:
            self.out.append(
                Report(
                    construction,
                    f"DataParallel no longer moves the inputs to the device: {_WHY}; the tool "
                    f"does not see every input: {blocked.replace('DDP', 'DataParallel')}; move "
                    "each tensor the model is fed to the device (`.to(device)`) where it is "
                    "called",
                    severity=Severity.WARNING,
                )
            )
        self._forwards = {id(c) for c in calls}
        for call in calls:
            unsure = []
            for arg in call.args:
                where = None if arg.star else self._input(call, arg.value)
                if where is not None:
                    origin = "" if where is arg.value else f", from `{_code(where)}`"
                    unsure.append(f"`{_code(arg.value)}`{origin} (line {self._line(where)})")
            if unsure:
                self.out.append(
                    Report(
                        call,
                        f"a DataParallel model is fed {', '.join(unsure)}, which may be on the "
                        f"CPU: {_WHY}; move each tensor among them to the device (`.to(device)`) "
                        "before the call",
                        severity=Severity.WARNING,
                    )
                )

    def _input(self, call: cst.Call, value: cst.BaseExpression) -> cst.BaseExpression | None:
        """Plans the input ``value`` of the forward call ``call``; returns what decided that it
        may be on the CPU where the tool cannot follow it."""
        kind, where = self.inputs.kind(value)
        if kind == MOVED:
            return None
        if kind == CPU:
            message = f"`{_code(value)}` is made on the CPU: {_WHY}; moved at the call"
            self.out.append(Report(value, message, fixed=True, at_call=True))
            return None
        loop = self._batch_loop(value) if where is value else None
        if loop is None:
            return where
        name = value.value  # type: ignore[attr-defined]
        if (id(loop), name) not in self._done:
            self._done.add((id(loop), name))
            self._batch_element(loop, call, value)  # type: ignore[arg-type]
        return None

    def _batch_loop(self, value: cst.BaseExpression) -> cst.For | None:
        """The `for` whose target binds the name ``value`` where it is read, with no binding of
        it in the loop's body: an element of each batch as the loop is handed it."""
        if not isinstance(value, cst.Name):
            return None
        below: cst.CSTNode = value
        node = self._parent(value)
        while node is not None and not isinstance(node, cst.FunctionDef | cst.ClassDef):
            if isinstance(node, cst.For) and _binds(node.target, value.value):
                in_body = below is node.body and isinstance(node.body, cst.IndentedBlock)
                return node if in_body and not self.inputs.rebinds(node.body, value.value) else None
            below, node = node, self._parent(node)
        return None

    def _batch_element(self, loop: cst.For, call: cst.Call, value: cst.Name) -> None:
        name = value.value
        body = list(loop.body.body)
        top: cst.CSTNode | None = call
        while top is not None and not any(top is s for s in body):
            top = self._parent(top)
        index = next(i for i, s in enumerate(body) if s is top)
        sibling = next((s for s in body[:index] if self._batch_move(s, loop) is not None), None)
        other = self._other_use(loop, value)
        handed = self._handed_device(loop.iter) if sibling is None or other is not None else None
        if handed is not None:
            # An iterator built with the device (`corpus.get_iterator(..., device=device)`,
            # whose class moves its data there): its batches may already be on it, which only
            # its code says; a blocker would claim what the tool cannot see.
            self.out.append(
                Report(
                    value,
                    f"`{name}`, an element of the loop's batch, is fed to a DataParallel model "
                    f"as the loop is handed it: {_WHY}; the loop's batches come from "
                    f"`{_code(handed)}` (line {self._line(handed)}), which is handed the "
                    f"device: check that it yields them on the device, else move `{name}` "
                    f"there in the loop (`{name} = {name}.to(device)`)",
                    severity=Severity.WARNING,
                )
            )
            return
        if sibling is None or other is not None:
            why = (
                f"the loop reads it (line {self._line(other)}) where the device would change "
                "what it does"
                if other is not None
                else "the loop moves no other element of the batch before the call"
            )
            self.out.append(
                Report(
                    value,
                    f"`{name}`, an element of the loop's batch, is fed to a DataParallel model "
                    f"unmoved: {_WHY}; move it to the device in the loop (`{name} = "
                    f"{name}.to(device)`), or iterate `pl.MpDeviceLoader(loader, device)` "
                    f"(not moved here: {why})",
                    severity=Severity.BLOCKER,
                )
            )
            return
        move = self._batch_move(sibling, loop)
        assert move is not None
        moved_name, to_call = move
        added = cst.SimpleStatementLine(
            [
                cst.Assign(
                    [cst.AssignTarget(cst.Name(name))],
                    cst.Call(
                        func=cst.Attribute(cst.Name(name), to_call.func.attr.deep_clone()),  # type: ignore[attr-defined]
                        args=[a.deep_clone() for a in to_call.args],
                    ),
                )
            ]
        )
        self.out.append(
            Report(
                value,
                f"`{name}`, an element of the loop's batch, is fed to a DataParallel model "
                f"unmoved: {_WHY}; moved with `{_code(added.body[0])}` beside `{moved_name}` "
                f"(line {self._line(sibling)})",
                fixed=True,
                beside=sibling,  # type: ignore[arg-type]
                added=added,
            )
        )

    def _handed_device(self, iterable: cst.BaseExpression, depth: int = 0) -> cst.Call | None:
        """The call that makes the loop's iterable, where it is handed a device (a `device=`
        argument, or an argument spelled as one): through `enumerate(...)`, a method of it
        (`tr_iter.get_varlen_iter()`), either branch of a conditional, and the module's or the
        function's one binding of a name."""
        if depth > 6:
            return None
        if isinstance(iterable, cst.IfExp):
            return self._handed_device(iterable.body, depth + 1) or self._handed_device(
                iterable.orelse, depth + 1
            )
        if isinstance(iterable, cst.Name):
            bound = self._binding(iterable)
            return self._handed_device(bound, depth + 1) if bound is not None else None
        if not isinstance(iterable, cst.Call):
            return None
        if any(_names_device(a) for a in iterable.args):
            return iterable
        func = iterable.func
        if isinstance(func, cst.Name) and func.value in ("enumerate", "iter") and iterable.args:
            return self._handed_device(iterable.args[0].value, depth + 1)
        if isinstance(func, cst.Attribute) and not iterable.args:
            return self._handed_device(func.value, depth + 1)  # `tr_iter.get_varlen_iter()`
        return None

    def _binding(self, name: cst.Name) -> cst.BaseExpression | None:
        """The value of the one assignment of ``name`` in the function it is read in, else in
        the module; None where there is none or more than one."""
        scope: cst.CSTNode | None = self._parent(name)
        while scope is not None and not isinstance(scope, cst.FunctionDef | cst.Module):
            scope = self._parent(scope)
        while scope is not None:
            values = [
                a.value
                for a in find(scope, cst.Assign)
                if isinstance(a, cst.Assign)
                and len(a.targets) == 1
                and isinstance(a.targets[0].target, cst.Name)
                and a.targets[0].target.value == name.value
            ]
            if len(values) == 1:
                return values[0]
            if values or isinstance(scope, cst.Module):
                return None
            scope = self._parent(scope)
            while scope is not None and not isinstance(scope, cst.Module):
                scope = self._parent(scope)
        return None

    def _batch_move(self, statement: cst.CSTNode, loop: cst.For) -> tuple[str, cst.Call] | None:
        """`y = y.to(<the XLA device>, ...)` where the loop's target binds `y` (or `y =
        y.cuda(...)`, where the device pass has not run: it ports both the same way)."""
        if not (isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1):
            return None
        assign = statement.body[0]
        if not (
            isinstance(assign, cst.Assign)
            and len(assign.targets) == 1
            and isinstance(assign.targets[0].target, cst.Name)
            and isinstance(assign.value, cst.Call)
            and isinstance(assign.value.func, cst.Attribute)
            and assign.value.func.attr.value in ("to", "cuda")
            and isinstance(assign.value.func.value, cst.Name)
        ):
            return None
        name = assign.targets[0].target.value
        move = assign.value
        if move.func.value.value != name or not _binds(loop.target, name):  # type: ignore[attr-defined]
            return None
        if move.func.attr.value == "cuda":  # type: ignore[attr-defined]
            return name, move
        device = next(
            (a.value for a in move.args if a.keyword and a.keyword.value == "device"),
            move.args[0].value if move.args and move.args[0].keyword is None else None,
        )
        return (name, move) if device is not None and is_xla_device(self.owner, device) else None

    def _other_use(self, loop: cst.For, value: cst.Name) -> cst.Name | None:
        """A read of the batch element in the loop's body, other than as an input of the
        DataParallel model and for its shape: the device could change what it does."""
        for node in walk(loop.body):
            if not (isinstance(node, cst.Name) and node.value == value.value):
                continue
            parent = self._parent(node)
            if (
                isinstance(parent, cst.Arg)
                and parent.value is node
                and id(self._parent(parent)) in self._forwards
            ):
                continue
            if is_shape_read(node, self._parent):
                continue
            if isinstance(parent, cst.Attribute) and parent.value is not node:
                continue  # `x.input`: an attribute named like it
            if isinstance(parent, cst.Arg) and parent.keyword is node:
                continue
            return node
        return None


def _names_device(arg: cst.Arg) -> bool:
    """`device=...`, or a positional argument spelled as a device (`device`, `args.device`)."""
    if arg.keyword is not None:
        return arg.keyword.value == "device"
    spelled = arg.value
    last = (
        spelled.attr.value if isinstance(spelled, cst.Attribute) else getattr(spelled, "value", "")
    )
    return isinstance(spelled, cst.Name | cst.Attribute) and str(last).lower().endswith("device")


def _binds(target: cst.CSTNode, name: str) -> bool:
    if isinstance(target, cst.Name):
        return target.value == name
    if isinstance(target, cst.Tuple | cst.List):
        return any(_binds(element.value, name) for element in target.elements)
    return False
