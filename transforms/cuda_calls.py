"""CUDA-only calls: `torch.cuda.*` runtime calls, cuDNN/TF32 flags and pinned memory, mapped,
removed or reported from the table in ``data/cuda_calls.toml`` ([measured-cuda-calls])."""

from __future__ import annotations

import sys
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources

import libcst as cst
import libcst.matchers as m
from libcst.codemod.visitors import RemoveImportsVisitor
from libcst.metadata import ParentNodeProvider, PositionProvider
from trncodemod.transforms.launchers import DeviceCountLauncher

from trncodemod.analysis.device import OPTIONS_NAME
from trncodemod.analysis.device_parameters import TENSOR_FACTORIES
from trncodemod.analysis.enabled import never_runs
from trncodemod.analysis.facts import FileFacts
from trncodemod.analysis.loops import is_storage, storage_loop_target
from trncodemod.analysis.nodes import find, is_main_test
from trncodemod.analysis.training import XLA_DEVICE
from trncodemod.findings import Rule, Safety, Severity
from trncodemod.passes import Pass
from trncodemod.rewriting.statements import DropsStatements
from trncodemod.targets import Target

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

_DATA_LOADERS = frozenset({"torch.utils.data.DataLoader", "torch.utils.data.dataloader.DataLoader"})
_PIN_KEYWORDS = frozenset({"pin_memory", "pin_memory_device"})
_AVAILABLE = ("torch.cuda.is_available", "torch.accelerator.is_available")
_EXITS = frozenset({"sys.exit", "builtins.exit", "builtins.quit", "os._exit"})


@dataclass(frozen=True)
class CudaCall:
    action: str  # "wait", "remove" or "query"
    why: str
    fix: str = ""
    neuron: str = ""
    neuron_fix: str = ""
    xla_only: bool = False


@dataclass(frozen=True)
class CudaTable:
    calls: dict[str, CudaCall]
    flags: frozenset[str]
    owned_names: frozenset[str]
    owned_prefixes: tuple[str, ...]
    raises: dict[str, str]  # a call that raises without CUDA -> its measured error
    tensor_types: dict[str, str]  # a legacy CUDA tensor type -> its dtype ("" = report only)


@cache
def cuda_table() -> CudaTable:
    text = resources.files("trncodemod").joinpath("data/cuda_calls.toml").read_text("utf-8")
    data = tomllib.loads(text)
    return CudaTable(
        calls={name: CudaCall(**row) for name, row in data["calls"].items()},
        flags=frozenset(data["flags"]["names"]),
        owned_names=frozenset(data["owned_elsewhere"]["names"]),
        owned_prefixes=tuple(data["owned_elsewhere"]["prefixes"]),
        raises=dict(data["raises"]),
        tensor_types=dict(data["tensor_types"]),
    )


class CudaSynchronize(Rule):
    """## What it does
    Rewrites `torch.cuda.synchronize()` to the target's wait for device work:
    `xm.wait_device_ops()` on the XLA targets, `torch.accelerator.synchronize()` on `neuron`.
    A device argument is dropped (one device per process). A call that is a statement of its
    own in a loop whose body reads a value on the host with `.item()` (mae's and DINO's
    per-step synchronize before logging `loss.item()`) is removed instead: the host waits for
    the device there every iteration anyway, and a second wait would stall each step.

    ## Why
    `torch.cuda.synchronize()` raises `Found no NVIDIA driver` on a Trainium host
    ([measured-cuda-calls]). Under torch_xla, `xm.wait_device_ops()` waits for the graphs already
    sent to the device, but does not run operations still recorded in the lazy graph: code that
    times a step must cut the graph first (`torch_xla.sync()`), hence the `review` class.
    TorchNeuron keeps `torch.accelerator` working ([torchneuron-overview]).

    ## Example
    ```python
    torch.cuda.synchronize()
    elapsed = time.time() - start
    ```

    ## Use instead
    ```python
    import torch_xla.core.xla_model as xm
    xm.wait_device_ops()
    elapsed = time.time() - start
    ```
    """

    code = "TRN311"
    name = "cuda-synchronize"
    summary = "`torch.cuda.synchronize()` → wait for device operations"
    safety = Safety.REVIEW
    severity = Severity.ERROR
    sources = ("measured-cuda-calls", "torchneuron-overview")


class CudaNoOpCall(Rule):
    """## What it does
    Removes a statement that only calls `torch.cuda.empty_cache()`,
    `torch.cuda.reset_peak_memory_stats()`, `torch.cuda.reset_max_memory_allocated()`,
    `torch.cuda.set_device(...)`, `torch.cuda.manual_seed(s)` or `torch.cuda.manual_seed_all(s)`,
    and on the XLA targets `torch.accelerator.set_device_index(...)` (TorchNeuron is the
    accelerator: kept there). A block left empty gets `pass`. A call whose value is used is
    reported, not removed.

    ## Why
    On a Trainium host these calls either raise (`set_device`: `Found no NVIDIA driver`,
    `reset_peak_memory_stats`: `invalid argument`) or do nothing (`empty_cache`, the CUDA seeds),
    [measured-cuda-calls]. Each worker process owns one NeuronCore, so there is no device
    to select; under torch-xla `torch.accelerator` is not the XLA device and choosing its index
    raises ([measured-device-checks]). The CUDA seeds never seeded the Trainium device: seed it with
    `torch.manual_seed(s)` plus, on XLA, `torch_xla.manual_seed(s)` / `xm.set_rng_state(s)`
    ([xla-api]).

    ## Example
    ```python
    torch.cuda.set_device(local_rank)
    torch.cuda.manual_seed_all(seed)
    torch.cuda.empty_cache()
    ```

    ## Use instead
    ```python
    # nothing: one NeuronCore per process; seed with torch.manual_seed(seed)
    ```
    """

    code = "TRN312"
    name = "cuda-no-op-call"
    summary = "`torch.cuda` cache, statistics, seed and `set_device` calls removed"
    safety = Safety.SAFE
    severity = Severity.WARNING
    sources = ("measured-cuda-calls", "xla-api", "measured-device-checks")


class CudaBackendFlag(Rule):
    """## What it does
    Removes assignments to cuDNN and CUDA matmul flags: `torch.backends.cudnn.benchmark`,
    `.deterministic`, `.allow_tf32`, `.enabled` and `torch.backends.cuda.matmul.allow_tf32` (and
    the reduced-precision-reduction flags), when the statement assigns only the flag and its
    value calls nothing. A block left empty gets `pass`. Reading a flag is left alone.

    ## Why
    These flags configure cuDNN and cuBLAS; on Trainium they are accepted and have no effect
    ([measured-cuda-calls]), so they only mislead a reader about what the run does.

    ## Example
    ```python
    torch.backends.cudnn.benchmark = True
    torch.backends.cuda.matmul.allow_tf32 = True
    ```

    ## Use instead
    ```python
    # nothing
    ```
    """

    code = "TRN313"
    name = "cuda-backend-flag"
    summary = "cuDNN / TF32 flag assignments removed (no effect on Trainium)"
    safety = Safety.SAFE
    severity = Severity.INFO
    sources = ("measured-cuda-calls",)


class PinnedMemory(Rule):
    """## What it does
    Drops `pin_memory=` and `pin_memory_device=` from `DataLoader(...)` and replaces
    `x.pin_memory()` with `x` (a statement that only pins is removed), on every target. On an XLA
    target, a loader in a file written for Neuron already (it places on `torch_xla.device()` /
    `xm.xla_device()` itself) keeps its `pin_memory=`: its author chose it, and it only warns.

    ## Why
    Pinning never changes values: dropping it is always correct, keeping it is correct only where
    the device has a pinned-memory allocator. Without CUDA, `tensor.pin_memory()` raises
    `RuntimeError` and `DataLoader(pin_memory=True)` warns that pinned memory won't be used
    ([measured-cuda-calls]); host-to-XLA copies do not use pinned memory. TorchNeuron (a PrivateUse1
    backend) documents no pinned memory, and AWS's own Neuron platforms say "Pin memory is not
    supported on Neuron" (vllm-project/vllm `vllm/platforms/neuron.py`, and the `nkipy_vllm_plugin`
    platform of AWS's NKIPy PrivateUse1 backend, `is_pin_memory_available()` returns False); a
    PrivateUse1 backend that registers no pinned-memory allocator raises at `x.pin_memory()`
    ("Please register PrivateUse1HooksInterface", [measured-neuron-pin-memory], torch 2.9 and
    `neuron` renamed from PrivateUse1, as `trncodemod verify --target neuron` runs it).

    ## Example
    ```python
    loader = DataLoader(ds, batch_size=32, pin_memory=True)
    x = x.pin_memory()
    ```

    ## Use instead
    ```python
    loader = DataLoader(ds, batch_size=32)
    x = x
    ```
    """

    code = "TRN314"
    name = "pinned-memory"
    summary = "`pin_memory=True` / `.pin_memory()` dropped (no pinned memory on Trainium)"
    safety = Safety.SAFE
    severity = Severity.WARNING
    sources = ("measured-cuda-calls", "measured-neuron-pin-memory")


class CudaQuery(Rule):
    """## What it does
    Handles calls that read CUDA state: `torch.cuda.device_count()`, `current_device()`,
    `get_device_name()`, `memory_allocated()`, `max_memory_allocated()`, `memory_reserved()`,
    `max_memory_reserved()` and `is_bf16_supported()`. On the `neuron` target,
    `device_count()` and `current_device()` without arguments become
    `torch.accelerator.device_count()` / `torch.accelerator.current_device_index()`. Everywhere
    else the call is reported with what to write instead, and nothing changes: the Trainium
    equivalent answers a different question (processes rather than devices, device memory
    rather than allocator statistics). A division by the device count (`rank %
    torch.cuda.device_count()`, the CUDA idiom for a process's GPU) is a blocker on the XLA
    targets where it runs whenever its function does: the count is 0 there, so it raises
    ZeroDivisionError. So is the count bound to a name or attribute (`args.nprocs =
    torch.cuda.device_count()`) and divided by later in the same function, or in the function
    it is passed to (`main_worker(rank, args.nprocs, args)` then `args.batch_size / nprocs`).
    Under a branch (a SLURM launch's) it is reported at the division. `current_device()` and
    `get_device_name()` raise without CUDA ([measured-cuda-raises]): a blocker where left. A
    blocker on a line the program evaluator shows off the launch path is a warning.

    ## Why
    On Trainium these calls return CUDA's answer for a host without a GPU (0, `False`) or raise
    `Found no NVIDIA driver` ([measured-cuda-calls]): `is_bf16_supported()` is `False` although
    Trainium computes in bf16. TorchNeuron registers as the `torch.accelerator`
    ([torchneuron-overview]).

    ## Example
    ```python
    world_size = torch.cuda.device_count()
    ```

    ## Use instead
    ```python
    world_size = torch_xla.runtime.world_size()    # XLA targets, by hand
    world_size = torch.accelerator.device_count()  # neuron target
    ```
    """

    code = "TRN315"
    name = "cuda-query"
    summary = "`torch.cuda` device and memory queries → `torch.accelerator` (neuron) or reported"
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = ("measured-cuda-calls", "measured-cuda-raises", "torchneuron-overview")


class OtherCudaCall(Rule):
    """## What it does
    Reports any other call under `torch.cuda` (`torch.cuda.Event`, `torch.cuda.Stream`,
    `torch.cuda.nvtx.range_push`, `torch.cuda.get_device_properties`, ...). Nothing is changed.
    `torch.cuda.is_available()` (device pass), `torch.cuda.amp.*` (amp pass) and
    `torch.cuda.DoubleTensor` (float64 pass) are left to their passes, and the other tensor
    types to TRN317. A call that raises without CUDA ([measured-cuda-raises]: `memory_summary()`,
    `get_device_properties()`, `get_device_capability()`, `mem_get_info()`, `Stream()`; the
    table in `data/cuda_calls.toml`) is a blocker: the script stops there wherever it runs. Under `if
    torch.cuda.is_available():` it is not reported; on a line the program evaluator shows off
    the launch path (a flag no launch sets) it is a warning.

    ## Why
    These are CUDA runtime APIs: on a Trainium host they raise or return CUDA's answer for a host
    without a GPU ([measured-cuda-calls]): `memory_summary()` raises `KeyError:
    'allocated_bytes.all.current'` where `memory_stats()` returns `{}` ([measured-cuda-raises]).
    There is no general equivalent; each needs a person.

    ## Example
    ```python
    start = torch.cuda.Event(enable_timing=True)
    ```

    ## Use instead
    ```python
    start = time.perf_counter()   # after xm.wait_device_ops()
    ```
    """

    code = "TRN316"
    name = "other-cuda-call"
    summary = "other `torch.cuda.*` calls (report only; a blocker where measured to raise)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = ("measured-cuda-calls", "measured-cuda-raises")


# Calls that make a tensor where the default tensor type says, unless given a device: the
# factories, and the legacy constructors (`torch.Tensor([1e10])`).
_DEVICELESS_FACTORIES = TENSOR_FACTORIES | {"torch.Tensor", "torch.FloatTensor", "torch.LongTensor"}


class CudaTensorConstructor(Rule):
    """## What it does
    Rewrites a call of a legacy CUDA tensor type with two or more sizes, inside a function —
    `torch.cuda.FloatTensor(n, c, h, w)`, and the same of `LongTensor`, `IntTensor`,
    `ShortTensor`, `CharTensor`, `ByteTensor`, `BoolTensor` and `BFloat16Tensor` — to
    `torch.empty(n, c, h, w, dtype=<the type's dtype>, device=<target device>)`. The types and
    dtypes are a table (`data/cuda_calls.toml`). A name every assignment binds to the type
    (`LongT = torch.cuda.LongTensor`, then `LongT(n, 2)`) is the type; one bound to a CPU type
    too is not. One finding per call: a method of the tensor it makes (`.fill_(0)`) is not a
    CUDA call of its own.

    Every other call of a CUDA tensor type is reported as a blocker, at the call: one argument
    (data or a size: `torch.cuda.LongTensor(ids)`), none, a starred or keyword argument, a list
    given among the sizes, code that runs at import (a device is not taken there), and
    `torch.cuda.HalfTensor` (the half pass turns a file's float16 into bf16, TRN506, so the
    dtype to give is a person's choice). `torch.cuda.DoubleTensor` is the float64 pass's
    (TRN204). `torch.set_default_tensor_type(torch.cuda.FloatTensor)` (or the type's name as a
    string) makes every tensor made after it one of the type: a blocker at the call, on the
    launch path where it runs. Set only where `torch.cuda.is_available()` holds, it never runs
    on Trainium, and the tensors it put on the GPU beside the model stay on the CPU while the
    model's `.cuda()` becomes the XLA device: a blocker at that check (a reviewer measured
    `Expected XLA tensor` in an SSD loss's first step). Under `if x.is_cuda:` the call never runs on Trainium, where a tensor's `is_cuda`
    is False ([measured-is-cuda-moves]): a warning there (dino's PCA, which takes the branch
    after it). `x.type(torch.cuda.FloatTensor)` and `isinstance(x, torch.cuda.FloatTensor)` call
    no constructor and are left to the evaluator and the device pass.

    ## Why
    A legacy CUDA tensor type makes a CUDA tensor: without CUDA the call raises `RuntimeError:
    Found no NVIDIA driver`, as a constructor of sizes or of data ([measured-cuda-tensor-types]),
    so the script stops at the first call that runs (CutMix's PyramidNet pads its shortcut
    with `torch.cuda.FloatTensor(...).fill_(0)` in each residual block's forward). Set as the
    default type, the setter returns and the first tensor made after it raises; in its place,
    `torch.set_default_device(torch_xla.device())` does not reach the legacy constructor
    (`torch.Tensor([1e10])` stays on the CPU and a `torch.cat` with device tensors raises,
    [measured-default-cuda-tensor-type]), so a person gives each tensor made without a device
    its `device=`. With
    sizes, the constructor allocates an uninitialized tensor of the type's dtype, which is what
    `torch.empty` does; the device is the target's, as for `.cuda()` (TRN001,
    [xla-devices, torchneuron-overview]). Such a block's zero padding made with `torch.empty(...,
    dtype=torch.float32, device=torch_xla.device())` runs forward and backward on the XLA device
    and matches the CPU ([measured-cuda-tensor-types]).

    ## Example
    ```python
    padding = torch.cuda.FloatTensor(batch_size, channels, h, w).fill_(0)
    ```

    ## Use instead
    ```python
    import torch_xla
    padding = torch.empty(batch_size, channels, h, w, dtype=torch.float32, device=torch_xla.device()).fill_(0)
    ```
    """

    code = "TRN317"
    name = "cuda-tensor-constructor"
    summary = (
        "`torch.cuda.FloatTensor(sizes)` → `torch.empty(sizes, dtype=, device=<target device>)`"
    )
    safety = Safety.SAFE
    severity = Severity.ERROR
    sources = (
        "measured-cuda-tensor-types",
        "measured-default-cuda-tensor-type",
        "measured-is-cuda-moves",
        "xla-devices",
        "torchneuron-overview",
    )


class CudaRequiredCheck(Rule):
    """## What it does
    Removes a check that stops the script unless CUDA is there: `assert
    torch.cuda.is_available()` (with or without a message) and `if not torch.cuda.is_available():`
    whose whole body raises or exits (`raise RuntimeError(...)`, `sys.exit(...)`), without an
    `else`. `torch.accelerator.is_available()` is handled the same way. Where the check is
    part of a larger condition (`assert torch.cuda.is_available() and world_size > 1`) it is
    left and reported as a blocker, at the check.

    ## Why
    Under torch_xla `torch.cuda.is_available()` is False on a Trainium host
    ([xla-devices, neuron-guide, measured-device-checks]): the script stops at the check, before it
    trains, on every run. The check says "the accelerator is there", which on the target
    `torch_xla.device()` ensures by itself (it raises when no Neuron device is present), so removing
    it changes nothing else.

    ## Example
    ```python
    assert torch.cuda.is_available(), "training needs a GPU"
    ```

    ## Use instead
    ```python
    device = torch_xla.device()  # raises when no accelerator is present
    ```
    """

    code = "TRN803"
    name = "cuda-required-check"
    summary = (
        "a check that stops the script without CUDA (`assert torch.cuda.is_available()`) → removed"
    )
    safety = Safety.SAFE
    severity = Severity.BLOCKER
    sources = ("xla-devices", "neuron-guide", "measured-device-checks")


class GuardedCudaRequiredCheck(Rule):
    """## What it does
    Removes `assert torch.cuda.is_available()` (or `torch.accelerator.is_available()`) where an
    `if` in its function decides whether it runs (`if device_type == "cuda": assert
    torch.cuda.is_available()`), as TRN803 does at the top of a script.

    ## Why
    Under torch_xla the check is False on a Trainium host ([xla-devices, neuron-guide]): if the
    branch runs there, the script stops. Whether it runs depends on values the tool does not always
    know (timm's `device_type` from `--device`), so this is not a claim that the program stops; the
    removal is safe either way, since `torch_xla.device()` raises when no accelerator is there.

    ## Example
    ```python
    if device_type == "cuda":
        assert torch.cuda.is_available(), "CUDA is not available"
    ```

    ## Use instead
    The assert is removed; an `if` left with nothing to do goes with it.
    """

    code = "TRN805"
    name = "guarded-cuda-required-check"
    summary = "`assert torch.cuda.is_available()` under an `if` → removed"
    safety = Safety.SAFE
    severity = Severity.ERROR
    sources = ("xla-devices", "neuron-guide")


class TypeStringCast(Rule):
    """## What it does
    Rewrites a cast to another tensor's type string, `x.type(a.type())`, into `x.to(a)`: the
    same dtype and device as `a`, on every device. Where the string is held in a name first
    (`dtype = A.type()`, then `x.type(dtype)`, where a caller may pass another), the cast is
    reported, not rewritten. A cast between storages (`sto.type(x.storage().type())`, a storage
    of a walk over storages) is left as it is: a storage has no `.to(other)`.

    ## Why
    On CUDA `a.type()` is `'torch.cuda.FloatTensor'`, and `x.type(...)` of it casts `x` and
    moves it to the GPU. On the XLA device `a.type()` is `'torch.xla.FloatTensor'`, which
    `Tensor.type()` rejects (`ValueError: invalid type: 'torch.xla.FloatTensor'`), while
    `x.to(a)` and `x.type_as(a)` give `a`'s device and dtype ([measured-type-string-casts]).

    ## Example
    ```python
    I = torch.eye(dim, dim).view(1, dim, dim).repeat(batch, 1, 1).type(A.type())
    ```

    ## Use instead
    ```python
    I = torch.eye(dim, dim).view(1, dim, dim).repeat(batch, 1, 1).to(A)
    ```
    """

    code = "TRN066"
    name = "type-string-cast"
    summary = "`x.type(a.type())` → `x.to(a)` (an XLA tensor's type string is rejected)"
    safety = Safety.SAFE
    severity = Severity.ERROR
    sources = ("measured-type-string-casts",)


def _cast_argument(call: cst.Call) -> cst.BaseExpression | None:
    """What `x.type(<it>)` casts to: its one positional argument; None for any other call."""
    if (
        isinstance(call.func, cst.Attribute)
        and call.func.attr.value == "type"
        and len(call.args) == 1
        and call.args[0].keyword is None
        and not call.args[0].star
    ):
        return call.args[0].value
    return None


def _is_type_string(node: cst.CSTNode | None) -> bool:
    """`a.type()`: a tensor's type string."""
    return (
        isinstance(node, cst.Call)
        and not node.args
        and isinstance(node.func, cst.Attribute)
        and node.func.attr.value == "type"
    )


def _type_string_of(call: cst.Call) -> cst.BaseExpression | None:
    """``a`` where ``call`` is `x.type(a.type())`."""
    inner = _cast_argument(call)
    return inner.func.value if _is_type_string(inner) else None  # type: ignore[union-attr]


def _has_call(node: cst.CSTNode) -> bool:
    return bool(find(node, cst.Call, cst.Await, cst.Yield, cst.NamedExpr))


class CudaOnlyCalls(DropsStatements, Pass):
    name = "cuda-calls"
    rules = (
        CudaSynchronize,
        CudaNoOpCall,
        CudaBackendFlag,
        PinnedMemory,
        CudaQuery,
        OtherCudaCall,
        CudaTensorConstructor,
        CudaRequiredCheck,
        GuardedCudaRequiredCheck,
        TypeStringCast,
    )
    needles = ("cuda", "pin_memory", "set_device_i", ".type()")

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.table = cuda_table()
        self._drop: set[cst.BaseSmallStatement] = set()

    @classmethod
    def candidate(cls, facts: FileFacts, target: Target) -> bool:
        table = cuda_table()
        names = facts.qualified
        # Pinned memory (leave_Call): a `pin_memory=`/`pin_memory_device=` keyword or a
        # `.pin_memory()` call.
        if facts.spells("pin_memory", "pin_memory_device"):
            return True
        # A cast to another tensor's type string (leave_Call): `x.type(a.type())`.
        if ".type()" in facts.text:
            return True
        # A CUDA tensor type bound to a name and called by it (leave_Call).
        if not frozenset(table.tensor_types).isdisjoint(names):
            return True
        # Flags (visit_Assign): an assignment to one of the table's flags.
        if not table.flags.isdisjoint(names):
            return True
        # Calls (leave_Call -> _cuda_call): a call of a torch.cuda.* name; the owned ones act
        # only when the table lists them (it lists none of them).
        cuda = [
            name
            for name in names
            if name.startswith("torch.cuda.")
            and (
                name in table.calls
                or not (name in table.owned_names or name.startswith(table.owned_prefixes))
            )
        ]
        if target.is_xla:
            cuda += [n for n, call in table.calls.items() if call.xla_only and n in names]
        # Checks that stop the script without CUDA (visit_Assert, leave_If); a CUDA tensor type
        # set as the default (leave_Call).
        return facts.calls_one_of(*cuda, *_AVAILABLE, "torch.set_default_tensor_type")

    # -- classification ----------------------------------------------------------------------
    def _cuda_name(self, node: cst.BaseExpression) -> str | None:
        for name in self.module_names(node):
            if name.startswith("torch.cuda."):
                return name
            entry = self.table.calls.get(name)
            if entry is not None and entry.xla_only and self.target.is_xla:
                return name
        return None

    def _of_storages(self, call: cst.Call, typed: cst.BaseExpression) -> bool:
        """`sto.type(x.storage().type())`: a cast between storages (TRN066 is for tensors)."""
        receiver = call.func.value  # type: ignore[attr-defined]
        parent_of = lambda n: self.get_metadata(ParentNodeProvider, n, None)  # noqa: E731
        return any(
            is_storage(node) or storage_loop_target(node, parent_of) for node in (typed, receiver)
        )

    def _statement_of(self, call: cst.Call) -> cst.Expr | None:
        """The expression statement whose whole value is ``call`` (its value unused), else None."""
        parent = self.get_metadata(ParentNodeProvider, call, None)
        return parent if isinstance(parent, cst.Expr) and parent.value is call else None

    # -- calls -------------------------------------------------------------------------------
    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if self.is_any(original_node.func, {"torch.set_default_tensor_type"}):
            self._default_tensor_type(original_node)
            return updated_node
        held = self._type_string_held(original_node)
        if held is not None:
            name, source = held
            self.report(
                original_node,
                TypeStringCast,
                f"`{name}` holds `{_code(source)}`, a tensor's type string, which `.type()` "
                f"rejects for an XLA tensor: cast with `.to({_code(source.func.value)})` (its "
                "device and dtype) where the string is used",
                False,
            )
            return updated_node
        typed = _type_string_of(original_node)
        if typed is not None and self._of_storages(original_node, typed):
            return updated_node  # a storage's type string: a storage has no `.to(other)`
        if typed is not None and _type_string_of(updated_node) is not None:
            message = (
                f"`.type({_code(typed)}.type())` → `.to({_code(typed)})`: an XLA tensor's type "
                "string is rejected by `.type()`"
            )
            if self.report(original_node, TypeStringCast, message, True):
                inner = updated_node.args[0].value
                assert isinstance(inner, cst.Call) and isinstance(inner.func, cst.Attribute)
                assert isinstance(updated_node.func, cst.Attribute)
                return updated_node.with_changes(
                    func=updated_node.func.with_changes(attr=cst.Name("to")),
                    args=[updated_node.args[0].with_changes(value=inner.func.value)],
                )
            return updated_node
        name = self._cuda_name(original_node.func)
        if name is not None and self._of_cuda_result(original_node):
            name = None  # `torch.cuda.FloatTensor(n).fill_(0)`: the inner call is the finding
        if name is None and isinstance(original_node.func, cst.Name):
            name = self._tensor_type_alias(original_node.func)
        if name is not None:
            return self._cuda_call(name, original_node, updated_node)
        if self.is_any(original_node.func, _DATA_LOADERS):
            return self._drop_pin_keywords(original_node, updated_node)
        if m.matches(original_node.func, m.Attribute(attr=m.Name("pin_memory"))) and not any(
            n.startswith("torch.") for n in self.module_names(original_node.func)
        ):
            return self._remove_pin(original_node, updated_node)
        return updated_node

    def _type_string_held(self, call: cst.Call) -> tuple[str, cst.Call] | None:
        """(`name`, `a.type()`) where ``call`` is `x.type(name)` and the function it is in (or
        the module) binds `name = a.type()`: the string may be another's where a caller passes
        it, so this is reported, not rewritten."""
        held = _cast_argument(call)
        if not isinstance(held, cst.Name):
            return None
        scope: cst.CSTNode | None = call
        while scope is not None and not isinstance(scope, cst.FunctionDef | cst.Module):
            scope = self.get_metadata(ParentNodeProvider, scope, None)
        for assign in find(scope, cst.Assign) if scope is not None else ():
            if (
                len(assign.targets) == 1
                and isinstance(assign.targets[0].target, cst.Name)
                and assign.targets[0].target.value == held.value
                and _is_type_string(assign.value)
            ):
                return held.value, assign.value
        return None

    def _default_tensor_type(self, call: cst.Call) -> None:
        """`torch.set_default_tensor_type(torch.cuda.FloatTensor)`, or the type's name as a
        string: every tensor made after it is a CUDA tensor, so the first raises without CUDA.
        A blocker: `torch.set_default_device` does not reach the legacy constructors
        ([measured-default-cuda-tensor-type]), so which tensors need `device=` is read by a
        person."""
        if not call.args:
            return
        guard = self._availability_guard(call) if never_runs(self, call) else None
        if never_runs(self, call) and guard is None:
            return
        value = call.args[0].value
        named = self.module_names(value) & self.table.tensor_types.keys()
        text = value.evaluated_value if isinstance(value, cst.SimpleString) else None
        name = next(iter(named), None) or (text if text in self.table.tensor_types else None)
        if name is None:
            return
        device = self.target.device.expr
        message = (
            f"torch.set_default_tensor_type({name}) makes every tensor made after it a CUDA "
            "tensor: on Trainium, where there is no CUDA, the first one raises `Found no NVIDIA "
            "driver` and the script stops; remove it and give each tensor made without a "
            f"device `device={device}` (or the device of a tensor beside it); not rewritten: "
            f"torch.set_default_device({device}) does not reach `torch.Tensor([...])`"
        )
        at: cst.CSTNode = call
        if guard is not None:
            # On the GPU the check is True and the setter puts every tensor made without a
            # device on CUDA, beside the model; on Trainium it is False, the model still moves
            # (its `.cuda()` is the target's device now) and those tensors stay on the CPU. The
            # check runs on the launch path; the setter does not: the blocker is at the check.
            at = guard
            line = self.get_metadata(PositionProvider, call).start.line
            message = (
                f"`{_code(guard)}` is False on Trainium, so torch.set_default_tensor_type({name}) "
                f"(line {line}) does not run there: on a GPU it puts every tensor made without "
                "a device on CUDA beside the model; on Trainium they stay on the CPU while the "
                "model moves to the XLA device, and the first step that mixes them raises "
                f"`Expected XLA tensor`: give each tensor made without a device `device={device}` "
                "(or the device of a tensor beside it)"
            )
        if self.report(at, CudaTensorConstructor, message, False):
            self.findings[-1] = replace(
                self.findings[-1], severity=Severity.BLOCKER, related=self._deviceless(call)
            )

    def _availability_guard(self, call: cst.Call) -> cst.Call | None:
        """The ``torch.cuda.is_available()`` test of an ``if`` around ``call`` (at any depth),
        where one holds it: the branch runs on a GPU and never on Trainium."""
        parents = self.parents()
        node: cst.CSTNode | None = call
        while node is not None:
            parent = parents.get(node)
            if isinstance(parent, cst.If) and node is parent.body:
                for test in find(parent.test, cst.Call):
                    if self.is_any(test.func, set(_AVAILABLE)):
                        return test
            node = parent
        return None

    def _deviceless(self, setter: cst.Call) -> tuple[str, ...]:
        """The module's tensors made with no device, the CUDA default type put on CUDA (the
        places a person gives `device=`): factory calls without `device=` and legacy
        constructors (`torch.Tensor([1e10])`), not the setter's own argument nor one moved
        where it is made."""
        found = []
        parents = self.parents()
        for call in find(self._wrapper.module, cst.Call):
            if call is setter or any(a.keyword and a.keyword.value == "device" for a in call.args):
                continue
            moved = parents.get(call)
            if isinstance(moved, cst.Attribute) and moved.attr.value in ("to", "cuda"):
                continue  # `torch.Tensor(images).to(device)`: moved where it is made
            if self.module_names(call.func) & _DEVICELESS_FACTORIES:
                found.append(self.place(call))
        return tuple(found)

    def _tensor_type_alias(self, name: cst.Name) -> str | None:
        """The CUDA tensor type ``name`` is bound to by every assignment of it
        (`Tensor = torch.cuda.FloatTensor`), else None: a type chosen by a condition
        (`torch.cuda.FloatTensor if cuda else torch.FloatTensor`) is the evaluator's."""
        values = self.bound_values(name)
        if not values:
            return None
        types = {frozenset(self.module_names(v) & self.table.tensor_types.keys()) for v in values}
        if len(types) != 1:
            return None
        found = next(iter(types))
        return next(iter(found)) if len(found) == 1 else None

    def _of_cuda_result(self, call: cst.Call) -> bool:
        """A method of the value a `torch.cuda` call returned (qualified names run through the
        call: `torch.cuda.FloatTensor(n).fill_` is `torch.cuda.FloatTensor.fill_`)."""
        func = call.func
        return (
            isinstance(func, cst.Attribute)
            and isinstance(func.value, cst.Call)
            and self._cuda_name(func.value.func) is not None
        )

    def _cuda_call(self, name: str, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        if never_runs(self, original):
            return updated
        if name in self.table.tensor_types:
            return self._tensor_constructor(name, original, updated)
        entry = self.table.calls.get(name)
        short = name
        if entry is None:
            owned = name in self.table.owned_names or name.startswith(self.table.owned_prefixes)
            if not owned and not self._raises(
                name, original, OtherCudaCall, "replace or remove it"
            ):
                self.report(
                    original,
                    OtherCudaCall,
                    f"{short}() is a CUDA runtime API with no Trainium equivalent: replace or "
                    "remove it by hand",
                    False,
                )
            return updated
        if entry.action == "wait":
            return self._wait(short, entry, original, updated)
        if entry.action == "remove":
            statement = self._statement_of(original)
            if statement is None:
                self.report(
                    original,
                    CudaNoOpCall,
                    f"{short}() {entry.why}; its value is used here, so remove it by hand",
                    False,
                )
            elif self.report(original, CudaNoOpCall, f"{short}() removed: {entry.why}", True):
                self._drop.add(statement)
            return updated
        return self._query(short, entry, original, updated)

    def _tensor_constructor(
        self, name: str, original: cst.Call, updated: cst.Call
    ) -> cst.BaseExpression:
        """`torch.cuda.FloatTensor(d0, d1, ...)` → `torch.empty(d0, d1, ..., dtype=, device=)`
        where the arguments are certainly sizes (two or more, positional, none a list or
        starred) and the call runs after import; any other call of the type is a blocker."""
        dtype = self.table.tensor_types[name]
        device = self.target.device.expr
        why = ""
        if not dtype:
            why = "float16 or bf16 (Trainium's) is a person's choice"
        elif len(original.args) < 2:
            why = "one argument may be data or a size"
        elif any(
            arg.keyword is not None
            or arg.star
            or isinstance(arg.value, cst.List | cst.Tuple | cst.ListComp | cst.GeneratorExp)
            for arg in original.args
        ):
            why = "its arguments are not plain sizes"
        elif not self._runs_when_called(original):
            why = "it runs at import, where the device is not taken"
        guard = self._is_cuda_guard(original) if why else None
        if guard is not None:
            # dino's PCA.apply: `if x.is_cuda: x -= torch.cuda.FloatTensor(self.mean)`. An XLA
            # tensor's is_cuda is False ([measured-is-cuda-moves]): it never runs there.
            if self.report(
                original,
                CudaTensorConstructor,
                f"{name}(...) runs only where `{_code(guard)}` is true, which it never is for a "
                f"tensor on Trainium (an XLA tensor's is_cuda is False): the branch after it "
                f"runs there instead; if this one must, make it with torch.tensor(data, "
                f"dtype=torch.{dtype or 'float16'}, device={device})",
                False,
            ):
                self.findings[-1] = replace(self.findings[-1], severity=Severity.WARNING)
            return updated
        if why:
            shown = f"dtype=torch.{dtype or 'float16'}, device={device}"
            message = (
                f"{name}(...) raises `Found no NVIDIA driver` on Trainium, where there is no "
                f"CUDA: the script stops here wherever it runs; make it with "
                f"torch.tensor(data, {shown}) or torch.empty(size, {shown}); not rewritten: "
                f"{why}"
            )
            if self.report(original, CudaTensorConstructor, message, False):
                self.findings[-1] = replace(self.findings[-1], severity=Severity.BLOCKER)
            return updated
        message = f"{name}(...) → torch.empty(..., dtype=torch.{dtype}, device={device})"
        if not self.report(original, CudaTensorConstructor, message, True):
            return updated
        if not isinstance(original.func, cst.Name) or self.module_names(original.func):
            # `from torch.cuda import LongTensor` left unused (not a name bound by assignment)
            RemoveImportsVisitor.remove_unused_import_by_node(self.context, original.func)
        torch = self.add_import("torch")
        keywords = [
            cst.Arg(value=cst.parse_expression(f"{torch}.{dtype}"), keyword=cst.Name("dtype")),
            cst.Arg(value=self.emit(self.target.device), keyword=cst.Name("device")),
        ]
        equal = cst.AssignEqual(
            whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")
        )
        args = list(updated.args)
        last = args[-1].comma
        if isinstance(last, cst.Comma):
            # One size a line (`f(\n    n,\n    h,\n)`): the new arguments take the lines after
            # the sizes, and the closing parenthesis keeps its own.
            between = args[-2].comma
            args[-1] = args[-1].with_changes(comma=between)
            commas = [between, last]
        else:
            commas = [cst.MaybeSentinel.DEFAULT, cst.MaybeSentinel.DEFAULT]
        keywords = [
            k.with_changes(equal=equal, comma=c) for k, c in zip(keywords, commas, strict=True)
        ]
        return updated.with_changes(
            func=cst.parse_expression(f"{torch}.empty"), args=[*args, *keywords]
        )

    def _is_cuda_guard(self, node: cst.CSTNode) -> cst.BaseExpression | None:
        """The test of the ``if`` around ``node`` (in its function) that reads a tensor's
        ``.is_cuda`` (alone or in an ``and``), not ``self.is_cuda`` or ``args.is_cuda`` (a
        namespace of options), which may be flags; else None."""
        child, parent = node, self.get_metadata(ParentNodeProvider, node, None)
        while parent is not None and not isinstance(parent, cst.FunctionDef | cst.ClassDef):
            if isinstance(parent, cst.If) and parent.body is child:
                tests = [parent.test]
                while tests:
                    test = tests.pop()
                    if isinstance(test, cst.BooleanOperation) and isinstance(
                        test.operator, cst.And
                    ):
                        tests += [test.left, test.right]
                    elif m.matches(test, m.Attribute(attr=m.Name("is_cuda"))) and not (
                        isinstance(test.value, cst.Name)
                        and (
                            test.value.value in ("self", "cls")
                            or OPTIONS_NAME.match(test.value.value)
                        )
                    ):
                        return test
            child, parent = parent, self.get_metadata(ParentNodeProvider, parent, None)
        return None

    def _runs_when_called(self, node: cst.CSTNode) -> bool:
        """``node`` is in the body of a function or lambda (not a parameter's default), or in a
        script's `if __name__ == "__main__":` block: it runs when that is called or the script
        is run, not when its module is imported."""
        child, parent = node, self.get_metadata(ParentNodeProvider, node, None)
        while parent is not None:
            if isinstance(parent, cst.FunctionDef | cst.Lambda):
                return child is parent.body
            if isinstance(parent, cst.If) and child is parent.body and is_main_test(parent.test):
                return True
            child, parent = parent, self.get_metadata(ParentNodeProvider, parent, None)
        return False

    def _wait(
        self, short: str, entry: CudaCall, original: cst.Call, updated: cst.Call
    ) -> cst.BaseExpression:
        api = self.target.api("wait_device_ops")
        if not api:
            self.report(
                original,
                CudaSynchronize,
                f"{short}() {entry.why}, and target {self.target.name} has no wait for device "
                "operations: remove it",
                False,
            )
            return updated
        statement = self._statement_of(original)
        item = self._item_in_loop(original) if statement is not None else None
        if item is not None:
            line = self.get_metadata(PositionProvider, item).start.line
            message = (
                f"{short}() removed: every iteration of its loop waits for the device at "
                f"`{cst.Module([]).code_for_node(item)}` (line {line}) anyway; a host wait here too "
                "would stall each step"
            )
            if self.report(original, CudaSynchronize, message, True):
                self._drop.add(statement)
            return updated
        note = ""
        if self.target.is_xla:
            note = " (it does not run ops still in the lazy graph: cut the graph first if timing)"
        if not self.report(original, CudaSynchronize, f"{short}() → {api.expr}{note}", True):
            return updated
        replacement = self.emit(api) if api.module else cst.parse_expression(api.expr)
        return replacement.with_changes(lpar=updated.lpar, rpar=updated.rpar)

    def _item_in_loop(self, call: cst.Call) -> cst.Call | None:
        """An ``x.item()`` in the body of the loop ``call`` is in (mae's and DINO's per-step
        `torch.cuda.synchronize()` before logging `loss.item()`), outside nested functions."""
        loop = self.get_metadata(ParentNodeProvider, call, None)
        while loop is not None and not isinstance(loop, cst.For | cst.While):
            if isinstance(loop, cst.FunctionDef | cst.ClassDef | cst.Lambda):
                return None
            loop = self.get_metadata(ParentNodeProvider, loop, None)
        if loop is None:
            return None
        stack: list[cst.CSTNode] = [loop.body]
        while stack:
            node = stack.pop()
            if isinstance(node, cst.FunctionDef | cst.ClassDef | cst.Lambda):
                continue
            if (
                isinstance(node, cst.Call)
                and not node.args
                and m.matches(node.func, m.Attribute(attr=m.Name("item")))
            ):
                return node
            stack.extend(reversed(node.children))
        return None

    def _query(
        self, short: str, entry: CudaCall, original: cst.Call, updated: cst.Call
    ) -> cst.BaseExpression:
        if not self.target.is_xla and entry.neuron and not original.args:
            if self.report(original, CudaQuery, f"{short}() → {entry.neuron}()", True):
                self.add_import("torch")
                return updated.with_changes(func=cst.parse_expression(entry.neuron))
            return updated
        if self._sizes_launcher(original):
            return updated  # TRN025 names the launcher line to use instead
        fix = entry.neuron_fix if not self.target.is_xla and entry.neuron_fix else entry.fix
        divided = self._divides_by(original) if short.endswith("device_count") else None
        carried = None
        if divided is None and short.endswith("device_count"):
            carried = self._carried_division(original)
            divided = carried and carried[0]
        if divided is not None:
            # `rank % torch.cuda.device_count()`: 0 on the target, so the script stops there
            # with ZeroDivisionError, on every launch that reaches it.
            instead = (
                "each process drives one NeuronCore: use torch_xla.device() for its device "
                "(torch_xla.runtime.local_ordinal() for its index)"
                if isinstance(divided.operator, cst.Modulo)
                else fix
            )
            message = (
                f"`{_code(divided)}` divides by zero on Trainium, where device_count() is 0: "
                f"ZeroDivisionError; {instead}"
            )
            if carried is not None:
                line = self.get_metadata(PositionProvider, divided).start.line
                message = (
                    f"`{_code(divided)}` (line {line}) divides by zero on Trainium: {short}() is "
                    f"0 there and {carried[1]} carries it; ZeroDivisionError; {instead}"
                )
            if self.report(original, CudaQuery, message, False) and self._always_runs(divided):
                # Where it runs whenever its function does; under a branch (a SLURM launch's
                # `elif "SLURM_PROCID" in os.environ:`) it stops only the launches that take it.
                self.findings[-1] = replace(self.findings[-1], severity=Severity.BLOCKER)
            return updated
        if not self._raises(short, original, CudaQuery, fix):
            self.report(original, CudaQuery, f"{short}() {entry.why}: {fix}", False)
        return updated

    def _raises(self, name: str, call: cst.Call, rule: type[Rule], fix: str) -> bool:
        """Report ``call`` as a blocker where it raises without CUDA (the table's `raises`,
        measured): the script stops at it wherever it runs. `proven()` makes it a warning on a
        line the evaluator shows off the launch path (a flag no launch sets); a call in a block
        that runs only with CUDA never gets here (``never_runs``)."""
        error = self.table.raises.get(name)
        if error is None:
            return False
        message = (
            f"{name}() raises `{error}` on Trainium, where there is no CUDA: the script stops "
            f"here wherever it runs; {fix}"
        )
        if self.report(call, rule, message, False):
            self.findings[-1] = replace(self.findings[-1], severity=Severity.BLOCKER)
        return True

    def _always_runs(self, node: cst.CSTNode) -> bool:
        """``node`` runs whenever the function (or module) around it does: no branch, loop,
        `try`, conditional expression or short-circuit between them."""
        parent = self.get_metadata(ParentNodeProvider, node, None)
        while parent is not None and not isinstance(parent, cst.FunctionDef | cst.Module):
            if isinstance(
                parent,
                cst.If
                | cst.Else
                | cst.While
                | cst.For
                | cst.Try
                | cst.ExceptHandler
                | cst.IfExp
                | cst.BooleanOperation
                | cst.Lambda
                | cst.ClassDef
                | cst.Match,
            ):
                return False
            parent = self.get_metadata(ParentNodeProvider, parent, None)
        return True

    def _carried_division(self, call: cst.Call) -> tuple[cst.BinaryOperation, str] | None:
        """The division by the count ``call`` gives, carried through the name or attribute it is
        bound to (`args.nprocs = torch.cuda.device_count()`): a later `x / args.nprocs` in the
        same function, or `x / nprocs` in a module-level function that this one calls with the
        count as the argument for its parameter `nprocs` (pytorch-distributed's
        `main_worker(args.local_rank, args.nprocs, args)`). A plain binding only: the
        count compared (`> 1`), multiplied or reassigned first is no division."""
        assign = self.get_metadata(ParentNodeProvider, call, None)
        if not (
            isinstance(assign, cst.Assign)
            and assign.value is call
            and len(assign.targets) == 1
            and isinstance(assign.targets[0].target, cst.Name | cst.Attribute)
        ):
            return None
        key = _code(assign.targets[0].target)
        scope = self.get_metadata(ParentNodeProvider, assign, None)
        while scope is not None and not isinstance(scope, cst.FunctionDef | cst.Module):
            scope = self.get_metadata(ParentNodeProvider, scope, None)
        if scope is None:
            return None
        after = self.get_metadata(PositionProvider, assign).end.line
        module = self._wrapper.module
        functions = {
            s.name.value: s for s in module.body if isinstance(s, cst.FunctionDef)
        }  # fmt: skip
        bound = [
            n
            for n in _walk(scope)
            if isinstance(n, cst.Assign | cst.AugAssign | cst.AnnAssign)
            and n is not assign
            and any(_code(t) == key for t in _assigned(n))
        ]
        if bound:
            return None  # rebound: which value a division sees is not this call's alone
        for node in _walk(scope):
            if self.get_metadata(PositionProvider, node).start.line <= after:
                continue
            if _is_division(node) and _code(node.right) == key:
                return node, f"`{key}`"
            if isinstance(node, cst.Call) and isinstance(node.func, cst.Name):
                callee = functions.get(node.func.value)
                param = _parameter_for(callee, node, key) if callee is not None else None
                if param is None:
                    continue
                for inner in _walk(callee.body):
                    if _is_division(inner) and _code(inner.right) == param:
                        return inner, f"`{key}`, passed to {callee.name.value}() as `{param}`,"
        return None

    def _divides_by(self, call: cst.Call) -> cst.BinaryOperation | None:
        """The `x % call`, `x // call` or `x / call` that ``call`` is the divisor of."""
        parent = self.get_metadata(ParentNodeProvider, call, None)
        if (
            isinstance(parent, cst.BinaryOperation)
            and parent.right is call
            and isinstance(parent.operator, cst.Modulo | cst.FloorDivide | cst.Divide)
        ):
            return parent
        return None

    def _sizes_launcher(self, call: cst.Call) -> bool:
        if not (self.target.is_xla and self.enabled(DeviceCountLauncher)):
            return False
        module = self._wrapper.module
        facts = self.device_facts(module)
        return call in facts.launchers.values()

    # -- pinned memory -----------------------------------------------------------------------
    def _no_pinning(self) -> str:
        """Why the target pins nothing, for the messages."""
        if self.target.is_xla:
            return "XLA devices do not use pinned memory"
        return "TorchNeuron has no pinned memory (Neuron platforms report none)"

    def _drop_pin_keywords(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        if self.target.is_xla and XLA_DEVICE in self.run.profile.already_xla:
            return updated  # written for Neuron already: the loader only warns ([measured-cuda-calls]), as NxD's
        pins = [
            arg
            for arg in original.args
            if arg.keyword is not None and arg.keyword.value in _PIN_KEYWORDS
        ]
        if all(m.matches(arg.value, m.Name("False") | m.Name("None")) for arg in pins):
            return updated  # pins nothing (also `pins` empty)
        if any(_has_call(arg.value) for arg in pins):
            self.report(
                pins[0],
                PinnedMemory,
                f"{self._no_pinning()}: drop the pin_memory argument "
                "(its value calls a function, so the tool left it)",
                False,
            )
            return updated
        if not self.report(
            pins[0], PinnedMemory, f"pin_memory dropped: {self._no_pinning()}", True
        ):
            return updated
        kept = [
            new for old, new in zip(original.args, updated.args, strict=True) if old not in pins
        ]
        if kept:
            last = original.args[-1]
            kept[-1] = kept[-1].with_changes(comma=last.comma if last in pins else kept[-1].comma)
        return updated.with_changes(args=kept)

    def _remove_pin(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        statement: cst.BaseSmallStatement | None
        assert isinstance(original.func, cst.Attribute) and isinstance(updated.func, cst.Attribute)
        statement = self._statement_of(original)
        if statement is not None and _has_call(original.func.value):
            statement = None  # keep the statement for the calls in `x`: `next(it).pin_memory()`
        parent = self.get_metadata(ParentNodeProvider, original, None)
        if (
            isinstance(parent, cst.Assign)
            and parent.value is original
            and len(parent.targets) == 1
            and isinstance(original.func.value, cst.Name)
            and m.matches(parent.targets[0].target, m.Name(original.func.value.value))
        ):
            statement = parent  # `x = x.pin_memory()` would become `x = x`
        why = (
            "raises without CUDA and XLA devices do not use pinned memory"
            if self.target.is_xla
            else "raises where the device registers no pinned-memory allocator, and "
            + self._no_pinning()
        )
        message = f".pin_memory() {why}: " + (
            "statement removed" if statement is not None else "call removed"
        )
        if not self.report(original, PinnedMemory, message, True):
            return updated
        if statement is not None:
            self._drop.add(statement)
            return updated
        inner = updated.func.value
        return inner.with_changes(
            lpar=[*updated.lpar, *inner.lpar], rpar=[*inner.rpar, *updated.rpar]
        )

    # -- flags -------------------------------------------------------------------------------
    def visit_Assign(self, node: cst.Assign) -> None:
        flags = [
            t.target
            for t in node.targets
            if not self.module_names(t.target).isdisjoint(self.table.flags)
        ]
        if not flags:
            return
        flag = min(self.module_names(flags[0]) & self.table.flags)
        short = flag
        if len(node.targets) > 1 or _has_call(node.value):
            self.report(
                node,
                CudaBackendFlag,
                f"{short} has no effect on Trainium: remove this assignment by hand",
                False,
            )
            return
        if self.report(
            node, CudaBackendFlag, f"{short} = ... removed: no effect on Trainium", True
        ):
            self._drop.add(node)

    # -- checks that stop the script without CUDA ----------------------------------------------
    def _availability(self, node: cst.BaseExpression) -> cst.Call | None:
        """The availability call ``node`` is (parentheses aside), else None."""
        if isinstance(node, cst.Call) and not node.args and self.is_any(node.func, _AVAILABLE):
            return node
        return None

    def _within(self, node: cst.BaseExpression) -> cst.Call | None:
        """An availability call anywhere in ``node``."""
        found = find(node, cst.Call)
        return next((c for c in found if self._availability(c) is not None), None)

    def visit_Assert(self, node: cst.Assert) -> None:
        if never_runs(self, node):
            return  # nanochat's assert under a kept `if device_type == "cuda":`
        call = self._availability(node.test)
        if call is not None and not (node.msg is not None and _has_call(node.msg)):
            rule = GuardedCudaRequiredCheck if self._guarded(node) else CudaRequiredCheck
            if self.report(
                call,
                rule,
                f"`assert {_code(call)}` removed: it is False on Trainium and "
                + (
                    "stops the script where this branch runs"
                    if rule is not CudaRequiredCheck
                    else "stopped the script before it trained"
                )
                + " (torch_xla.device() raises by itself when no accelerator is there)",
                True,
            ):
                self._drop.add(node)
            return
        inner = self._within(node.test)
        if inner is not None and self._stops_without(node.test, inner) and not self._guarded(node):
            self.report(
                inner,
                CudaRequiredCheck,
                f"`{_code(inner)}` is False on Trainium, so this assert stops the script before "
                "it trains: remove the CUDA check from the condition (the device is "
                f"{self.target.device.expr})",
                False,
            )

    def _guarded(self, node: cst.CSTNode) -> bool:
        """Whether an `if` in its function keeps ``node`` from running on every call (yolov5's
        `elif device:` runs it only with an explicit CUDA `--device`): then not a claim that
        the program stops."""
        current = self.get_metadata(ParentNodeProvider, node, None)
        while current is not None and not isinstance(current, cst.FunctionDef | cst.Module):
            if isinstance(current, cst.If | cst.Else | cst.Try | cst.For | cst.While):
                return True
            current = self.get_metadata(ParentNodeProvider, current, None)
        return False

    def _stops_without(self, test: cst.BaseExpression, call: cst.Call) -> bool:
        """Whether ``test`` is False whenever ``call`` is: the call is the test or one operand
        of an ``and`` (not under ``not``/``or``)."""
        if test is call:
            return True
        if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.And):
            return self._stops_without(test.left, call) or self._stops_without(test.right, call)
        return False

    def leave_If(
        self, original_node: cst.If, updated_node: cst.If
    ) -> cst.BaseStatement | cst.RemovalSentinel:
        test = original_node.test
        # An `if` whose statements were all dropped goes with them (DropsStatements).
        kept = super().leave_If(original_node, updated_node)
        if not (
            isinstance(test, cst.UnaryOperation)
            and isinstance(test.operator, cst.Not)
            and original_node.orelse is None
        ):
            return kept
        call = self._availability(test.expression)
        if call is None or not self._only_stops(original_node.body):
            return kept
        if self.report(
            call,
            CudaRequiredCheck,
            f"`if not {_code(call)}:` and the exit under it removed: it is False on Trainium and "
            "stopped the script before it trained (torch_xla.device() raises by itself when no "
            "accelerator is there)",
            True,
        ):
            return cst.RemoveFromParent()
        return updated_node

    def _only_stops(self, body: cst.BaseSuite) -> bool:
        """Whether every statement of ``body`` raises, exits or prints (a message, then exit)
        and one raises or exits."""
        smalls: list[cst.BaseSmallStatement] = []
        lines = body.body if isinstance(body, cst.IndentedBlock) else [body]
        for line in lines:
            if not isinstance(line, cst.SimpleStatementLine | cst.SimpleStatementSuite):
                return False
            smalls.extend(line.body)
        stops = False
        for small in smalls:
            if isinstance(small, cst.Raise):
                stops = True
            elif isinstance(small, cst.Expr) and isinstance(small.value, cst.Call):
                names = self.module_names(small.value.func)
                if names & _EXITS:
                    stops = True
                elif not names & {"builtins.print"} and not _is_log(small.value):
                    return False
            else:
                return False
        return stops


def _is_log(call: cst.Call) -> bool:
    """``logger.error(...)``, ``logging.warning(...)``: a message before the exit."""
    return m.matches(
        call.func,
        m.Attribute(attr=m.Name("error") | m.Name("warning") | m.Name("critical") | m.Name("info")),
    )


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


def _walk(node: cst.CSTNode):
    """``node`` and every node under it, outside nested functions, classes and lambdas."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(
            reversed(
                [
                    c
                    for c in current.children
                    if not isinstance(c, cst.FunctionDef | cst.ClassDef | cst.Lambda)
                ]
            )
        )


def _is_division(node: cst.CSTNode) -> bool:
    return isinstance(node, cst.BinaryOperation) and isinstance(
        node.operator, cst.Modulo | cst.FloorDivide | cst.Divide
    )


def _assigned(node: cst.Assign | cst.AugAssign | cst.AnnAssign) -> list[cst.BaseExpression]:
    if isinstance(node, cst.Assign):
        return [t.target for t in node.targets]
    return [node.target]


def _parameter_for(function: cst.FunctionDef, call: cst.Call, key: str) -> str | None:
    """The name of ``function``'s parameter that ``call`` passes the expression ``key`` to."""
    params = function.params
    positional = [*params.posonly_params, *params.params]
    for index, arg in enumerate(call.args):
        if _code(arg.value) != key or arg.star:
            continue
        if arg.keyword is not None:
            names = {p.name.value for p in positional} | {
                p.name.value for p in params.kwonly_params
            }
            return arg.keyword.value if arg.keyword.value in names else None
        return positional[index].name.value if index < len(positional) else None
    return None
