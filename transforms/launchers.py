"""Launchers sized by the GPU count: `mp.spawn(fn, nprocs=torch.cuda.device_count())` ([xla-spawn, neuron-guide]),
and device counts used per process or to size the world ([measured-cuda-calls])."""

from __future__ import annotations

import libcst as cst
import libcst.matchers as m
from libcst.metadata import ParentNodeProvider, PositionProvider

from trncodemod.analysis.facts import FileFacts
from trncodemod.analysis.nodes import find
from trncodemod.findings import Rule, Safety, Severity
from trncodemod.passes import Pass
from trncodemod.targets import Target


class DeviceCountLauncher(Rule):
    """## What it does
    On XLA targets, reports `torch.multiprocessing.spawn(fn, nprocs=n)` (and `start_processes`)
    where `n` is, or is bound to, `torch.cuda.device_count()` or
    `torch.accelerator.device_count()`, and names the launcher line to use instead. Nothing is
    rewritten: the script's process start-up must change shape. On the `neuron` target the
    count itself becomes `torch.accelerator.device_count()` (TRN315).

    ## Why
    Under torch_xla both counts are 0 (`torch.cuda.device_count()` returns 0 without a driver,
    [measured-cuda-calls]; `torch.accelerator` is not the XLA device [measured-device-checks]), so
    the launcher starts no process, or a process group of size 0. `xmp.spawn(nprocs>1)` is an error
    on Neuron from torch-xla 2.6; the documented launcher is torchrun, one process per NeuronCore
    (`torchrun --nproc_per_node=32` on trn1.32xlarge, 2 on trn1.2xlarge), each reading its rank from
    the environment ([xla-model, neuron-guide]). On torch-xla 2.1, `xmp.spawn(fn, args=...)` without
    `nprocs` starts one process per NeuronCore. A blocker: the port does not train while it is left.

    ## Example
    ```python
    world_size = torch.cuda.device_count()
    mp.spawn(run, args=(world_size,), nprocs=world_size)
    ```

    ## Use instead
    ```python
    # torchrun --nproc_per_node=32 train.py
    run(int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"]))
    ```
    """

    code = "TRN025"
    name = "device-count-launcher"
    summary = "`mp.spawn(nprocs=torch.cuda.device_count())`: 0 processes on Trainium (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.BLOCKER
    sources = (
        "xla-devices",
        "neuron-guide",
        "xla-model",
        "measured-cuda-calls",
        "measured-device-checks",
    )


class DeviceCountPerProcess(Rule):
    """## What it does
    On XLA targets, where `n = torch.cuda.device_count()` (or `torch.accelerator.
    device_count()`) counts the devices of this process, the count becomes `1`: every read of
    `n` compares it with a number (`if n_gpu > 1:`), tests it (`if n_gpu:`), scales by it
    (`batch_size * max(1, n_gpu)`) or shows it. Where every read sizes the world instead
    (`init_process_group(world_size=n)`, `DistributedSampler(num_replicas=n)`), it becomes
    `xr.world_size()`. Any other read (passed to a function, stored, both kinds) is reported
    with the two choices; a count that sizes a launcher is TRN025's.

    ## Why
    Under torch_xla both counts are 0 ([measured-cuda-calls, measured-device-checks]), so
    `n_gpu`-guarded code takes its CPU branch (`if n_gpu > 0:`) or scales a batch by 0. One process
    drives one NeuronCore (torchrun starts one per core, [xla-model, neuron-guide]): the per-process
    count is 1, and the number of processes is `xr.world_size()`.

    ## Example
    ```python
    n_gpu = torch.cuda.device_count()
    train_batch_size = per_device_batch_size * max(1, n_gpu)
    if n_gpu > 1:
        model = torch.nn.DataParallel(model)
    ```

    ## Use instead
    ```python
    n_gpu = 1  # one NeuronCore per process
    train_batch_size = per_device_batch_size * max(1, n_gpu)
    if n_gpu > 1:
        model = torch.nn.DataParallel(model)
    ```
    """

    code = "TRN166"
    name = "device-count-per-process"
    summary = "`n = torch.cuda.device_count()` → `1` per process, or `xr.world_size()` (by use)"
    safety = Safety.REVIEW
    severity = Severity.ERROR
    sources = ("xla-model", "neuron-guide", "measured-cuda-calls", "measured-device-checks")


class MultiprocessingSpawn(Rule):
    """## What it does
    On XLA targets, in a file that trains, reports `torch.multiprocessing.spawn(fn, ...)`
    (`mp.spawn`, and `start_processes`) that TRN025 does not (its process count is not a GPU count), with the
    launcher to use: torchrun, one process per NeuronCore, calling `fn` once per process, or
    torch-xla's own launcher (`torch_xla.launch(fn, args=...)`; `xmp.spawn(fn, args=...)` on
    torch-xla 2.1), which passes `fn` the process index as `mp.spawn` does. Nothing is
    rewritten: how the processes start changes shape.

    ## Why
    Neuron's PJRT runtime gives each process its NeuronCore (`NEURON_RT_VISIBLE_CORES`, the
    process's rank and the world size) only when torchrun started it or torch-xla's launcher
    spawned it (`torch_xla/_internal/neuron.py` `configure_pjrt_environment`,
    `initialize_env`; `_internal/pjrt.py` `_run_multiprocess`, torch-xla 2.9.0). Processes
    that `torch.multiprocessing` starts get neither: each claims every NeuronCore of the
    instance and the second one cannot start its runtime. pytorch/xla's own ImageNet port
    replaces `mp.spawn(main_worker, nprocs=ngpus_per_node, ...)` with `torch_xla.launch`.

    ## Example
    ```python
    mp.spawn(main_worker, nprocs=ngpus_per_node, args=(ngpus_per_node, args))
    ```

    ## Use instead
    ```python
    # torchrun --nproc_per_node=32 main.py
    main_worker(int(os.environ["LOCAL_RANK"]), 1, args)
    ```
    """

    code = "TRN168"
    name = "multiprocessing-spawn-xla"
    summary = "`mp.spawn(fn, ...)` on XLA: start the workers with torchrun or `torch_xla.launch` (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.ERROR
    sources = ("xla-neuron-runtime", "xla-imagenet")


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


_LAUNCHER_SPAWNS = ("torch.multiprocessing.spawn", "torch.multiprocessing.start_processes")
_DEVICE_COUNTS = ("torch.cuda.device_count", "torch.accelerator.device_count")
# Keywords by which a count sizes the world of processes.
_WORLD_KEYWORDS = frozenset({"world_size", "num_replicas"})
# Calls a per-process count may be shown or bounded by.
_SHOWN = frozenset({"print", "max", "min", "str", "int", "range"})
_LOGGED = frozenset({"debug", "info", "warning", "error", "log"})
_SCALES = (cst.Multiply, cst.FloorDivide, cst.Divide)
PER_PROCESS, WORLD, UNCLEAR = "per-process", "world", "unclear"


class Launchers(Pass):
    name = "launchers"
    rules = (DeviceCountLauncher, DeviceCountPerProcess, MultiprocessingSpawn)
    needles = ("device_count", "spawn", "start_processes")

    @classmethod
    def applies_to(cls, target) -> bool:  # type: ignore[no-untyped-def]
        return super().applies_to(target) and target.is_xla

    @classmethod
    def candidate(cls, facts: FileFacts, target: Target) -> bool:
        # The only report is for a launcher the device analysis finds (`analysis.device.
        # _launcher_count`): torch.multiprocessing.spawn/start_processes called with `nprocs=`
        # whose value is, or is bound to, a torch.cuda/torch.accelerator device_count() call.
        # TRN166: a device_count() call assigned to a name. TRN168: any other spawn.
        return facts.calls_one_of(*_DEVICE_COUNTS, *_LAUNCHER_SPAWNS)

    def __init__(self, context, run) -> None:  # type: ignore[no-untyped-def]
        super().__init__(context, run)
        self.counts: dict[cst.Call, str] = {}  # device_count() call → what it becomes

    def visit_Module(self, node: cst.Module) -> None:
        facts = self.device_facts(node)
        self._plan_counts(node, set(facts.launchers.values()))
        script = self.context.filename or "train.py"
        for spawn, count in facts.launchers.items():
            fn = _code(spawn.args[0].value) if spawn.args else "main"
            if self.target.torch_xla.startswith("2.1"):
                use = f"xmp.spawn({fn}, args=...) without nprocs (one process per NeuronCore)"
            else:
                use = (
                    f"`torchrun --nproc_per_node=<NeuronCores: 2 on trn1.2xlarge, 32 on "
                    f"trn1.32xlarge> {script}`, calling {fn}(int(os.environ['LOCAL_RANK']), ...) "
                    "once per process, with the world size from os.environ['WORLD_SIZE']"
                )
            line = self.get_metadata(PositionProvider, count).start.line
            if line != self.get_metadata(PositionProvider, spawn).start.line:
                count_shown = f"`{_code(count)}` (line {line})"
            else:
                count_shown = f"`{_code(count)}`"
            self.report(
                spawn,
                DeviceCountLauncher,
                f"this launcher is sized by {count_shown}, which is 0 on Trainium, so no "
                f"training process starts: launch with {use}",
                False,
            )
        self._report_spawns(node, set(facts.launchers), script)

    # -- TRN168: torch.multiprocessing's processes on XLA ----------------------------------------
    def _report_spawns(self, module: cst.Module, sized: set[cst.Call], script: str) -> None:
        if not self.run.profile.trains:
            return  # workers for host work (data preparation) are not a training launcher
        for call in find(module, cst.Call):
            if call in sized or not self.is_any(call.func, _LAUNCHER_SPAWNS):
                continue
            fn = _code(call.args[0].value) if call.args and not call.args[0].keyword else "fn"
            own = (
                f"`xmp.spawn({fn}, args=...)` without nprocs"
                if self.target.torch_xla.startswith("2.1")
                else f"`torch_xla.launch({fn}, args=...)`"
            )
            self.report(
                call,
                MultiprocessingSpawn,
                "processes started by torch.multiprocessing do not get a NeuronCore each (Neuron's "
                "runtime sets that up only under torchrun or torch-xla's launcher), so they "
                f"contend for every core: launch with `torchrun --nproc_per_node=<NeuronCores: "
                f"32 on trn1.32xlarge> {script}` and call {fn}(int(os.environ['LOCAL_RANK']), "
                f"...) once per process, or with {own}, which passes the process index",
                False,
            )

    # -- TRN166: what a device count is used for -------------------------------------------------
    def _plan_counts(self, module: cst.Module, launching: set[cst.Call]) -> None:
        calls = [
            c for c in find(module, cst.Call) if not c.args and self.is_any(c.func, _DEVICE_COUNTS)
        ]
        for call in calls:
            if call in launching:
                continue  # TRN025's
            assign = self.get_metadata(ParentNodeProvider, call, None)
            if not (
                isinstance(assign, cst.Assign)
                and len(assign.targets) == 1
                and isinstance(assign.targets[0].target, cst.Name)
            ):
                continue  # used in place: TRN315 (torch.cuda) reports it
            name = assign.targets[0].target.value
            kind, where = self._use_of(module, call, name)
            if kind == UNCLEAR:
                self.report(
                    call,
                    DeviceCountPerProcess,
                    f"`{name} = {_code(call)}` is 0 on Trainium, and {where}: `1` if it counts "
                    "this process's devices (one "
                    "NeuronCore per process), `torch_xla.runtime.world_size()` if it counts the "
                    "processes",
                    False,
                )
                continue
            new = "1" if kind == PER_PROCESS else _code(self.emit(self.target.api("world_size")))
            if self.report(
                call,
                DeviceCountPerProcess,
                f"`{_code(call)}` → `{new}`: `{name}` "
                + (
                    "counts this process's devices, and each process drives one NeuronCore"
                    if kind == PER_PROCESS
                    else "sizes the world of processes"
                ),
                True,
            ):
                self.counts[call] = new

    def _use_of(self, module: cst.Module, call: cst.Call, name: str) -> tuple[str, str]:
        """What the reads of ``name`` bound to ``call`` use it for, and the first read that
        decides it (or does not)."""
        kinds: set[str] = set()
        reads = 0
        for read in (n for n in find(module, cst.Name) if n.value == name):
            assert isinstance(read, cst.Name)
            parent = self.get_metadata(ParentNodeProvider, read, None)
            if isinstance(parent, cst.AssignTarget) or (
                isinstance(parent, cst.Attribute) and parent.attr is read
            ):
                continue
            if isinstance(parent, cst.Arg) and parent.keyword is read:
                continue
            values = self.bound_values(read)
            if not values or not any(v is call for v in values):
                continue
            if len(values) > 1:
                return UNCLEAR, f"`{name}` is also bound to something else"
            reads += 1
            kind = self._use(read, parent)
            if kind == UNCLEAR:
                return UNCLEAR, f"`{_code(parent or read)}` does not say which count it needs"
            kinds.add(kind)
        if reads == 0:
            return UNCLEAR, f"nothing in this file reads `{name}`"
        if len(kinds) > 1:
            return UNCLEAR, f"`{name}` is read both per process and as the number of processes"
        return kinds.pop(), name

    def _use(self, read: cst.Name, parent: cst.CSTNode | None) -> str:
        if isinstance(parent, cst.Comparison) and all(
            isinstance(side, cst.Integer)
            for side in [parent.left, *(t.comparator for t in parent.comparisons)]
            if side is not read
        ):
            return PER_PROCESS
        if isinstance(parent, cst.If | cst.While | cst.IfExp) and parent.test is read:
            return PER_PROCESS
        if isinstance(parent, cst.UnaryOperation | cst.BooleanOperation):
            return PER_PROCESS
        if isinstance(parent, cst.BinaryOperation) and isinstance(parent.operator, _SCALES):
            return PER_PROCESS
        if isinstance(parent, cst.FormattedStringExpression):
            return PER_PROCESS
        if isinstance(parent, cst.Arg):
            call = self.get_metadata(ParentNodeProvider, parent, None)
            if parent.keyword is not None and parent.keyword.value in _WORLD_KEYWORDS:
                return WORLD
            if parent.keyword is None and isinstance(call, cst.Call):
                if m.matches(call.func, m.Name() | m.Attribute()):
                    last = (
                        call.func.value if isinstance(call.func, cst.Name) else call.func.attr.value
                    )
                    if last in (_SHOWN if isinstance(call.func, cst.Name) else _LOGGED):
                        return PER_PROCESS
        return UNCLEAR

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        new = self.counts.get(original_node)
        if new is None:
            return updated_node
        return cst.parse_expression(new)
