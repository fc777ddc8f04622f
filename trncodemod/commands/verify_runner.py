"""Run a training script on XLA:CPU and meter torch_xla's metrics per training step.

    PJRT_DEVICE=CPU python verify_runner.py --warmup 2 --steps 10 --json out.json train.py ARGS...

This file runs in the interpreter that has torch and torch-xla (``trncodemod verify`` starts it
as a script); the tool itself never imports torch. ``--steps N`` stops the script cleanly (a
``StepLimitReached`` raised from the step hook) once N steps after the warm-up are measured.

A *step* is one training iteration: one optimizer step (any ``torch.optim.Optimizer``, seen
through the global step hooks, so ``xm.optimizer_step``, ``GradScaler.step`` and a plain
``optimizer.step()`` all count once), closed by the first graph cut after it: ``torch_xla.sync``,
``xm.mark_step``, the sync inside ``xm.optimizer_step(barrier=True)`` or the one an
``MpDeviceLoader`` makes when it hands out the next batch. A script that never cuts the graph
(an un-migrated one) has its step closed by the next optimizer step instead, and its last step
by the end of the script. Work that runs inside a cut (step closures) belongs to that step.

After ``--warmup`` steps the metrics are cleared (``met.clear_all()``, [xla-metrics]); every
later step gets a record of what it added: compiles (``CompileTime`` samples and the
``UncachedCompile`` counter), executions (``ExecuteTime`` samples), device-to-host transfers
(``TransferFromDeviceTime`` samples) and CPU fallbacks (``aten::*`` counters). What runs after
the last step (evaluation, checkpoints) is the ``tail`` record. Transfers made inside
``torch.save`` / ``xm.save`` are also counted apart (``save_d2h``): a checkpoint must copy the
weights to the host, a per-step sync need not.

The JSON is rewritten after every measured step, so a script that crashes the process (an
un-migrated one can exhaust memory compiling ever-growing graphs) still leaves its numbers, with
``exit_status`` null. The exit status is the script's.
"""

from __future__ import annotations

import argparse
import functools
import gc
import json
import os
import runpy
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

os.environ.setdefault("PJRT_DEVICE", "CPU")

import torch  # noqa: E402
import torch_xla  # noqa: E402
import torch_xla.core.xla_model as xm  # noqa: E402
import torch_xla.debug.metrics as met  # noqa: E402
import torch_xla.distributed.parallel_loader as pl  # noqa: E402
from torch.optim.optimizer import (  # noqa: E402
    register_optimizer_step_post_hook,
    register_optimizer_step_pre_hook,
)


class StepLimitReached(BaseException):
    """Raised from the step hook to stop the script once enough steps are measured."""


COUNTS = ("compiles", "uncached_compiles", "executions", "d2h", "saves", "save_d2h")


def _samples(name: str) -> int:
    data = met.metric_data(name)
    return int(data[0]) if data else 0


class StepMeter:
    def __init__(self, warmup: int, on_step: Callable[[], None] = lambda: None) -> None:
        self.warmup = warmup
        self.on_step = on_step
        self.completed = 0
        self.pending = False  # an optimizer step ran and no cut has closed it yet
        self.optimizer_depth = 0
        self.cut_depth = 0
        self.save_depth = 0
        self.cut_label: str | None = None
        self.calls = dict.fromkeys(
            (
                "optimizer steps",
                "torch_xla.sync",
                "xm.mark_step",
                "xm.optimizer_step",
                "MpDeviceLoader batches",
            ),
            0,
        )
        self.saves = 0
        self.save_d2h = 0
        self.warmup_record: dict[str, Any] | None = None
        self.steps: list[dict[str, Any]] = []
        self.seen_fallbacks: set[str] = set()
        if warmup == 0:
            met.clear_all()
        self.last = self._snapshot()

    def _snapshot(self) -> dict[str, Any]:
        fallbacks = {
            name: int(met.counter_value(name) or 0)
            for name in met.counter_names()
            if name.startswith("aten::")
        }
        self.seen_fallbacks.update(name for name, value in fallbacks.items() if value)
        return {
            "compiles": _samples("CompileTime"),
            "uncached_compiles": int(met.counter_value("UncachedCompile") or 0),
            "executions": _samples("ExecuteTime"),
            "d2h": _samples("TransferFromDeviceTime"),
            "saves": self.saves,
            "save_d2h": self.save_d2h,
            "fallbacks": fallbacks,
        }

    def _since_last(self, now: dict[str, Any]) -> dict[str, Any]:
        record: dict[str, Any] = {key: now[key] - self.last[key] for key in COUNTS}
        record["fallbacks"] = {
            name: value - self.last["fallbacks"].get(name, 0)
            for name, value in now["fallbacks"].items()
            if value > self.last["fallbacks"].get(name, 0)
        }
        return record

    def close_step(self, closed_by: str) -> None:
        self.pending = False
        self.completed += 1
        if self.completed < self.warmup:
            return
        # Executions finish on a runtime thread: wait, or their samples land in the next step.
        xm.wait_device_ops()
        now = self._snapshot()
        if self.completed == self.warmup:
            # Nothing was cleared before: the warm-up numbers count from the script's start.
            self.warmup_record = now
            met.clear_all()
            self.last = self._snapshot()
        else:
            record = self._since_last(now)
            self.steps.append({"step": self.completed, "closed_by": closed_by, **record})
            self.last = now
        self.on_step()

    def report(self) -> dict[str, Any]:
        """What was measured so far; the ``tail`` is everything since the last closed step."""
        tail = self._since_last(self._snapshot())
        return {
            "warmup_steps": self.warmup,
            "steps_completed": self.completed,
            "measured_steps": len(self.steps),
            "calls": self.calls,
            "warmup": self.warmup_record,
            "per_step": self.steps,
            "tail": tail,
            "measured_totals": {
                key: sum(step[key] for step in self.steps) + tail[key] for key in COUNTS
            },
            "fallback_ops": sorted(self.seen_fallbacks | set(met.executed_fallback_ops())),
        }

    def finish(self) -> dict[str, Any]:
        if self.pending:
            self.close_step("end of script")
        xm.wait_device_ops()
        return self.report()

    # What is wrapped ----------------------------------------------------------------------

    def _before_optimizer_step(self, optimizer, args, kwargs) -> None:
        if self.optimizer_depth == 0 and self.pending:
            self.close_step("next optimizer step")
        self.optimizer_depth += 1

    def _after_optimizer_step(self, optimizer, args, kwargs) -> None:
        self.optimizer_depth -= 1
        if self.optimizer_depth == 0:
            self.calls["optimizer steps"] += 1
            self.pending = True

    def _cutting(self, label: str, func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            outermost = self.cut_depth == 0  # xm.mark_step calls torch_xla.sync
            if outermost:
                self.calls[label] += 1
            self.cut_depth += 1
            try:
                return func(*args, **kwargs)
            finally:
                self.cut_depth -= 1
                if outermost and self.pending:
                    self.close_step(self.cut_label or label)

        return wrapper

    def _counting(self, label: str, func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            self.calls[label] += 1
            return func(*args, **kwargs)

        return wrapper

    def _device_loader_next(self, func):
        @functools.wraps(func)
        def wrapper(loader):
            self.calls["MpDeviceLoader batches"] += 1
            self.cut_label = "MpDeviceLoader"
            try:
                return func(loader)
            finally:
                self.cut_label = None

        return wrapper

    def _saving(self, func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            outermost = self.save_depth == 0  # xm.save calls torch.save
            before = _samples("TransferFromDeviceTime")
            self.save_depth += 1
            try:
                return func(*args, **kwargs)
            finally:
                self.save_depth -= 1
                if outermost:
                    self.saves += 1
                    self.save_d2h += _samples("TransferFromDeviceTime") - before

        return wrapper

    def install(self) -> None:
        register_optimizer_step_pre_hook(self._before_optimizer_step)
        register_optimizer_step_post_hook(self._after_optimizer_step)
        # The loader, xm.mark_step and xm.optimizer_step all call `torch_xla.sync` by attribute.
        torch_xla.sync = self._cutting("torch_xla.sync", torch_xla.sync)
        xm.mark_step = self._cutting("xm.mark_step", xm.mark_step)
        xm.optimizer_step = self._counting("xm.optimizer_step", xm.optimizer_step)
        pl.PerDeviceLoader.next = self._device_loader_next(pl.PerDeviceLoader.next)
        torch.save = self._saving(torch.save)
        xm.save = self._saving(xm.save)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Meter torch_xla metrics per training step.")
    parser.add_argument("--warmup", type=int, default=2, help="steps before the metrics reset")
    parser.add_argument("--json", type=Path, required=True, help="where to write the report")
    parser.add_argument("--steps", type=int, default=0, help="stop after this many measured steps")
    parser.add_argument("script", type=Path)
    parser.add_argument("args", nargs=argparse.REMAINDER)
    options = parser.parse_args(argv)
    script = options.script.resolve()
    header = {"script": str(script), "argv": options.args}

    def write(report: dict[str, Any]) -> None:
        options.json.write_text(json.dumps({**header, **report}, indent=2) + "\n", "utf-8")

    meter = StepMeter(options.warmup)

    def on_step() -> None:
        write({"exit_status": None, "error": None, **meter.report()})
        if options.steps and len(meter.steps) >= options.steps:
            raise StepLimitReached

    meter.on_step = on_step
    meter.install()
    sys.argv = [str(script), *options.args]
    sys.path.insert(0, str(script.parent))
    error, status, stopped = None, 0, False
    try:
        runpy.run_path(str(script), run_name="__main__")
    except StepLimitReached:
        status, stopped = 0, True
    except SystemExit as exit_:
        status = exit_.code if isinstance(exit_.code, int) else int(exit_.code is not None)
    except BaseException:  # the report must say why the script stopped
        error, status = traceback.format_exc(), 1
    try:
        report = meter.finish()
    except Exception:
        error = (error or "") + traceback.format_exc()
        report = meter.report()
        status = status or 1
    write(
        {
            "exit_status": status,
            "error": error,
            "stopped_after_steps": stopped,
            "float64_on_device": _float64_tensors_on_device(),
            **report,
        }
    )
    return status


def _float64_tensors_on_device() -> int:
    """Live float64 tensors on the XLA device at the end (Neuron has no FP64: [neuron-data-types, xla-dtype])."""
    count = 0
    for obj in gc.get_objects():
        try:
            if (
                isinstance(obj, torch.Tensor)
                and obj.device.type == "xla"
                and obj.dtype == torch.float64
            ):
                count += 1
        except Exception:  # objects that fail isinstance/attribute access are not tensors
            continue
    return count


if __name__ == "__main__":
    sys.exit(main())
