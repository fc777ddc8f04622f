"""Run a script migrated for TorchNeuron eagerly on the CPU, the ``neuron`` device mapped to
``cpu`` for this run only, and count its training steps.

    python verify_eager_runner.py --steps 10 --json out.json train.py ARGS...

There is no TorchNeuron for a machine without Trainium ([torchneuron-overview]), so this proves that
the migrated program is valid eager PyTorch that trains on the device it names, not that neuronx-cc
compiles it. The script file is never changed; for the run:

* ``neuron`` becomes a device name (``torch.utils.rename_privateuse1_backend``, the mechanism
  TorchNeuron itself registers through), and a ``TorchFunctionMode`` maps every ``neuron``
  device or device string passed to a torch function or tensor method (``.to``, factories,
  ``device=``) to ``cpu``. Each mapping is counted: a script that never names the device would
  train on the CPU on Trainium too.
* ``torch.autocast("neuron")`` runs as CPU autocast; ``torch.accelerator`` answers as TorchNeuron
  does (available, one device, the ``neuron`` device); ``init_process_group(backend="neuron")``
  uses gloo, with torchrun's variables set for one process where the script has none.
* importing ``torch_xla`` fails (and is recorded): TorchNeuron has none.
* pinning (``x.pin_memory()``, ``DataLoader(pin_memory=True)``) raises, with the fix named:
  TorchNeuron documents no pinned memory (docs/verify.md, "verify --target neuron").

A step is one optimizer step (the global optimizer hooks); ``--steps N`` stops the script once N
have run. The JSON report is written after every step and at the end.
"""

from __future__ import annotations

import argparse
import builtins
import json
import os
import runpy
import socket
import sys
import traceback
import types
from pathlib import Path
from typing import Any

os.environ["TORCH_DEVICE_BACKEND_AUTOLOAD"] = "0"  # no backend (torch_xla) loaded behind our back

import torch  # noqa: E402
import torch.distributed as dist  # noqa: E402
from torch.optim.optimizer import register_optimizer_step_post_hook  # noqa: E402
from torch.overrides import TorchFunctionMode  # noqa: E402

DEVICE = "neuron"


class StepLimitReached(BaseException):
    """Raised from the step hook to stop the script once enough steps ran."""


class TorchXlaBlocked:
    """Makes torch_xla absent, as where only TorchNeuron is installed: ``import torch_xla`` fails
    (and is recorded) and ``importlib.util.find_spec("torch_xla")`` is None, which torch itself
    asks (``torch.cuda.amp`` does)."""

    def __init__(self) -> None:
        self.attempts: list[str] = []
        self._import = builtins.__import__

    def install(self) -> None:
        sys.modules["torch_xla"] = None  # type: ignore[assignment]
        builtins.__import__ = self._guarded

    def _guarded(self, name, globals=None, locals=None, fromlist=(), level=0):  # type: ignore[no-untyped-def]
        if level == 0 and (name == "torch_xla" or name.startswith("torch_xla.")):
            self.attempts.append(name)
            raise ModuleNotFoundError(
                f"trncodemod verify --target neuron: `import {name}` in a TorchNeuron program "
                "(TorchNeuron has no torch_xla)",
                name=name,
            )
        return self._import(name, globals, locals, fromlist, level)


class NeuronOnCpu(TorchFunctionMode):
    """Every ``neuron`` device handed to torch becomes ``cpu``; counts how often."""

    def __init__(self) -> None:
        super().__init__()
        self.mapped = 0

    def _map(self, value: Any) -> Any:
        if isinstance(value, torch.device) and value.type == DEVICE:
            self.mapped += 1
            return torch.device("cpu")
        if isinstance(value, str) and (value == DEVICE or value.startswith(DEVICE + ":")):
            self.mapped += 1
            return "cpu"
        if (
            isinstance(value, list | tuple)
            and value
            and any(isinstance(v, torch.device | str) for v in value)
        ):
            return type(value)(self._map(v) for v in value)
        return value

    def __torch_function__(self, func, types, args=(), kwargs=None):  # type: ignore[no-untyped-def]
        if func is torch.device:  # the device object stays `neuron`, as on TorchNeuron
            return func(*args, **(kwargs or {}))
        if func is torch.Tensor.pin_memory:
            # `neuron` is PrivateUse1 here with no pinned-memory allocator, so torch raises
            # anyway ("register PrivateUse1HooksInterface", or "CPU device type not an
            # accelerator" once a loader's pin device is mapped); say why in the user's terms.
            raise RuntimeError(
                "pinned memory for `neuron`: TorchNeuron documents none and this run registers "
                "no pinned-memory allocator; drop `pin_memory` (`trncodemod apply --target "
                "neuron` does: TRN314)"
            )
        args = tuple(self._map(a) for a in args)
        kwargs = {k: self._map(v) for k, v in (kwargs or {}).items()}
        return func(*args, **kwargs)


def _cpu_type(device_type: Any) -> Any:
    if isinstance(device_type, torch.device):
        device_type = device_type.type
    return "cpu" if device_type == DEVICE else device_type


class _Autocast(torch.amp.autocast_mode.autocast):
    def __init__(self, device_type: Any = DEVICE, *args: Any, **kwargs: Any) -> None:
        super().__init__(_cpu_type(device_type), *args, **kwargs)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def install(mode: NeuronOnCpu) -> None:
    torch.utils.rename_privateuse1_backend(DEVICE)
    # What TorchNeuron's device module answers, for torch.accelerator and get_device_module.
    module = types.ModuleType(f"torch.{DEVICE}")
    module.is_available = lambda: True  # type: ignore[attr-defined]
    module.device_count = lambda: 1  # type: ignore[attr-defined]
    module.current_device = lambda: 0  # type: ignore[attr-defined]
    module.synchronize = lambda device=None: None  # type: ignore[attr-defined]
    torch._register_device_module(DEVICE, module)
    accelerator = torch.accelerator
    accelerator.is_available = lambda: True
    accelerator.device_count = lambda: 1
    accelerator.current_accelerator = lambda check_available=False: torch.device(DEVICE)
    accelerator.synchronize = lambda device=None: None
    accelerator.current_device_index = lambda: 0
    accelerator.set_device_index = lambda device: None
    torch.autocast = _Autocast
    torch.amp.autocast = _Autocast
    scaler = torch.amp.GradScaler
    torch.amp.GradScaler = lambda device=DEVICE, *a, **k: scaler(_cpu_type(device), *a, **k)
    init = dist.init_process_group

    def init_process_group(backend: Any = None, *args: Any, **kwargs: Any) -> Any:
        if backend in (DEVICE, None) or kwargs.get("backend") == DEVICE:
            kwargs.pop("backend", None)
            backend = "gloo"
            for name, value in (("RANK", "0"), ("WORLD_SIZE", "1"), ("LOCAL_RANK", "0")):
                os.environ.setdefault(name, value)
            os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
            os.environ.setdefault("MASTER_PORT", str(_free_port()))
        return init(backend, *args, **kwargs)

    dist.init_process_group = init_process_group
    compile_ = torch.compile

    def compile(model: Any = None, *args: Any, **kwargs: Any) -> Any:
        # `backend="neuron"` needs neuronx-cc; the eager run checks the program, not the compile.
        if kwargs.get("backend") == DEVICE:
            kwargs["backend"] = "eager"
        return compile_(model, *args, **kwargs)

    torch.compile = compile
    mode.__enter__()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Run a TorchNeuron script eagerly on the CPU.")
    parser.add_argument("--json", type=Path, required=True, help="where to write the report")
    parser.add_argument("--steps", type=int, default=0, help="stop after this many steps")
    parser.add_argument("script", type=Path)
    parser.add_argument("args", nargs=argparse.REMAINDER)
    options = parser.parse_args(argv)
    script = options.script.resolve()
    already = sorted(
        name for name, module in sys.modules.items() if name.startswith("torch_xla") and module
    )
    blocker = TorchXlaBlocked()
    blocker.install()
    mode = NeuronOnCpu()
    steps = 0

    def write(**extra: Any) -> None:
        report = {
            "script": str(script),
            "argv": options.args,
            "torch": torch.__version__,
            "steps": steps,
            "neuron_device_uses": mode.mapped,
            "torch_xla_imports": sorted(set(blocker.attempts) | set(already)),
            **extra,
        }
        options.json.write_text(json.dumps(report, indent=2) + "\n", "utf-8")

    def on_step(optimizer, args, kwargs) -> None:  # type: ignore[no-untyped-def]
        nonlocal steps
        steps += 1
        write(exit_status=None, error=None)
        if options.steps and steps >= options.steps:
            raise StepLimitReached

    register_optimizer_step_post_hook(on_step)
    install(mode)
    sys.argv = [str(script), *options.args]
    sys.path.insert(0, str(script.parent))
    error, status, stopped = None, 0, False
    try:
        runpy.run_path(str(script), run_name="__main__")
    except StepLimitReached:
        stopped = True
    except SystemExit as exit_:
        status = exit_.code if isinstance(exit_.code, int) else int(exit_.code is not None)
    except BaseException:  # the report must say why the script stopped
        error, status = traceback.format_exc(), 1
    write(exit_status=status, error=error, stopped_after_steps=stopped)
    return status


if __name__ == "__main__":
    sys.exit(main())
