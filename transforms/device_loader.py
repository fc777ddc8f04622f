"""Device loaders: a loop over a DataLoader whose batches it moves to the XLA device iterates a
``pl.MpDeviceLoader`` instead, which prefetches the batches onto the device and cuts the graph at
every step ([xla-devices, neuron-mnist, xla-loader, neuron-guide])."""

from __future__ import annotations

import ast
from dataclasses import dataclass

import libcst as cst
import libcst.matchers as m
from libcst.metadata import ParentNodeProvider, PositionProvider
from trncodemod.transforms.loader_values import Values, is_xla_device

from trncodemod.analysis.facts import FileFacts
from trncodemod.analysis.facts import dotted as ast_dotted
from trncodemod.analysis.loops import (
    STEP_CONTEXTS,
    STEP_MARKERS,
    LoopInfo,
    dotted,
    find_step_loops,
    own_statements,
    target_names,
)
from trncodemod.analysis.shape_reads import is_shape_read
from trncodemod.analysis.step_scan import ast_target_names, step_scan
from trncodemod.findings import Rule, Safety, Severity
from trncodemod.passes import Pass
from trncodemod.targets import Api, Target


class DeviceLoaderWrap(Rule):
    """## What it does
    For XLA targets, a training or evaluation `for` loop over a `torch.utils.data.DataLoader`
    that moves its batch to the XLA device iterates `pl.MpDeviceLoader(loader, device)` instead
    (`import torch_xla.distributed.parallel_loader as pl`), in place, inside any
    `enumerate(...)`/`tqdm(...)`; the now redundant `.to(device)` calls on the batch are removed
    (a statement left as `x, y = x, y` goes). The loader's construction is not touched, so a
    `DistributedSampler`, `len(loader)` and `loader.dataset` stay as they are.

    Done only when it is certain:
    - the loop iterates what only `DataLoader(...)` calls made, followed through the module
      (`transforms/loader_values.py`): a name's assignments, a parameter of a module-level
      function (what every call of it passes), a `self.` attribute (its assignments in the
      class) or a module-level helper's returns;
    - every `.to(...)` on a name the loop target binds has the same single device argument (plus
      an optional `non_blocking=`), and that device is the XLA device: `torch_xla.device()`,
      `xm.xla_device()`, `"xla"`, `torch.device("xla")`, or what holds only those,
      followed the same way;
    - before a batch name is rebound to its device copy (`x = x.to(device)`), it is used only
      as the receiver of that move, for its shape (`len(x)`, `x.shape`, `x.size()`,
      `x.dim()`, `x.ndim`, `x.dtype`, `x.numel()`) or rebound to a reshape of itself
      (`x = x.view(x.size(0), -1)`; also `reshape`, `flatten`, `squeeze`, `unsqueeze`,
      `permute`, `transpose`, `contiguous`: the same values on the device), because every
      item the loader yields now arrives on the device;
    - the loop cuts the graph nowhere; or, with `--scale-out` (which turns a single-device
      script into Neuron's data-parallel form), only with one unconditional statement of its
      own body, `xm.mark_step()`/`torch_xla.sync()` (a single-device port's), which goes: the
      loader cuts the graph before every batch and when the loop ends, so the loop keeps one
      cut per step (Neuron's `train.py` → `train_torchrun.py`). Without `--scale-out` a loop
      ported by hand with its own marker is left alone, and so is any loop that cuts the
      graph elsewhere (under an `if`, twice, in `with torch_xla.step()`,
      `xm.optimizer_step(..., barrier=True)`).
    Otherwise a loop that moves its batch is reported with what to check, and nothing changes.
    A `break` in the loop is fine: MpDeviceLoader stops with the loop ([xla-loader, neuron-guide]).

    Contract with the step-marker pass (TRN101/TRN102), which runs after this one: it skips
    loops over an MpDeviceLoader (`trncodemod/analysis/loops.py`), and this pass skips loops that have a
    marker, so a loop gets one of the two cuts, never both and never neither. `drop_last=True`
    on training loaders is the buckets pass's (TRN112); nothing is done for the `neuron` target.

    ## Why
    "The `MpDeviceLoader` is optimized for XLA and should always be used if possible": it overlaps
    host-to-device copies with compute and calls the step marker per batch (Neuron programming
    guide; [xla-loader, neuron-guide]). It does not shard data: a `DistributedSampler` must stay
    ([xla-loader, neuron-guide]).

    ## Example
    ```python
    for x, y in train_loader:
        x, y = x.to(device), y.to(device)
        loss_fn(model(x), y).backward()
        optimizer.step()
    ```

    ## Use instead
    ```python
    import torch_xla.distributed.parallel_loader as pl

    for x, y in pl.MpDeviceLoader(train_loader, device):
        loss_fn(model(x), y).backward()
        optimizer.step()
    ```
    """

    code = "TRN131"
    name = "device-loader"
    summary = "loop moving DataLoader batches to the device → iterate `pl.MpDeviceLoader`"
    safety = Safety.SAFE
    severity = Severity.WARNING
    sources = ("xla-devices", "neuron-mnist", "xla-loader", "neuron-guide")


# What already cuts the graph in a loop ([xla-devices, neuron-mnist, xla-model, xla-api]).
_MARKERS = STEP_MARKERS | STEP_CONTEXTS
# Through `emit`, so a file that binds `pl` itself gets the loader under another name.
_MP_DEVICE_LOADER = Api("pl.MpDeviceLoader", "torch_xla.distributed.parallel_loader", "pl")
_DATA_LOADERS = frozenset({"torch.utils.data.DataLoader", "torch.utils.data.dataloader.DataLoader"})
_ITERATION_WRAPPERS = ("enumerate", "tqdm", "trange")
# `x = x.view(...)` before the move: the same values whether it runs on the host or the device.
_RESHAPE_METHODS = frozenset(
    {"view", "reshape", "flatten", "squeeze", "unsqueeze", "permute", "transpose", "contiguous"}
)
_MOVE_KEYWORDS = frozenset({"non_blocking"})
# `x.to(torch.bfloat16)`, `x.to(dtype)`, `x.to(self.dtype)`: a cast on the device it is on.
_DTYPE_NAMES = frozenset(
    {"float16", "bfloat16", "float32", "float64", "half", "float", "double", "long", "int"}
)


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


def loader_of(iterable: cst.BaseExpression) -> cst.BaseExpression:
    """The iterable under ``enumerate(...)``/``tqdm(...)`` wrappers."""
    while isinstance(iterable, cst.Call) and iterable.args:
        name = (dotted(iterable.func) or "").rsplit(".", 1)[-1]
        first = iterable.args[0]
        if name not in _ITERATION_WRAPPERS or first.keyword or first.star:
            break
        iterable = first.value
    return iterable


def _rewrap(iterable: cst.BaseExpression, wrapped: cst.BaseExpression) -> cst.BaseExpression:
    """``iterable`` with the loader under its wrappers replaced by ``wrapped``."""
    if loader_of(iterable) is iterable:
        return wrapped
    assert isinstance(iterable, cst.Call)
    first = iterable.args[0]
    return iterable.with_changes(
        args=[first.with_changes(value=_rewrap(first.value, wrapped)), *iterable.args[1:]]
    )


def _is_self_assignment(statement: cst.BaseSmallStatement) -> bool:
    """``x = x`` or ``x, y = x, y``: what a removed move leaves behind."""
    if not isinstance(statement, cst.Assign) or len(statement.targets) != 1:
        return False
    target, value = statement.targets[0].target, statement.value
    if isinstance(target, cst.Name) and isinstance(value, cst.Name):
        return target.value == value.value
    if isinstance(target, cst.Tuple | cst.List) and isinstance(value, cst.Tuple | cst.List):
        return len(target.elements) == len(value.elements) and all(
            isinstance(t.value, cst.Name)
            and isinstance(v.value, cst.Name)
            and t.value.value == v.value.value
            for t, v in zip(target.elements, value.elements, strict=True)
        )
    return False


@dataclass
class _Plan:
    loader: cst.BaseExpression  # the original loader expression under the wrappers
    device: cst.BaseExpression  # the device expression, as written in the moves
    moves: list[cst.Call]
    marker: cst.SimpleStatementLine | None  # the loop's own step marker, which goes


class DeviceLoader(Pass):
    name = "device-loader"
    rules = (DeviceLoaderWrap,)
    needles = (".to(",)

    @classmethod
    def applies_to(cls, target: Target) -> bool:
        return target.is_xla and super().applies_to(target)

    @classmethod
    def candidate(cls, facts: FileFacts, target: Target) -> bool:
        # applies_to: XLA targets only.
        if not target.is_xla:
            return False
        # Both findings need a `.to(...)` on the batch (a `.cuda()` alone is left to the device
        # pass): a call named `to`, in a loop.
        if "to" not in facts.calls or not facts.loops:
            return False
        # ... in the body of a `for` step loop (visit_For asks find_step_loops), on a name
        # the loop binds (_batch_names, _moves).
        for loop in step_scan(facts).step_loops:
            node = loop.node
            if type(node) is ast.While:
                continue
            target_node = node.target
            if (
                type(node.iter) is ast.Call
                and (ast_dotted(node.iter.func) or "") == "enumerate"
                and type(target_node) is ast.Tuple
                and len(target_node.elts) == 2
            ):
                target_node = target_node.elts[1]
            batch = ast_target_names(target_node)
            for statement in node.body:
                for found in ast.walk(statement):
                    if (
                        type(found) is ast.Call
                        and type(found.func) is ast.Attribute
                        and found.func.attr == "to"
                        and type(found.func.value) is ast.Name
                        and found.func.value.id in batch
                    ):
                        return True
                    # `[t.to(device) for t in batch]`: a move item by item (reported).
                    if type(found) is ast.comprehension and batch & {
                        n.id for n in ast.walk(found.iter) if type(n) is ast.Name
                    }:
                        return True
        return False

    def __init__(self, context, run) -> None:  # type: ignore[no-untyped-def]
        super().__init__(context, run)
        self.loops: dict[cst.CSTNode, LoopInfo] = {}
        self.plans: dict[cst.For, _Plan] = {}
        self.moves: set[cst.Call] = set()
        self.move_lines: set[cst.SimpleStatementLine] = set()
        self.marker_lines: set[cst.SimpleStatementLine] = set()

    def visit_Module(self, node: cst.Module) -> None:
        self.loops = dict(find_step_loops(node))

    # -- deciding ----------------------------------------------------------------------------
    def visit_For(self, node: cst.For) -> None:
        info = self.loops.get(node)
        if info is None or info.iterates_device_loader:
            return
        marker = self._own_marker(node)
        if marker is False:
            return
        plan = self._plan(node, marker)
        if plan is None:
            return
        device = _code(plan.device)
        message = (
            f"`{_code(plan.loader)}` → `pl.MpDeviceLoader({_code(plan.loader)}, {device})`"
            f"; {len(plan.moves)} `.to({device})` on the batch removed"
        )
        if plan.marker is not None:
            call = plan.marker.body[0].value  # type: ignore[attr-defined]
            message += (
                f"; the loop's `{_code(call)}` removed (the loader cuts the graph before every "
                "batch and at the end)"
            )
        if self.report(plan.loader, DeviceLoaderWrap, message, True):
            self.plans[node] = plan
            if plan.marker is not None:
                self.marker_lines.add(plan.marker)
            self.moves.update(plan.moves)
            for move in plan.moves:
                line = self._statement_line(move)
                if line is not None:
                    self.move_lines.add(line)

    def _own_marker(self, loop: cst.For) -> cst.SimpleStatementLine | None | bool:
        """The loop's graph cut: None without one; the statement line of its one marker when
        that is an unconditional statement of the loop's own body (`xm.mark_step()`); False
        for any other cut (the loop is left alone)."""
        markers: list[cst.Call] = []
        for node in own_statements(loop.body):
            if isinstance(node, cst.Call):
                if self.is_any(node.func, _MARKERS):
                    markers.append(node)
                if m.matches(node.func, m.Attribute(attr=m.Name("optimizer_step"))) and any(
                    arg.keyword and arg.keyword.value == "barrier" for arg in node.args
                ):
                    return False
        if not markers:
            return None
        if not self.settings.scale_out:
            return False  # ported by hand for one device: left as it is
        if len(markers) > 1 or markers[0].args or not self.is_any(markers[0].func, STEP_MARKERS):
            return False
        body = loop.body
        if not isinstance(body, cst.IndentedBlock):
            return False
        for statement in body.body:
            if (
                isinstance(statement, cst.SimpleStatementLine)
                and len(statement.body) == 1
                and isinstance(statement.body[0], cst.Expr)
                and statement.body[0].value is markers[0]
            ):
                return statement
        return False

    def _uncertain(self, loop: cst.For, loader: cst.BaseExpression, why: str) -> None:
        self.report(
            loader,
            DeviceLoaderWrap,
            f"the loop moves its batch to the device, but {why}; if it is certain, iterate "
            f"`pl.MpDeviceLoader({_code(loader)}, device)` and remove the `.to(device)` calls on "
            "the batch",
            False,
        )

    def _plan(self, loop: cst.For, marker: cst.SimpleStatementLine | None) -> _Plan | None:
        loader = loader_of(loop.iter)
        batch = self._batch_names(loop)
        moves, other_moves = self._moves(loop, batch)
        by_item = self._moved_by_item(loop, batch)
        if by_item is not None:
            self._uncertain(
                loop,
                loader,
                f"`{_code(by_item)}` moves the batch item by item (MpDeviceLoader moves every "
                "tensor of a list, tuple or dict itself)",
            )
            return None
        if not moves and not other_moves:
            return None  # the batch is not moved here: not a loop this pass knows how to help
        if other_moves:
            if any(m.matches(call.func, m.Attribute(attr=m.Name("cuda"))) for call in other_moves):
                return None  # the device pass turns `.cuda()` into `.to(device)` first
            self._uncertain(
                loop,
                loader,
                f"`{_code(other_moves[0])}` is not a plain move to one device",
            )
            return None
        devices = {_code(call.args[0].value) for call in moves}
        if len(devices) != 1:
            self._uncertain(loop, loader, f"the batch moves to {len(devices)} different devices")
            return None
        if not self._is_data_loader(loader):
            self._uncertain(
                loop,
                loader,
                f"`{_code(loader)}` is not certainly a `DataLoader(...)`: not a name, parameter, "
                "`self.` attribute or helper's return that holds only DataLoaders",
            )
            return None
        device = moves[0].args[0].value
        if not is_xla_device(self, device):
            self._uncertain(loop, loader, f"`{_code(device)}` is not certainly the XLA device")
            return None
        misuse = self._host_use(loop, batch, moves)
        if misuse is not None:
            self._uncertain(
                loop,
                loader,
                f"`{misuse}` is used on the host before it moves to the device (MpDeviceLoader "
                "yields every item on the device)",
            )
            return None
        return _Plan(loader, device, moves, marker)

    @staticmethod
    def _batch_names(loop: cst.For) -> set[str]:
        target = loop.target
        if (
            isinstance(loop.iter, cst.Call)
            and (dotted(loop.iter.func) or "") == "enumerate"
            and isinstance(target, cst.Tuple)
            and len(target.elements) == 2
        ):
            target = target.elements[1].value
        return target_names(target)

    @staticmethod
    def _moves(loop: cst.For, batch: set[str]) -> tuple[list[cst.Call], list[cst.Call]]:
        """Moves of batch names anywhere in the body: plain `.to(device[, non_blocking=])`
        calls, and every other `.to(...)`/`.cuda(...)` on a batch name."""
        plain: list[cst.Call] = []
        other: list[cst.Call] = []
        for call in m.findall(
            loop.body, m.Call(func=m.Attribute(value=m.Name(), attr=m.Name("to") | m.Name("cuda")))
        ):
            assert isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute)
            if call.func.value.value not in batch:  # type: ignore[attr-defined]
                continue
            positional = [a for a in call.args if a.keyword is None]
            if len(call.args) == 1 and positional and _is_cast(positional[0].value):
                continue
            is_plain = (
                call.func.attr.value == "to"
                and len(positional) == 1
                and not positional[0].star
                and all(a.keyword.value in _MOVE_KEYWORDS for a in call.args if a.keyword)
            )
            (plain if is_plain else other).append(call)
        return plain, other

    @staticmethod
    def _moved_by_item(loop: cst.For, batch: set[str]) -> cst.BaseExpression | None:
        """A comprehension over a batch name (or its `.items()`/`.values()`) whose element
        moves the item: `[t.to(device) for t in batch]`, `{k: v.cuda() for k, v in
        batch.items()}`."""
        over_batch = m.CompFor(
            iter=m.Name()
            | m.Call(func=m.Attribute(value=m.Name(), attr=m.Name("items") | m.Name("values")))
        )
        moving = m.Call(func=m.Attribute(attr=m.Name("to") | m.Name("cuda")))
        for node in m.findall(
            loop.body,
            m.ListComp(for_in=over_batch)
            | m.GeneratorExp(for_in=over_batch)
            | m.DictComp(for_in=over_batch),
        ):
            assert isinstance(node, cst.ListComp | cst.GeneratorExp | cst.DictComp)
            source = node.for_in.iter
            name = source if isinstance(source, cst.Name) else source.func.value  # type: ignore[attr-defined]
            element = node.value if isinstance(node, cst.DictComp) else node.elt
            if name.value in batch and m.findall(element, moving):  # type: ignore[attr-defined]
                return node
        return None

    def _is_data_loader(self, loader: cst.BaseExpression) -> bool:
        """Whether ``loader`` (a name, a parameter, a `self.` attribute or a helper's call)
        holds only what `DataLoader(...)` calls made (``loader_values``)."""
        if not isinstance(loader, cst.Name | cst.Attribute | cst.Call):
            return False
        values = Values(self).of(loader)
        return bool(values) and all(
            isinstance(v, cst.Call) and self.is_any(v.func, _DATA_LOADERS)
            for v in values  # type: ignore[union-attr]
        )

    def _host_use(self, loop: cst.For, batch: set[str], moves: list[cst.Call]) -> str | None:
        """The first batch name used on the host before it is rebound to its device copy."""
        body = loop.body
        assert isinstance(body, cst.IndentedBlock | cst.SimpleStatementSuite)
        receivers = {call.func.value for call in moves}  # type: ignore[attr-defined]
        for name in sorted(batch):
            rebound_at = None
            for statement in body.body:
                if self._rebinds_to_device(statement, name, moves):
                    rebound_at = self.get_metadata(PositionProvider, statement).end
                    break
            for node in m.findall(body, m.Name(name)):
                start = self.get_metadata(PositionProvider, node).start
                if rebound_at is not None and (start.line, start.column) >= (
                    rebound_at.line,
                    rebound_at.column,
                ):
                    continue
                if node in receivers or not self._is_variable(node):
                    continue
                if self._rebind_target(node, name, moves) or self._shape_use(node):
                    continue
                if self._reshaped_in_place(node, name):
                    continue
                return name
        return None

    def _is_variable(self, node: cst.Name) -> bool:
        parent = self.get_metadata(ParentNodeProvider, node, None)
        if isinstance(parent, cst.Attribute) and parent.attr is node:
            return False
        return not (isinstance(parent, cst.Arg) and parent.keyword is node)

    def _rebinds_to_device(self, statement: cst.CSTNode, name: str, moves: list[cst.Call]) -> bool:
        """``name = name.to(d)`` or ``a, name = ..., name.to(d)`` as a top-level statement."""
        if not isinstance(statement, cst.SimpleStatementLine):
            return False
        for small in statement.body:
            if not isinstance(small, cst.Assign) or len(small.targets) != 1:
                continue
            target, value = small.targets[0].target, small.value
            pairs: list[tuple[cst.BaseExpression, cst.BaseExpression]] = [(target, value)]
            if isinstance(target, cst.Tuple) and isinstance(value, cst.Tuple):
                pairs = [
                    (t.value, v.value)
                    for t, v in zip(target.elements, value.elements, strict=False)
                ]
            for bound, bound_value in pairs:
                if m.matches(bound, m.Name(name)) and bound_value in moves:
                    return True
        return False

    def _rebind_target(self, node: cst.Name, name: str, moves: list[cst.Call]) -> bool:
        """Whether ``node`` is the target of a ``name = name.to(d)`` rebinding."""
        parent = self.get_metadata(ParentNodeProvider, node, None)
        while isinstance(parent, cst.Element | cst.Tuple):
            parent = self.get_metadata(ParentNodeProvider, parent, None)
        if not isinstance(parent, cst.AssignTarget):
            return False
        statement = self.get_metadata(ParentNodeProvider, parent, None)
        line = self.get_metadata(ParentNodeProvider, statement, None)
        return line is not None and self._rebinds_to_device(line, name, moves)

    def _reshaped_in_place(self, node: cst.Name, name: str) -> bool:
        """Whether ``node`` is in ``name = name.view(...)`` (or another reshape): the receiver
        or the target of a statement that gives the name the same values reshaped."""
        parent = self.get_metadata(ParentNodeProvider, node, None)
        if isinstance(parent, cst.AssignTarget):
            assign = self.get_metadata(ParentNodeProvider, parent, None)
            return isinstance(assign, cst.Assign) and self._is_reshape_of(assign, name)
        if not (isinstance(parent, cst.Attribute) and parent.value is node):
            return False
        call = self.get_metadata(ParentNodeProvider, parent, None)
        if not (isinstance(call, cst.Call) and call.func is parent):
            return False
        assign = self.get_metadata(ParentNodeProvider, call, None)
        return isinstance(assign, cst.Assign) and self._is_reshape_of(assign, name)

    @staticmethod
    def _is_reshape_of(assign: cst.Assign, name: str) -> bool:
        return (
            len(assign.targets) == 1
            and m.matches(assign.targets[0].target, m.Name(name))
            and m.matches(
                assign.value,
                m.Call(
                    func=m.Attribute(
                        value=m.Name(name),
                        attr=m.OneOf(*(m.Name(method) for method in sorted(_RESHAPE_METHODS))),
                    )
                ),
            )
        )

    def _shape_use(self, node: cst.Name) -> bool:
        return is_shape_read(node, lambda n: self.get_metadata(ParentNodeProvider, n, None))

    def _statement_line(self, node: cst.CSTNode) -> cst.SimpleStatementLine | None:
        while node is not None and not isinstance(node, cst.SimpleStatementLine):
            node = self.get_metadata(ParentNodeProvider, node, None)
        return node

    # -- rewriting ---------------------------------------------------------------------------
    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if original_node in self.moves:
            return updated_node.func.value  # type: ignore[attr-defined]
        return updated_node

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> cst.SimpleStatementLine | cst.RemovalSentinel:
        if original_node in self.marker_lines:
            return cst.RemoveFromParent()
        if original_node in self.move_lines and all(
            _is_self_assignment(small) for small in updated_node.body
        ):
            return cst.RemoveFromParent()
        return updated_node

    def leave_For(self, original_node: cst.For, updated_node: cst.For) -> cst.For:
        plan = self.plans.get(original_node)
        if plan is None:
            return updated_node
        wrapped = cst.Call(
            func=self.emit(_MP_DEVICE_LOADER),
            args=[
                cst.Arg(plan.loader, comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))),
                cst.Arg(plan.device),
            ],
        )
        return updated_node.with_changes(iter=_rewrap(updated_node.iter, wrapped))


def _is_cast(value: cst.BaseExpression) -> bool:
    """``.to(...)``'s argument is a dtype, by its spelling: not a move."""
    name = dotted(value) or ""
    last = name.rsplit(".", 1)[-1]
    return last.lower().endswith("dtype") or (name.startswith("torch.") and last in _DTYPE_NAMES)
