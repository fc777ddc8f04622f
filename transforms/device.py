"""Device placement: CUDA device choices become the target's device ([xla-devices, neuron-guide, measured-cuda-calls])."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

import libcst as cst
import libcst.matchers as m
from libcst.helpers import get_full_name_for_node
from libcst.metadata import GlobalScope, ParentNodeProvider, PositionProvider, ScopeProvider
from trncodemod.transforms.cuda_calls import cuda_table
from trncodemod.transforms.device_data import (
    data_target,
    fresh_values,
    move_receiver,
    moved_argument,
    same_tensor,
    unshared_before,
)
from trncodemod.transforms.device_fallback import cuda_device_left
from trncodemod.transforms.device_host_trip import host_round_trip
from trncodemod.transforms.device_rules import (
    RULES,
    AcceleratorDevice,
    ConditionEnablesCudaOnly,
    CpuTrainingDevice,
    CudaAvailabilityCheck,
    CudaAvailabilityChoice,
    CudaDeviceIndex,
    CudaDeviceString,
    CudaMapLocation,
    CudaMethod,
    DataAssignment,
    DataAssignmentLeft,
    DeviceGate,
    DeviceIdentityTest,
    GateEnablesCudaOnly,
    GeneratorOnDevice,
    LoadWeightsOnly,
    OffsetSlicedDatasetMove,
    RankAsDevice,
    UnresolvedTrainingDevice,
)
from trncodemod.transforms.item_hoist_table import is_log_call

from trncodemod.analysis.cuda_kernels import cuda_kernels, tests_cudnn
from trncodemod.analysis.device import (
    ACCELERATOR,
    NOT_HERE_ATTRIBUTES,
    NOT_HERE_CALLS,
    OPTIONS_NAME,
    RANK,
    UNKNOWN,
    DeviceFacts,
    accelerator_index,
    identity_subject,
    is_cuda_string,
    is_index_device,
)
from trncodemod.analysis.device_scan import may_place_on_rank
from trncodemod.analysis.enabled import (
    Fixes,
    blocker,
    conjoined_with_cuda_absence,
    conjoined_with_cuda_only,
    decides_device,
    in_cuda_only_block,
    newly_run,
    reads,
)
from trncodemod.analysis.facts import FileFacts
from trncodemod.analysis.loops import dotted, find_step_loops, is_storage
from trncodemod.analysis.nodes import find, is_main_test, walk
from trncodemod.analysis.offset_slices import (
    SlicedMove,
    returned_moves,
    sliced_moves,
    stepped_slicers,
)
from trncodemod.analysis.program import LONE, ModuleView, device_tables_alone
from trncodemod.analysis.training import ACCELERATE, HF_TRAINER, LIGHTNING
from trncodemod.findings import Rule, Severity
from trncodemod.passes import Pass, RawFinding, per_tree
from trncodemod.rewriting.calls import append_keyword
from trncodemod.targets import Target

_CUDA = re.compile(r"cuda(:0)?")
_FRAMEWORKS = frozenset({ACCELERATE, LIGHTNING, HF_TRAINER})
# Base classes whose `cuda()` is torch's: an nn.Module, a tensor, a storage.
_MODULE_BASES = frozenset({"Module", "Tensor", "Sequential", "ModuleList", "ModuleDict"})
_CUDA_INDEXED = re.compile(r"cuda:\d+")
_STRING_PREFIXES = ("", "u", "U")
# A device read from a tensor's own attributes is where it already lives, not a decision.
_DERIVED = frozenset({"dtype", "is_cuda", "is_cpu", "is_floating_point", "grad"})
# What a name the program model resolves is bound by: a definition of the module, or an import.
_DEFINITIONS = (cst.FunctionDef, cst.ClassDef, cst.Import, cst.ImportFrom)


# -- the first stage ----------------------------------------------------------------------------
# Calls the analysis evaluates as availability or bf16 checks (gates, TRN021; TRN007 for
# torch.cuda.is_available()) and the torch.accelerator calls leave_Call rewrites or reports
# (TRN004).
_CHECKS = (
    "torch.cuda.is_available",
    "torch.accelerator.is_available",
    "torch.cuda.is_bf16_supported",
    "torch.accelerator.current_accelerator",
)


def device_tables(program: ModuleView, module: cst.Module) -> ModuleView:
    """What holds the device tables (``ModuleView.device_parameters``/``device_returns``) for
    ``module``: the program's view, or the module's own tables where it is read alone."""
    if program != LONE:
        return program
    return per_tree(module, "device-tables", lambda tree: device_tables_alone(tree.code))


def _string_value(node: cst.BaseExpression) -> str | None:
    if isinstance(node, cst.SimpleString) and node.prefix in _STRING_PREFIXES:
        value = node.evaluated_value
        return value if isinstance(value, str) else None
    return None


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


def _torch_at_least(version: str, least: tuple[int, int]) -> bool:
    """``version`` ("2.9.0", "2.9") is ``least`` or later."""
    parts = re.findall(r"\d+", version)[:2]
    return len(parts) == 2 and (int(parts[0]), int(parts[1])) >= least


def _in_parens_of(outer: cst.BaseExpression, inner: cst.BaseExpression) -> cst.BaseExpression:
    """``inner`` standing in for ``outer``, keeping the parentheses ``outer`` had."""
    if outer.lpar and not inner.lpar:
        return inner.with_changes(lpar=outer.lpar, rpar=outer.rpar)
    return inner


def _with_value(node: cst.SimpleString, value: str) -> cst.SimpleString:
    quote = node.quote
    return node.with_changes(value=f"{node.prefix}{quote}{value}{quote}")


_GENERATORS = frozenset({"torch.Generator", "torch._C.Generator"})


def _starts_with_cuda(call: cst.Call) -> bool:
    """``device.startswith("cuda")``: a test of a device's identity spelled as a string method."""
    func = call.func
    return (
        isinstance(func, cst.Attribute)
        and func.attr.value == "startswith"
        and len(call.args) == 1
        and call.args[0].keyword is None
        and not call.args[0].star
        and _string_value(call.args[0].value) == "cuda"  # a prefix "cuda:1" names one GPU
        and identity_subject(func.value) is not None
    )


def _device_inside(node: cst.BaseExpression) -> cst.BaseExpression:
    """The device a map_location spells as text of it: `str(device)`, `f"{device}"` → `device`;
    else ``node``."""
    if (
        isinstance(node, cst.Call)
        and isinstance(node.func, cst.Name)
        and node.func.value == "str"
        and len(node.args) == 1
        and node.args[0].keyword is None
        and isinstance(node.args[0].value, cst.Name | cst.Attribute)
    ):
        return node.args[0].value
    if (
        isinstance(node, cst.FormattedString)
        and len(node.parts) == 1
        and isinstance(node.parts[0], cst.FormattedStringExpression)
        and isinstance(node.parts[0].expression, cst.Name | cst.Attribute)
    ):
        return node.parts[0].expression
    return node


def storage_mover(node: cst.CSTNode) -> bool:
    """A map_location function that moves each storage to CUDA: `lambda storage, loc:
    storage.cuda()` (or `.cuda(gpu)`). A storage has no `.to(device)` (TypeError, measured),
    and the XLA device cannot restore one (RuntimeError), so it is no device move to rewrite.
    torch.load calls a map_location function with two arguments, the storage and its location:
    a lambda of one parameter (`map(lambda t: t.cuda(), (text, images))`) moves tensors."""
    if not (isinstance(node, cst.Lambda) and len(node.params.params) == 2):
        return False
    first = node.params.params[0].name.value
    body = node.body
    return (
        isinstance(body, cst.Call)
        and isinstance(body.func, cst.Attribute)
        and body.func.attr.value == "cuda"
        and isinstance(body.func.value, cst.Name)
        and body.func.value.value == first
    )


def _cuda_text(node: cst.BaseExpression) -> bool:
    """A CUDA location built as text: ``f"cuda:{gpu}"``, ``"cuda:{}".format(gpu)``,
    ``"cuda:" + str(gpu)``, ``"cuda:%d" % gpu``."""
    if isinstance(node, cst.FormattedString):
        head = node.parts[0] if node.parts else None
        return isinstance(head, cst.FormattedStringText) and head.value.startswith("cuda")
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute):
        if node.func.attr.value == "format":
            text = _string_value(node.func.value)
            return text is not None and text.startswith("cuda")
        return False
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Add | cst.Modulo):
        text = _string_value(node.left)
        return text is not None and text.startswith("cuda")
    return False


def _tested_device(test: cst.BaseExpression, string_side: str) -> cst.BaseExpression:
    """The device side of an identity test whose string is on ``string_side``."""
    if isinstance(test, cst.Call):
        assert isinstance(test.func, cst.Attribute)
        return test.func.value
    assert isinstance(test, cst.Comparison)
    return test.comparisons[0].comparator if string_side == "left" else test.left


def _true_for_cuda(test: cst.BaseExpression) -> bool:
    """Whether an identity test holds for a CUDA device (``==``, ``in``, ``startswith``) rather
    than for any other (``!=``, ``not in``)."""
    if isinstance(test, cst.Call):
        return True
    assert isinstance(test, cst.Comparison)
    return isinstance(test.comparisons[0].operator, cst.Equal | cst.In)


class DevicePlacement(Pass):
    name = "device"
    rules = RULES
    needles = ("cuda", "accelerator", "device", "cpu", "rank", "gpu")

    @classmethod
    def candidate(cls, facts: FileFacts, target: Target) -> bool:
        calls = facts.calls
        # The device analysis finds a training device only at a move: `device=`, `.to(x)` or
        # `.cuda(...)` (`_device_argument`; `.cuda()` is in `calls` as "cuda").
        moves = "device" in facts.identifiers or "to" in calls or "cuda" in calls
        return (
            # visit_Module (an unresolved device or a skipped move, TRN026) and the CPU device
            # of leave_SimpleString/leave_Call (TRN022, `_cpu_allowed`) need a training file
            # with a move.
            (facts.profile.trains and moves)
            # "cuda", "cuda:0", f"cuda:{rank}", "cuda:%d" % rank: every string rewrite or report
            # (TRN002/003/005/006/023: a device string, torch.device("cuda"), a
            # cuda-if-available choice, an identity test, map_location, --device defaults, and
            # the index devices of rank_values) starts at one.
            or any(s.startswith("cuda") for s in facts.strings)
            # leave_Call: `.cuda(...)` (TRN001/TRN006/TRN024).
            or "cuda" in calls
            # Availability and bf16 checks (gates TRN021, TRN007), torch.accelerator (TRN004).
            or facts.calls_one_of(*_CHECKS)
            # _leave_choice: `"xla" if test else "cpu"` (a choice migrated already, TRN003).
            or (target.device_string in facts.strings and "cpu" in facts.strings)
            # A device index as the device (rank_devices / rank_values, TRN024).
            or (moves and may_place_on_rank(facts))
            # torch.load(map_location=<the device rewritten by an earlier run>), or a bare
            # torch.load whose result goes into load_state_dict (TRN005).
            or ("load" in calls and "map_location" in facts.identifiers)
            or ("load" in calls and "load_state_dict" in calls)
            # _data_move: `x.data = y.to(*args, **kwargs)`, a move that forwards its caller's
            # arguments (TRN174), whatever else the file holds.
            or ("data" in facts.identifiers and "to" in calls)
        )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.facts = DeviceFacts()
        self._true: set[int] = set()  # ids of the `True` this pass wrote for a resolved check
        self._kept: list[cst.CSTNode] = []
        # What a condition left as it is guards (TRN046/TRN047): code that does not run on the
        # target, so nothing in it is rewritten (a hunk there would change nothing that runs).
        self._dead: set[int] = set()
        self._hoist: dict[cst.CSTNode, str] = {}  # loop -> the device variable bound before it
        self._is_cuda_moves: set[int] = set()  # ids of `if x.is_cuda: y = y.cuda()` made moves
        # Lines where a CUDA device with an index is kept and reported (TRN006, `"cuda:1"`):
        # a variable bound there is never reused as the target's device.
        self._kept_index_lines: set[int] = set()
        self._region_decides_device = False  # of the last condition _blocked followed
        self._said: set[int] = set()  # the lines that blocked a condition, reported once
        self._said_before = False  # the last blocked condition's line was reported already
        # `"cuda" if "cuda" in device else "cpu"` -> why it is kept (None: both sides rewritten)
        self._choices: dict[cst.IfExp, str | None] = {}
        self._attributes: dict[str, list[cst.Attribute]] | None = None  # by dotted name
        self._one_gpu: frozenset[str] | None = None  # _only_gpu's answer, once per module
        # TRN056: a whole tensor kept on the host, and each slice a step takes of it moved;
        # by the id of its move's statement and of each slice.
        self._host_moves: dict[int, SlicedMove] = {}
        self._host_slices: dict[int, SlicedMove] = {}
        self._dropped_calls: set[int] = set()
        # `"cuda" if x.is_cuda else "cpu"` (by id) -> `x.device`, or None: not such a choice
        self._tensor_choices: dict[int, cst.Attribute | None] = {}
        self._own_cuda_classes: set[str] | None = None  # classes with their own `cuda()`
        # A move assigned to `.data` -> the name to rebind instead (None: reported, left alone).
        self._data_moves: dict[cst.Call, str | None] = {}
        # Rank devices (TRN024) rewritten where they are used, and where they are built.
        self._rank_devices: set[cst.BaseExpression] = set()
        self._rank_values: set[cst.BaseExpression] = set()

    # -- the training device (trncodemod.analysis.device) ------------------------------------
    @classmethod
    def asked_by(cls, program: ModuleView) -> bool:
        # A device decided here, for modules that train; a device's name bound here that the
        # program's run shows is where a model goes (`_C.DEVICE = "cuda"` in a yacs defaults
        # module that imports no torch).
        return bool(program.decisions) or bool(program.device_literals)

    def visit_Module(self, node: cst.Module) -> None:
        self._module = node
        # Whether the module imports torch, or something under it.
        self._imports_torch = any(
            (get_full_name_for_node(i.name) or "").split(".")[0] == "torch"
            for i in find(node, cst.ImportAlias)
        ) or any(
            (get_full_name_for_node(i.module) or "").split(".")[0] == "torch"
            for i in find(node, cst.ImportFrom)
            if i.module is not None
        )
        self.facts = self.device_facts(node)
        program = self.run.program
        self._rank_devices, self._rank_values = self._rank_edits(program)
        profile = self.run.profile
        if self.target.is_xla and not set(profile.launchers) & _FRAMEWORKS:
            # Where leave_Call ports a move, a test's own included: what a step slices at its
            # offset is kept on the host.
            self._keep_sliced_on_host(node, self._trains())
        if program.is_test:
            return  # a test is not a training program: its CPU reference run is deliberate
        self._report_decisions(program)
        self._report_flag_checks(node, program)
        if not self._trains() or set(profile.launchers) & _FRAMEWORKS:
            return  # accelerate, Lightning and the HF Trainer choose the device themselves
        for blame, why in self.facts.unresolved.items():
            if self.get_metadata(PositionProvider, blame, None) is None:
                continue  # a node the analysis made up (the call mp.spawn makes)
            if not self._decided_here(blame, program):
                continue
            self.report(
                blame,
                UnresolvedTrainingDevice,
                f"the training device is decided by `{_code(blame)}`, and {why}: on Trainium "
                f'it must be {self.target.device.expr} ("{self.target.device_string}"), or '
                "the script trains on the CPU; set it here, or make sure it is "
                f'"{self.target.device_string}" in every run',
                False,
            )

        for test, why in self.facts.skipped_moves.items():
            self.report(
                test,
                UnresolvedTrainingDevice,
                f"no move to the device runs on Trainium as the script stands: {why}, so the "
                "model and batches stay on the CPU; make it true on the Trainium host (pass the "
                f"flag) or move them to {self.target.device.expr} unconditionally",
                False,
            )

    def _rank_edits(
        self, program: ModuleView
    ) -> tuple[set[cst.BaseExpression], set[cst.BaseExpression]]:
        """The rank devices rewritten where they are used, and those rewritten where they are
        built. A parameter that every call in the module fills with a device built from an
        index holds the target's device once that is rewritten: its uses are left, unless
        another module calls one of the functions it passes through (there it may be given
        anything; a method, wherever another module imports this one), or the index is a plain
        value (`device = 0`, `f"cuda:{rank}"`) whose name is read other than as a device
        (`print(f"[GPU{gpu_id}]")`, `rank == 0`): made a device, those reads would change."""
        uses, built = set(self.facts.rank_devices), set(self.facts.rank_values)
        elsewhere = set(program.named_elsewhere)
        for use, passed in self.facts.passed_ranks.items():
            if (
                passed.callers & elsewhere
                or (passed.methods and program.imported)
                or not all(map(self._device_object, passed.origins))
            ):
                uses.add(use)
            else:
                built |= passed.origins
        return uses, built

    def _device_object(self, origin: cst.BaseExpression) -> bool:
        """``origin`` makes a device object (`torch.device("cuda", rank)`), or is a plain index
        bound to a name read only as a device."""
        if isinstance(origin, cst.Call):
            return True
        assign = self.get_metadata(ParentNodeProvider, origin, None)
        if not (isinstance(assign, cst.Assign) and len(assign.targets) == 1):
            return False
        target = assign.targets[0].target
        roles = self._reference_roles(target) if isinstance(target, cst.Name) else []
        return bool(roles) and all(role == "device" for role in roles)

    # -- TRN056: a whole tensor moved, then sliced at each step's offset ----------------------
    def _keep_sliced_on_host(self, module: cst.Module, trains: bool) -> None:
        loops = find_step_loops(module) if trains else {}
        self._report_helper_moves(module, loops)  # for a library, a step elsewhere slices
        if not loops:
            return
        found = sliced_moves(
            module,
            loops,
            self.get_metadata(ScopeProvider, module.body[0]) if module.body else None,
            lambda n: self.get_metadata(ParentNodeProvider, n, None),
            lambda n: self.get_metadata(ScopeProvider, n, None),
            lambda n: self.get_metadata(PositionProvider, n).start.line,
            lambda d: d in self.facts.device_names or self._holds_device(d),
        )
        for move in found:
            first = move.slices[0]
            line = self.get_metadata(PositionProvider, first).start.line
            where = f"`{_code(first)}`, line {line}" + (
                f", and {len(move.slices) - 1} more" if len(move.slices) > 1 else ""
            )
            cost = (
                f"`{move.name}` is moved to the device whole here, and a step slices it at an "
                f"offset that changes every step ({where}): on XLA each offset is a constant of "
                "the graph, so every step compiles a new one"
            )
            assign = move.statement.body[0]
            if move.kept_because is not None:
                self.report(
                    assign,
                    OffsetSlicedDatasetMove,
                    f"{cost}; keep `{move.name}` on the CPU and move each slice to the device "
                    f"(`{_code(first)}.to(device)`: one graph); left as it is, because "
                    f"{move.kept_because}",
                    False,
                )
                continue
            if self.report(
                assign,
                OffsetSlicedDatasetMove,
                f"{cost} → `{move.name}` stays on the CPU, and each slice is moved to the "
                "device where it is taken (one graph)",
                True,
            ):
                self._host_moves[id(move.statement)] = move
                self._dropped_calls.add(id(move.move))
                self._host_slices.update((id(s), move) for s in move.slices)

    def _report_helper_moves(self, module: cst.Module, loops) -> None:
        """A function that returns a tensor it moves to the device whole (``batchify``), in a
        module whose function a step calls with its offset to slice what it is given
        (``get_batch``; in another module's step: ``ModuleView.stepped_slicers``). Reported,
        not rewritten: the slices are taken in another function."""
        slicers = {
            name: f"line {self.get_metadata(PositionProvider, call).start.line}"
            for name, (_, call) in stepped_slicers(module, loops).items()
        }
        slicers.update(self.run.program.stepped_slicers)
        if not slicers:
            return
        name, where = next(iter(sorted(slicers.items())))
        for function in module.body:
            if not isinstance(function, cst.FunctionDef) or function.name.value in slicers:
                continue
            moves = returned_moves(
                function, lambda d: d in self.facts.device_names or self._holds_device(d)
            )
            for move in moves:
                self.report(
                    move,
                    OffsetSlicedDatasetMove,
                    f"`{function.name.value}` returns a tensor it moves to the device whole "
                    f"here, and `{name}`, which a step calls with an offset that changes every "
                    f"step ({where}), slices what it is given at that offset: where that is "
                    f"what `{function.name.value}` returns, each offset is a constant of the "
                    "graph on XLA and every step compiles a new one; keep the tensor on the CPU "
                    f"here and move what `{name}` returns to the device (`.to(device)`: one "
                    "graph); left as it is, because the slices are taken in another function",
                    False,
                )

    def _moved_slice(self, original: cst.Subscript, updated: cst.Subscript) -> cst.BaseExpression:
        """``X[i:j].to(device)``, under the move's condition where it had one."""
        move = self._host_slices[id(original)]
        if move.move.func.attr.value == "cuda":  # type: ignore[attr-defined]
            keywords = list(move.move.args)
            device = cst.Arg(self._device_for(original))
            if keywords:
                device = device.with_changes(
                    comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
                )
            args = [device, *keywords]
        else:
            args = list(move.move.args)
        moved: cst.BaseExpression = cst.Call(
            func=cst.Attribute(value=updated, attr=cst.Name("to")), args=args
        )
        if move.guard is None:
            return moved
        parent = self.get_metadata(ParentNodeProvider, original, None)
        bare = isinstance(parent, cst.Assign | cst.Return) and parent.value is original
        parens = {} if bare else {"lpar": [cst.LeftParen()], "rpar": [cst.RightParen()]}
        test = move.guard.test.deep_clone().with_changes(lpar=[], rpar=[])
        return cst.IfExp(test=test, body=moved, orelse=updated, **parens)

    def leave_Subscript(
        self, original_node: cst.Subscript, updated_node: cst.Subscript
    ) -> cst.BaseExpression:
        if id(original_node) in self._host_slices:
            return self._moved_slice(original_node, updated_node)
        return updated_node

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ):
        if id(original_node) in self._host_moves:
            return cst.RemoveFromParent()
        return updated_node

    def _only_host_moves(self, node: cst.If) -> bool:
        """An ``if`` whose body held only moves TRN056 drops: nothing is left for it to do."""
        body = node.body
        return (
            node.orelse is None
            and isinstance(body, cst.IndentedBlock)
            and all(id(s) in self._host_moves for s in body.body)
        )

    def _decided_here(self, blame: cst.CSTNode, program: ModuleView) -> bool:
        """Whether the device is decided by ``blame`` in this file: not by the caller of a
        function whose parameter it is, not derived from where a tensor lives or its dtype, and
        not by a name imported from another given module (reported there, once)."""
        if blame in self.facts.parameters or blame in self.facts.decided_elsewhere:
            return False
        for inner in walk(blame):
            if isinstance(inner, cst.Attribute) and inner.attr.value in _DERIVED:
                return False
        root = blame.func if isinstance(blame, cst.Call) else blame
        return (dotted(root) or "").split(".", 1)[0] not in program.imported_devices

    def _report_decisions(self, program: ModuleView) -> None:
        """A device decided in this module that modules which train import: one blocker here,
        their uses as related places (not one at each use)."""
        rule = UnresolvedTrainingDevice
        for name, (given, column, why, uses) in sorted(program.decisions.items()):
            line = self.run.from_original(given)  # earlier passes may have added lines
            if not self.enabled(rule) or self.run.suppressions.covers(line, rule.code):
                continue
            where = ", ".join(uses[:3]) + (f" and {len(uses) - 3} more" if len(uses) > 3 else "")
            message = (
                f"the training device of the modules that import `{name}` is decided here: "
                f"{why}; on Trainium it must be {self.target.device.expr} "
                f'("{self.target.device_string}"), or they train on the CPU (used at {where})'
            )
            self.findings.append(RawFinding(line, column, rule, message, False, tuple(uses)))

    def _flag_check(self, call: cst.Call) -> tuple[str, tuple[str, ...]] | None:
        """For an availability check that sets a flag other modules read (``flag_fields``):
        why it stays ("" where every read only chooses a device), and the reads."""
        checks = self.run.program.flag_checks
        if not checks or not self._is_availability(call):
            return None
        line = self.get_metadata(PositionProvider, call).start.line
        for given, found in checks.items():
            if self.run.from_original(given) == line:
                return found
        return None

    def _is_availability(self, call: cst.Call) -> bool:
        return not call.args and bool(
            self.module_names(call.func)
            & {"torch.cuda.is_available", "torch.accelerator.is_available"}
        )

    def _report_flag_checks(self, module: cst.Module, program: ModuleView) -> None:
        """A flag set here from an availability check that another module reads for more
        than a device choice: the check stays, and the program trains on the CPU; one blocker
        here, the reads as related places."""
        if not program.flag_checks or not self.enabled(UnresolvedTrainingDevice):
            return
        for call in find(module, cst.Call):
            found = self._flag_check(call)
            if found is None or not found[0]:
                continue
            why, reads = found
            parent = self.get_metadata(ParentNodeProvider, call, None)
            while isinstance(parent, cst.BooleanOperation | cst.UnaryOperation):
                parent = self.get_metadata(ParentNodeProvider, parent, None)
            flag = _code(parent.targets[0].target) if isinstance(parent, cst.Assign) else "the flag"
            where = ", ".join(reads[:3]) + (f" and {len(reads) - 3} more" if len(reads) > 3 else "")
            self.findings.append(
                RawFinding(
                    self.get_metadata(PositionProvider, call).start.line,
                    self.get_metadata(PositionProvider, call).start.column + 1,
                    UnresolvedTrainingDevice,
                    f"`{flag}` is set here from {_code(call)}, which is False on Trainium, and "
                    f"chooses the training device where it is read ({where}); kept, because "
                    f"{why}: the program trains on the CPU; on Trainium the device must be "
                    f'{self.target.device.expr} ("{self.target.device_string}"): set a flag '
                    "that only chooses the device true there, and keep this one for the CUDA code",
                    False,
                    tuple(reads),
                )
            )

    def _true_name(self) -> cst.Name:
        true = cst.Name("True")
        self._true.add(id(true))
        self._kept.append(true)  # alive, so no later node reuses its id
        return true

    def _is_true(self, node: cst.CSTNode) -> bool:
        return id(node) in self._true

    def _resolves(self, call: cst.Call) -> bool:
        """An availability check this pass makes true: it decides the device on the target."""
        if call not in self.facts.gates:
            found = self._flag_check(call)
            return found is not None and not found[0]
        if self.is_any(call.func, {"torch.accelerator.is_available"}) and not self.target.is_xla:
            return False  # TorchNeuron registers as the accelerator: it is true as it is
        parent = self.get_metadata(ParentNodeProvider, call, None)
        # `"cuda" if torch.cuda.is_available() else "cpu"` is rewritten whole (TRN003).
        return not (isinstance(parent, cst.IfExp) and self._kind(parent) == "choice")

    def _chooses_cuda_index(self, check: cst.Call) -> str | None:
        """The CUDA index string a conditional expression picks when ``check``, in its test,
        is true (`f"cuda:{args.device_ids[rank]}" if torch.cuda.is_available() and args.cuda
        else "cpu"`), where this run leaves it as written; None otherwise."""
        node: cst.CSTNode = check
        parent = self.get_metadata(ParentNodeProvider, node, None)
        while isinstance(parent, cst.BooleanOperation | cst.UnaryOperation):
            node, parent = parent, self.get_metadata(ParentNodeProvider, parent, None)
        if not (isinstance(parent, cst.IfExp) and parent.test is node):
            return None
        body = parent.body
        if _cuda_text(body) and body not in self._rank_values:
            line = self.get_metadata(PositionProvider, body).start.line
            return f"`{_code(body)}` (line {line}): a CUDA device index, absent on Trainium"
        return None

    def _gate(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression | None:
        """The check made true (TRN021); ``updated`` where what it turns on cannot run on the
        target (TRN047); None where the rule is not selected here."""
        blocked = self._blocked(original, True)
        indexed = self._chooses_cuda_index(original)
        if blocked is None and indexed is not None:
            # `f"cuda:{i}" if torch.cuda.is_available() and ... else "cpu"`: made true, it would
            # choose a CUDA device index, which this run does not rewrite.
            blocked, self._region_decides_device = indexed, True
        if blocked is not None and self._said_before:
            return updated  # one finding per cause: the test beside it in the condition said it
        if blocked is not None and not self._region_decides_device:
            # It turns on a CUDA-only extra (a prefetch stream), not a device: left false, the
            # extra stays off and the program trains where it did.
            self.report(
                original,
                ConditionEnablesCudaOnly,
                f"{_code(original)} kept: made true on Trainium it would run {blocked}; it "
                "decides no device, so what it guards stays off there",
                False,
            )
            return updated
        if blocked is not None:
            self.report(
                original,
                GateEnablesCudaOnly,
                f"{_code(original)} decides the training device, but made true it would run "
                f"{blocked}: left as it is, so the script trains on the CPU until that line is "
                "changed by hand",
                False,
            )
            return updated
        if self.is_any(original.func, {"torch.cuda.is_bf16_supported"}) and self._only_prints(
            original
        ):
            return updated  # qlora's "your GPU supports bfloat16" hint: nothing else changes
        if self.is_any(original.func, {"torch.cuda.is_bf16_supported"}):
            message = (
                "torch.cuda.is_bf16_supported() is False under torch_xla; Trainium computes in "
                "bf16 → True"
            )
        else:
            message = (
                f"{_code(original)} decides the training device and is False on Trainium → "
                "True (the accelerator is there)"
            )
        if self.report(original, DeviceGate, message, True):
            return self._true_name()
        return None

    # -- what a condition made true turns on (trncodemod.analysis.enabled) ---------------
    def _blocked(self, condition: cst.BaseExpression, truth: bool) -> str | None:
        """What ``condition``, given the value ``truth``, would run that the target cannot
        (`` `code` (line N): why``); None when all of it can run or is rewritten in this run."""
        parents = self.parents()
        region = newly_run(condition, truth, parents)
        self._region_decides_device = decides_device(region, self.module_names)
        if not region:
            return None
        fixes = Fixes(
            frozenset(self.run.enabled),
            self.target.is_xla,
            self._device_call_blocks,
            cuda_table().calls,
        )
        found = blocker(region, self.module_names, parents, fixes)
        if found is None:
            return None
        self._dead.update(id(n) for n in region)  # original nodes: alive while the tree is
        node, why = found
        self._said_before = id(node) in self._said
        self._said.add(id(node))
        line = self.get_metadata(PositionProvider, node).start.line
        if isinstance(node, cst.Arg | cst.DictElement):
            node = node.with_changes(comma=cst.MaybeSentinel.DEFAULT)
        code = " ".join(_code(node).split())
        if len(code) > 60:
            code = code[:59] + "…"
        return f"`{code}` (line {line}): {why}"

    def report(self, node: cst.CSTNode, rule: type[Rule], message: str, fixed: bool) -> bool:
        """A rewrite where a ``torch.cuda.is_available()`` this pass leaves False keeps the code
        from running on Trainium (litgpt's bf16 check under `if torch.cuda.is_available():`,
        yolov5's `arg = "cuda:0"`, tinyllama's `not cuda.is_available() or
        cuda.is_bf16_supported()`) is not made: it would change only the CUDA run."""
        if fixed and self._cuda_only(node):
            return False
        if not fixed and rule is CudaDeviceIndex:
            self._kept_index_lines.add(self.get_metadata(PositionProvider, node).start.line)
        return super().report(node, rule, message, fixed)

    def _only_prints(self, test: cst.Call) -> bool:
        """``test`` is the whole test of an ``if`` with no ``else`` whose block only prints."""
        parent = self.get_metadata(ParentNodeProvider, test, None)
        if not (isinstance(parent, cst.If) and parent.test is test and parent.orelse is None):
            return False
        lines = parent.body.body if isinstance(parent.body, cst.IndentedBlock) else [parent.body]
        if not all(
            isinstance(line, cst.SimpleStatementLine | cst.SimpleStatementSuite) for line in lines
        ):
            return False
        smalls = [small for line in lines for small in line.body]
        return all(
            isinstance(small, cst.Expr)
            and isinstance(small.value, cst.Call)
            and "builtins.print" in self.module_names(small.value.func)
            for small in smalls
        )

    def _cuda_only(self, node: cst.CSTNode) -> bool:
        return in_cuda_only_block(
            node,
            lambda n: self.get_metadata(ParentNodeProvider, n, None),
            identity=False,
            availability_stays=lambda call: not self._resolves(call),
        )

    def _in_dead(self, original: cst.CSTNode) -> bool:
        """``original`` lies in code a condition left as it is keeps from running."""
        if not self._dead:
            return False
        current: cst.CSTNode | None = original
        while current is not None:
            if id(current) in self._dead:
                return True
            current = self.get_metadata(ParentNodeProvider, current, None)
        return False

    def _device_at(self, original: cst.CSTNode) -> cst.BaseExpression:
        """The target's device for a rewrite at ``original``: where that code runs when the
        module is imported (a parameter's default, a class attribute, a module-level
        assignment), the lazy ``torch.device("xla")``, which starts no runtime: a parent process
        that imports the module before ``xmp.spawn`` must not take the device (issue 23)."""
        if not self._runs_at_import(original):
            return self.emit(self.target.device)
        self.add_import("torch")
        if self.target.is_xla:
            self.add_import("torch_xla")  # registers the "xla" device type
        return cst.parse_expression(f'torch.device("{self.target.device_string}")')

    def _device_text(self, original: cst.CSTNode) -> str:
        if self._runs_at_import(original):
            return f'torch.device("{self.target.device_string}")'
        return self.target.device.expr

    def _runs_at_import(self, node: cst.CSTNode) -> bool:
        """A parameter's default, a class attribute, or a module-level constant (an
        UPPER_CASE name, or any assignment of a module that is not an entry script): evaluated
        when the module is imported. An entry script's own top-level code is the program."""
        current = self.get_metadata(ParentNodeProvider, node, None)
        assigned: cst.Assign | cst.AnnAssign | None = None
        while current is not None:
            if isinstance(current, cst.Param):
                return True
            if isinstance(current, cst.FunctionDef | cst.Lambda):
                return False
            if isinstance(current, cst.ClassDef):
                return True
            if isinstance(current, cst.Assign | cst.AnnAssign):
                assigned = current
            elif isinstance(current, cst.BaseCompoundStatement):
                assigned = None  # module-level `if`/`for`/`with`: script code
            current = self.get_metadata(ParentNodeProvider, current, None)
        if assigned is None:
            return False
        targets = (
            [t.target for t in assigned.targets]
            if isinstance(assigned, cst.Assign)
            else [assigned.target]
        )
        constant = all(isinstance(t, cst.Name) and t.value.isupper() for t in targets)
        return constant or not self.run.profile.is_entry_script

    def _device_for(self, original: cst.CSTNode) -> cst.BaseExpression:
        """The target's device expression for a rewrite at ``original``; inside a loop, a
        variable bound once before the outermost loop, so no step builds the device again."""
        loop = self._outermost_loop(original)
        if loop is None:
            return self._device_at(original)
        name = self._hoist.get(loop) or self._device_before(loop) or self._hoisted_above(loop)
        if name is None:
            name = self._hoist[loop] = self._free_name(loop)
        return cst.Name(name)

    def _hoisted_above(self, loop: cst.CSTNode) -> str | None:
        """The device variable bound before an earlier loop of the same block (a script's
        training loop, then its test loop): that binding runs before this loop too, and nothing
        else binds a name the tool chose free."""
        block = self.get_metadata(ParentNodeProvider, loop, None)
        body = getattr(block, "body", None)
        if not isinstance(body, Sequence) or loop not in body:
            return None
        for earlier in body[: body.index(loop)]:
            if earlier in self._hoist:
                return self._hoist[earlier]
        return None

    def _device_before(self, loop: cst.CSTNode) -> str | None:
        """A plain variable of the loop's own scope that holds the target's device and is bound
        only before the loop (or is a parameter that receives it): reused as it is."""
        scope = self.get_metadata(ScopeProvider, loop, None)
        evaluator = self.facts.evaluator
        if scope is None or evaluator is None:
            return None
        start = self.get_metadata(PositionProvider, loop).start.line
        for name in sorted(n for n in self.facts.device_names if "." not in n):
            if evaluator.value(cst.Name(name)).kinds != {ACCELERATOR}:
                continue
            assignments = [a for a in scope.assignments[name] if a.scope is scope]
            lines = [
                self.get_metadata(PositionProvider, a.node).start.line
                for a in assignments
                if isinstance(a.node, cst.CSTNode)
            ]
            # Every binding before the loop, and none a kept CUDA index (`torch.device("cuda:1")`
            # stays CUDA: reusing it would move the batch away from the model).
            if (
                lines
                and len(lines) == len(assignments)
                and all(line < start and line not in self._kept_index_lines for line in lines)
            ):
                return name
        return None

    def _ancestors(self, node: cst.CSTNode):
        current = self.get_metadata(ParentNodeProvider, node, None)
        while current is not None and not isinstance(current, cst.FunctionDef | cst.Module):
            yield current
            current = self.get_metadata(ParentNodeProvider, current, None)

    def _outermost_loop(self, node: cst.CSTNode) -> cst.CSTNode | None:
        loop = None
        current = self.get_metadata(ParentNodeProvider, node, None)
        while current is not None and not isinstance(
            current, cst.FunctionDef | cst.ClassDef | cst.Lambda | cst.Module
        ):
            if isinstance(current, cst.For | cst.While):
                loop = current
            elif isinstance(current, cst.CompFor):
                return None  # a comprehension: no statement to bind the device before
            current = self.get_metadata(ParentNodeProvider, current, None)
        return loop

    def _free_name(self, loop: cst.CSTNode) -> str:
        scope = self.get_metadata(ScopeProvider, loop, None)
        base = f"{self.target.device_string}_device"
        for candidate in ("device", base, *(f"{base}_{i}" for i in range(2, 100))):
            if scope is None or (candidate not in scope and not scope.accesses[candidate]):
                return candidate
        return base

    def _hoisted(self, original: cst.CSTNode, updated: cst.For | cst.While):
        name = self._hoist.get(original)
        if name is None:
            return updated
        assign = cst.SimpleStatementLine(
            [cst.Assign([cst.AssignTarget(cst.Name(name))], self.emit(self.target.device))],
            leading_lines=updated.leading_lines,
        )
        return cst.FlattenSentinel([assign, updated.with_changes(leading_lines=())])

    def leave_For(self, original_node: cst.For, updated_node: cst.For):
        return self._hoisted(original_node, updated_node)

    def leave_While(self, original_node: cst.While, updated_node: cst.While):
        return self._hoisted(original_node, updated_node)

    def leave_BooleanOperation(
        self, original_node: cst.BooleanOperation, updated_node: cst.BooleanOperation
    ) -> cst.BaseExpression:
        left, right = updated_node.left, updated_node.right
        if isinstance(updated_node.operator, cst.And):
            if self._is_true(right):
                return _in_parens_of(updated_node, left)
            if self._is_true(left):
                return _in_parens_of(updated_node, right)
        elif self._is_true(left) or self._is_true(right):
            return self._true_name()
        return updated_node

    def leave_If(self, original_node: cst.If, updated_node: cst.If):
        if self._host_moves and self._only_host_moves(original_node):
            return cst.RemoveFromParent()
        if id(original_node) in self._is_cuda_moves:
            # `if x.is_cuda: y = y.cuda()` → `y = y.to(x.device)`: the move, unconditional.
            body = updated_node.body
            if isinstance(body, cst.IndentedBlock):
                line = body.body[0]
                assert isinstance(line, cst.SimpleStatementLine)
                leading = [*updated_node.leading_lines, *line.leading_lines]
                return line.with_changes(leading_lines=leading)
            return cst.SimpleStatementLine(
                body=[body.body[0].with_changes(semicolon=cst.MaybeSentinel.DEFAULT)],
                leading_lines=updated_node.leading_lines,
            )
        if not self._is_true(updated_node.test):
            return updated_node
        parent = self.get_metadata(ParentNodeProvider, original_node, None)
        if isinstance(parent, cst.If) and parent.orelse is original_node:
            return updated_node  # an `elif`: its body cannot stand in for it
        if self._keeps_fallback(original_node.test, updated_node.body):
            return updated_node.with_changes(test=original_node.test)
        if updated_node.orelse is not None:
            self._say_dropped(original_node.test, "its `else`/`elif` fallback is dropped")
        body = updated_node.body
        if isinstance(body, cst.IndentedBlock):
            statements = list(body.body)
        else:
            statements = [cst.SimpleStatementLine(body.body)]
        if not statements:
            return updated_node
        statements[0] = statements[0].with_changes(
            leading_lines=[*updated_node.leading_lines, *statements[0].leading_lines]
        )
        return cst.FlattenSentinel(statements)

    def _trains(self) -> bool:
        """The module trains, or is an entry point whose step is in a module it runs: the
        device it decides is the step's."""
        return self.run.profile.trains or self.run.program.steps_elsewhere

    def _cpu_allowed(self) -> bool:
        return self._trains() and self.run.profile.is_entry_script

    def leave_SimpleString(
        self, original_node: cst.SimpleString, updated_node: cst.SimpleString
    ) -> cst.BaseExpression:
        if original_node in self.facts.cpu_values and self._cpu_allowed():
            if self.report(
                original_node,
                CpuTrainingDevice,
                f'the model and batches are moved to "cpu" in a training script → '
                f'"{self.target.device_string}"',
                True,
            ):
                return self._device_string(updated_node)
        self._report_opt_in_cpu(original_node)
        return updated_node

    def _report_opt_in_cpu(self, original: cst.BaseExpression) -> None:
        """A CPU device on the off branch of the user's flag stays: rewritten, the flag would
        choose nothing (issue 23)."""
        flag = self.facts.opt_in_cpu.get(original)
        if flag is None or not self._cpu_allowed():
            return
        message = (
            f"the CPU device is what `{flag}` chooses when it is off, as it is by default: kept, "
            "so the flag still chooses the device; pass it on Trainium, or the script trains "
            "on the CPU"
        )
        # Launched by lines of the repository none of which passes the flag, the program as
        # documented trains on the CPU: a blocker. Unknown launch lines, or one that passes
        # it, leave it the user's choice.
        lines = self.run.program.launch_lines
        blocks = bool(lines) and not any(_passes_flag(line, flag) for line in lines)
        if blocks:
            where, _, command = lines[0].partition(": ")
            message = (
                f"the CPU device is what `{flag}` chooses when it is off, as it is by default, "
                f"and {where} launches the script without it (`{command}`): as documented, "
                "the program trains on the CPU; pass the flag on Trainium (the device is kept so "
                "that the flag still chooses it)"
            )
        if self.report(original, CpuTrainingDevice, message, False):
            self.findings[-1] = replace(
                self.findings[-1],
                related=self._device_uses(),
                severity=Severity.BLOCKER if blocks else None,
            )

    def _device_uses(self) -> tuple[str, ...]:
        """Where the module reads its device variables (not where it binds them): the places
        one decision of the device affects, as related places."""
        names = {n for n in self.facts.device_names if "." not in n}
        if not names:
            return ()
        module = self._wrapper.module
        bound = {
            id(target)
            for assign in find(module, cst.AssignTarget)
            for target in find(assign.target, cst.Name)  # type: ignore[attr-defined]
        }
        # Not a name at all: `torch.device`'s attribute, a `device=` keyword.
        bound |= {id(a.attr) for a in find(module, cst.Attribute)}  # type: ignore[attr-defined]
        bound |= {id(a.keyword) for a in find(module, cst.Arg) if a.keyword is not None}  # type: ignore[attr-defined]
        places = {}
        for node in find(module, cst.Name):
            if node.value in names and id(node) not in bound:  # type: ignore[attr-defined]
                place = self.place(node)
                places.setdefault(place.rsplit(":", 1)[0], place)  # one a line
        return tuple(places.values())

    def _rank_device(self, original: cst.BaseExpression, code: str) -> cst.BaseExpression | None:
        if self.report(
            original,
            RankAsDevice,
            f"`{code}` is a CUDA device index; on Trainium each process has one device → "
            f"{self.target.device.expr}",
            True,
        ):
            return self._device_for(original)
        return None

    # -- classification ----------------------------------------------------------------------
    def _is_cuda_available(self, node: cst.BaseExpression) -> bool:
        return (
            isinstance(node, cst.Call)
            and not node.args
            and self.is_any(node.func, {"torch.cuda.is_available"})
        )

    def _kind(self, node: cst.BaseExpression) -> str | None:
        """What a device value is: 'cuda', 'indexed', 'choice' (cuda-available test), 'other-choice'."""
        value = _string_value(node)
        if value is not None:
            if _CUDA.fullmatch(value) or value in self._only_gpu():
                return "cuda"
            return "indexed" if _CUDA_INDEXED.fullmatch(value) else None
        if isinstance(node, cst.FormattedString):
            return "indexed" if _cuda_text(node) else None
        if (
            isinstance(node, cst.Call)
            and node.args
            and len(node.args) == 1
            and self.is_any(node.func, {"torch.device"})
            and self._kind(node.args[0].value) == "cuda"
        ):
            return "cuda"
        if isinstance(node, cst.IfExp):
            body, orelse = _string_value(node.body), _string_value(node.orelse)
            if body is not None and _CUDA.fullmatch(body) and orelse == "cpu":
                return "choice" if self._is_cuda_available(node.test) else "other-choice"
            if (
                body is not None
                and _CUDA.fullmatch(body)
                and self._is_cuda_available(node.test)
                and self._cpu_on_host(node.orelse)
            ):
                return "choice"  # `"cuda" if ... else "mps" if has_mps else "cpu"`
            if orelse is not None and _CUDA.fullmatch(orelse) and body == "cpu":
                # `"cpu" if args.no_cuda else "cuda"`: the user's opt-out flag, inverted.
                return "opt-out-choice"
        return None

    def _cpu_on_host(self, node: cst.BaseExpression) -> bool:
        """``node`` is "cpu" on the Trainium host: the string, or a chain of choices of a device
        the host does not have (`"mps" if torch.backends.mps.is_available() else "cpu"`)."""
        if _string_value(node) == "cpu":
            return True
        if not isinstance(node, cst.IfExp):
            return False
        tests = [node.test]
        while tests and isinstance(tests[-1], cst.BooleanOperation):
            last = tests.pop()
            if not isinstance(last.operator, cst.Or):
                return False
            tests += [last.left, last.right]
        for test in tests:
            func = test.func if isinstance(test, cst.Call) and not test.args else test
            if not (self.module_names(func) & (NOT_HERE_CALLS | NOT_HERE_ATTRIBUTES)):
                return False
        return self._cpu_on_host(node.orelse)

    def _only_gpu(self) -> frozenset[str]:
        """The one CUDA device with an index the module names (`"cuda:1"`), where it names no
        other device (no `"cuda"`, `"cuda:0"`, device built from a rank, `.cuda(i)` or XLA
        device): the program runs on one GPU, and on Trainium that is the process's device.
        Empty where it names two or more, so a second run, which sees the first's XLA devices,
        changes nothing."""
        if self._one_gpu is None:
            named: set[str] = set()
            for node in walk(self._wrapper.module):
                if isinstance(node, cst.FormattedString) and _cuda_text(node):
                    named.add("cuda:{}")  # built from a number: a device per rank
                elif isinstance(node, cst.SimpleString):
                    value = _string_value(node)
                    if value is not None and (
                        _CUDA.fullmatch(value) or value.startswith(("cuda:", "xla"))
                    ):
                        named.add(value)  # `"cuda:%d" % rank` too
                elif isinstance(node, cst.Call) and (
                    self.is_any(
                        node.func, {"torch_xla.device", "torch_xla.core.xla_model.xla_device"}
                    )
                    or isinstance(node.func, cst.Attribute)
                    and node.func.attr.value == "cuda"
                    and node.args
                ):
                    named.add("other")
            only = next(iter(named)) if len(named) == 1 else ""
            self._one_gpu = frozenset({only} if _CUDA_INDEXED.fullmatch(only) else ())
        return self._one_gpu

    def _device_role(self, arg: cst.Arg) -> str | None:
        """The role of ``arg`` (an original node) in its call: 'device', 'map_location' or None."""
        call = self.get_metadata(ParentNodeProvider, arg, None)
        if not isinstance(call, cst.Call):
            return None
        keyword = arg.keyword.value if arg.keyword else None
        if keyword == "device":
            return "device"
        if keyword == "map_location":
            return "map_location"
        positional = [a for a in call.args if a.keyword is None and not a.star]
        first = bool(positional) and positional[0] is arg
        if not first:
            return None
        if isinstance(call.func, cst.Attribute) and call.func.attr.value == "to":
            return "device"
        if self.is_any(call.func, {"torch.device", "torch.set_default_device"}):
            return "device"
        if self.is_any(call.func, {"torch.cuda.set_device"}):
            return "device"  # the call goes (TRN312): what it is handed is a device
        return None

    def _reference_roles(
        self, target: cst.Name, depth: int = 0, bound: cst.CSTNode | None = None
    ) -> list[str | None]:
        """The roles of the reads of ``target`` (a name an assignment binds; ``bound``, the
        node LibCST records the binding at where it is not the name: a parameter)."""
        scope = self.get_metadata(ScopeProvider, bound or target, None)
        if scope is None:
            return [None]
        roles: list[str | None] = []
        for assignment in scope.assignments[target.value]:
            if getattr(assignment, "node", None) is not (bound or target):
                continue
            roles.extend(
                self._read_role(access.node, depth)
                for access in assignment.references
                if not self._shown(access.node)
            )
        return roles

    def _attribute_roles(self, target: cst.Attribute, depth: int = 0) -> list[str | None]:
        """The roles of every read of an attribute assigned a value (`args.device = "cuda"`,
        `self.device = device`): the dotted name matched across the file, as the device
        analysis matches it."""
        name = dotted(target)
        if name is None:
            return [None]
        parents = self.parents()
        return [
            self._read_role(node, depth)
            for node in self._attribute_nodes().get(name, ())
            if node is not target
            and not isinstance(parents.get(node), cst.AssignTarget)
            and not self._shown(node)
        ]

    def _shown(self, read: cst.CSTNode) -> bool:
        """``read`` only shows a device's name to a person: an argument of a print or logging
        call, itself or formatted into one (`print(f"using device: {device}")`,
        `logger.info("on %s", device)`, `print("on {}".format(device))`). Such a read takes any
        device name, so it neither asks for nor forbids rewriting the value."""
        node = self.get_metadata(ParentNodeProvider, read, None)
        if isinstance(node, cst.FormattedStringExpression):
            node = self.get_metadata(ParentNodeProvider, node, None)
            node = self.get_metadata(ParentNodeProvider, node, None)
        if (
            not isinstance(node, cst.Arg)
            or node.value is not read
            and not isinstance(node.value, cst.FormattedString)
        ):
            return False
        call = self.get_metadata(ParentNodeProvider, node, None)
        if (
            isinstance(call, cst.Call)
            and isinstance(call.func, cst.Attribute)
            and call.func.attr.value == "format"
            and isinstance(call.func.value, cst.SimpleString)
        ):
            node = self.get_metadata(ParentNodeProvider, call, None)
            call = self.get_metadata(ParentNodeProvider, node, None)
            if not isinstance(node, cst.Arg):
                return False
        return isinstance(call, cst.Call) and is_log_call(call, self.is_any)

    def _attribute_nodes(self) -> dict[str, list[cst.Attribute]]:
        if self._attributes is None:
            self._attributes = {}
            for node in walk(self._wrapper.module):
                if isinstance(node, cst.Attribute):
                    name = dotted(node)
                    if name is not None:
                        self._attributes.setdefault(name, []).append(node)
        return self._attributes

    def _read_role(self, read: cst.CSTNode, depth: int) -> str | None:
        """What a read of a device value does with it: "device" (an argument a device goes in, a
        test of its identity, or a name or attribute it is assigned to whose every read is one),
        "map_location", "torch.load", or None."""
        parent = self.get_metadata(ParentNodeProvider, read, None)
        if isinstance(parent, cst.ComparisonTarget):
            parent = self.get_metadata(ParentNodeProvider, parent, None)
        if isinstance(parent, cst.Attribute) and parent.value is read:  # `device.startswith(..)`
            call = self.get_metadata(ParentNodeProvider, parent, None)
            parent = call if isinstance(call, cst.Call) and call.func is parent else parent
        if isinstance(parent, cst.Comparison | cst.Call) and self._compares_identity(parent):
            choice = self._choice_of(parent)
            if choice is not None and self._choice_kept(choice) is not None:
                return None  # a device type chosen by it and kept (TRN046): text to a person
            return "device"  # rewritten to the target's device type (TRN023)
        if (
            isinstance(parent, cst.Assign)
            and parent.value is read
            and len(parent.targets) == 1
            and depth < 2
        ):
            target = parent.targets[0].target
            if isinstance(target, cst.Name):
                roles = self._reference_roles(target, depth + 1)
            elif isinstance(target, cst.Attribute):
                roles = self._attribute_roles(target, depth + 1)
            else:
                return None
            return "device" if roles and all(r == "device" for r in roles) else None
        role = self._device_role(parent) if isinstance(parent, cst.Arg) else None
        if role == "map_location" and self._torch_load(parent):
            role = "torch.load"
        if role is None and isinstance(parent, cst.Arg):
            # Handed to a function or class of the program whose parameter every function
            # receiving it reads only as a device, at any depth (`train(..., device)` →
            # `mixing_noise(..., device)` → `torch.randn(..., device=device)`).
            call = self.get_metadata(ParentNodeProvider, parent, None)
            if isinstance(call, cst.Call) and self._binds_program_parameter(
                parent,
                call,
                device_tables(self.run.program, self._wrapper.module).device_parameters,
            ):
                role = "device"
        if role is None and isinstance(parent, cst.Arg) and depth < 2:
            # Handed to a function of this module (`train(model, loader, device)`) whose
            # parameter is read only as a device (a module read alone).
            call = self.get_metadata(ParentNodeProvider, parent, None)
            param = self._parameter_for(parent, call) if isinstance(call, cst.Call) else None
            if param is not None:
                roles = self._reference_roles(param.name, depth + 1, bound=param)
                role = "device" if roles and all(r == "device" for r in roles) else None
        return role

    def _bare_load(self, call: cst.Call) -> bool:
        """``torch.load(f)`` without a map_location, all it loads going into
        ``load_state_dict`` (``model.load_state_dict(torch.load(f))``, through a name or an item
        of one): it restores each tensor where it was saved, and a GPU run saved them on "cuda",
        absent on Trainium (it raises, measured). Reported, and given ``map_location="cpu"``
        (load_state_dict copies into the model's and the optimizer's device, measured); a
        whole pickled model (`model = torch.load(f)`) would stay on the CPU, so it is left."""
        if not self.is_any(call.func, {"torch.load", "torch.serialization.load"}):
            return False
        if (
            any(
                a.star or (a.keyword is not None and a.keyword.value == "map_location")
                for a in call.args
            )
            or sum(a.keyword is None for a in call.args) != 1
        ):
            return False  # a location given (second positional), or maybe in **kwargs
        return self._only_state_dicts(call) and self.report(
            call,
            CudaMapLocation,
            'torch.load without map_location restores tensors where they were saved ("cuda" '
            'for a GPU run\'s checkpoint: it raises on Trainium) → map_location="cpu"; '
            "load_state_dict() copies to the device",
            True,
        )

    def _torch_load(self, arg: cst.CSTNode) -> bool:
        call = self.get_metadata(ParentNodeProvider, arg, None)
        return isinstance(call, cst.Call) and self.is_any(
            call.func, {"torch.load", "torch.serialization.load"}
        )

    def _function_called(self, call: cst.Call) -> tuple[cst.FunctionDef, int] | None:
        """The function of this module that ``call`` runs, by its name (`train(...)`), or the
        method of a class of this module that a name bound only to its instances runs
        (`ddpm.sample(...)` after `ddpm = DDPM(...)`); with how many leading parameters the
        call does not pass (``self``)."""
        if isinstance(call.func, cst.Attribute):
            method = self._instance_method(call.func)
            if method is None:
                return None
            owner, name = method
            scope = self.get_metadata(ScopeProvider, owner, None)
            found = scope[owner.value] if scope is not None else ()
            classes = [a.node for a in found if isinstance(getattr(a, "node", None), cst.ClassDef)]
            if len(classes) != 1 or len(found) != 1:
                return None
            body = classes[0].body.body
            methods = [s for s in body if isinstance(s, cst.FunctionDef) and s.name.value == name]
            if len(methods) != 1 or methods[0].decorators:
                return None
            return methods[0], 1
        if not isinstance(call.func, cst.Name):
            return None
        scope = self.get_metadata(ScopeProvider, call.func, None)
        found = scope[call.func.value] if scope is not None else ()
        nodes = {
            id(a.node): a.node
            for a in found
            if isinstance(getattr(a, "node", None), cst.FunctionDef)  # not a builtin
        }
        return (next(iter(nodes.values())), 0) if len(nodes) == 1 == len(found) else None

    def _instance_method(self, func: cst.Attribute) -> tuple[cst.Name, str] | None:
        """``x.method`` where every binding of ``x`` in its scope is ``x = Class(...)``: the
        class's name (as called there) and the method's."""
        if not isinstance(func.value, cst.Name):
            return None
        scope = self.get_metadata(ScopeProvider, func.value, None)
        found = scope.accesses[func.value] if scope is not None else ()
        owners: set[str] = set()
        owner: cst.Name | None = None
        for access in found:
            for assignment in access.referents:
                target = getattr(assignment, "node", None)
                parent = self.get_metadata(ParentNodeProvider, target, None) if target else None
                statement = self.get_metadata(ParentNodeProvider, parent, None) if parent else None
                if not (
                    isinstance(parent, cst.AssignTarget)
                    and isinstance(statement, cst.Assign)
                    and isinstance(statement.value, cst.Call)
                    and isinstance(statement.value.func, cst.Name)
                ):
                    return None
                owner = statement.value.func
                owners.add(owner.value)
        if len(owners) != 1 or owner is None:
            return None
        return owner, func.attr.value

    def _binds_program_parameter(
        self, arg: cst.Arg, call: cst.Call, table: Mapping[str, tuple[tuple[str, int], ...]]
    ) -> bool:
        """Whether ``arg`` binds a parameter that ``table`` (``ModuleView.device_parameters``)
        lists for the function or class of the program that ``call`` runs: called by a name
        that the module binds only to it (a definition or an import), or a method called on a
        name bound only to instances of such a class."""
        name = dotted(call.func)
        head = call.func
        method = self._instance_method(call.func) if isinstance(call.func, cst.Attribute) else None
        if method is not None:
            head = method[0]
            name = f"{method[0].value}().{method[1]}"
        params = table.get(name) if name else None
        if not params or any(a.star for a in call.args):
            return False
        while isinstance(head, cst.Attribute):
            head = head.value
        scope = self.get_metadata(ScopeProvider, head, None) if isinstance(head, cst.Name) else None
        found = scope[head.value] if scope is not None else ()  # type: ignore[union-attr]
        if not found or not all(
            isinstance(getattr(a, "node", None), _DEFINITIONS)
            and isinstance(getattr(a, "scope", None), GlobalScope)
            for a in found
        ):
            return False  # a name bound other than to the module's definition or import
        if arg.keyword is not None:
            return any(param == arg.keyword.value for param, _ in params)
        index = [a for a in call.args if a.keyword is None].index(arg)
        return any(position == index for _, position in params)

    def _parameter_for(self, arg: cst.Arg, call: cst.Call) -> cst.Param | None:
        """The parameter of the called function of this module that ``arg`` binds."""
        called = self._function_called(call)
        if called is None or any(a.star for a in call.args):
            return None
        function, skip = called
        params = function.params
        if arg.keyword is not None:
            named = [*params.params, *params.kwonly_params]
            return next((p for p in named if p.name.value == arg.keyword.value), None)
        positional = [*params.posonly_params, *params.params][skip:]
        index = [a for a in call.args if a.keyword is None].index(arg)
        return positional[index] if index < len(positional) else None

    def _cuda_literal_argument(self, original: cst.Arg, updated: cst.Arg) -> cst.Arg:
        """``train(model, loader, "cuda")``: a "cuda" handed to a function or class of the
        program whose parameter is read only as a device (by it, and by every function it hands
        it on to) is the training device, as `device = "cuda"` is (leave_Assign): the target's
        device string. A parameter read otherwise (printed, logged, compared as text) keeps it."""
        call = self.get_metadata(ParentNodeProvider, original, None)
        if not isinstance(call, cst.Call) or self._in_dead(original):
            return updated
        param = self._parameter_for(original, call)
        roles = self._reference_roles(param.name, bound=param) if param is not None else []
        if param is not None and roles and all(role == "device" for role in roles):
            why = f"the parameter `{param.name.value}` of `{_code(call.func)}` is read only as a device"
        elif self._binds_program_parameter(
            original, call, device_tables(self.run.program, self._wrapper.module).device_parameters
        ):
            # Imported, or a function of this module that hands it on deeper than it follows.
            roles = ["device"]
            why = (
                f"`{_code(call.func)}` reads it only as a device, and so does every function "
                "it hands it on to"
            )
        else:
            return updated
        literal = self._device_literal(original.value, updated.value, roles, why)
        return updated if literal is None else updated.with_changes(value=literal)

    def leave_Return(self, original_node: cst.Return, updated_node: cst.Return) -> cst.Return:
        """``def get_device(): return "cuda"``: a helper of this module whose every call is read
        only as a device (`device = get_device()`, then `.to(device)`) returns the training
        device: the target's device string. One called for a log line keeps it."""
        value = original_node.value
        if not isinstance(value, cst.SimpleString) or self._kind(value) != "cuda":
            return updated_node
        function = self.get_metadata(ParentNodeProvider, original_node, None)
        while function is not None and not isinstance(function, cst.FunctionDef | cst.Lambda):
            function = self.get_metadata(ParentNodeProvider, function, None)
        if not isinstance(function, cst.FunctionDef) or self._in_dead(original_node):
            return updated_node
        literal = self._device_literal(
            value,
            updated_node.value,
            self._call_roles(function),
            f"every call of `{function.name.value}()` is read only as a device",
        )
        return updated_node if literal is None else updated_node.with_changes(value=literal)

    def _device_literal(
        self,
        original: cst.SimpleString,
        updated: cst.BaseExpression | None,
        roles: list[str | None],
        why: str,
        prefix: str = "",
    ) -> cst.SimpleString | None:
        """The target's device string for a "cuda" literal every use of which (``roles``) is
        read only as a device (TRN002), or None where one is not, or the fix is suppressed."""
        if not roles or not all(role == "device" for role in roles):
            return None
        message = f'{prefix}"cuda" → "{self.target.device_string}" ({why})'
        if not self.report(original, CudaDeviceString, message, True):
            return None
        assert isinstance(updated, cst.SimpleString)
        return self._device_string(updated)

    def _call_roles(self, function: cst.FunctionDef) -> list[str | None]:
        """What each use of a module's function does with what it returns; None for a use
        that is not a plain call (passed on, a method of a class)."""
        parent = self.get_metadata(ParentNodeProvider, function, None)
        if not isinstance(parent, cst.Module | cst.IndentedBlock):
            return [None]
        scope = self.get_metadata(ScopeProvider, function, None)
        if scope is None:
            return [None]
        roles: list[str | None] = []
        for assignment in scope.assignments[function.name.value]:
            if getattr(assignment, "node", None) is not function:
                return [None]  # the name is bound elsewhere too
            for access in assignment.references:
                call = self.get_metadata(ParentNodeProvider, access.node, None)
                if not (isinstance(call, cst.Call) and call.func is access.node):
                    return [None]
                roles.append(self._read_role(call, 0))
        return roles

    def leave_Arg(self, original_node: cst.Arg, updated_node: cst.Arg) -> cst.Arg:
        """``map_location=device`` where ``device = "cuda"`` becomes the target's device (see
        leave_Assign): "cpu", which torch.load can restore to."""
        value = original_node.value
        if (
            isinstance(value, cst.SimpleString)
            and self._kind(value) == "cuda"
            and self._device_role(original_node) is None
            and self.enabled(CudaDeviceString)
        ):
            return self._cuda_literal_argument(original_node, updated_node)
        if not (
            original_node.keyword is not None
            and original_node.keyword.value == "map_location"
            and self._torch_load(original_node)
        ):
            return updated_node
        if not (isinstance(value, cst.Name) and self._made_target_device(value)):
            return self._load_onto_device(original_node, updated_node)
        if self.report(
            original_node,
            CudaMapLocation,
            f'map_location={value.value} → "cpu": `{value.value}` is now '
            f'"{self.target.device_string}", onto which torch.load cannot restore; '
            "load_state_dict() copies to the device",
            True,
        ):
            return updated_node.with_changes(value=cst.SimpleString('"cpu"'))
        return updated_node

    def _load_onto_device(self, original: cst.Arg, updated: cst.Arg) -> cst.Arg:
        """``torch.load(f, map_location=device)`` where ``device`` is the accelerator on the
        target (however it is spelled: a name bound to ``torch_xla.device()``, ``args.device``,
        a parameter its callers pass it in): torch.load cannot restore onto the XLA device (it
        raises `don't know how to restore data location ... (tagged with xla:0)`, measured with
        torch-xla 2.9.0). Loaded to "cpu" where all it loads goes into ``load_state_dict``,
        which copies to the module's device; reported elsewhere (a whole pickled model loaded
        to the CPU would train there)."""
        spelled = original.value
        value = _device_inside(spelled)  # `str(device)`: the device, as text
        cuda_text = _cuda_text(value) or storage_mover(value)
        kinds = self.facts.kinds(value) if isinstance(value, cst.Name | cst.Attribute) else None
        if not cuda_text and (kinds is None or ACCELERATOR not in kinds or RANK in kinds):
            return updated  # strings, choices and torch.device(...) are rewritten on their own
        # The accelerator on some launches only (`"cuda" if opt.cuda else "cpu"`, its "cuda"
        # rewritten): loading to "cpu" is right on every one; a report is no blocker.
        maybe = not cuda_text and kinds != {ACCELERATOR}
        if isinstance(value, cst.Name) and any(
            is_cuda_string(v) for v in self.bound_values(value) or []
        ):
            return updated  # a "cuda" kept as text (TRN006): left with it, for a person
        call = self.get_metadata(ParentNodeProvider, original, None)
        code = _code(spelled)
        what = (
            "moves each storage to CUDA, absent"
            if storage_mover(value)
            else "is a CUDA device, absent"
            if cuda_text
            else "may be the XLA device"
            if maybe
            else "is the XLA device"
        )
        if isinstance(call, cst.Call) and self._only_state_dicts(call):
            message = (
                f'map_location={code} → "cpu": `{code}` {what} on Trainium, onto '
                "which torch.load cannot restore; load_state_dict() copies to the device"
            )
            if self.report(original, CudaMapLocation, message, True):
                return updated.with_changes(value=cst.SimpleString('"cpu"'))
            return updated
        conditional = maybe or not self._runs_on_launch(call) or self._conditional(call)
        if (
            self.report(
                original,
                CudaMapLocation,
                f"map_location={code}: `{code}` {what} on Trainium, onto which torch.load "
                'cannot restore (it raises): load with map_location="cpu" and move what it loads to '
                "the device"
                + ("" if conditional else "; the load runs whenever its function does: a blocker"),
                False,
            )
            and not conditional
        ):
            self.findings[-1] = replace(self.findings[-1], severity=Severity.BLOCKER)
        return updated

    def _report_imported_load(self, call: cst.Call) -> None:
        """A call of another given module's function that loads with `map_location=<its
        parameter>` (``ModuleView.imported_loads``), passed the XLA device: the load there
        raises. Reported at the call, the cause this module holds; a blocker where it runs on
        every launch and the device is the XLA device on every one."""
        if not isinstance(call.func, cst.Name):
            return
        load = self.run.program.imported_loads.get(call.func.value)
        if load is None:
            return
        position, name, where = load
        positional = [a for a in call.args if a.keyword is None and not a.star]
        arg = next((a for a in call.args if a.keyword and a.keyword.value == name), None)
        if arg is None and position < len(positional):
            arg = positional[position]
        if arg is None or not isinstance(arg.value, cst.Name | cst.Attribute):
            return
        kinds = self.facts.kinds(arg.value)
        if ACCELERATOR not in kinds or RANK in kinds:
            return
        certain = kinds == {ACCELERATOR}
        code = _code(arg.value)
        blocks = certain and self._runs_on_launch(call) and not self._conditional(call)
        if (
            self.report(
                call,
                CudaMapLocation,
                f"`{code}` {'is' if certain else 'may be'} the XLA device on Trainium, and "
                f"`{call.func.value}` passes it to torch.load's map_location ({where}), which "
                'cannot restore onto it (it raises): load with map_location="cpu" there and move '
                "what it loads to the device"
                + ("; the call runs on every launch: a blocker" if blocks else ""),
                False,
            )
            and blocks
        ):
            self.findings[-1] = replace(self.findings[-1], severity=Severity.BLOCKER)

    def _runs_on_launch(self, node: cst.CSTNode, depth: int = 0) -> bool:
        """``node`` is in code that runs when the module is run: at its top level (its
        ``__main__`` block included), or in a function that top-level code calls by name, or
        that such a function calls by name outside any ``if`` or ``try`` (`main()` →
        `inference(a)` → `load_checkpoint(...)`)."""
        function = None
        current = self.get_metadata(ParentNodeProvider, node, None)
        while current is not None and not isinstance(current, cst.Module):
            if isinstance(current, cst.FunctionDef | cst.Lambda | cst.ClassDef):
                function = current
            current = self.get_metadata(ParentNodeProvider, current, None)
        if function is None:
            return True
        if not isinstance(function, cst.FunctionDef) or not isinstance(current, cst.Module):
            return False
        name = function.name.value
        calls = [
            n
            for n in walk(current)
            if isinstance(n, cst.Call) and isinstance(n.func, cst.Name) and n.func.value == name
        ]
        for call in calls:
            if self._at_top_level(call):
                return True
            if depth < 4 and not self._conditional(call) and self._runs_on_launch(call, depth + 1):
                return True
        return False

    def _conditional(self, node: cst.CSTNode) -> bool:
        """``node`` runs under an ``if`` or ``try`` of its function (or of the module), other
        than the module's ``if __name__ == "__main__":`` block, which runs on every launch."""
        for current in self._ancestors(node):
            if isinstance(current, cst.IfExp | cst.Try):
                return True
            if isinstance(current, cst.If) and not (
                isinstance(self.get_metadata(ParentNodeProvider, current, None), cst.Module)
                and is_main_test(current.test)
            ):
                return True
        return False

    def _at_top_level(self, node: cst.CSTNode) -> bool:
        """``node`` is in a statement of the module's own body (not a function's or class's)."""
        current = self.get_metadata(ParentNodeProvider, node, None)
        while current is not None and not isinstance(current, cst.Module):
            if isinstance(current, cst.FunctionDef | cst.Lambda | cst.ClassDef):
                return False
            current = self.get_metadata(ParentNodeProvider, current, None)
        return True

    def _only_state_dicts(self, load: cst.Call) -> bool:
        """Everything ``load`` returns goes into ``load_state_dict``: the call is its argument,
        or it is bound to a name whose every read is such an argument (or an item of one:
        ``checkpoint["model"]``)."""
        parents = self.parents()

        def into_state_dict(node: cst.CSTNode) -> bool:
            parent = parents.get(node)
            if isinstance(parent, cst.Subscript) and parent.value is node:  # `checkpoint["model"]`
                return into_state_dict(parent)
            call = parents.get(parent) if isinstance(parent, cst.Arg) else None
            return (
                isinstance(call, cst.Call)
                and isinstance(call.func, cst.Attribute)
                and call.func.attr.value == "load_state_dict"
            )

        def consumed(value: cst.CSTNode, depth: int) -> bool:
            """``value`` (a call's result) goes into ``load_state_dict``: as the argument, as
            the value of a name whose every read does, or returned by a helper whose every call
            in this module does (`load_checkpoint(path, device)`, hifi-gan)."""
            if into_state_dict(value):
                return True
            parent = parents.get(value)
            if isinstance(parent, cst.Return) and depth < 3:
                return self._calls_consumed(parent, parents, lambda c: consumed(c, depth + 1))
            if not (isinstance(parent, cst.Assign) and len(parent.targets) == 1):
                return False
            found = reads(parent.targets[0].target, parents)
            return bool(found) and all(
                into_state_dict(read)
                or (
                    isinstance(parents.get(read), cst.Return)
                    and depth < 3
                    and self._calls_consumed(
                        parents[read], parents, lambda c: consumed(c, depth + 1)
                    )
                )
                for read in found
            )

        return consumed(load, 0)

    def _calls_consumed(
        self,
        returned: cst.CSTNode,
        parents: dict[cst.CSTNode, cst.CSTNode],
        consumed: Callable[[cst.Call], bool],
    ) -> bool:
        """Every call by name, in this module, of the top-level function ``returned`` is in
        passes ``consumed`` (and there is one): what the function returns goes where its callers
        put it. A method, a nested function or one passed on is not followed."""
        function = parents.get(returned)
        while function is not None and not isinstance(function, cst.FunctionDef | cst.Lambda):
            function = parents.get(function)
        if not isinstance(function, cst.FunctionDef) or not isinstance(
            parents.get(function), cst.Module
        ):
            return False
        name = function.name.value
        uses = [
            n
            for n in walk(self._wrapper.module)
            if isinstance(n, cst.Name) and n.value == name and n is not function.name
        ]
        calls = []
        for use in uses:
            call = parents.get(use)
            if not (isinstance(call, cst.Call) and call.func is use):
                return False  # passed on, or rebound: its callers are not all here
            calls.append(call)
        return bool(calls) and all(consumed(call) for call in calls)

    def _made_target_device(self, name: cst.Name) -> bool:
        """Every assignment that reaches ``name`` is one leave_Assign rewrites to the target's
        device string: ``NAME = "cuda"`` read only as a device and by torch.load."""
        scope = self.get_metadata(ScopeProvider, name, None)
        if scope is None or not self.enabled(CudaDeviceString):
            return False
        reaching = [
            a
            for a in scope[name.value]  # the enclosing scopes' too: a global read in a function
            if any(access.node is name for access in a.references)
        ]
        if not reaching:
            return False
        for assignment in reaching:
            target = getattr(assignment, "node", None)
            statement = (
                self.get_metadata(ParentNodeProvider, self.get_metadata(ParentNodeProvider, target))
                if isinstance(target, cst.Name)
                else None
            )
            if not (
                isinstance(statement, cst.Assign)
                and len(statement.targets) == 1
                and statement.targets[0].target is target
                and isinstance(statement.value, cst.SimpleString)
                and self._kind(statement.value) == "cuda"
                and not self._in_dead(statement)
            ):
                return False
            roles = self._reference_roles(target)
            if "device" not in roles or not all(r in ("device", "torch.load") for r in roles):
                return False
        return True

    # -- rewriting ---------------------------------------------------------------------------
    def _device_string(self, node: cst.SimpleString) -> cst.SimpleString:
        if self.target.is_xla:
            self.add_import("torch_xla")  # registers the "xla" device type
        return _with_value(node, self.target.device_string)

    def _report_generator(self, call: cst.Call) -> None:
        """``torch.Generator(device=...)`` on the accelerator raises under torch-xla (TRN008)."""
        device = next(
            (a.value for a in call.args if a.keyword and a.keyword.value == "device"), None
        )
        if device is None and call.args and call.args[0].keyword is None and not call.args[0].star:
            device = call.args[0].value
        if device is None:
            return  # a CPU generator
        kinds = self.facts.kinds(device)
        if not (is_cuda_string(device) or ACCELERATOR in kinds or RANK in kinds):
            return
        self.report(
            call,
            GeneratorOnDevice,
            f"`{_code(call)}` makes a random-number generator on the training device, which "
            "raises under torch-xla (`XLA device type not an accelerator`): make it on the CPU "
            "(`torch.Generator()`) and draw there, moving what it draws to the device",
            False,
        )

    def _rewrite_value(self, original: cst.BaseExpression, updated: cst.BaseExpression, role: str):
        call = self.get_metadata(ParentNodeProvider, original, None)
        call = self.get_metadata(ParentNodeProvider, call, None) if call is not None else None
        if isinstance(call, cst.Call) and self._absence_identity(call):
            return updated  # `th.device("cuda").type == ... and not th.cuda.is_available()`
        kind = self._kind(original)
        if kind is None or (isinstance(original, cst.Call) and role != "map_location"):
            return updated  # torch.device(...) calls are rewritten on their own
        if kind == "indexed" and role == "map_location" and _cuda_text(original):
            parent = self.get_metadata(ParentNodeProvider, original, None)
            if parent is not None and self._torch_load(parent):
                return updated  # a CUDA location built as text: leave_Arg (TRN005)
        if kind == "indexed":
            self.report(
                original,
                CudaDeviceIndex,
                "device with an explicit CUDA index; use the "
                "process's default device on Trainium (one NeuronCore per process)",
                False,
            )
            return updated
        if role == "map_location":
            if kind == "other-choice":
                return updated
            message = 'map_location "cuda" → "cpu"; load_state_dict() copies to the device'
            if self.report(original, CudaMapLocation, message, True):
                return cst.SimpleString('"cpu"')
            return updated
        if kind == "cuda":
            if self.report(
                original, CudaDeviceString, f'"cuda" → "{self.target.device_string}"', True
            ):
                assert isinstance(updated, cst.SimpleString)
                return self._device_string(updated)
        return updated  # choices are rewritten in leave_IfExp

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        result = self._leave_call(original_node, updated_node)
        if isinstance(result, cst.Call) and self.is_any(
            original_node.func, {"torch.load", "torch.serialization.load"}
        ):
            return self._weights_only(original_node, result)
        return result

    def _weights_only(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        """TRN063: `weights_only=False` for a load in a program that saves its options."""
        saved = self.run.program.options_saved
        if (
            not saved
            or self._in_dead(original)
            or any(
                a.star or (a.keyword is not None and a.keyword.value == "weights_only")
                for a in original.args
            )
            or not _torch_at_least(self.target.torch, (2, 6))
        ):
            return updated
        where = ", ".join(saved[:2]) + (f" and {len(saved) - 2} more" if len(saved) > 2 else "")
        if self.report(
            original,
            LoadWeightsOnly,
            f"torch {self.target.torch} loads with weights_only=True by default, and this program "
            f"saves its parsed options (an argparse.Namespace) in its checkpoints ({where}): "
            "loading one raises UnpicklingError → weights_only=False (for checkpoints you "
            "trust: the program's own)",
            True,
        ):
            return append_keyword(updated, "weights_only", cst.Name("False"))
        return updated

    def _leave_call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if self._in_dead(original_node) or id(original_node) in self._dropped_calls:
            return updated_node
        self._report_imported_load(original_node)
        if self._bare_load(original_node):
            return append_keyword(updated_node, "map_location", cst.SimpleString('"cpu"'))
        if self._data_move(original_node) is None and original_node in self._data_moves:
            return updated_node  # `x.data = <move>` that cannot be rebound: reported, kept
        func = original_node.func
        if self._resolves(original_node):
            resolved = self._gate(original_node, updated_node)
            if resolved is not None:
                return resolved
        if original_node in self._rank_values:
            return self._rank_device(original_node, _code(original_node)) or updated_node
        if original_node in self.facts.cpu_values and self._cpu_allowed():
            if self.report(
                original_node,
                CpuTrainingDevice,
                f"the model and batches are moved to the CPU in a training script → "
                f"{self._device_text(original_node)}",
                True,
            ):
                return self._device_at(original_node)
        self._report_opt_in_cpu(original_node)
        if self._is_cuda_available(original_node):
            parent = self.get_metadata(ParentNodeProvider, original_node, None)
            if not (
                isinstance(parent, cst.IfExp)
                and parent.test is original_node
                and self._kind(parent) == "choice"
            ):
                self.report(
                    original_node,
                    CudaAvailabilityCheck,
                    "torch.cuda.is_available() is "
                    "False on Trainium: the code it guards takes the CPU path",
                    False,
                )
            return updated_node
        if (
            isinstance(func, cst.Attribute)
            and func.attr.value == "cuda"
            and not self.is_any(func, {"torch.cuda"})
        ):
            return self._rewrite_cuda_method(original_node, updated_node)
        if self._argument_of_cuda_api(original_node):
            return updated_node  # `get_device_properties(torch.device("cuda"))`: the call's to go
        if self.is_any(func, {"torch.device"}):
            if self._role_of_expression(original_node) == "map_location":
                return updated_node  # the whole value becomes "cpu"
            replaced = self._rewrite_torch_device(original_node)
            if replaced is not None:
                return replaced
        if self.is_any(func, {"torch.accelerator.current_accelerator"}) and self.target.is_xla:
            formatted = self._formatted_into_device(original_node)
            if formatted is not None:
                line = self.get_metadata(PositionProvider, formatted).start.line
                self.report(
                    original_node,
                    CudaDeviceIndex,
                    f"torch.accelerator is not the XLA device, and this one is formatted into "
                    f"`{_code(formatted)}` (line {line}), a second device of one process: on "
                    f"Trainium each process has one device ({self.target.device.expr}); "
                    "change both by hand",
                    False,
                )
                return updated_node
            if self.report(
                original_node,
                AcceleratorDevice,
                f"torch.accelerator is not the XLA device → {self._device_text(original_node)}",
                True,
            ):
                return self._device_at(original_node)
            return updated_node
        if self.is_any(func, {"torch.accelerator.is_available"}) and self.target.is_xla:
            self.report(
                original_node,
                AcceleratorDevice,
                "torch.accelerator.is_available() is "
                "False under torch_xla: do not let it choose the device",
                False,
            )
            return updated_node
        if self._identity_side(original_node) == "argument":
            return self._identity_test(original_node, updated_node) or updated_node
        if self.target.is_xla and self.is_any(func, _GENERATORS):
            self._report_generator(original_node)
            return updated_node  # its "cuda" stays: made "xla" it would raise all the same
        if isinstance(func, cst.Attribute) and func.attr.value == "add_argument":
            return self._rewrite_device_option(original_node, updated_node)
        new_args = []
        for original_arg, updated_arg in zip(original_node.args, updated_node.args, strict=False):
            value = original_arg.value
            if value in self._rank_devices or value in self._rank_values:
                device = self._rank_device(value, _code(value))
                if device is not None:
                    new_args.append(updated_arg.with_changes(value=device))
                    continue
            role = self._device_role(original_arg)
            if role is not None:
                value = self._rewrite_value(original_arg.value, updated_arg.value, role)
                updated_arg = updated_arg.with_changes(value=value)
            new_args.append(updated_arg)
        return updated_node.with_changes(args=new_args)

    def _device_call_blocks(self, call: cst.Call) -> str | None:
        """Why a device call this pass handles cannot run on the target as this run leaves it;
        None where it can (or it is not such a call)."""
        func = call.func
        if isinstance(func, cst.Attribute) and func.attr.value == "cuda":
            if not self.is_any(func, {"torch.cuda"}) and self._cuda_method_fix(call) is None:
                return "`.cuda(...)` with a device index needs CUDA"
            return None
        if self.is_any(func, {"torch.accelerator.current_accelerator"}) and self.target.is_xla:
            formatted = self._formatted_into_device(call)
            if formatted is not None:
                line = self.get_metadata(PositionProvider, formatted).start.line
                return (
                    f"torch.accelerator is not the XLA device under torch-xla, and it is "
                    f"formatted into `{_code(formatted)}` (line {line}), a second device of one "
                    "process"
                )
            if not self.enabled(AcceleratorDevice):
                return "torch.accelerator is not the XLA device under torch-xla"
            return None
        if self.is_any(func, {"torch.device"}) and call not in self._rank_values:
            first = call.args[0].value if call.args else None
            evaluator = self.facts.evaluator
            if first is not None and evaluator is not None:
                other = accelerator_index(first, lambda e: evaluator.value(e).kinds) == "other"
                if other or self._kind(first) == "indexed" or len(call.args) > 1:
                    return "a second device of one process: each process has one on Trainium"
        return None

    def _argument_of_cuda_api(self, node: cst.BaseExpression) -> bool:
        """``node`` is passed to a CUDA-only call (``torch.cuda.get_device_properties(...)``,
        ``torch.accelerator.set_device_index(...)`` on XLA), which the cuda-calls pass removes
        or reports: the target's device there would only hide that call."""
        arg = self.get_metadata(ParentNodeProvider, node, None)
        call = (
            self.get_metadata(ParentNodeProvider, arg, None) if isinstance(arg, cst.Arg) else None
        )
        if not isinstance(call, cst.Call):
            return False
        names = self.module_names(call.func)
        return any(n.startswith("torch.cuda.") for n in names) or (
            self.target.is_xla and any(n.startswith("torch.accelerator.") for n in names)
        )

    def _formatted_into_device(self, call: cst.Call) -> cst.BaseExpression | None:
        """Where the device ``call`` gives, assigned to a name, is formatted into a device
        string this pass does not replace whole (``torch.device(f"{acc}:1")``): the target's
        device there would read "xla:0:1"."""
        parent = self.get_metadata(ParentNodeProvider, call, None)
        if not (
            isinstance(parent, cst.Assign)
            and len(parent.targets) == 1
            and isinstance(parent.targets[0].target, cst.Name)
        ):
            return None
        target = parent.targets[0].target
        scope = self.get_metadata(ScopeProvider, target, None)
        if scope is None:
            return None
        for assignment in scope.assignments[target.value]:
            if getattr(assignment, "node", None) is not target:
                continue
            for access in assignment.references:
                string = self._device_string_around(access.node)
                if string is not None:
                    return string
        return None

    def _device_string_around(self, node: cst.CSTNode) -> cst.BaseExpression | None:
        """The string ``node`` is formatted into (f-string, ``%``, ``+``, ``.format``,
        ``str()``) where that string is made a device and not replaced whole here."""
        string: cst.CSTNode | None = None
        current = self.get_metadata(ParentNodeProvider, node, None)
        while current is not None and string is None:
            if (
                isinstance(current, cst.FormattedString)
                or isinstance(current, cst.BinaryOperation)
                and isinstance(current.operator, cst.Add | cst.Modulo)
                or isinstance(current, cst.Call)
                and (m.matches(current.func, m.Name("str") | m.Attribute(attr=m.Name("format"))))
            ):
                string = current
            elif not isinstance(current, cst.FormattedStringExpression | cst.Arg):
                return None
            else:
                current = self.get_metadata(ParentNodeProvider, current, None)
        if string is None:
            return None
        holder = self.get_metadata(ParentNodeProvider, string, None)
        if isinstance(holder, cst.Arg) and self._device_role(holder) == "device":
            call = self.get_metadata(ParentNodeProvider, holder, None)
            if call in self._rank_values:
                return None  # replaced whole by the target's device (TRN024)
            return call if isinstance(call, cst.Call) else string
        return None

    def _own_index_string(self, assign: cst.Assign) -> bool:
        """``device = f"cuda:{local_rank}"`` (or ``"cuda:%d" % rank``): the device string of a
        process's own index, bound to a device name."""
        value = assign.value
        if not (
            len(assign.targets) == 1
            and "device" in (dotted(assign.targets[0].target) or "").lower()
            and is_index_device(value, self.module_names)
        ):
            return False
        if isinstance(value, cst.FormattedString):
            return len(value.parts) == 2 and isinstance(
                value.parts[1], cst.FormattedStringExpression
            )
        return isinstance(value, cst.BinaryOperation) and _string_value(value.left) == "cuda:%d"

    def _cuda_method_fix(self, original: cst.Call) -> str | None:
        """How ``x.cuda(...)`` is rewritten here: "rank" (a process index, TRN024), "device"
        (the training device itself: `.to(device)`, TRN001), "passed" (a parameter its caller
        fills, TRN001), "plain" (no device, TRN001); None
        where it is reported, or the rule is not selected."""
        allowed = {"non_blocking", "memory_format"}
        first = original.args[0] if original.args else None
        rest_allowed = all(
            arg.keyword is not None and arg.keyword.value in allowed for arg in original.args[1:]
        )
        positional = first is not None and first.keyword is None and not first.star
        if positional and first.value in self._rank_devices:  # type: ignore[union-attr]
            return "rank" if self.enabled(RankAsDevice) else None
        if not self.enabled(CudaMethod):
            return None
        if all(arg.keyword is not None and arg.keyword.value in allowed for arg in original.args):
            return "plain"
        if positional and rest_allowed and self._holds_device(first.value):  # type: ignore[union-attr]
            return "device"
        if positional and rest_allowed and self._passed_device(first.value):  # type: ignore[union-attr]
            return "passed"
        return None

    def _passed_device(self, node: cst.BaseExpression) -> bool:
        """``node`` is a parameter of the function it is read in (`def sample(self, n,
        current_device)`), and nothing in this file passes it an index: it holds what the
        caller passes, a device (the `.device` of its batch) or an index. `.to(p)` does on CUDA
        what `.cuda(p)` does with either, and also takes the XLA device, which `.cuda(p)`
        rejects; an index the caller makes is the caller's finding (TRN006/TRN024)."""
        evaluator = self.facts.evaluator
        if evaluator is None or not isinstance(node, cst.Name):
            return False
        bindings = evaluator.c.bindings.get(node.value)
        if not bindings or any(b.parameter is None for b in bindings):
            return False
        recording, evaluator.recording = evaluator.recording, False
        try:
            kinds = evaluator.value(node).kinds
        finally:
            evaluator.recording = recording
        return bool(kinds) and kinds <= {ACCELERATOR, UNKNOWN}

    def _holds_device(self, node: cst.BaseExpression) -> bool:
        """``node`` is a name that holds the training device itself (not an index): its value,
        or an ``if`` around it that tests its type (``if device.type == "cuda":``)."""
        evaluator = self.facts.evaluator
        if evaluator is None or not isinstance(node, cst.Name | cst.Attribute):
            return False
        name = dotted(node)
        for current in self._ancestors(node):
            if isinstance(current, cst.If) and name is not None:
                tests = [current.test]
                if isinstance(current.test, cst.BooleanOperation):
                    tests = [current.test.left, current.test.right]
                for test in tests:
                    if not isinstance(test, cst.Comparison):
                        continue
                    side = self._identity_side(test)
                    if side is None or not isinstance(test.comparisons[0].operator, cst.Equal):
                        continue
                    other = test.comparisons[0].comparator if side == "left" else test.left
                    subject = identity_subject(other)
                    if subject is not None and dotted(subject) == name:
                        return True
        recording, evaluator.recording = evaluator.recording, False
        try:
            return evaluator.value(node).kinds == {ACCELERATOR}
        finally:
            evaluator.recording = recording

    def _is_cuda_test(self, node: cst.CSTNode) -> bool:
        """``node`` (an ``if``'s test) holds only when something is on a CUDA device: ``x.is_cuda``,
        a name bound only to such a read (``on_cuda = next(self.parameters()).is_cuda``), or an
        ``and`` with one of them."""
        if isinstance(node, cst.BooleanOperation) and isinstance(node.operator, cst.And):
            return self._is_cuda_test(node.left) or self._is_cuda_test(node.right)
        if isinstance(node, cst.Attribute):
            return node.attr.value == "is_cuda"
        if isinstance(node, cst.Call):
            return self._cuda_type_check(node) is not None
        if isinstance(node, cst.Name):
            values = self.bound_values(node)
            return bool(values) and all(
                isinstance(v, cst.Attribute) and v.attr.value == "is_cuda" for v in values
            )
        return False

    def _is_cuda_guard(self, node: cst.CSTNode) -> cst.If | None:
        """The ``if`` whose body holds ``node`` and whose test reads ``.is_cuda``: False on XLA
        and TorchNeuron, so the body never runs there."""
        child = node
        for current in self._ancestors(node):
            if isinstance(current, cst.If) and child is current.body:
                if self._is_cuda_test(current.test):
                    return current
            if isinstance(current, cst.If) and child is current.orelse:
                # `if not x.is_cuda: <CPU kernel> else: out = out.cuda(); <CUDA kernel>`:
                # the `else` runs only on CUDA.
                test = current.test
                if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
                    if self._is_cuda_test(test.expression):
                        return current
            child = current
        return None

    def _is_cuda_move(self, guard: cst.If, call: cst.Call) -> cst.Attribute | None:
        """``x.device`` where ``guard`` is ``if x.is_cuda:`` (``x`` a tensor's name: not
        ``self``, nor a namespace of options such as ``args``, whose ``is_cuda`` may be a flag),
        with no ``else``, and its whole body is ``call`` moving a name onto itself:
        ``y = y.cuda()``. Made unconditional, ``y = y.to(x.device)`` is the same move on CUDA,
        none on the CPU, and the one the XLA device needs (a scratch mask made on the CPU,
        `torch.BoolTensor(x.size())`, then moved only `if x.is_cuda:`)."""
        test = guard.test
        if isinstance(test, cst.Call):
            tested = self._cuda_type_check(test)
        elif isinstance(test, cst.Attribute) and test.attr.value == "is_cuda":
            tested = test.value
        else:
            tested = None
        # `x`, or its `.data` (`isinstance(out.data, torch.cuda.FloatTensor)`).
        root = tested.value if isinstance(tested, cst.Attribute) else tested
        if isinstance(tested, cst.Attribute) and tested.attr.value != "data":
            root = None
        if not (
            isinstance(root, cst.Name)
            and root.value not in ("self", "cls")
            and not OPTIONS_NAME.match(root.value)
            and guard.orelse is None
        ):
            return None
        body = guard.body
        lines = body.body if isinstance(body, cst.IndentedBlock) else [body]
        if len(lines) != 1 or not isinstance(
            lines[0], cst.SimpleStatementLine | cst.SimpleStatementSuite
        ):
            return None
        if len(lines[0].body) != 1:
            return None
        assign = lines[0].body[0]
        if not (
            isinstance(assign, cst.Assign)
            and len(assign.targets) == 1
            and assign.value is call
            and not call.args
            and isinstance(call.func, cst.Attribute)
            and call.func.attr.value == "cuda"
            and isinstance(assign.targets[0].target, cst.Name)
            and call.func.value.deep_equals(assign.targets[0].target)
        ):
            return None
        return cst.Attribute(value=root, attr=cst.Name("device"))

    def _cuda_type_check(self, test: cst.Call) -> cst.BaseExpression | None:
        """``x`` where ``test`` is `isinstance(x, torch.cuda.FloatTensor)` (or a tuple of CUDA
        tensor types): False for a tensor on the XLA or Neuron device, as `x.is_cuda` is."""
        if not (self.is_any(test.func, {"builtins.isinstance"}) and len(test.args) == 2):
            return None
        kinds = test.args[1].value
        types = [e.value for e in kinds.elements] if isinstance(kinds, cst.Tuple) else [kinds]
        for kind in types:
            name = next(iter(self.module_names(kind)), "")
            if not (name.startswith("torch.cuda.") and name.endswith("Tensor")):
                return None
        return test.args[0].value

    def _own_cuda_method(self, call: cst.Call) -> bool:
        """``x.cuda()`` where ``x`` is made only by a class of this module that defines its own
        ``cuda()`` and is not a module or tensor (a sampler keeping its tables on the GPU:
        `self.multinomial = AliasMethod(probs)`, then `self.multinomial.cuda()`). The class has
        no ``.to()``, so `.to(device)` raises AttributeError; its ``cuda()`` is ported where it
        is defined."""
        func = call.func
        if call.args or not isinstance(func, cst.Attribute):
            return False
        receiver = dotted(func.value)
        if receiver is None:
            return False
        if self._own_cuda_classes is None:
            self._own_cuda_classes = set()
            for node in self._module.body:
                if not isinstance(node, cst.ClassDef) or any(
                    (dotted(b.value) or "").rsplit(".", 1)[-1] in _MODULE_BASES for b in node.bases
                ):
                    continue
                if any(
                    isinstance(f, cst.FunctionDef) and f.name.value == "cuda"
                    for f in node.body.body
                ):
                    self._own_cuda_classes.add(node.name.value)
        if not self._own_cuda_classes:
            return False
        made = [
            assign.value
            for assign in find(self._module, cst.Assign)
            if any(dotted(t.target) == receiver for t in assign.targets)
        ]
        return bool(made) and all(
            isinstance(v, cst.Call)
            and isinstance(v.func, cst.Name)
            and v.func.value in self._own_cuda_classes
            for v in made
        )

    def _rewrite_cuda_method(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        if storage_mover(self.get_metadata(ParentNodeProvider, original, None)):
            return updated  # a map_location's storage: what torch.load restores to (TRN005)
        if isinstance(original.func, cst.Attribute) and is_storage(original.func.value):
            return updated  # `torch.Storage(n).cuda()`: a storage has no `.to(device)`
        if self._own_cuda_method(original):
            return updated  # the class's own `cuda()`, whose body this pass ports
        allowed = {"non_blocking", "memory_format"}
        first = original.args[0] if original.args else None
        guard = self._is_cuda_guard(original)
        moved = self._is_cuda_move(guard, original) if guard is not None else None
        if moved is not None and self.report(
            original,
            CudaMethod,
            f"`{_code(original)}` under `if {_code(guard.test)}:` → `.to({_code(moved)})`, and the "
            f"`if` dropped: the test is False on the XLA or Neuron device, so the move was "
            f"skipped there and the value stayed on the CPU; `.to({_code(moved)})` puts it "
            "wherever that tensor is (on CUDA its own device; on the CPU no move)",
            True,
        ):
            self._is_cuda_moves.add(id(guard))
            assert isinstance(updated.func, cst.Attribute)
            return updated.with_changes(
                func=updated.func.with_changes(attr=cst.Name("to")), args=[cst.Arg(moved)]
            )
        if guard is not None and self._cuda_method_fix(original) is not None:
            # A rewrite there is dead code: `is_cuda` is False on the target's device, so the
            # value stays on the CPU beside the model; the test is what has to change.
            negated = isinstance(guard.test, cst.UnaryOperation)
            where = (
                f"in the `else` of `if {_code(guard.test)}:`, which runs only where "
                f"`{_code(guard.test.expression)}` holds"  # type: ignore[attr-defined]
                if negated
                else f"when `if {_code(guard.test)}:` holds"
            )
            self.report(
                original,
                CudaMethod,
                f"`{_code(original)}` runs only {where}, which is "
                "False on the XLA or Neuron device: the value stays on the CPU "
                'beside the model; test the device instead (`.device.type != "cpu"`), then '
                "run trncodemod again to rewrite the `.cuda()`",
                False,
            )
            return updated
        fix = self._cuda_method_fix(original)
        if fix in ("device", "passed"):
            assert isinstance(updated.func, cst.Attribute) and first is not None
            why = (
                "it holds the training device"
                if fix == "device"
                else "it is a parameter that holds what its caller passes (the device of its "
                "batch, or an index); `.to()` takes either, and the XLA device, which `.cuda()` "
                "rejects"
            )
            if not self.report(
                original,
                CudaMethod,
                f".cuda({_code(first.value)}) → .to({_code(first.value)}): {why}",
                True,
            ):
                return updated
            return updated.with_changes(func=updated.func.with_changes(attr=cst.Name("to")))
        if first is not None and first.keyword is None and first.value in self._rank_devices:
            device = self._rank_device(original, _code(original))
            if device is None:
                return updated
            assert isinstance(updated.func, cst.Attribute)
            rest = list(updated.args[1:])
            return updated.with_changes(
                func=updated.func.with_changes(attr=cst.Name("to")),
                args=[updated.args[0].with_changes(value=device), *rest],
            )
        op = host_round_trip(
            original,
            lambda n: self.get_metadata(ParentNodeProvider, n, None),
            lambda n: self.get_metadata(ScopeProvider, n, None),
            self.is_any,
        )
        if op is not None and self.report(
            original,
            CudaMethod,
            f"`.cuda()` dropped: `{_code(op.func)}` takes tensors made from NumPy arrays here and "
            "its result is read back to the host; on the XLA or Neuron device the moves cost "
            "copies each way for the same result (torchvision's `nms` falls back to the CPU "
            "there), so it stays on the CPU",
            True,
        ):
            assert isinstance(updated.func, cst.Attribute)
            return updated.func.value
        if any(arg.keyword is None or arg.keyword.value not in allowed for arg in original.args):
            self.report(
                original,
                CudaDeviceIndex,
                ".cuda() with a device index: use the process's default device on Trainium",
                False,
            )
            return updated
        if not self.report(original, CudaMethod, f".cuda() → .to({self.target.device.expr})", True):
            return updated
        assert isinstance(updated.func, cst.Attribute)
        device_arg = cst.Arg(self._device_for(original))
        if updated.args:
            device_arg = device_arg.with_changes(
                comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
            )
        return updated.with_changes(
            func=updated.func.with_changes(attr=cst.Name("to")),
            args=[device_arg, *updated.args],
        )

    def _absence_identity(self, call: cst.CSTNode) -> bool:
        """``call`` is `torch.device("cuda")` whose `.type` is compared with a device's in a test
        conjoined with ``not torch.cuda.is_available()``: an identity test to leave as it is."""
        parent = self.get_metadata(ParentNodeProvider, call, None)
        if not (isinstance(parent, cst.Attribute) and parent.attr.value == "type"):
            return False
        comparison = self.get_metadata(ParentNodeProvider, parent, None)
        while isinstance(comparison, cst.ComparisonTarget):
            comparison = self.get_metadata(ParentNodeProvider, comparison, None)
        return isinstance(comparison, cst.Comparison) and self._cuda_absence_test(comparison)

    def _cuda_absence_test(self, test: cst.BaseExpression) -> bool:
        """``test`` is conjoined with ``not torch.cuda.is_available()`` (see
        ``conjoined_with_cuda_absence``)."""
        return conjoined_with_cuda_absence(
            test,
            lambda n: self.get_metadata(ParentNodeProvider, n, None),
            lambda n: isinstance(n, cst.Call) and self._is_cuda_available(n),
        )

    def _rewrite_torch_device(self, original: cst.Call) -> cst.BaseExpression | None:
        if not original.args or self._role_of_expression(original) == "map_location":
            return None
        if self._absence_identity(original):
            return None
        kind = self._kind(original.args[0].value)
        if kind in ("cuda", "choice") and len(original.args) > 1:
            self.report(
                original,
                CudaDeviceIndex,
                'torch.device("cuda", index): use the process\'s default device on Trainium',
                False,
            )
            return original
        if kind == "cuda" and original.args[0].keyword is None:
            rule, message = (
                CudaDeviceString,
                f'torch.device("cuda") → {self._device_text(original)}',
            )
        elif kind == "choice":
            rule, message = (
                CudaAvailabilityChoice,
                (f"cuda-if-available device choice → {self._device_text(original)}"),
            )
        else:
            return None
        if self.report(original, rule, message, True):
            return self._device_at(original)
        return original

    def _rewrite_device_option(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        names = [_string_value(a.value) for a in original.args if a.keyword is None]
        if not any(name and name.lstrip("-").replace("-", "_") == "device" for name in names):
            return updated
        new_args = []
        for original_arg, updated_arg in zip(original.args, updated.args, strict=False):
            keyword = original_arg.keyword.value if original_arg.keyword else None
            if keyword == "default" and self._kind(original_arg.value) == "cuda":
                if self.report(
                    original_arg.value,
                    CudaDeviceString,
                    f'--device default "cuda" → "{self.target.device_string}"',
                    True,
                ):
                    updated_arg = updated_arg.with_changes(
                        value=self._device_string(updated_arg.value)  # type: ignore[arg-type]
                    )
            elif keyword == "choices" and isinstance(updated_arg.value, (cst.List, cst.Tuple)):
                elements = []
                for element in updated_arg.value.elements:
                    if _string_value(element.value) in ("cuda",) and m.matches(
                        element.value, m.SimpleString()
                    ):
                        element = element.with_changes(
                            value=_with_value(element.value, self.target.device_string)  # type: ignore[arg-type]
                        )
                    elements.append(element)
                updated_arg = updated_arg.with_changes(
                    value=updated_arg.value.with_changes(elements=elements)
                )
            new_args.append(updated_arg)
        return updated.with_changes(args=new_args)

    def visit_IfExp(self, node: cst.IfExp) -> bool:
        if self._tensor_choice(node) is not None or self._move_choice(node) is not None:
            # The whole choice becomes the tensor's device, or one move: its parts are not
            # rewritten.
            self._dropped_calls.update(id(n) for n in (node.body, node.orelse))
        return True

    def _move_choice(self, node: cst.IfExp) -> cst.Call | None:
        """``y.to(x.device)`` for ``y.cuda() if x.is_cuda else y`` (``x`` a tensor's name or its
        ``.data``, ``y`` a name or an attribute, the `.cuda()` given nothing but
        `non_blocking`): on CUDA the same move, on the CPU none, and on the XLA device, where
        ``is_cuda`` is False and ``y`` stayed on the CPU beside ``x``, the move it needs."""
        tensor = _is_cuda_of_tensor(node.test)
        body = node.body
        if not (
            tensor is not None
            and isinstance(body, cst.Call)
            and isinstance(body.func, cst.Attribute)
            and body.func.attr.value == "cuda"
            and isinstance(node.orelse, cst.Name | cst.Attribute)
            and _code(body.func.value) == _code(node.orelse)
            and all(a.keyword is not None and a.keyword.value == "non_blocking" for a in body.args)
        ):
            return None
        device = cst.Arg(cst.Attribute(value=tensor.deep_clone(), attr=cst.Name("device")))
        return body.with_changes(
            func=body.func.with_changes(attr=cst.Name("to")), args=[device, *body.args]
        )

    def _tensor_choice(self, node: cst.IfExp) -> cst.Attribute | None:
        """``x.device`` for ``"cuda" if x.is_cuda else "cpu"`` (or the same with
        ``torch.device(...)``) used as a device, ``x`` a tensor's name or its ``.data``: the
        device ``x`` is on, which is that choice on CUDA and on the CPU. ``is_cuda`` is False for
        an XLA tensor, so only the test's other arm ever runs there; rewriting the "cuda" arm
        changes nothing that runs."""
        if id(node) in self._tensor_choices:
            return self._tensor_choices[id(node)]
        found = None
        tensor = _is_cuda_of_tensor(node.test)
        if tensor is not None:
            cpu = _string_value(node.orelse) == "cpu" or (
                isinstance(node.orelse, cst.Call)
                and self.is_any(node.orelse.func, {"torch.device"})
                and len(node.orelse.args) == 1
                and _string_value(node.orelse.args[0].value) == "cpu"
            )
            if (
                self._kind(node.body) == "cuda"
                and cpu
                and (
                    self._role_of_expression(node) == "device"
                    or self._assigned_to_device_name(node)
                )
            ):
                found = cst.Attribute(value=tensor.deep_clone(), attr=cst.Name("device"))
        self._tensor_choices[id(node)] = found
        return found

    def leave_IfExp(self, original_node: cst.IfExp, updated_node: cst.IfExp) -> cst.BaseExpression:
        move = self._move_choice(original_node)
        if move is not None:
            if self.report(
                original_node,
                CudaMethod,
                f"`{_code(original_node)}` → `{_code(move)}`: `is_cuda` is False for an XLA "
                "tensor, so the value stayed on the CPU beside it; the move puts it wherever "
                "that tensor is (on CUDA its own device, on the CPU no move)",
                True,
            ):
                return move
            return updated_node
        device = self._tensor_choice(original_node)
        if device is not None:
            if self.report(
                original_node,
                DeviceIdentityTest,
                f"device chosen by `{_code(original_node.test)}`, which is False for an XLA "
                f"tensor → `{_code(device)}`, the device the tensor is on (the same choice on "
                "CUDA and on the CPU)",
                True,
            ):
                return device
            return updated_node
        result = self._leave_choice(original_node, updated_node)
        if isinstance(result, cst.IfExp) and self._is_true(result.test):
            if self._keeps_fallback(original_node.test, result.body):
                return result.with_changes(test=original_node.test)
            self._say_dropped(
                original_node.test, f"`else {_code(original_node.orelse)}` is dropped"
            )
            return _in_parens_of(result, result.body)
        return result

    def _gate_findings(self, test: cst.BaseExpression) -> tuple[list[cst.Call], set[tuple]]:
        gates = [c for c in find(test, cst.Call) if c in self.facts.gates]
        starts = (self.get_metadata(PositionProvider, c).start for c in gates)
        return gates, {(start.line, start.column + 1) for start in starts}  # type: ignore[misc]

    def _keeps_fallback(self, test: cst.BaseExpression, branch: cst.CSTNode) -> bool:
        """Where the branch a resolved check keeps still names a CUDA device, the check is not
        resolved: its findings become a report that says why (device_fallback)."""
        left = cuda_device_left(branch)
        if left is None:
            return False
        gates, places = self._gate_findings(test)
        self.findings = [
            f for f in self.findings if not (f.rule is DeviceGate and (f.line, f.column) in places)
        ]
        for gate in gates:
            self.report(
                gate,
                DeviceGate,
                f"{_code(gate)} decides the training device, but the branch it picks on Trainium "
                f"sets `{_code(left)}`, a CUDA device the tool cannot rewrite: making the check "
                "true would drop the CPU/MPS fallback and leave a CUDA device, so both are kept; set "
                f"the device to {self.target.device.expr} in that branch",
                False,
            )
        return True

    def _say_dropped(self, test: cst.BaseExpression, what: str) -> None:
        """The resolved check's finding says what its rewrite drops."""
        _, places = self._gate_findings(test)
        self.findings = [
            replace(f, message=f"{f.message}; {what}")
            if f.rule is DeviceGate and (f.line, f.column) in places and f.fixed
            else f
            for f in self.findings
        ]

    def _identity_choice(self, node: cst.IfExp) -> bool:
        """``"cuda" if "cuda" in device else "cpu"``: a device type chosen by a device test."""
        return self._identity_side(node.test) is not None

    def _choice_of(self, test: cst.BaseExpression) -> cst.IfExp | None:
        """The ``"cuda" if "cuda" in device else "cpu"`` whose test ``test`` is."""
        parent = self.get_metadata(ParentNodeProvider, test, None)
        if (
            isinstance(parent, cst.IfExp)
            and parent.test is test
            and is_cuda_string(parent.body)
            and _string_value(parent.orelse) == "cpu"
            and self._identity_choice(parent)
        ):
            return parent
        return None

    def _choice_kept(self, choice: cst.IfExp) -> str | None:
        """Why a device type chosen by a device test is left as it is: the name it is assigned
        to is compared with "cuda" where no rule rewrites it (llm.c's `assert device_type in
        {'cuda'}`): the chosen "xla" would fail that test on every device."""
        if choice in self._choices:
            return self._choices[choice]
        why: str | None = None
        parent = self.get_metadata(ParentNodeProvider, choice, None)
        parents = self.parents()
        if isinstance(parent, cst.Assign) and len(parent.targets) == 1:
            for read in reads(parent.targets[0].target, parents):
                comparison = parents.get(read)
                if not isinstance(comparison, cst.Comparison) or self._identity_side(comparison):
                    continue  # a plain `device_type == "cuda"` is rewritten or kept on its own
                if any(is_cuda_string(n) for n in walk(comparison) if n is not read):
                    line = self.get_metadata(PositionProvider, comparison).start.line
                    why = (
                        f'`{_code(comparison)}` (line {line}) compares it with "cuda" in a form '
                        f'the tool does not rewrite: with "{self.target.device_string}" it would '
                        "be False on every device; change that test by hand"
                    )
                    break
        self._choices[choice] = why
        return why

    def _decided(self, test: cst.BaseExpression) -> bool:
        """The test's value on the target is known, or a blocker already names what decides it."""
        return self.facts.known_tests.get(test) is True or (
            self._trains() and bool(self.facts.unresolved or self.facts.skipped_moves)
        )

    def _leave_choice(self, original_node: cst.IfExp, updated_node: cst.IfExp):
        if (
            is_cuda_string(original_node.body)
            and _string_value(original_node.orelse) == "cpu"
            and self._identity_choice(original_node)
        ):
            kept = self._choice_kept(original_node)
            if kept is not None:
                self.report(
                    original_node,
                    ConditionEnablesCudaOnly,
                    f"device type chosen by a device test, kept: {kept}",
                    False,
                )
                return updated_node
            if self.report(
                original_node.body,
                DeviceIdentityTest,
                f'device type chosen by a device test: "cuda" → "{self.target.device_string}"',
                True,
            ):
                assert isinstance(updated_node.body, cst.SimpleString)
                return updated_node.with_changes(body=self._device_string(updated_node.body))
            return updated_node
        kind = self._kind(original_node)
        if kind is None and _string_value(original_node.body) == self.target.device_string:
            if _string_value(original_node.orelse) == "cpu":
                kind = "migrated-choice"
        if kind in ("other-choice", "migrated-choice") and not self._decided(original_node.test):
            condition = cst.Module([]).code_for_node(original_node.test)
            entries = self._launched_module_device(original_node)
            if (
                self.report(
                    original_node,
                    CudaAvailabilityChoice,
                    f"device choice depends on "
                    f"`{condition}`: make sure it is true on the Trainium host (a "
                    "torch.cuda.is_available() behind it is False there)"
                    + (
                        f"; this module's device is the CPU there, in a module the launch of "
                        f"{', '.join(entries)} reaches and whose other modules move values to the "
                        "device: their tensors meet on two devices; set it to "
                        f"{self.target.device.expr}"
                        if entries
                        else ""
                    ),
                    False,
                )
                and entries
            ):
                self.findings[-1] = replace(self.findings[-1], severity=Severity.BLOCKER)
        if kind == "opt-out-choice":
            return self._leave_opt_out_choice(original_node, updated_node)
        if kind == "other-choice":
            role = self._role_of_expression(original_node)
            if role == "device" or self._assigned_to_device_name(original_node):
                assert isinstance(updated_node.body, cst.SimpleString)
                if self.report(
                    original_node.body,
                    CudaDeviceString,
                    f'"cuda" → "{self.target.device_string}"',
                    True,
                ):
                    return updated_node.with_changes(body=self._device_string(updated_node.body))
            return updated_node
        if kind != "choice":
            return updated_node
        parent = self.get_metadata(ParentNodeProvider, original_node, None)
        if isinstance(parent, cst.Arg):
            grandparent = self.get_metadata(ParentNodeProvider, parent, None)
            if isinstance(grandparent, cst.Call) and self.is_any(
                grandparent.func, {"torch.device"}
            ):
                return updated_node  # the whole torch.device(...) call is rewritten
            if self._device_role(parent) == "map_location":
                return updated_node  # handled as a map_location value
        message = f'cuda-if-available device choice → "{self.target.device_string}"'
        if self.report(original_node, CudaAvailabilityChoice, message, True):
            assert isinstance(updated_node.body, cst.SimpleString)
            return self._device_string(updated_node.body)
        return updated_node

    def _leave_opt_out_choice(self, original: cst.IfExp, updated: cst.IfExp) -> cst.IfExp:
        """`"cpu" if args.no_cuda else "cuda"` read as a device: its CUDA branch becomes the
        target's device, and the flag keeps choosing the CPU. Where the flag is not decided
        off on the target, the user is told which way it must go."""
        if not (
            self._role_of_expression(original) == "device"
            or self._assigned_to_device_name(original)
        ):
            return updated
        if self.facts.known_tests.get(original.test) is not False:
            condition = cst.Module([]).code_for_node(original.test)
            self.report(
                original,
                CudaAvailabilityChoice,
                f"device choice depends on `{condition}`: make sure it is false on the Trainium "
                "host, or the script trains on the CPU",
                False,
            )
        assert isinstance(updated.orelse, cst.SimpleString)
        if self.report(
            original.orelse, CudaDeviceString, f'"cuda" → "{self.target.device_string}"', True
        ):
            return updated.with_changes(orelse=self._device_string(updated.orelse))
        return updated

    def _launched_module_device(self, choice: cst.IfExp) -> tuple[str, ...]:
        """The entry points that reach this module, where ``choice`` is its module-level device
        (`device = torch.device("cuda" if ... else "cpu")`, read as a device) and another
        module of the program places values on a device: left undecided here, the module's
        tensors stay on the CPU while the program's others move to the target's device (ssd's
        priors in `model.py` against the predictions). Empty elsewhere."""
        program = self.run.program
        if program.is_test or not program.entry_points or not program.moves_elsewhere:
            return ()
        value: cst.CSTNode = choice
        parent = self.get_metadata(ParentNodeProvider, value, None)
        if isinstance(parent, cst.Arg):
            call = self.get_metadata(ParentNodeProvider, parent, None)
            if not (isinstance(call, cst.Call) and (dotted(call.func) or "").endswith("device")):
                return ()
            value, parent = call, self.get_metadata(ParentNodeProvider, call, None)
        if not (
            isinstance(parent, cst.Assign)
            and parent.value is value
            and len(parent.targets) == 1
            and isinstance(parent.targets[0].target, cst.Name)
            and isinstance(self.get_metadata(ScopeProvider, parent, None), cst.metadata.GlobalScope)
        ):
            return ()
        above = self.get_metadata(ParentNodeProvider, parent, None)
        while above is not None and not isinstance(above, cst.Module):
            if isinstance(above, cst.If) and is_main_test(above.test):
                # The module's `__main__` block (a library module's self-test): no launch that
                # imports the module runs it; its own launch is judged by the program's run.
                return ()
            above = self.get_metadata(ParentNodeProvider, above, None)
        roles = self._reference_roles(parent.targets[0].target)
        return tuple(program.entry_points) if "device" in roles else ()

    def _role_of_expression(self, node: cst.BaseExpression) -> str | None:
        parent = self.get_metadata(ParentNodeProvider, node, None)
        return self._device_role(parent) if isinstance(parent, cst.Arg) else None

    def _assigned_to_device_name(self, node: cst.BaseExpression) -> bool:
        parent = self.get_metadata(ParentNodeProvider, node, None)
        if not (isinstance(parent, cst.Assign) and len(parent.targets) == 1):
            return False
        target = parent.targets[0].target
        if not isinstance(target, cst.Name):
            return False
        roles = self._reference_roles(target)
        return bool(roles) and all(role == "device" for role in roles)

    def leave_Comparison(
        self, original_node: cst.Comparison, updated_node: cst.Comparison
    ) -> cst.BaseExpression:
        # `device.type == "cuda"`, `"cuda" in str(device)`: False on Trainium, so whatever the
        # test enables (AMP's `enabled=`, pinned memory, a fast path) silently switches off.
        identity = self._identity_test(original_node, updated_node)
        if identity is not None:
            return identity
        operands = [original_node.left, *(t.comparator for t in original_node.comparisons)]
        if any(
            _string_value(o) is not None and _CUDA.fullmatch(_string_value(o) or "")
            for o in operands
        ):
            self.report(
                original_node,
                CudaDeviceIndex,
                'compares a device with "cuda": False on Trainium, so what it enables (e.g. '
                "autocast's enabled=, pinned memory) is off; test for the target device instead",
                False,
            )
        return updated_node

    @staticmethod
    def _identity_side(node: cst.BaseExpression) -> str | None:
        """Which side of ``device.type == "cuda"`` holds the string, when it is such a test:
        "left", "right", or "argument" for the string method ``device.startswith("cuda")``
        (``str(device).startswith("cuda")``, ``args.device.startswith("cuda")``), the same
        test spelled as a call."""
        if isinstance(node, cst.Call):
            return "argument" if _starts_with_cuda(node) else None
        if not isinstance(node, cst.Comparison) or len(node.comparisons) != 1:
            return None
        left, right = node.left, node.comparisons[0].comparator
        if is_cuda_string(left) and identity_subject(right) is not None:
            return "left"
        if is_cuda_string(right) and identity_subject(left) is not None:
            return "right"
        return None

    def _holds_kept_cuda_string(self, node: cst.BaseExpression, string_side: str) -> bool:
        """``DEVICE == "cuda"`` where ``DEVICE = "cuda"`` stays as it is (also used as text):
        the test must stay as true as it was."""
        subject = identity_subject(_tested_device(node, string_side))
        if not isinstance(subject, cst.Name):
            return False
        values = self.bound_values(subject) or []
        scope = self.get_metadata(ScopeProvider, subject, None)
        if scope is None or not any(is_cuda_string(v) for v in values):
            return False
        for assignment in scope[subject.value]:
            target = getattr(assignment, "node", None)
            if isinstance(target, cst.Name):
                roles = self._reference_roles(target)
                if not all(role == "device" for role in roles):
                    return True
        return False

    def _compares_identity(self, node: cst.BaseExpression) -> bool:
        return self._identity_side(node) is not None and self.enabled(DeviceIdentityTest)

    def _identity_test(self, original: cst.BaseExpression, updated: cst.BaseExpression):
        """``device.type == "cuda"`` → ``device.type == "xla"`` (TRN023)."""
        string_side = self._identity_side(original)
        if string_side is None:
            return None
        choice = self._choice_of(original)
        # A device type chosen from the device follows the device, whatever it holds: the test
        # and the type it picks are rewritten together or not at all (_leave_choice).
        if choice is None and self._holds_kept_cuda_string(original, string_side):
            return None
        if not self.enabled(DeviceIdentityTest):
            return None
        if choice is not None and self._choice_kept(choice) is not None:
            return updated  # reported once, at the choice
        if conjoined_with_cuda_only(
            original,
            lambda n: self.get_metadata(ParentNodeProvider, n, None),
            lambda call: not self._resolves(call),
        ):
            return updated  # timm's `'cuda' in args.device and torch.cuda.is_available()`
        if self._cuda_absence_test(original):
            return updated  # `device.type == "cuda" and not torch.cuda.is_available()`
        kernel = self._selects_cuda_kernel(original)
        if kernel:
            self.report(
                original,
                ConditionEnablesCudaOnly,
                f'compares the device with "cuda", kept: it selects a CUDA-only implementation '
                f"({kernel}); as it stands XLA tensors take the other, PyTorch path",
                False,
            )
            return updated
        blocked = self._blocked(original, _true_for_cuda(original))
        if blocked is not None and self._said_before:
            return updated
        if blocked is not None:
            self.report(
                original,
                ConditionEnablesCudaOnly,
                f'compares the device with "cuda", kept: made true on Trainium it would run '
                f"{blocked}; what it guards stays off there",
                False,
            )
            return updated
        new = self.target.device_string
        if not self.report(
            original,
            DeviceIdentityTest,
            f'compares the device with "cuda", False on Trainium → "{new}"',
            True,
        ):
            return None
        if string_side == "argument":
            assert isinstance(updated, cst.Call)
            string = updated.args[0].value
            assert isinstance(string, cst.SimpleString)
            argument = updated.args[0].with_changes(value=self._device_string(string))
            return updated.with_changes(args=[argument])
        assert isinstance(updated, cst.Comparison)
        if string_side == "left":
            assert isinstance(updated.left, cst.SimpleString)
            return updated.with_changes(left=self._device_string(updated.left))
        target = updated.comparisons[0]
        assert isinstance(target.comparator, cst.SimpleString)
        return updated.with_changes(
            comparisons=[target.with_changes(comparator=self._device_string(target.comparator))]
        )

    def _selects_cuda_kernel(self, test: cst.BaseExpression) -> str:
        """Why a device test selects a CUDA-only implementation, "" where it does not: its
        function also tests cuDNN (StyleGAN2's `could_use_op`), or the module builds a CUDA
        extension, names a CUDA source for a build helper of its own, or calls a cuDNN op by
        name (``analysis.cuda_kernels``). Made true for XLA tensors, the test would send them
        to kernels they cannot run."""
        cudnn = tests_cudnn(test, self.parents(), self.module_names)
        if cudnn:
            return f"its function also tests `{cudnn}`"
        facts = self.run.facts
        if facts is None or not (
            facts.reaches("torch.utils.cpp_extension", "torch.ops.aten")
            or facts.holds_string("aten::cudnn")
            or any(s.endswith((".cu", ".cuh")) for s in facts.strings)
        ):
            return ""
        module = self._wrapper.module
        kernels = per_tree(
            module,
            "cuda kernels",
            lambda tree: cuda_kernels(tree, self.module_names, self.parents()),
        )
        if kernels.builds:
            build = kernels.builds[0]
            line = self.run.to_original(self.get_metadata(PositionProvider, build.call).start.line)
            return f"the module builds a CUDA extension at line {line}"
        if kernels.cudnn_ops:
            node, op = kernels.cudnn_ops[0]
            line = self.run.to_original(self.get_metadata(PositionProvider, node).start.line)
            return f"the module calls the cuDNN op `{op}` at line {line}"
        if kernels.named_sources:
            node, name = kernels.named_sources[0]
            line = self.run.to_original(self.get_metadata(PositionProvider, node).start.line)
            return f"the module names the CUDA source `{name}` at line {line}"
        return ""

    # -- a move assigned to `.data` (transforms/device_data.py) ---------------------------------
    def _data_move(self, call: cst.Call) -> str | None:
        """Where ``call`` (original) moves a value to the device and its assignment target is
        a `.data` (XLA targets): the name to rebind instead, or None with ``call`` recorded in
        ``_data_moves`` and reported where the line must stay. None, unrecorded, elsewhere."""
        if call in self._data_moves:
            return self._data_moves[call]
        assign = self.get_metadata(ParentNodeProvider, call, None)
        target = data_target(assign) if assign is not None else None
        receiver = move_receiver(call)
        if not self.target.is_xla or target is None or receiver is None:
            return None
        assert isinstance(assign, cst.Assign) and isinstance(call.func, cst.Attribute)
        if assign.value is not call:
            return None
        if call.func.attr.value == "to":
            device = moved_argument(call)
            if device is None and any(a.star for a in call.args):
                # `new.data = super().to(*args, **kwargs)` in a tensor subclass's `to`: where
                # it goes is its caller's; it raises wherever that is the XLA device.
                self._data_moves[call] = None
                reported = self.report(
                    assign,
                    DataAssignmentLeft,
                    f"`{_code(target)} = {_code(call)}` raises where its arguments name the XLA "
                    "device (a CPU tensor's `.data` cannot take an XLA tensor: RuntimeError, "
                    "incompatible tensor type): make the new object from the moved tensor "
                    "instead (in a subclass, `torch.Tensor.to(self, *args, **kwargs)"
                    ".as_subclass(type(self))`, then give it the attributes the method sets on "
                    "it), or move the tensor before the object is made",
                    False,
                )
                if reported:
                    self.findings[-1] = replace(self.findings[-1], severity=Severity.ERROR)
                return None
            if device is None or not self._names_training_device(device):
                return None  # a cast (`.to(torch.float16)`) or a move to the CPU
        name = self._rebound_name(assign, target, receiver)
        self._data_moves[call] = name
        if name is None:
            self.report(
                assign,
                DataAssignmentLeft,
                f"`{_code(target)} = {_code(call)}` raises on the XLA device (a CPU tensor's "
                "`.data` cannot take an XLA tensor: RuntimeError, incompatible tensor type): "
                "move the module that owns the parameter (`model.to(device)`), or rebind the "
                "name where nothing else holds the tensor (`x = x.to(device)`)",
                False,
            )
        return name

    def _names_training_device(self, device: cst.BaseExpression) -> bool:
        if self._kind(device) == "cuda" or self._holds_device(device):
            return True
        return ACCELERATOR in self.facts.kinds(device)

    def _rebound_name(
        self, assign: cst.Assign, target: cst.Attribute, receiver: cst.BaseExpression
    ) -> str | None:
        """``x`` where `x.data = x[.data].<move>` may become `x = ...`: ``x`` is bound in its
        function or script only to new tensors that need no grad, and nothing else can hold
        the tensor when the move runs (read before only through an attribute, outside a loop)."""
        name = target.value
        if not isinstance(name, cst.Name) or not same_tensor(receiver, name.value):
            return None
        if self._outermost_loop(assign) is not None:
            return None
        values = self.bound_values(name)
        if not values or not fresh_values(values, self._is_parameter_class):
            return None
        scope: cst.CSTNode = self._wrapper.module
        for ancestor in self._ancestors(assign):
            if isinstance(ancestor, cst.ClassDef | cst.Lambda):
                return None
        parent = self.get_metadata(ParentNodeProvider, assign, None)
        while parent is not None and not isinstance(parent, cst.FunctionDef | cst.Module):
            parent = self.get_metadata(ParentNodeProvider, parent, None)
        if isinstance(parent, cst.FunctionDef):
            scope = parent
        if not unshared_before(name.value, scope, assign, self._line_of, self.parents(), walk):
            return None
        return name.value

    def _is_parameter_class(self, func: cst.BaseExpression) -> bool:
        return self.is_any(func, {"torch.nn.Parameter", "torch.nn.parameter.Parameter"})

    def _line_of(self, node: cst.CSTNode) -> int | None:
        position = self.get_metadata(PositionProvider, node, None)
        return None if position is None else position.start.line

    def leave_Assign(self, original_node: cst.Assign, updated_node: cst.Assign) -> cst.Assign:
        if self._in_dead(original_node):
            return updated_node
        rebound = self._rebind_data_move(original_node, updated_node)
        if rebound is not None:
            return rebound
        value = original_node.value
        if value in self._rank_values and isinstance(value, cst.Integer):
            device = self._rank_device(value, _code(value))
            if device is not None:
                return updated_node.with_changes(value=device)
        if isinstance(value, cst.FormattedString | cst.BinaryOperation) and (
            value in self._rank_values or self._own_index_string(original_node)
        ):
            # A string stays a string: a device object where text is read (`"cuda" in device`)
            # would raise; where the name is read other than as a device, it is reported.
            target = original_node.targets[0].target if len(original_node.targets) == 1 else None
            roles = self._reference_roles(target) if isinstance(target, cst.Name) else [None]
            if not all(role == "device" for role in roles):
                self.report(
                    value,
                    CudaDeviceIndex,
                    f"`{_code(value)}` is a CUDA device index, and the name is also read other "
                    f'than as a device: on Trainium each process has one device; set it to "'
                    f'{self.target.device_string}" by hand once those reads accept it',
                    False,
                )
                return updated_node
            quote = value.start[-1] if isinstance(value, cst.FormattedString) else '"'
            if self.report(
                value,
                RankAsDevice,
                f"`{_code(value)}` is a CUDA device index; on Trainium each process has one "
                f'device → "{self.target.device_string}"',
                True,
            ):
                string = cst.SimpleString(f"{quote}cuda{quote}")
                return updated_node.with_changes(value=self._device_string(string))
            return updated_node
        # Only a plain string; `torch.device("cuda")` is rewritten as a call in leave_Call.
        if not isinstance(original_node.value, cst.SimpleString):
            return updated_node
        if self._kind(original_node.value) != "cuda":
            return updated_node
        target = original_node.targets[0].target if len(original_node.targets) == 1 else None
        if isinstance(target, cst.Name):
            roles = self._reference_roles(target)
        elif isinstance(target, cst.Attribute):  # `args.device = "cuda"` in a launch function
            roles = self._attribute_roles(target)
        else:
            roles = []
        line = self.get_metadata(PositionProvider, original_node).start.line
        if "device" not in roles and line in self.run.program.device_literals:
            # A configuration's device name (`_C.DEVICE = "cuda"`) read as a device in another
            # module: the program's run shows the model or its batch goes there.
            if self.report(
                original_node.value,
                CudaDeviceString,
                f'"cuda" → "{self.target.device_string}" (the program puts the model or its '
                "batches on the device this names)",
                True,
            ):
                assert isinstance(updated_node.value, cst.SimpleString)
                # The module that moves the model imports torch_xla (its loop's cut needs it);
                # a configuration module that imports no torch gets no import of it.
                value = _with_value(updated_node.value, self.target.device_string)
                if self._imports_torch:
                    value = self._device_string(updated_node.value)
                return updated_node.with_changes(value=value)
            return updated_node
        if "device" not in roles:
            return updated_node  # a string that is never used as a device is just text
        if all(role in ("device", "torch.load") for role in roles):
            # `torch.load(..., map_location=device)` gets "cpu" (leave_Arg): torch.load cannot
            # restore onto "xla" (measured, torch-xla 2.9: "don't know how to restore data
            # location ... (tagged with xla)"), and load_state_dict() copies to the device.
            also = " (used only as a device" + (
                '; torch.load\'s map_location gets "cpu")' if "torch.load" in roles else ")"
            )
            if self.report(
                original_node.value,
                CudaDeviceString,
                f'"cuda" → "{self.target.device_string}"{also}',
                True,
            ):
                assert isinstance(updated_node.value, cst.SimpleString)
                return updated_node.with_changes(value=self._device_string(updated_node.value))
            return updated_node
        self.report(
            original_node.value,
            CudaDeviceIndex,
            '"cuda" is stored in a variable that '
            "is also used outside device arguments; change it by hand",
            False,
        )
        return updated_node

    def _rebind_data_move(self, original: cst.Assign, updated: cst.Assign) -> cst.Assign | None:
        """`x.data = x.data.cuda()` → `x = x.data.to(<device>)` where ``_data_move`` found
        nothing else holds ``x``; the move itself is leave_Call's."""
        value = original.value
        if not isinstance(value, cst.Call) or value not in self._data_moves:
            return None
        name = self._data_moves[value]
        if name is None:
            return updated
        if not self.report(
            original,
            DataAssignment,
            f"`{name}.data = ...` raises on the XLA device (a CPU tensor's `.data` cannot take "
            f"an XLA tensor) → `{name} = ...`: nothing else holds `{name}` yet",
            True,
        ):
            return updated
        target = updated.targets[0].with_changes(target=cst.Name(name))
        return updated.with_changes(targets=[target])

    def leave_Param(self, original_node: cst.Param, updated_node: cst.Param) -> cst.Param:
        """``def __init__(self, device="cuda")``: a default the function reads only as a device
        (directly, or through the attribute or name it stores it in) is the training device's
        default: the target's device string, as a plain assignment would be (TRN002)."""
        default = original_node.default
        if not isinstance(default, cst.SimpleString) or self._kind(default) != "cuda":
            return updated_node
        if self._in_dead(original_node):
            return updated_node
        # Read as text, or never: a person's call (or nothing to do).
        literal = self._device_literal(
            default,
            updated_node.default,
            self._reference_roles(original_node.name, bound=original_node),
            "the parameter is read only as a device",
            prefix="default ",
        )
        return updated_node if literal is None else updated_node.with_changes(default=literal)


def _passes_flag(line: str, flag: str) -> bool:
    """Whether the launch line ``line`` passes the option of the argparse value ``flag``
    (`args.no_cuda`: `--no_cuda` or `--no-cuda`)."""
    attribute = flag.rsplit(".", 1)[-1]
    options = {f"--{attribute}", f"--{attribute.replace('_', '-')}"}
    return any(word.split("=", 1)[0] in options for word in line.split())


def _is_cuda_of_tensor(test: cst.BaseExpression) -> cst.BaseExpression | None:
    """``x`` (or ``x.data``) of a test ``x.is_cuda`` where ``x`` is a tensor's name: not
    ``self``, nor a namespace of options such as ``args``, whose ``is_cuda`` may be a flag."""
    if not (isinstance(test, cst.Attribute) and test.attr.value == "is_cuda"):
        return None
    tensor = test.value
    if isinstance(tensor, cst.Attribute) and tensor.attr.value != "data":
        return None
    root = tensor.value if isinstance(tensor, cst.Attribute) else tensor
    if (
        isinstance(root, cst.Name)
        and root.value not in ("self", "cls")
        and not OPTIONS_NAME.match(root.value)
    ):
        return tensor
    return None
