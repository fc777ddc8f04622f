"""``trncodemod verify SCRIPT [-- ARGS]``: run a (migrated) script on a real XLA runtime on the
CPU (``PJRT_DEVICE=CPU``) for a bounded number of steps and judge it by [xla-metrics].

``--target neuron``: there is no TorchNeuron without Trainium, so the script runs eagerly on the
CPU with the ``neuron`` device mapped to ``cpu`` for the run (``verify_eager_runner.py``; the file
is never changed); it fails if the run raises, imports torch_xla, never uses the ``neuron``
device, or trains zero steps. That proves valid eager PyTorch, not that neuronx-cc accepts it.

The script runs in a separate interpreter that has torch and torch-xla (``--python``, default
this one) through ``verify_runner.py``; this process never imports torch. The report: graphs
compiled, uncached compiles after the warm-up, executions and device-to-host transfers per step,
CPU fallback ops with the file and line that caused them (torch_xla's ``PT_XLA_DEBUG`` frames),
float64 tensors left on the device; then a verdict with an exit code: 0 pass, 1 fail, 2 the run
itself failed or the runtime is missing.

``--against ORIGINAL`` asks another question, whether the migration trains the same model:
``verify_against.py`` (and ``verify_bisect.py`` for ``--bisect``).
"""

from __future__ import annotations

import json
import math
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import click

from trncodemod.pipeline.isolation import run_group
from trncodemod.targets import DEFAULT_TARGET, load_target, target_names

RUNNER = Path(__file__).with_name("verify_runner.py")
EAGER_RUNNER = Path(__file__).with_name("verify_eager_runner.py")
EAGER_CAVEAT = (
    "this proves the program is valid eager PyTorch that trains on the `neuron` device (mapped "
    "to the CPU for this run); it does not prove that neuronx-cc compiles it or that it runs on "
    "Trainium"
)
INSTALL = (
    "pip install torch==2.9.0 torch-xla==2.9.0  (from PyPI, Linux x86_64, Python 3.10-3.13; "
    "the two versions must match exactly; in a trncodemod checkout, pip install '.[verify]' "
    "installs the same)"
)
# Fallbacks that are expected: reading a value for logging ([xla-metrics] criterion 4).
EXPECTED_FALLBACKS = {"aten::_local_scalar_dense"}
_FRAME = re.compile(r"^\s+(?P<function>\S+) \((?P<file>.+):(?P<line>\d+)\)$")


class RuntimeMissing(click.ClickException):
    exit_code = 2


def _probe(python: str, code: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """``python -c code`` with ``env`` added; RuntimeMissing when it cannot be run at all."""
    try:
        return subprocess.run(
            [python, "-c", code],
            capture_output=True,
            text=True,
            timeout=300,
            env={**os.environ, **env},
        )
    except (OSError, subprocess.TimeoutExpired) as err:
        raise RuntimeMissing(f"cannot run {python}: {err}") from None


def probe_runtime(python: str) -> tuple[str, str]:
    """torch and torch-xla versions of ``python``; RuntimeMissing with the fix otherwise."""
    code = "import json, torch, torch_xla; print(json.dumps([torch.__version__, torch_xla.__version__]))"
    result = _probe(python, code, {"PJRT_DEVICE": "CPU"})
    if result.returncode != 0:
        last = (result.stderr.strip().splitlines() or ["no output"])[-1]
        if "undefined symbol" in result.stderr:
            reason = "torch and torch-xla are installed but their ABIs differ"
        elif "No module named" in result.stderr:
            reason = "torch or torch-xla is not installed"
        else:
            reason = f"importing torch_xla failed ({last})"
        raise RuntimeMissing(f"{reason} in {python}: {INSTALL}")
    torch_version, xla_version = json.loads(result.stdout.strip().splitlines()[-1])
    if torch_version.split("+")[0] != xla_version.split("+")[0]:
        raise RuntimeMissing(
            f"torch {torch_version} with torch-xla {xla_version} in {python}: {INSTALL}"
        )
    return torch_version, xla_version


def probe_torch(python: str) -> str:
    """torch's version in ``python``; RuntimeMissing with the fix otherwise."""
    code = "import json, torch; print(json.dumps(torch.__version__))"
    result = _probe(python, code, {"TORCH_DEVICE_BACKEND_AUTOLOAD": "0"})
    if result.returncode != 0:
        raise RuntimeMissing(
            f"torch is not importable in {python}: pip install torch (2.9 or newer; the eager "
            "check needs no torch-xla)"
        )
    return json.loads(result.stdout.strip().splitlines()[-1])


def _ran(report: dict[str, Any]) -> Criterion:
    """Both runs' first criterion: the script exited cleanly (or was stopped after the steps)."""
    return Criterion(
        "script ran",
        report["exit_status"] == 0 and not report.get("error"),
        f"exit status {report['exit_status']}"
        + (" (stopped after the steps)" if report.get("stopped_after_steps") else ""),
    )


def judge_eager(report: dict[str, Any]) -> list[Criterion]:
    """The eager run on the CPU: it ran, imported no torch_xla, used the device, trained."""
    imports = report.get("torch_xla_imports") or []
    return [
        _ran(report),
        Criterion(
            "no torch_xla",
            not imports,
            ("imported " + ", ".join(imports)) if imports else "torch_xla never imported",
        ),
        Criterion(
            "uses the neuron device",
            report.get("neuron_device_uses", 0) > 0,
            f"{report.get('neuron_device_uses', 0)} move(s) or allocation(s) on `neuron`"
            + ("" if report.get("neuron_device_uses") else ": the script trains on the CPU"),
        ),
        Criterion(
            "trained", report.get("steps", 0) > 0, f"{report.get('steps', 0)} optimizer step(s)"
        ),
    ]


def run_eager(
    python: str, script: Path, args: tuple[str, ...], steps: int, timeout: int
) -> tuple[dict[str, Any], str]:
    with tempfile.TemporaryDirectory(prefix="trncodemod-verify-") as tmp:
        out = Path(tmp) / "report.json"
        command = [python, str(EAGER_RUNNER), "--steps", str(steps), "--json", str(out)]
        command += [str(script), *args]
        try:
            result = run_group(command, timeout, supervised=True, remove=tmp, text=True)
            stderr = result.stderr
        except subprocess.TimeoutExpired as err:
            stderr = (
                err.stderr.decode("utf-8", "replace")
                if isinstance(err.stderr, bytes)
                else (err.stderr or "")
            )
            stderr += f"\ntrncodemod verify: the script ran past {timeout} s and was stopped"
        if not out.exists():
            raise click.ClickException(f"{script}: the run left no report:\n{stderr[-3000:]}")
        return json.loads(out.read_text("utf-8")), stderr


def verify_eager(script: Path, script_args, steps, python, timeout, fmt) -> None:  # type: ignore[no-untyped-def]
    torch_version = probe_torch(python)
    report, _stderr = run_eager(python, script, script_args, steps, timeout)
    criteria = judge_eager(report)
    passed = all(c.passed for c in criteria)
    if fmt == "json":
        click.echo(
            json.dumps(
                {
                    "script": str(script),
                    "target": "neuron",
                    "torch": torch_version,
                    "passed": passed,
                    "proves": EAGER_CAVEAT,
                    "criteria": [asdict(c) for c in criteria],
                    "run": report,
                },
                indent=2,
            )
        )
    else:
        click.echo(f"{script} eagerly on the CPU, `neuron` mapped to `cpu` (torch {torch_version})")
        for c in criteria:
            click.echo(f"  {'PASS' if c.passed else 'FAIL'} {c.name}: {c.detail}")
        click.echo("verdict: " + ("pass" if passed else "fail") + f" ({EAGER_CAVEAT})")
        if report.get("error"):
            click.echo(report["error"].rstrip(), err=True)
    sys.exit(0 if passed else 1)


def fallback_frames(stderr: str, script: Path) -> list[dict[str, Any]]:
    """Where the user's code caused an unlowered op or a host read: the innermost frame of each
    FRAME block of PT_XLA_DEBUG's "Unlowered Op usage summary" that lies in the user's files."""
    frames: list[dict[str, Any]] = []
    in_summary, count, taken = False, 0, True
    for raw in stderr.splitlines():
        line = raw.split("pt-xla-profiler:", 1)[-1]
        if "Unlowered Op usage summary" in line:
            in_summary = True
            continue
        if not in_summary:
            continue
        if line.startswith("FRAME (count="):
            count, taken = int(line.split("=", 1)[1].split(")", 1)[0]), False
            continue
        match = _FRAME.match(line)
        if taken or not match:
            continue
        file = match["file"]
        if file.startswith("<") or "site-packages" in file or Path(file) == RUNNER:
            continue
        taken = True
        frames.append(
            {
                "file": file,
                "line": int(match["line"]),
                "function": match["function"],
                "count": count,
                "in_script": Path(file) == script,
            }
        )
    return frames


@dataclass(frozen=True)
class Criterion:
    name: str
    passed: bool
    detail: str
    blocking: bool = True


def judge(report: dict[str, Any], log_interval: int) -> list[Criterion]:
    """The pass criteria read from the metrics report [xla-metrics], measured after the warm-up."""
    steps = report["per_step"]
    measured = len(steps)
    criteria = [
        _ran(report),
        Criterion(
            "steps measured",
            measured > 0,
            f"{measured} step(s) after {report['warmup_steps']} warm-up",
        ),
    ]
    if measured and not any(step["executions"] for step in steps):
        # Nothing ran on the XLA device: the other criteria would judge an empty run.
        criteria.append(
            Criterion(
                "graphs ran on the XLA device",
                False,
                f"0 graph executions in {measured} step(s): the script trained, but not on the "
                "XLA device (the model and batches stay on the CPU; see the device findings of "
                "`trncodemod check`)",
            )
        )
        return criteria
    if measured:
        uncached = sum(step["uncached_compiles"] for step in steps)
        criteria.append(
            Criterion(
                "no new compiles after warm-up", uncached == 0, f"{uncached} uncached compile(s)"
            )
        )
        worst = max(step["executions"] for step in steps)
        criteria.append(
            Criterion(
                "about one graph execution per step",
                worst <= 2,
                f"at most {worst} per step (more means a mid-step sync: .item() before backward, print, data-dependent if)",
            )
        )
        d2h = sum(step["d2h"] - step["save_d2h"] for step in steps)
        allowed = math.ceil(measured / log_interval) + 1
        criteria.append(
            Criterion(
                "device-to-host transfers only at log steps",
                d2h <= allowed,
                f"{d2h} over {measured} steps (allowed {allowed} at log interval {log_interval}, checkpoint saves apart)",
            )
        )
    unexpected = sorted(set(report.get("fallback_ops", [])) - EXPECTED_FALLBACKS)
    criteria.append(
        Criterion(
            "no CPU fallback ops",
            not unexpected,
            ", ".join(unexpected) or "only aten::_local_scalar_dense from logging, if any",
        )
    )
    float64 = report.get("float64_on_device", 0)
    criteria.append(
        Criterion(
            "no float64 on the device",
            float64 == 0,
            f"{float64} float64 tensor(s) live at the end (f32 on Neuron, f64 on XLA:CPU)",
            blocking=False,
        )
    )
    return criteria


def run_script(
    python: str, script: Path, args: tuple[str, ...], steps: int, warmup: int, timeout: int
) -> tuple[dict[str, Any], str]:
    with tempfile.TemporaryDirectory(prefix="trncodemod-verify-") as tmp:
        out = Path(tmp) / "report.json"
        env = {**os.environ, "PJRT_DEVICE": "CPU", "PT_XLA_DEBUG": "1"}
        command = [
            python,
            str(RUNNER),
            "--warmup",
            str(warmup),
            "--steps",
            str(steps),
            "--json",
            str(out),
            str(script),
            *args,
        ]
        try:
            result = run_group(command, timeout, supervised=True, remove=tmp, text=True, env=env)
            stderr = result.stderr
        except subprocess.TimeoutExpired as err:
            stderr = (
                (err.stderr or b"").decode("utf-8", "replace")
                if isinstance(err.stderr, bytes)
                else (err.stderr or "")
            )
            stderr += f"\ntrncodemod verify: the script ran past {timeout} s and was stopped"
        if not out.exists():
            raise click.ClickException(f"{script}: the run left no report:\n{stderr[-3000:]}")
        return json.loads(out.read_text("utf-8")), stderr


@click.command("verify")
@click.argument("script", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.argument("script_args", nargs=-1, type=click.UNPROCESSED)
@click.option("--steps", default=10, show_default=True, help="Steps to measure after the warm-up.")
@click.option(
    "--warmup",
    default=3,
    show_default=True,
    help="Steps before the metrics reset (the first step initialises optimizer state, the second "
    "still adds to accumulators that start as Python numbers: [xla-metrics] says 2-3).",
)
@click.option(
    "--log-interval", type=click.IntRange(min=1), help="Logging interval (default: configuration)."
)
@click.option(
    "--python", default=sys.executable, show_default=True, help="Interpreter with torch-xla."
)
@click.option(
    "--timeout", default=600, show_default=True, help="Seconds before the run is stopped."
)
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
@click.option(
    "--against",
    metavar="ORIGINAL",
    help="Compare with ORIGINAL (a file, or a git revision: SCRIPT as committed there) run on "
    "the CPU: the same steps, arguments and seeds; each step's loss and the trained parameters "
    "must agree within the precision the runs use. Exit 0 same, 1 different, 2 a run failed.",
)
@click.option(
    "--bisect",
    is_flag=True,
    help="With --against: when the runs differ, find the change of the migration responsible "
    "(its rules and lines) in about log2(changes) runs.",
)
@click.option(
    "--seed", default=0, show_default=True, help="With --against: seed set before both runs."
)
@click.option(
    "--no-dropout",
    is_flag=True,
    help="With --against: turn dropout off in both runs (default: the same masks in both).",
)
@click.option(
    "--original-args",
    metavar="WORDS",
    help="With --against: the original's arguments (shell words) instead of ARGS, where the "
    "migration needs a flag the original does not take (e.g. nanoGPT's `--device=xla`).",
)
@click.option(
    "--target",
    type=click.Choice(target_names()),
    default=DEFAULT_TARGET,
    show_default=True,
    help="The target SCRIPT was migrated for. XLA targets: run on XLA:CPU and judge its graphs "
    "([xla-metrics]); neuron: run eagerly on the CPU with `neuron` mapped to `cpu` (no torch_xla, "
    "the device used, steps trained).",
)
def verify_command(
    script,
    script_args,
    steps,
    warmup,
    log_interval,
    python,
    timeout,
    fmt,
    against,
    bisect,
    seed,
    no_dropout,
    original_args,
    target,
) -> None:
    """Run SCRIPT (after `--`, its ARGS) for a bounded number of steps and judge it: on XLA:CPU,
    or eagerly on the CPU for a TorchNeuron program (`--target neuron`). With --against, compare
    its losses and trained parameters with ORIGINAL's run on the CPU."""
    from trncodemod.config import load_settings

    if against is None and (bisect or no_dropout or original_args is not None):
        raise click.UsageError(
            "--bisect, --no-dropout and --original-args compare runs: they need --against"
        )
    if against is not None:
        from trncodemod.commands.verify_against import RunOptions, verify_against

        # No probe first (one interpreter start less): a run that cannot import torch or
        # torch_xla fails with the import error, and the verdict is "could not run" (exit 2).
        is_xla = load_target(target).is_xla
        import shlex

        options = RunOptions(
            python,
            script.resolve(),
            script_args,
            steps,
            seed,
            no_dropout,
            timeout,
            None if original_args is None else tuple(shlex.split(original_args)),
        )
        sys.exit(verify_against(options, against, is_xla, target, bisect, fmt))

    if not load_target(target).is_xla:
        verify_eager(script.resolve(), script_args, steps, python, timeout, fmt)

    interval = log_interval or load_settings(script.parent).log_interval
    torch_version, xla_version = probe_runtime(python)
    script = script.resolve()
    report, stderr = run_script(python, script, script_args, steps, warmup, timeout)
    criteria = judge(report, interval)
    frames = fallback_frames(stderr, script)
    passed = all(c.passed for c in criteria if c.blocking)
    if fmt == "json":
        click.echo(
            json.dumps(
                {
                    "script": str(script),
                    "torch": torch_version,
                    "torch_xla": xla_version,
                    "passed": passed,
                    "criteria": [asdict(c) for c in criteria],
                    "fallback_frames": frames,
                    "metrics": report,
                },
                indent=2,
            )
        )
    else:
        warm = report.get("warmup") or {}
        totals = report.get("measured_totals", {})
        n = max(report.get("measured_steps", 0), 1)
        click.echo(f"{script} on XLA:CPU (torch {torch_version}, torch-xla {xla_version})")
        click.echo(
            f"  warm-up: {warm.get('compiles', 0)} graph(s) compiled; measured {report.get('measured_steps', 0)} "
            f"step(s): {totals.get('compiles', 0)} compiles, {totals.get('executions', 0) / n:.1f} "
            f"executions/step, {totals.get('d2h', 0) / n:.2f} transfers/step, "
            f"{totals.get('saves', 0)} checkpoint save(s)"
        )
        for frame in frames:
            click.echo(
                f"  unlowered op or host read at {frame['file']}:{frame['line']} in {frame['function']} (x{frame['count']})"
            )
        for c in criteria:
            mark = "PASS" if c.passed else ("FAIL" if c.blocking else "WARN")
            click.echo(f"  {mark} {c.name}: {c.detail}")
        click.echo("verdict: " + ("pass" if passed else "fail"))
        if report.get("error"):
            click.echo(report["error"].rstrip(), err=True)
    sys.exit(0 if passed else 1)
