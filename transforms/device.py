"""Device placement: CUDA device choices become the target's device (reference R1, R13)."""

from __future__ import annotations

import ast
import re

import libcst as cst
import libcst.matchers as m
from libcst.metadata import ParentNodeProvider, PositionProvider, ScopeProvider

from trncodemod.analysis.device import (
    _ID_LIST,
    _RANK_NAME,
    ACCELERATOR,
    DeviceFacts,
    analyse,
    identity_subject,
    is_cuda_string,
)
from trncodemod.analysis.facts import FileFacts
from trncodemod.analysis.facts import dotted as _ast_dotted
from trncodemod.analysis.training import ACCELERATE, HF_TRAINER, LIGHTNING
from trncodemod.findings import Rule, Safety, Severity
from trncodemod.passes import Pass, per_tree
from trncodemod.targets import Target

_CUDA = re.compile(r"cuda(:0)?")
_FRAMEWORKS = frozenset({ACCELERATE, LIGHTNING, HF_TRAINER})
_CUDA_INDEXED = re.compile(r"cuda:\d+")
_STRING_PREFIXES = ("", "u", "U")


class CudaMethod(Rule):
    """## What it does
    Rewrites `x.cuda()` and `x.cuda(non_blocking=True)` on a tensor or module to
    `x.to(<target device>)`, keeping `non_blocking` and `memory_format`.

    ## Why
    `.cuda()` needs an NVIDIA driver: on a Trainium host it raises
    `RuntimeError: Found no NVIDIA driver` (reference R13, measured). The target's device is
    `torch_xla.device()` on torch-xla 2.3 and later, `xm.xla_device()` on 2.1, and
    `torch.device("neuron")` on TorchNeuron (reference §1.2, §5).

    ## Example
    ```python
    model = Net().cuda()
    x = x.cuda(non_blocking=True)
    ```

    ## Use instead
    ```python
    import torch_xla
    model = Net().to(torch_xla.device())
    x = x.to(torch_xla.device(), non_blocking=True)
    ```
    """

    code = "TRN001"
    name = "cuda-method"
    summary = "`.cuda()` → `.to(<target device>)`"
    safety = Safety.SAFE
    severity = Severity.ERROR
    source = "reference R1, R13"


class CudaDeviceString(Rule):
    """## What it does
    Rewrites the device string `"cuda"` (or `"cuda:0"`) where it names a device: the argument of
    `torch.device(...)`, the first argument of `.to(...)`, a `device=` keyword,
    `torch.set_default_device(...)`, the default and choices of an `--device` command-line option,
    and a variable that holds it when every use of that variable is one of these places.
    `torch.device("cuda")` becomes the target's device expression; a bare string becomes `"xla"`
    (with `import torch_xla`, which registers the device) or `"neuron"`.

    A `"cuda"` string that flows anywhere else (a comparison, a log line, `device_type=`) is
    reported and left alone.

    ## Why
    The string `"xla"` works as a device on every torch-xla 2.x and is what Neuron's own samples
    use (reference R1, §1.2, `aws-neuron-samples/torch-neuronx/training/mnist_mlp/train.py`).

    ## Example
    ```python
    device = torch.device("cuda")
    mask = torch.ones(4, device="cuda")
    ```

    ## Use instead
    ```python
    device = torch_xla.device()
    mask = torch.ones(4, device="xla")
    ```
    """

    code = "TRN002"
    name = "cuda-device-string"
    summary = '`"cuda"` device strings → the target device'
    safety = Safety.SAFE
    severity = Severity.ERROR
    source = "reference R1, §1.2"


class CudaAvailabilityChoice(Rule):
    """## What it does
    Rewrites the device choice `"cuda" if torch.cuda.is_available() else "cpu"` (alone or inside
    `torch.device(...)`) to the target's device. When the choice depends on something else
    (`"cuda" if use_cuda else "cpu"`), the `"cuda"` branch is rewritten; the condition is
    reported only when the device analysis cannot show it is true on the target (where
    `use_cuda = not args.no_cuda and torch.cuda.is_available()`, TRN021 resolves it).

    ## Why
    Under torch_xla and TorchNeuron, `torch.cuda.is_available()` is `False` (reference R1,
    measured), so the unchanged script silently trains on the host CPU.

    ## Example
    ```python
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    ```

    ## Use instead
    ```python
    device = torch_xla.device()
    ```
    """

    code = "TRN003"
    name = "cuda-availability-choice"
    summary = '`"cuda" if torch.cuda.is_available() else "cpu"` → the target device'
    safety = Safety.SAFE
    severity = Severity.ERROR
    source = "reference R1"


class AcceleratorDevice(Rule):
    """## What it does
    For XLA targets, rewrites `torch.accelerator.current_accelerator()` to the target's device and
    reports `torch.accelerator.is_available()`, which must not decide the device.
    Nothing changes for the `neuron` target, where `torch.accelerator` works as is.

    ## Why
    Under torch_xla `torch.accelerator.is_available()` is `False` and `current_accelerator()` is
    not the XLA device, so code written with `torch.accelerator` (pytorch/examples since 2025)
    silently runs on the CPU (reference R1, measured). TorchNeuron registers as the accelerator:
    "If your code uses `torch.accelerator`, no changes are needed" (reference R1, §5).

    ## Example
    ```python
    device = torch.accelerator.current_accelerator()
    ```

    ## Use instead
    ```python
    device = torch_xla.device()
    ```
    """

    code = "TRN004"
    name = "accelerator-device"
    summary = "`torch.accelerator.current_accelerator()` → the XLA device"
    safety = Safety.SAFE
    severity = Severity.ERROR
    source = "reference R1, §5"


class CudaMapLocation(Rule):
    """## What it does
    Rewrites `torch.load(..., map_location="cuda")` (also `"cuda:0"`, `torch.device("cuda")` and
    the `torch.cuda.is_available()` choice) to `map_location="cpu"`.

    ## Why
    Loading onto CUDA fails without a driver. Loading to the CPU and then calling
    `model.load_state_dict(...)` copies the values onto the model's device, which is how Neuron
    documents loading (reference R10). A loaded object that is used directly as tensors (not
    through `load_state_dict`) now lives on the CPU: review such uses, hence the `review` class.

    ## Example
    ```python
    state = torch.load("ckpt.pt", map_location="cuda")
    ```

    ## Use instead
    ```python
    state = torch.load("ckpt.pt", map_location="cpu")
    ```
    """

    code = "TRN005"
    name = "cuda-map-location"
    summary = '`map_location="cuda"` → `"cpu"`'
    safety = Safety.REVIEW
    severity = Severity.ERROR
    source = "reference R10, R13"


class CudaDeviceIndex(Rule):
    """## What it does
    Reports a device with an explicit CUDA index that is not a process's own (`"cuda:1"`,
    `torch.device("cuda", 1)`: model parallel over GPUs; a rank used as the device is TRN024's);
    `"cuda"` strings that are used outside device arguments; and comparisons with `"cuda"` that
    TRN023 does not rewrite (the other side is not a device, or holds a `"cuda"` kept as text),
    which are False on Trainium and so silently switch off what they enable. Nothing is
    rewritten.

    ## Why
    On Trainium each worker process owns one NeuronCore and uses the default XLA device; an index
    from a GPU layout (`local_rank`) does not carry over (reference R1: with torchrun each process
    sees one NeuronCore; `torch.cuda.set_device` raises).

    ## Example
    ```python
    model = model.cuda(local_rank)
    ```

    ## Use instead
    ```python
    model = model.to(torch_xla.device())   # one device per process; launch with torchrun
    ```
    """

    code = "TRN006"
    name = "cuda-device-index"
    summary = 'explicit CUDA device index or a `"cuda"` string used elsewhere (report only)'
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.WARNING
    source = "reference R1"


class CudaAvailabilityCheck(Rule):
    """## What it does
    Reports `torch.cuda.is_available()` outside a device choice that the tool rewrote, and
    outside the decisions of the training device that TRN021 resolves: there it guards something
    else (`if torch.cuda.is_available(): torch.cuda.manual_seed_all(s)`).

    ## Why
    It is `False` on a Trainium host (reference R13, measured): whatever it guards takes the CPU
    path, for example `use_cuda = not args.no_cuda and torch.cuda.is_available()`.

    ## Example
    ```python
    use_cuda = torch.cuda.is_available()
    device = torch.device("cuda" if use_cuda else "cpu")
    ```

    ## Use instead
    ```python
    device = torch_xla.device()
    ```
    """

    code = "TRN007"
    name = "cuda-availability-check"
    summary = "`torch.cuda.is_available()` is False on Trainium (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.WARNING
    source = "reference R1, R13"


class DeviceGate(Rule):
    """## What it does
    Resolves the availability checks that decide the training device, or its dtype, for the
    target, where the accelerator is there: `torch.cuda.is_available()`,
    `torch.accelerator.is_available()` (XLA targets) and `torch.cuda.is_bf16_supported()` become
    true, and the expression around them is simplified: `not args.no_cuda and
    torch.cuda.is_available()` becomes `not args.no_cuda` (the user's opt-out is kept), `x if
    True else y` becomes `x`, and `if True:` keeps its body and drops its `else`. A check that
    does not decide the device (`if torch.cuda.is_available(): torch.cuda.manual_seed_all(s)`)
    is left to TRN007 and the CUDA-call rules.

    ## Why
    Under torch_xla both availability checks are `False` (reference R1, measured): the
    pytorch/examples mnist shape `use_cuda = not args.no_cuda and torch.cuda.is_available()` then
    picks the CPU, and the migrated script runs no graph on the XLA device. Neuron's own examples
    set `torch.cuda.is_bf16_supported = lambda: True` (reference R9, R13), since Trainium
    computes in bf16.

    ## Example
    ```python
    use_cuda = not args.no_cuda and torch.cuda.is_available()
    device = torch.device("cuda" if use_cuda else "cpu")
    ```

    ## Use instead
    ```python
    use_cuda = not args.no_cuda
    device = torch.device("xla" if use_cuda else "cpu")
    ```
    """

    code = "TRN021"
    name = "device-gate"
    summary = "availability check that decides the device → true on the target, simplified"
    safety = Safety.SAFE
    severity = Severity.ERROR
    source = "reference R1, R9, R13"


class CpuTrainingDevice(Rule):
    """## What it does
    In an entry script that trains, rewrites the explicit CPU device that the model and the
    batches are moved to (`device = "cpu"`, `device = torch.device("cpu")`) to the target's
    device. Copies to the host (`loss.to("cpu")`, `map_location="cpu"`) are left alone, and so
    is every module that is not a training script.

    ## Why
    A CPU training script migrated as it is still trains on the host CPU. Neuron's own port of
    the mnist MLP sample (`train_cpu.py` → `train.py` in aws-neuron-samples
    `torch-neuronx/training/mnist_mlp`) changes exactly this line to `device = 'xla'`
    (reference §7, R1).

    ## Example
    ```python
    device = "cpu"
    model = MLP().to(device)
    ```

    ## Use instead
    ```python
    import torch_xla
    device = "xla"
    model = MLP().to(device)
    ```
    """

    code = "TRN022"
    name = "cpu-training-device"
    summary = "explicit CPU training device in a training script → the target device"
    safety = Safety.REVIEW
    severity = Severity.ERROR
    source = "reference §7, R1"


class DeviceIdentityTest(Rule):
    """## What it does
    Rewrites a test of the device's identity against `"cuda"` to a test for the target's device
    type: `device.type == "cuda"`, `device == "cuda"`, `"cuda" in device`, `"cuda" in
    str(device)`, `x.device.type != "cuda"`, and the nanoGPT choice `device_type = "cuda" if
    "cuda" in device else "cpu"` use `"xla"` (`"neuron"` on the `neuron` target) instead. What
    the test guards (autocast and its dtype, pinned memory, a GradScaler, a CUDA-only branch)
    then takes the way it took on the GPU.

    ## Why
    On Trainium the device's type is `xla` (or `neuron`), so a test against `"cuda"` is False and
    silently switches off what it enables: autocast stays off, bf16 becomes fp32 (reference R1,
    R9). The test is kept rather than folded, so a script that can still choose the CPU keeps
    its CPU path.

    ## Example
    ```python
    use_amp = device.type == "cuda"
    device_type = "cuda" if "cuda" in device else "cpu"
    ```

    ## Use instead
    ```python
    use_amp = device.type == "xla"
    device_type = "xla" if "xla" in device else "cpu"
    ```
    """

    code = "TRN023"
    name = "device-identity-test"
    summary = '`device.type == "cuda"` and alike → a test for the target device'
    safety = Safety.SAFE
    severity = Severity.ERROR
    source = "reference R1, R9"


class RankAsDevice(Rule):
    """## What it does
    Rewrites a device given as a process index to the target's device: `.to(local_rank)`,
    `.to(self.gpu_id)`, `.cuda(args.gpu)`, `.to(device)` where `device = 0`, and `device =
    torch.device(f"cuda:{rank}")` (also `torch.device("cuda", rank)` and `"cuda:%d" % rank`).
    `non_blocking=` and `memory_format=` are kept. A literal other index (`"cuda:1"`, model
    parallel over GPUs) stays reported as TRN006.

    ## Why
    On Trainium each worker process owns one NeuronCore and uses the default XLA device; an
    index from a GPU layout does not carry over, and a CUDA index raises `Found no NVIDIA
    driver` (reference R1: with torchrun each process sees one NeuronCore).

    ## Example
    ```python
    self.gpu_id = int(os.environ["LOCAL_RANK"])
    self.model = model.to(self.gpu_id)
    ```

    ## Use instead
    ```python
    self.gpu_id = int(os.environ["LOCAL_RANK"])
    self.model = model.to(torch_xla.device())
    ```
    """

    code = "TRN024"
    name = "rank-as-device"
    summary = "a rank or CUDA index used as the device → the target device"
    safety = Safety.SAFE
    severity = Severity.ERROR
    source = "reference R1"


class UnresolvedTrainingDevice(Rule):
    """## What it does
    In a file that trains, reports the exact expression that decides the training device when
    the tool cannot tell what it is on the target: a value read from a config file, the
    environment, a function or a parameter whose callers it cannot see, a flag without a
    default; and the `if` test that keeps every move to the device from running by default
    (`if args.cuda: model.cuda()` with `--cuda` off). Nothing is rewritten: a guess could move
    training to the wrong device, and a user's flag is theirs to set.

    ## Why
    The device must be the XLA device (`torch_xla.device()` or `"xla"`; `torch.device("neuron")`
    on TorchNeuron) or the script trains on the host CPU, and under torch_xla the usual ways a
    GPU script decides it (`torch.cuda.is_available()`) are False (reference R1, measured). A
    blocker: the port does not run on the accelerator while it is left.

    ## Example
    ```python
    cfg = json.load(open(sys.argv[1]))
    device = torch.device(cfg["device"])
    ```

    ## Use instead
    ```python
    device = torch_xla.device()   # or set "device": "xla" in every config the job uses
    ```
    """

    code = "TRN026"
    name = "unresolved-training-device"
    summary = "the training device is decided by a value the tool cannot read (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.BLOCKER
    source = "reference R1"


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
# Last names of the calls the device analysis values as a device index (`_INDEX_CALLS`,
# `int(...)` of a rank) or whose value is their first argument's (`torch.device`).
_INDEX_CALL_NAMES = frozenset(
    {"current_device", "current_device_index", "get_rank", "get_node_local_rank", "int"}
)
_SPAWN_NAMES = frozenset({"spawn", "start_processes"})
_COLLECTED = frozenset(
    {ast.Call, ast.Assign, ast.AnnAssign, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef}
)


def _default_of(function: ast.FunctionDef | ast.AsyncFunctionDef, name: str) -> ast.expr | None:
    arguments = function.args
    positional = [*arguments.posonlyargs, *arguments.args]
    defaults = [None] * (len(positional) - len(arguments.defaults)) + list(arguments.defaults)
    pairs = [
        *zip(positional, defaults, strict=True),
        *zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True),
    ]
    return next((default for arg, default in pairs if arg.arg == name), None)


def _may_place_on_rank(facts: FileFacts) -> bool:
    """Whether a device argument (`device=x`, `.to(x)`) may hold a device index, which the device
    analysis reports as a rank device (`rank_devices`/`rank_values`, TRN024): an over-estimate
    of ``analysis.device._Evaluator.value`` giving RANK, followed through the same bindings
    (every `name = value` by dotted text, function parameters through their callers and
    defaults, argparse defaults) without deciding any test."""
    bindings: dict[str, list[ast.expr]] = {}
    parameters: dict[str, list[tuple[ast.FunctionDef | ast.AsyncFunctionDef, int]]] = {}
    owners: dict[int, str] = {}
    defaults: dict[str, ast.expr] = {}  # argparse dest (or long flag) -> default
    calls: list[ast.Call] = []
    work: list[ast.expr] = []

    def bind(target: ast.expr, value: ast.expr | None) -> None:
        name = _ast_dotted(target)
        if name is not None:
            if value is not None:
                bindings.setdefault(name, []).append(value)
        elif isinstance(target, ast.Tuple | ast.List):
            for element in target.elts:
                bind(element, None)

    for node in ast.walk(facts.tree):
        kind = type(node)
        if kind not in _COLLECTED:
            continue
        if kind is ast.Call:
            calls.append(node)
            device = next((k.value for k in node.keywords if k.arg == "device"), None)
            func = node.func
            if device is not None:
                work.append(device)
            elif (
                type(func) is ast.Attribute
                and func.attr in ("to", "cuda")
                and node.args
                and type(node.args[0]) is not ast.Starred
            ):
                work.append(node.args[0])
            if type(func) is ast.Attribute and func.attr == "add_argument":
                default = next((k.value for k in node.keywords if k.arg == "default"), None)
                if default is not None:
                    for arg in [*node.args, *(k.value for k in node.keywords if k.arg == "dest")]:
                        if type(arg) is ast.Constant and type(arg.value) is str:
                            defaults[arg.value.lstrip("-").replace("-", "_")] = default
        elif kind is ast.Assign:
            for target in node.targets:
                bind(target, node.value)
        elif kind is ast.AnnAssign:
            bind(node.target, node.value)
        elif kind in (ast.FunctionDef, ast.AsyncFunctionDef):
            for position, param in enumerate([*node.args.posonlyargs, *node.args.args]):
                parameters.setdefault(param.arg, []).append((node, position))
        elif kind is ast.ClassDef:
            for statement in node.body:
                if type(statement) in (ast.FunctionDef, ast.AsyncFunctionDef):
                    owners[id(statement)] = node.name
    if not work:
        return False
    aliases = facts.bindings

    def last_names(func: ast.expr) -> set[str]:
        """The last names of what ``func`` may be, through the file's imports."""
        name = _ast_dotted(func) or ""
        head, _, rest = name.partition(".")
        full = {name} | {f"{bound}.{rest}" if rest else bound for bound in aliases.get(head, ())}
        return {n.rsplit(".", 1)[-1] for n in full}

    seen: set[int] = set()
    names_seen: set[str] = set()
    while work:
        node = work.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        kind = type(node)
        if kind is ast.Constant:
            if type(node.value) is int:
                return True  # an index: `.to(0)`, `device = 0`
        elif kind is ast.JoinedStr:
            head = node.values[0] if node.values else None
            if type(head) is ast.Constant and str(head.value).startswith("cuda:"):
                return True
        elif kind is ast.BinOp:
            if type(node.left) is ast.Constant and str(node.left.value).startswith("cuda:"):
                return True
        elif kind is ast.IfExp:
            work += [node.body, node.orelse]
        elif kind is ast.Subscript:
            if _ID_LIST.match((_ast_dotted(node.value) or "").rsplit(".", 1)[-1]):
                return True  # `device_ids[0]`
        elif kind is ast.Call:
            lasts = last_names(node.func)
            if not lasts.isdisjoint(_INDEX_CALL_NAMES):
                return True
            if "device" in lasts:  # torch.device(x): the value of x
                values = [*node.args, *(k.value for k in node.keywords)]
                if len(values) > 1:
                    return True  # torch.device("cuda", rank)
                work += values
        elif kind in (ast.Name, ast.Attribute):
            name = _ast_dotted(node)
            if name is None or name in names_seen:
                continue  # a name is worked out once: by its dotted text, as the analysis does
            names_seen.add(name)
            last = name.rsplit(".", 1)[-1]
            if _RANK_NAME.match(last):
                return True  # `rank`, `self.gpu_id`, `args.local_rank`
            if "." in name and last in defaults:
                work.append(defaults[last])
            work += bindings.get(name, ())
            for function, position in parameters.get(name, ()):
                # `_Evaluator._parameter`: the argument each caller passes (by keyword, else by
                # position less `self`), else the parameter's default.
                default = _default_of(function, name)
                if default is not None:
                    work.append(default)
                params = function.args.args
                index = position - (1 if params and params[0].arg in ("self", "cls") else 0)
                owner = owners.get(id(function))
                wanted = {function.name, owner or function.name}
                for call in calls:
                    func = call.func
                    called = func.id if type(func) is ast.Name else None
                    if type(func) is ast.Attribute and owner is not None:
                        called = func.attr
                    if called in wanted:
                        given = [k.value for k in call.keywords if k.arg == name]
                        if not given and 0 <= index < len(call.args):
                            if not any(type(a) is ast.Starred for a in call.args[: index + 1]):
                                given = [call.args[index]]
                        work += given
                    elif call.args and not last_names(func).isdisjoint(_SPAWN_NAMES):
                        first = call.args[0]
                        if type(first) is ast.Name and first.id == function.name:
                            return True  # mp.spawn(fn, ...) calls fn(rank, ...)
    return False


def _string_value(node: cst.BaseExpression) -> str | None:
    if isinstance(node, cst.SimpleString) and node.prefix in _STRING_PREFIXES:
        value = node.evaluated_value
        return value if isinstance(value, str) else None
    return None


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


def _in_parens_of(outer: cst.BaseExpression, inner: cst.BaseExpression) -> cst.BaseExpression:
    """``inner`` standing in for ``outer``, keeping the parentheses ``outer`` had."""
    if outer.lpar and not inner.lpar:
        return inner.with_changes(lpar=outer.lpar, rpar=outer.rpar)
    return inner


def _with_value(node: cst.SimpleString, value: str) -> cst.SimpleString:
    quote = node.quote
    return node.with_changes(value=f"{node.prefix}{quote}{value}{quote}")


class DevicePlacement(Pass):
    name = "device"
    rules = (
        CudaMethod,
        CudaDeviceString,
        CudaAvailabilityChoice,
        AcceleratorDevice,
        CudaMapLocation,
        CudaDeviceIndex,
        CudaAvailabilityCheck,
        DeviceGate,
        CpuTrainingDevice,
        DeviceIdentityTest,
        RankAsDevice,
        UnresolvedTrainingDevice,
    )
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
            or (moves and _may_place_on_rank(facts))
        )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.facts = DeviceFacts()
        self._true: set[int] = set()  # ids of the `True` this pass wrote for a resolved check
        self._hoist: dict[cst.CSTNode, str] = {}  # loop -> the device variable bound before it

    # -- the training device (trncodemod.analysis.device) ------------------------------------
    def visit_Module(self, node: cst.Module) -> None:
        self.facts = per_tree(node, "device", lambda module: analyse(module, self.module_names))
        profile = self.run.profile
        if not profile.trains or set(profile.launchers) & _FRAMEWORKS:
            return  # accelerate, Lightning and the HF Trainer choose the device themselves
        for blame, why in self.facts.unresolved.items():
            if self.get_metadata(PositionProvider, blame, None) is None:
                continue  # a node the analysis made up (the call mp.spawn makes)
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

    def _true_name(self) -> cst.Name:
        true = cst.Name("True")
        self._true.add(id(true))
        return true

    def _is_true(self, node: cst.CSTNode) -> bool:
        return id(node) in self._true

    def _resolves(self, call: cst.Call) -> bool:
        """An availability check this pass makes true: it decides the device on the target."""
        if call not in self.facts.gates:
            return False
        if self.is_any(call.func, {"torch.accelerator.is_available"}) and not self.target.is_xla:
            return False  # TorchNeuron registers as the accelerator: it is true as it is
        parent = self.get_metadata(ParentNodeProvider, call, None)
        # `"cuda" if torch.cuda.is_available() else "cpu"` is rewritten whole (TRN003).
        return not (isinstance(parent, cst.IfExp) and self._kind(parent) == "choice")

    def _gate(self, original: cst.Call) -> cst.BaseExpression | None:
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

    def _device_for(self, original: cst.CSTNode) -> cst.BaseExpression:
        """The target's device expression for a rewrite at ``original``; inside a loop, a
        variable bound once before the outermost loop, so no step builds the device again."""
        loop = self._outermost_loop(original)
        if loop is None:
            return self.emit(self.target.device)
        name = self._hoist.get(loop) or self._device_before(loop)
        if name is None:
            name = self._hoist[loop] = self._free_name(loop)
        return cst.Name(name)

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
            if assignments and all(
                isinstance(a.node, cst.CSTNode)
                and self.get_metadata(PositionProvider, a.node).start.line < start
                for a in assignments
            ):
                return name
        return None

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
        if not self._is_true(updated_node.test):
            return updated_node
        parent = self.get_metadata(ParentNodeProvider, original_node, None)
        if isinstance(parent, cst.If) and parent.orelse is original_node:
            return updated_node  # an `elif`: its body cannot stand in for it
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

    def _cpu_allowed(self) -> bool:
        profile = self.run.profile
        return profile.trains and profile.is_entry_script

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
        return updated_node

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
            if _CUDA.fullmatch(value):
                return "cuda"
            return "indexed" if _CUDA_INDEXED.fullmatch(value) else None
        if isinstance(node, cst.FormattedString):
            head = node.parts[0] if node.parts else None
            if isinstance(head, cst.FormattedStringText) and head.value.startswith("cuda"):
                return "indexed"
            return None
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
        return None

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
        return None

    def _reference_roles(self, target: cst.Name) -> list[str | None]:
        scope = self.get_metadata(ScopeProvider, target, None)
        if scope is None:
            return [None]
        roles: list[str | None] = []
        for assignment in scope.assignments[target.value]:
            if getattr(assignment, "node", None) is not target:
                continue
            for access in assignment.references:
                parent = self.get_metadata(ParentNodeProvider, access.node, None)
                if isinstance(parent, cst.ComparisonTarget):
                    parent = self.get_metadata(ParentNodeProvider, parent, None)
                if isinstance(parent, cst.Comparison) and self._compares_identity(parent):
                    roles.append("device")  # rewritten to the target's device type (TRN023)
                    continue
                roles.append(self._device_role(parent) if isinstance(parent, cst.Arg) else None)
        return roles

    # -- rewriting ---------------------------------------------------------------------------
    def _device_string(self, node: cst.SimpleString) -> cst.SimpleString:
        if self.target.is_xla:
            self.add_import("torch_xla")  # registers the "xla" device type
        return _with_value(node, self.target.device_string)

    def _rewrite_value(self, original: cst.BaseExpression, updated: cst.BaseExpression, role: str):
        kind = self._kind(original)
        if kind is None or (isinstance(original, cst.Call) and role != "map_location"):
            return updated  # torch.device(...) calls are rewritten on their own
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
        func = original_node.func
        if self._resolves(original_node):
            resolved = self._gate(original_node)
            if resolved is not None:
                return resolved
        if original_node in self.facts.rank_values:
            return self._rank_device(original_node, _code(original_node)) or updated_node
        if original_node in self.facts.cpu_values and self._cpu_allowed():
            if self.report(
                original_node,
                CpuTrainingDevice,
                f"the model and batches are moved to the CPU in a training script → "
                f"{self.target.device.expr}",
                True,
            ):
                return self.emit(self.target.device)
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
        if self.is_any(func, {"torch.device"}):
            if self._role_of_expression(original_node) == "map_location":
                return updated_node  # the whole value becomes "cpu"
            replaced = self._rewrite_torch_device(original_node)
            if replaced is not None:
                return replaced
        if self.is_any(func, {"torch.accelerator.current_accelerator"}) and self.target.is_xla:
            if self.report(
                original_node,
                AcceleratorDevice,
                f"torch.accelerator is not the XLA device → {self.target.device.expr}",
                True,
            ):
                return self.emit(self.target.device)
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
        if isinstance(func, cst.Attribute) and func.attr.value == "add_argument":
            return self._rewrite_device_option(original_node, updated_node)
        new_args = []
        for original_arg, updated_arg in zip(original_node.args, updated_node.args, strict=False):
            value = original_arg.value
            if value in self.facts.rank_devices or value in self.facts.rank_values:
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

    def _rewrite_cuda_method(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        allowed = {"non_blocking", "memory_format"}
        first = original.args[0] if original.args else None
        if first is not None and first.keyword is None and first.value in self.facts.rank_devices:
            device = self._rank_device(original, _code(original))
            if device is None:
                return updated
            assert isinstance(updated.func, cst.Attribute)
            rest = list(updated.args[1:])
            return updated.with_changes(
                func=updated.func.with_changes(attr=cst.Name("to")),
                args=[updated.args[0].with_changes(value=device), *rest],
            )
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

    def _rewrite_torch_device(self, original: cst.Call) -> cst.BaseExpression | None:
        if not original.args or self._role_of_expression(original) == "map_location":
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
            rule, message = CudaDeviceString, f'torch.device("cuda") → {self.target.device.expr}'
        elif kind == "choice":
            rule, message = (
                CudaAvailabilityChoice,
                (f"cuda-if-available device choice → {self.target.device.expr}"),
            )
        else:
            return None
        if self.report(original, rule, message, True):
            return self.emit(self.target.device)
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

    def leave_IfExp(self, original_node: cst.IfExp, updated_node: cst.IfExp) -> cst.BaseExpression:
        result = self._leave_choice(original_node, updated_node)
        if isinstance(result, cst.IfExp) and self._is_true(result.test):
            return _in_parens_of(result, result.body)
        return result

    def _identity_choice(self, node: cst.IfExp) -> bool:
        """``"cuda" if "cuda" in device else "cpu"``: a device type chosen by a device test."""
        test = node.test
        if not (isinstance(test, cst.Comparison) and len(test.comparisons) == 1):
            return False
        operands = (test.left, test.comparisons[0].comparator)
        return any(is_cuda_string(o) for o in operands) and any(
            identity_subject(o) is not None for o in operands
        )

    def _decided(self, test: cst.BaseExpression) -> bool:
        """The test's value on the target is known, or a blocker already names what decides it."""
        return self.facts.known_tests.get(test) is True or (
            self.run.profile.trains and bool(self.facts.unresolved or self.facts.skipped_moves)
        )

    def _leave_choice(self, original_node: cst.IfExp, updated_node: cst.IfExp):
        if (
            is_cuda_string(original_node.body)
            and _string_value(original_node.orelse) == "cpu"
            and self._identity_choice(original_node)
        ):
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
            self.report(
                original_node,
                CudaAvailabilityChoice,
                f"device choice depends on "
                f"`{condition}`: make sure it is true on the Trainium host (a "
                "torch.cuda.is_available() behind it is False there)",
                False,
            )
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
    def _identity_side(node: cst.Comparison) -> str | None:
        """Which side of ``device.type == "cuda"`` holds the string, when it is such a test."""
        if len(node.comparisons) != 1:
            return None
        left, right = node.left, node.comparisons[0].comparator
        if is_cuda_string(left) and identity_subject(right) is not None:
            return "left"
        if is_cuda_string(right) and identity_subject(left) is not None:
            return "right"
        return None

    def _holds_kept_cuda_string(self, node: cst.Comparison, string_side: str) -> bool:
        """``DEVICE == "cuda"`` where ``DEVICE = "cuda"`` stays as it is (also used as text):
        the test must stay as true as it was."""
        other = node.comparisons[0].comparator if string_side == "left" else node.left
        subject = identity_subject(other)
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

    def _compares_identity(self, node: cst.Comparison) -> bool:
        return self._identity_side(node) is not None and self.enabled(DeviceIdentityTest)

    def _identity_test(
        self, original: cst.Comparison, updated: cst.Comparison
    ) -> cst.Comparison | None:
        """``device.type == "cuda"`` → ``device.type == "xla"`` (TRN023)."""
        string_side = self._identity_side(original)
        if string_side is None or self._holds_kept_cuda_string(original, string_side):
            return None
        new = self.target.device_string
        if not self.report(
            original,
            DeviceIdentityTest,
            f'compares the device with "cuda", False on Trainium → "{new}"',
            True,
        ):
            return None
        if string_side == "left":
            assert isinstance(updated.left, cst.SimpleString)
            return updated.with_changes(left=self._device_string(updated.left))
        target = updated.comparisons[0]
        assert isinstance(target.comparator, cst.SimpleString)
        return updated.with_changes(
            comparisons=[target.with_changes(comparator=self._device_string(target.comparator))]
        )

    def leave_Assign(self, original_node: cst.Assign, updated_node: cst.Assign) -> cst.Assign:
        value = original_node.value
        if value in self.facts.rank_values and not isinstance(value, cst.Call):
            device = self._rank_device(value, _code(value))
            if device is not None:
                return updated_node.with_changes(value=device)
        # Only a plain string; `torch.device("cuda")` is rewritten as a call in leave_Call.
        if not isinstance(original_node.value, cst.SimpleString):
            return updated_node
        if self._kind(original_node.value) != "cuda":
            return updated_node
        roles = (
            self._reference_roles(original_node.targets[0].target)
            if len(original_node.targets) == 1
            and isinstance(original_node.targets[0].target, cst.Name)
            else []
        )
        if "device" not in roles:
            return updated_node  # a string that is never used as a device is just text
        if all(role == "device" for role in roles):
            if self.report(
                original_node.value,
                CudaDeviceString,
                f'"cuda" → "{self.target.device_string}" (used only as a device)',
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
