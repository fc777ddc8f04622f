"""Run one side of ``trncodemod verify --against``: a training script for a few optimizer steps,
recording the loss of every ``backward()`` and a checksum of the trained parameters.

    python verify_against_runner.py --steps 5 --json out.json --source copy.py train.py ARGS...

This file runs in the interpreter that has torch (and torch-xla for an XLA run); the tool never
imports torch. ``--source`` is the code to run (the original from a git revision, or a variant
of the migration with only some of its changes); it runs *as* ``train.py``: ``__file__``, the
import path and ``sys.argv`` are the script's, so both runs see the same neighbours and data.

For both runs, so that they compute the same thing:

* CUDA requests run on the CPU: ``cuda`` devices and device strings become ``cpu``,
  ``torch.cuda.is_available()`` answers True (the script takes its GPU path), CUDA autocast is CPU
  autocast of the same dtype, a CUDA ``GradScaler`` a CPU one, and ``nn.DataParallel`` the
  module it wraps (as without a GPU). ``--neuron`` maps the
  ``neuron`` device the same way (``verify_eager_runner``).
* Random numbers come from the CPU generator: a random tensor made on a device (``device=``, or
  ``*_like``/in-place draws on a device tensor) is drawn on the CPU and moved, so XLA's own
  generator is never used. Dropout masks are drawn the same way in both runs (``--no-dropout``:
  no dropout at all). ``torch``, ``random`` and ``numpy`` are seeded with ``--seed`` before the
  script starts (the script's own seeding then applies as written).
* Sample order: a ``DistributedSampler`` over one replica with ``shuffle=True`` (what a
  scale-out migration gives a shuffling loader) draws the order the loader's ``RandomSampler``
  would, from the global generator, instead of from its own ``seed + epoch`` generator; the
  report counts the epochs so drawn (``sampler_as_random``).
* The loss is the tensor ``backward()`` is called on (``GradScaler.scale``'s input when the
  script scales it); it is kept and read after the run, so no step gains a sync.

The JSON report: ``losses`` (step, value, and ``skipped`` where a ``GradScaler`` skipped the
update that backward() was for: inf/NaN gradients under fp16 loss scaling), ``params`` (name, shape, sum, absolute sum, in the
optimizers' order), ``precision`` (autocast dtypes entered, parameter dtypes, XLA bf16
variables), ``steps``, ``exit_status``, ``error``.
"""

from __future__ import annotations

import argparse
import functools
import gc
import inspect
import json
import linecache
import os
import random
import sys
import traceback
import types
import warnings
from pathlib import Path
from typing import Any

import torch
import torch.nn.functional as F
import torch.utils.data
from torch.optim.optimizer import register_optimizer_step_post_hook
from torch.overrides import TorchFunctionMode


class StepLimitReached(BaseException):
    """Raised after the last optimizer step to stop the script."""


def _is(device: Any, kind: str) -> bool:
    if isinstance(device, torch.device):
        return device.type == kind
    return isinstance(device, str) and (device == kind or device.startswith(kind + ":"))


class CudaOnCpu(TorchFunctionMode):
    """Every ``cuda`` device handed to torch becomes ``cpu``, and so does a device index given
    to ``Tensor.to`` (`x.to(0)`); ``Tensor.cuda()`` stays on the CPU."""

    def _map(self, value: Any) -> Any:
        if _is(value, "cuda"):
            return torch.device("cpu") if isinstance(value, torch.device) else "cpu"
        if isinstance(value, list | tuple) and any(_is(v, "cuda") for v in value):
            return type(value)(self._map(v) for v in value)
        return value

    def __torch_function__(self, func, types, args=(), kwargs=None):  # type: ignore[no-untyped-def]
        kwargs = kwargs or {}
        if func is torch.device:
            return func(*args, **kwargs)
        if func in (torch.Tensor.cuda, torch.Tensor.pin_memory):  # both need a CUDA device
            return args[0]
        if func is torch.Tensor.to:
            # `x.to(0)`, `x.to(device=0)`: a device index is a CUDA device (golden device_zero).
            if len(args) > 1 and type(args[1]) is int:
                args = (args[0], "cpu", *args[2:])
            if type(kwargs.get("device")) is int:
                kwargs = {**kwargs, "device": "cpu"}
        args = tuple(self._map(a) for a in args)
        kwargs = {k: self._map(v) for k, v in kwargs.items()}
        return func(*args, **kwargs)


class Precision:
    """The autocast dtypes a run entered."""

    def __init__(self) -> None:
        self.autocast: set[str] = set()


def _cpu_autocast_type(device_type: Any) -> Any:
    if isinstance(device_type, torch.device):
        device_type = device_type.type
    return "cpu" if device_type in ("cuda", "neuron") else device_type


def install_cuda_on_cpu(precision: Precision) -> None:
    cuda = torch.cuda
    cuda.is_available = lambda: True
    cuda.device_count = lambda: 1
    cuda.current_device = lambda: 0
    cuda.set_device = lambda device: None
    cuda.synchronize = lambda device=None: None
    cuda.empty_cache = lambda: None
    cuda.get_device_name = lambda device=None: "cpu (trncodemod verify --against)"
    cuda.is_bf16_supported = lambda *a, **k: True
    for name in ("memory_allocated", "max_memory_allocated", "memory_reserved"):
        setattr(cuda, name, lambda device=None: 0)
    cuda.reset_peak_memory_stats = lambda device=None: None
    # What torch itself asks once CUDA is "available" (Adam's graph-capture check).
    cuda.is_current_stream_capturing = lambda: False
    torch.cuda.graphs.is_current_stream_capturing = lambda: False
    base = torch.amp.autocast_mode.autocast

    class Autocast(base):  # type: ignore[misc, valid-type]
        def __init__(self, device_type: Any = "cuda", dtype: Any = None, *a: Any, **k: Any):
            kind = device_type.type if isinstance(device_type, torch.device) else device_type
            if dtype is None and kind == "cuda":
                # CUDA's default is float16 (the CPU's bfloat16): compute what CUDA would.
                dtype = torch.float16
            super().__init__(_cpu_autocast_type(device_type), dtype, *a, **k)

    class CudaAutocast(Autocast):
        def __init__(self, enabled: bool = True, dtype: Any = torch.float16, cache_enabled=True):  # type: ignore[no-untyped-def]
            super().__init__("cuda", dtype, enabled=enabled, cache_enabled=cache_enabled)

    enter = base.__enter__

    def entered(self):  # type: ignore[no-untyped-def]
        if self._enabled:  # every autocast, torch_xla's too, enters here
            precision.autocast.add(str(self.fast_dtype).replace("torch.", ""))
        return enter(self)

    base.__enter__ = entered  # type: ignore[method-assign]
    torch.autocast = Autocast  # type: ignore[misc]
    torch.amp.autocast = Autocast  # type: ignore[misc]
    torch.cuda.amp.autocast = CudaAutocast  # type: ignore[misc]
    scaler = torch.amp.grad_scaler.GradScaler

    class GradScaler(scaler):  # type: ignore[misc, valid-type]
        def __init__(self, device: Any = "cuda", *a: Any, **k: Any) -> None:
            super().__init__(_cpu_autocast_type(device), *a, **k)

    class CudaGradScaler(GradScaler):
        def __init__(self, *a: Any, **k: Any) -> None:
            super().__init__("cuda", *a, **k)

    torch.amp.GradScaler = GradScaler  # type: ignore[misc]
    torch.cuda.amp.GradScaler = CudaGradScaler  # type: ignore[misc]
    loader_init = torch.utils.data.DataLoader.__init__

    @functools.wraps(loader_init)
    def no_pinning(self, *a: Any, **k: Any) -> None:  # pinned memory needs a real CUDA device
        if len(a) <= 7:  # pin_memory is the eighth positional parameter
            k["pin_memory"] = False
        loader_init(self, *a, **k)

    torch.utils.data.DataLoader.__init__ = no_pinning  # type: ignore[method-assign]

    def one_device(self, module, device_ids=None, output_device=None, dim=0) -> None:  # type: ignore[no-untyped-def]
        # What DataParallel is without a GPU: the module itself (its forward calls it as is).
        # Built for "cuda", it would ask the driver for each GPU's properties (pytorch/examples'
        # ImageNet trainer wraps its model so).
        torch.nn.Module.__init__(self)
        self.module = module
        self.device_ids = []
        self.dim = dim

    torch.nn.DataParallel.__init__ = one_device  # type: ignore[method-assign]
    torch.cuda.amp.GradScaler = lambda *a, **k: scaler("cpu", *a, **k)  # type: ignore[misc]


# -- Random numbers from the CPU generator ------------------------------------------------------

FACTORIES = ("randn", "rand", "randint", "randperm", "normal", "bernoulli", "multinomial")
LIKE = ("randn_like", "rand_like", "randint_like")
IN_PLACE = (
    "normal_",
    "uniform_",
    "bernoulli_",
    "random_",
    "exponential_",
    "geometric_",
    "log_normal_",
    "cauchy_",
)


def _off_cpu(value: Any) -> bool:
    return isinstance(value, torch.Tensor) and value.device.type != "cpu"


def _to_cpu(value: Any) -> Any:
    return value.cpu() if _off_cpu(value) else value


def _drawn_on_cpu(func):  # type: ignore[no-untyped-def]
    """``func`` drawing on the CPU when asked for a device (``device=``) or given device
    tensors, the result moved to that device."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):  # type: ignore[no-untyped-def]
        device = kwargs.get("device")
        tensors = [a for a in (*args, *kwargs.values()) if _off_cpu(a)]
        if device is not None and torch.device(device).type != "cpu":
            target = torch.device(device)
        elif device is None and tensors:
            target = tensors[0].device
        else:
            return func(*args, **kwargs)
        grad = kwargs.pop("requires_grad", False)
        kwargs = {k: _to_cpu(v) for k, v in kwargs.items()}
        if "device" in kwargs:
            kwargs["device"] = "cpu"
        result = func(*(_to_cpu(a) for a in args), **kwargs).to(target)
        return result.requires_grad_() if grad else result

    return wrapper


def _in_place_on_cpu(method):  # type: ignore[no-untyped-def]
    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        if not _off_cpu(self):
            return method(self, *args, **kwargs)
        drawn = torch.empty(self.shape, dtype=self.dtype)
        method(drawn, *(_to_cpu(a) for a in args), **{k: _to_cpu(v) for k, v in kwargs.items()})
        with torch.no_grad():
            self.copy_(drawn.to(self.device))
        return self

    return wrapper


def _mask(input: torch.Tensor, p: float, shape: tuple[int, ...]) -> torch.Tensor:
    keep = torch.empty(shape, dtype=torch.float32).bernoulli_(1 - p)  # the CPU generator
    return keep.to(device=input.device, dtype=input.dtype) / (1 - p)


def _dropout(no_dropout: bool, channels: bool):  # type: ignore[no-untyped-def]
    def dropout(input, p=0.5, training=True, inplace=False):  # type: ignore[no-untyped-def]
        if no_dropout or not training or p == 0:
            return input
        if p == 1:
            return input.mul_(0) if inplace else input * 0
        # Whole channels for dropout1d/2d/3d: one draw per (batch, channel).
        shape = (*input.shape[:2], *[1] * (input.dim() - 2)) if channels else tuple(input.shape)
        mask = _mask(input, p, shape)
        return input.mul_(mask) if inplace else input * mask

    return dropout


def install_random(no_dropout: bool) -> None:
    for name in FACTORIES + LIKE:
        setattr(torch, name, _drawn_on_cpu(getattr(torch, name)))
    for name in IN_PLACE:
        setattr(torch.Tensor, name, _in_place_on_cpu(getattr(torch.Tensor, name)))
    F.dropout = _dropout(no_dropout, channels=False)
    for name in ("dropout1d", "dropout2d", "dropout3d"):
        setattr(F, name, _dropout(no_dropout, channels=True))
    if no_dropout:
        sdpa = F.scaled_dot_product_attention

        @functools.wraps(sdpa)
        def attention(*args, **kwargs):  # type: ignore[no-untyped-def]
            if len(args) > 4:
                args = (*args[:4], 0.0, *args[5:])
            elif "dropout_p" in kwargs:
                kwargs["dropout_p"] = 0.0
            return sdpa(*args, **kwargs)

        F.scaled_dot_product_attention = attention


# -- Sample order -------------------------------------------------------------------------------


class SampleOrder:
    """How many times a loader's ``DistributedSampler`` drew its order as a ``RandomSampler``."""

    def __init__(self) -> None:
        self.epochs = 0


def install_sample_order(order: SampleOrder) -> None:
    """A ``DistributedSampler`` over one replica with ``shuffle=True`` draws the order the
    loader's ``RandomSampler`` would (``DataLoader(shuffle=True)``, the loader a scale-out
    migration gives the sampler to): torch 2.9's ``RandomSampler.__iter__`` itself, lazily, its
    seed drawn from the global generator (or the loader's ``generator=``) at the first sample, so
    the global stream after it (dropout, ``randn``) is the original's too. At one replica both
    yield every sample once, in a shuffled order: ``DistributedSampler`` shuffles with its own
    generator seeded ``seed + epoch``, which no seeding of the script reaches. More replicas, or
    ``shuffle=False`` (in order, as a loader that does not shuffle), run as torch has them."""
    from torch.utils.data import DistributedSampler, RandomSampler

    draw = DistributedSampler.__iter__

    def __iter__(self):  # type: ignore[no-untyped-def]
        if self.num_replicas != 1 or not self.shuffle:
            return draw(self)
        order.epochs += 1
        generator = getattr(self, "_trncodemod_loader_generator", None)
        return iter(RandomSampler(self.dataset, generator=generator))

    DistributedSampler.__iter__ = __iter__  # type: ignore[method-assign]
    loader_init = torch.utils.data.DataLoader.__init__

    @functools.wraps(loader_init)
    def init(loader, *a: Any, **k: Any) -> None:  # type: ignore[no-untyped-def]
        loader_init(loader, *a, **k)
        if isinstance(loader.sampler, DistributedSampler):  # what shuffle=True would draw with
            loader.sampler._trncodemod_loader_generator = loader.generator

    torch.utils.data.DataLoader.__init__ = init  # type: ignore[method-assign]


# -- Process groups and torchrun's environment --------------------------------------------------

# What a program started by torchrun reads from its environment (torch.distributed.run).
TORCHRUN_NAMES = frozenset(
    (
        "RANK",
        "LOCAL_RANK",
        "WORLD_SIZE",
        "LOCAL_WORLD_SIZE",
        "GROUP_RANK",
        "GROUP_WORLD_SIZE",
        "ROLE_RANK",
        "ROLE_WORLD_SIZE",
        "MASTER_ADDR",
        "MASTER_PORT",
    )
)


class TorchrunNeeded(KeyError, ValueError):
    """The program read a variable torchrun sets, or rendezvoused through them, without them:
    it is meant to be started by torchrun. A ``KeyError`` (what ``os.environ[name]`` raises, so a
    script that handles a missing variable still does) and a ``ValueError`` (what
    ``init_process_group``'s ``env://`` rendezvous raises)."""

    def __init__(self, what: str) -> None:
        super().__init__(what)
        self.what = what

    def __str__(self) -> str:
        return f"{self.what}: set when torchrun starts the program"


def _environ_class():  # type: ignore[no-untyped-def]
    base = type(os.environ)

    class TorchrunProbe(base):  # type: ignore[misc, valid-type]
        """``os.environ``, whose ``[name]`` of an unset torchrun variable raises
        ``TorchrunNeeded``; ``get``, ``in`` and ``setdefault`` answer as before."""

        def __getitem__(self, key):  # type: ignore[no-untyped-def]
            try:
                return base.__getitem__(self, key)
            except KeyError:
                if key in TORCHRUN_NAMES:
                    raise TorchrunNeeded(f"os.environ[{key!r}]") from None
                raise

        def get(self, key, default=None):  # type: ignore[no-untyped-def]
            try:
                return base.__getitem__(self, key)
            except KeyError:
                return default

        def __contains__(self, key) -> bool:  # type: ignore[no-untyped-def]
            try:
                base.__getitem__(self, key)
            except KeyError:
                return False
            return True

    return TorchrunProbe


class ProcessGroups:
    """What the run's ``torch.distributed`` setup was mapped to: NCCL backends run as gloo (the
    CPU has no NCCL), ``DistributedDataParallel(device_ids=...)`` of a module on the CPU without
    them (as DDP of a CPU module is written)."""

    def __init__(self) -> None:
        self.backends: list[str] = []  # each backend asked for that was mapped to gloo
        self.ddp_device_ids = 0


def _gloo(backend: Any) -> Any:
    """``nccl`` (or a ``cuda:nccl`` part of a device map) as gloo; anything else as given."""
    if isinstance(backend, str) and "nccl" in backend.lower():
        return "gloo"
    return backend


def install_process_groups(groups: ProcessGroups, probe: bool) -> None:
    """NCCL as gloo and DDP's device ids on a CPU module dropped, in both runs; with ``probe``
    (the run was not started with torchrun's variables), a program that needs them ends with
    ``TorchrunNeeded`` saying what it asked for."""
    import torch.distributed as dist
    from torch.nn.parallel import DistributedDataParallel

    init = dist.init_process_group  # `--neuron`'s mapping of the `neuron` backend, if installed
    signature = inspect.signature(dist.distributed_c10d.init_process_group)

    @functools.wraps(init)
    def init_process_group(*args, **kwargs):  # type: ignore[no-untyped-def]
        call = signature.bind(*args, **kwargs)
        call.apply_defaults()
        given = call.arguments
        if _gloo(given["backend"]) != given["backend"]:
            groups.backends.append(str(given["backend"]))
            given["backend"] = _gloo(given["backend"])
        method = given["init_method"]
        if probe and given["store"] is None and (method is None or method.startswith("env://")):
            unset = [n for n in ("MASTER_ADDR", "MASTER_PORT") if n not in os.environ]
            unset += [
                name
                for name, argument in (("RANK", "rank"), ("WORLD_SIZE", "world_size"))
                if given[argument] == -1 and name not in os.environ
            ]
            if unset:
                raise TorchrunNeeded(
                    f"init_process_group's env:// rendezvous ({', '.join(unset)} unset)"
                )
        return init(*call.args, **call.kwargs)

    dist.init_process_group = init_process_group
    ddp_init = DistributedDataParallel.__init__

    @functools.wraps(ddp_init)
    def ddp(self, module, device_ids=None, output_device=None, *args, **kwargs):  # type: ignore[no-untyped-def]
        devices = {p.device.type for p in module.parameters()}
        if device_ids is not None and devices == {"cpu"}:
            groups.ddp_device_ids += 1
            device_ids = output_device = None
        ddp_init(self, module, device_ids, output_device, *args, **kwargs)

    DistributedDataParallel.__init__ = ddp  # type: ignore[method-assign]
    if probe:
        os.environ.__class__ = _environ_class()


def torchrun_needed(error: BaseException | None) -> str | None:
    """What the program asked torchrun's environment for, if that is why it stopped."""
    seen = set()
    while error is not None and id(error) not in seen:
        if isinstance(error, TorchrunNeeded):
            return error.what
        seen.add(id(error))
        error = error.__cause__ or error.__context__
    return None


# -- Recording --------------------------------------------------------------------------------


class Recorder:
    def __init__(self, steps: int) -> None:
        self.limit = steps
        self.steps = 0
        self.losses: list[tuple[int, torch.Tensor]] = []
        # Indices into ``losses`` of backward() calls whose update a GradScaler skipped
        # (inf/NaN gradients under fp16 loss scaling): the optimizer did not step for them.
        self.skipped: set[int] = set()
        self.optimizers: list[Any] = []
        self.scaled: dict[int, torch.Tensor] = {}  # id(scaled loss) -> the loss
        self.depth = 0
        self.names: dict[int, str] = {}

    def record(self, tensor: Any) -> None:
        if isinstance(tensor, torch.Tensor):
            loss = self.scaled.pop(id(tensor), tensor)
            self.losses.append((self.steps, loss.detach()))

    def install(self) -> None:
        backward = torch.Tensor.backward
        autograd_backward = torch.autograd.backward

        @functools.wraps(backward)
        def tensor_backward(tensor, *args, **kwargs):  # type: ignore[no-untyped-def]
            self.depth += 1
            try:
                if self.depth == 1:
                    self.record(tensor)
                return backward(tensor, *args, **kwargs)
            finally:
                self.depth -= 1

        @functools.wraps(autograd_backward)
        def backward_function(tensors, *args, **kwargs):  # type: ignore[no-untyped-def]
            self.depth += 1
            try:
                if self.depth == 1:
                    for t in [tensors] if isinstance(tensors, torch.Tensor) else tensors:
                        self.record(t)
                return autograd_backward(tensors, *args, **kwargs)
            finally:
                self.depth -= 1

        torch.Tensor.backward = tensor_backward  # type: ignore[method-assign]
        torch.autograd.backward = backward_function
        scale = torch.amp.grad_scaler.GradScaler.scale

        @functools.wraps(scale)
        def scaled(scaler, outputs):  # type: ignore[no-untyped-def]
            result = scale(scaler, outputs)
            if isinstance(outputs, torch.Tensor):
                self.scaled[id(result)] = outputs
            return result

        torch.amp.grad_scaler.GradScaler.scale = scaled  # type: ignore[method-assign]
        scaler_step = torch.amp.grad_scaler.GradScaler.step

        @functools.wraps(scaler_step)
        def scaler_stepped(scaler, optimizer, *args, **kwargs):  # type: ignore[no-untyped-def]
            before = self.steps
            result = scaler_step(scaler, optimizer, *args, **kwargs)
            if self.steps == before:  # found inf/NaN gradients: no optimizer step
                self.skipped.update(
                    i for i, (step, _) in enumerate(self.losses) if step == self.steps
                )
            return result

        torch.amp.grad_scaler.GradScaler.step = scaler_stepped  # type: ignore[method-assign]

        def after_step(optimizer, args, kwargs) -> None:  # type: ignore[no-untyped-def]
            if not any(o is optimizer for o in self.optimizers):
                self.optimizers.append(optimizer)
                self.name_parameters()  # while the script's model is alive
            self.steps += 1
            if self.limit and self.steps >= self.limit:
                raise StepLimitReached

        register_optimizer_step_post_hook(after_step)

    def loss_values(self) -> list[dict[str, Any]]:
        if not self.losses:
            return []
        values = [t.float().sum().cpu().item() for _, t in self.losses]
        return [
            {"step": step, "value": value, **({"skipped": True} if i in self.skipped else {})}
            for i, ((step, _), value) in enumerate(zip(self.losses, values, strict=True))
        ]

    def name_parameters(self) -> None:
        """Each parameter's name in the largest module that holds it."""
        with warnings.catch_warnings():  # gc also finds torch's deprecated module aliases
            warnings.simplefilter("ignore")
            modules = [o for o in gc.get_objects() if isinstance(o, torch.nn.Module)]
        for module in sorted(modules, key=lambda m: len(list(m.parameters()))):
            self.names.update({id(p): n for n, p in module.named_parameters()})

    def params(self) -> list[dict[str, Any]]:
        names = self.names
        out = []
        for optimizer in self.optimizers:
            for group in optimizer.param_groups:
                for param in group["params"]:
                    value = param.detach().cpu().double()
                    out.append(
                        {
                            "name": names.get(id(param), f"param{len(out)}"),
                            "shape": list(value.shape),
                            "dtype": str(param.dtype).replace("torch.", ""),
                            "sum": value.sum().item(),
                            "abs_sum": value.abs().sum().item(),
                        }
                    )
        return out


def settle_device() -> None:
    """Run what the script left pending on the XLA device as one graph, before any value is read.

    The last optimizer step stops the script from its post-hook, before the script's own graph
    cut, so the updates are still pending. Read one tensor at a time from there, torch-xla 2.9
    can hand one parameter another's value, and keep it: after ``torch._VF.lstm_cell`` (what
    ``nn.LSTM`` runs on XLA) and an optimizer step, reading ``bias_ih`` alone and then ``bias_hh``
    gives ``bias_hh`` the values of ``bias_ih`` (the two get the same gradient);
    ``benchmarks/xla_quirks/lstm_pending_read.py`` reproduces it in 15 lines. One
    ``torch_xla.sync()`` over every live tensor first, as the script's own cut would do, reads
    each right; it adds no sync to the measured steps, which are over.
    """
    if "torch_xla" in sys.modules:
        import torch_xla

        torch_xla.sync()


def _seed(seed: int) -> None:
    random.seed(seed)
    torch.manual_seed(seed)
    try:
        import numpy
    except ImportError:
        return
    numpy.random.seed(seed)


def _run(source: Path, script: Path) -> None:
    text = source.read_text("utf-8")
    code = compile(text, str(script), "exec")
    # Tracebacks show the code that ran, not the file on disk under that name.
    linecache.cache[str(script)] = (len(text), None, text.splitlines(True), str(script))
    module = types.ModuleType("__main__")
    module.__file__ = str(script)
    module.__builtins__ = __builtins__  # type: ignore[attr-defined]
    saved = sys.modules.get("__main__")
    sys.modules["__main__"] = module
    try:
        exec(code, module.__dict__)
    finally:
        if saved is not None:
            sys.modules["__main__"] = saved


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Record a training script's losses.")
    parser.add_argument("--json", type=Path, required=True)
    parser.add_argument("--steps", type=int, default=0, help="stop after this many steps")
    parser.add_argument("--source", type=Path, help="the code to run as SCRIPT")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--neuron", action="store_true", help="map the neuron device to cpu")
    parser.add_argument("--no-dropout", action="store_true")
    parser.add_argument(
        "--torchrun", action="store_true", help="started with torchrun's variables (world size 1)"
    )
    parser.add_argument("script", type=Path)
    parser.add_argument("args", nargs=argparse.REMAINDER)
    options = parser.parse_args(argv)
    script = options.script.resolve()
    precision = Precision()
    recorder = Recorder(options.steps)
    if options.neuron:
        sys.path.insert(0, str(Path(__file__).parent))
        from verify_eager_runner import NeuronOnCpu
        from verify_eager_runner import install as install_neuron

        install_neuron(NeuronOnCpu())
    install_cuda_on_cpu(precision)
    CudaOnCpu().__enter__()
    install_random(options.no_dropout)
    order = SampleOrder()
    install_sample_order(order)
    groups = ProcessGroups()
    install_process_groups(groups, probe=not options.torchrun)
    recorder.install()
    _seed(options.seed)
    sys.argv = [str(script), *options.args]
    sys.path.insert(0, str(script.parent))
    error, status, stopped, needs = None, 0, False, None
    try:
        _run(options.source or script, script)
    except StepLimitReached:
        stopped = True
    except SystemExit as exit_:
        status = exit_.code if isinstance(exit_.code, int) else int(exit_.code is not None)
    except BaseException as raised:  # the report must say why the script stopped
        error, status, needs = traceback.format_exc(), 1, torchrun_needed(raised)
    report: dict[str, Any] = {"script": str(script), "argv": options.args, "steps": recorder.steps}
    try:
        settle_device()
        report["losses"] = recorder.loss_values()
        report["params"] = recorder.params()
    except Exception:
        error, status = (error or "") + traceback.format_exc(), status or 1
        report.setdefault("losses", [])
        report.setdefault("params", [])
    report["precision"] = {
        "autocast": sorted(precision.autocast),
        "param_dtypes": sorted({p["dtype"] for p in report["params"]}),
        "xla_bf16": sorted(
            name for name in ("XLA_USE_BF16", "XLA_DOWNCAST_BF16") if os.environ.get(name) == "1"
        ),
    }
    report.update(
        exit_status=status,
        error=error,
        stopped_after_steps=stopped,
        xla="torch_xla" in sys.modules,
        dropout="off" if options.no_dropout else "same masks",
        sampler_as_random=order.epochs,
        needs_torchrun=needs,
        gloo_for=groups.backends,
        ddp_device_ids_dropped=groups.ddp_device_ids,
    )
    options.json.write_text(json.dumps(report, indent=2) + "\n", "utf-8")
    return status


if __name__ == "__main__":
    sys.exit(main())
