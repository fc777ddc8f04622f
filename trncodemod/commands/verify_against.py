"""``trncodemod verify SCRIPT --against ORIGINAL``: does the migration train the same model?

ORIGINAL is a file, or a git revision (``HEAD``: SCRIPT as committed there). Both run for the
same ``--steps`` optimizer steps with the same arguments and seeds, each in a child interpreter
that has torch (``verify_against_runner.py``; this process never imports torch): the original
on the CPU (CUDA requests mapped to the CPU), the migration on XLA:CPU (eagerly on the CPU with
``neuron`` mapped to ``cpu`` for ``--target neuron``). Random tensors and dropout masks come from
the CPU generator in both, and a shuffling ``DistributedSampler`` over one replica draws the order
``DataLoader(shuffle=True)`` would, so fp32 runs agree to rounding.

Each ``backward()``'s loss and the trained parameters' sums are compared within a tolerance set
by the less precise of the two runs (fp32, or bf16/fp16 autocast or parameters); the first step
that differs is printed with both values. Exit 0 same, 1 different, 2 a run could not be made.
"""

from __future__ import annotations

import json
import math
import os
import shlex
import socket
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from trncodemod.git import OptionLike, not_an_option
from trncodemod.pipeline.isolation import run_group

RUNNER = Path(__file__).with_name("verify_against_runner.py")


class CannotRun(click.ClickException):
    """A run could not be made, or the original could not be found: exit 2."""

    exit_code = 2


# -- The original -------------------------------------------------------------------------------


def original_source(original: str, script: Path) -> tuple[str, str]:
    """The original's text and how to name it: ``original`` is a file, else a git revision at
    which SCRIPT's path is read."""
    path = Path(original)
    if path.is_file():
        return path.read_text("utf-8"), str(path)
    try:
        not_an_option(original, "--against")
    except OptionLike as err:
        raise CannotRun(f"{err}: no such file, and not a git revision") from None
    where = script.resolve().parent

    def git(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["git", *args], cwd=where, capture_output=True, text=True)

    top = git("rev-parse", "--show-toplevel")
    if top.returncode != 0:
        raise CannotRun(
            f"--against {original}: no such file, and {where} is not in a git work tree"
        )
    relative = script.resolve().relative_to(Path(top.stdout.strip()).resolve()).as_posix()
    shown = git("show", "--end-of-options", f"{original}:{relative}")
    if shown.returncode != 0:
        reason = (shown.stderr.strip().splitlines() or ["git show failed"])[-1]
        raise CannotRun(f"--against {original}: no such file, nor {original}:{relative} ({reason})")
    return shown.stdout, f"{original}:{relative}"


# -- Precision and tolerance --------------------------------------------------------------------

# How far two runs of the same program may drift over a few steps, by the precision they use:
# fp32 differs by the order of reductions (XLA fuses and reorders sums); bf16 keeps 8 bits of
# mantissa (relative rounding 2**-8 = 0.4%) and fp16 11, and a few steps compound it.
TOLERANCES = {"fp32": 1e-3, "fp16": 1e-2, "bf16": 3e-2}
ABSOLUTE = 1e-5  # losses near zero: a relative bound means nothing there


def precision_of(report: dict[str, Any]) -> tuple[str, str]:
    """The least precise float format a run computed in, and why (``fp32`` when none lower)."""
    precision = report.get("precision") or {}
    reasons = {"bf16": [], "fp16": []}  # type: dict[str, list[str]]
    for dtype in precision.get("autocast", []):
        key = {"bfloat16": "bf16", "float16": "fp16"}.get(dtype)
        if key:
            reasons[key].append(f"{dtype} autocast")
    for dtype in precision.get("param_dtypes", []):
        key = {"bfloat16": "bf16", "float16": "fp16"}.get(dtype)
        if key:
            reasons[key].append(f"{dtype} parameters")
    for name in precision.get("xla_bf16", []):
        reasons["bf16"].append(f"{name}=1")
    for key in ("bf16", "fp16"):
        if reasons[key]:
            return key, ", ".join(reasons[key])
    return "fp32", "fp32 throughout"


@dataclass(frozen=True)
class Tolerance:
    relative: float
    absolute: float
    precision: str  # "fp32", "fp16", "bf16": the less precise run's
    why: str

    def same(self, a: float, b: float) -> bool:
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return abs(a - b) <= self.absolute + self.relative * max(abs(a), abs(b))


def tolerance(original: dict[str, Any], migrated: dict[str, Any]) -> Tolerance:
    (p1, why1), (p2, why2) = precision_of(original), precision_of(migrated)
    worst = max((p1, p2), key=lambda p: TOLERANCES[p])
    why = f"original {why1}; migrated {why2}"
    return Tolerance(TOLERANCES[worst], ABSOLUTE, worst, why)


# -- Comparison ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Difference:
    step: int | None  # the optimizer step (0-based) the first differing loss belongs to
    what: str  # "loss", "loss count", "steps", "parameter"
    original: Any
    migrated: Any
    detail: str


def _by_step(losses: list[dict[str, Any]]) -> dict[int, list[float]]:
    """Each optimizer step's losses, less those of backward() calls whose update a GradScaler
    skipped (fp16 loss scaling found inf/NaN gradients: the step did not happen there)."""
    steps: dict[int, list[float]] = {}
    for loss in losses:
        if not loss.get("skipped"):
            steps.setdefault(int(loss["step"]), []).append(float(loss["value"]))
    return steps


def skipped_updates(report: dict[str, Any]) -> int:
    """How many backward() calls of a run a GradScaler skipped the update of."""
    return sum(1 for loss in report.get("losses", []) if loss.get("skipped"))


def compare(
    original: dict[str, Any], migrated: dict[str, Any], tol: Tolerance
) -> Difference | None:
    """The first difference between the two runs, or None: losses step by step (a step whose
    number of ``backward()`` calls differs counts at that step; calls whose update a GradScaler
    skipped are left out), then the number of steps, then each trained parameter's sum and
    absolute sum."""
    a, b = _by_step(original.get("losses", [])), _by_step(migrated.get("losses", []))
    for step in sorted(set(a) | set(b)):
        left, right = a.get(step, []), b.get(step, [])
        for index, (x, y) in enumerate(zip(left, right, strict=False)):
            if not tol.same(x, y):
                call = f" (backward call {index + 1} of the step)" if len(left) > 1 else ""
                return Difference(step, "loss", x, y, f"loss at step {step}{call}")
        if len(left) != len(right):
            return Difference(
                step,
                "loss count",
                len(left),
                len(right),
                f"backward() calls at step {step}",
            )
    if original.get("steps") != migrated.get("steps"):
        return Difference(
            None, "steps", original.get("steps"), migrated.get("steps"), "optimizer steps run"
        )
    pa, pb = original.get("params", []), migrated.get("params", [])
    if len(pa) != len(pb) or [p["shape"] for p in pa] != [p["shape"] for p in pb]:
        return Difference(
            None,
            "parameter",
            [p["shape"] for p in pa],
            [p["shape"] for p in pb],
            "the optimizers' parameters (count or shapes)",
        )
    for x, y in zip(pa, pb, strict=True):
        for key in ("sum", "abs_sum"):
            # A sum of n terms rounds n times: scale the absolute bound with the size.
            size = math.prod(x["shape"]) or 1
            wide = Tolerance(tol.relative, tol.absolute * size, tol.precision, tol.why)
            if not wide.same(x[key], y[key]):
                label = "sum" if key == "sum" else "sum of absolute values"
                return Difference(
                    None, "parameter", x[key], y[key], f"trained `{x['name']}` ({label})"
                )
    return None


def checksum(report: dict[str, Any]) -> float:
    """One number for the trained parameters: the sum of their absolute sums."""
    return sum(p["abs_sum"] for p in report.get("params", []))


def relative_gap(a: float, b: float) -> float:
    scale = max(abs(a), abs(b))
    return abs(a - b) / scale if scale else 0.0


# -- Runs ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Side:
    """How to run one side: on XLA:CPU (``xla``), or eagerly on the CPU (``cpu``, with
    ``neuron`` mapped to ``cpu`` when ``neuron``)."""

    mode: str  # "cpu", "xla" or "neuron"

    @property
    def label(self) -> str:
        return {
            "cpu": "on the CPU (CUDA mapped to the CPU)",
            "xla": "on XLA:CPU",
            "neuron": "eagerly on the CPU (`neuron` mapped to `cpu`)",
        }[self.mode]


# What `torchrun --nproc-per-node 1` gives the one process it starts (torch.distributed.run),
# less MASTER_PORT: a free localhost port, chosen for each run.
TORCHRUN_ENV = {
    "RANK": "0",
    "LOCAL_RANK": "0",
    "GROUP_RANK": "0",
    "ROLE_RANK": "0",
    "ROLE_NAME": "default",
    "WORLD_SIZE": "1",
    "LOCAL_WORLD_SIZE": "1",
    "GROUP_WORLD_SIZE": "1",
    "ROLE_WORLD_SIZE": "1",
    "MASTER_ADDR": "127.0.0.1",
    "TORCHELASTIC_RUN_ID": "trncodemod-verify",
    "TORCHELASTIC_RESTART_COUNT": "0",
    "TORCHELASTIC_MAX_RESTARTS": "0",
}


@dataclass(frozen=True)
class Launch:
    """Both runs started as ``torchrun --nproc-per-node 1`` starts its process, because one of
    them, run without torchrun's variables, stopped for the lack of them (``why``)."""

    why: str

    def environment(self) -> dict[str, str]:
        return {**TORCHRUN_ENV, "MASTER_PORT": str(free_port())}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass(frozen=True)
class RunOptions:
    python: str
    script: Path  # the path both run as
    args: tuple[str, ...]
    steps: int
    seed: int
    no_dropout: bool
    timeout: int
    # The original's own arguments where they differ from the migration's (a flag the migration
    # needs, e.g. nanoGPT's `--device=xla`, that the original's run must not get); None: `args`.
    original_args: tuple[str, ...] | None = None

    def args_for(self, side: Side) -> tuple[str, ...]:
        if side.mode == "cpu" and self.original_args is not None:
            return self.original_args
        return self.args


def run_side(
    options: RunOptions, source: str, side: Side, launch: Launch | None = None
) -> dict[str, Any]:
    """Run ``source`` as ``options.script`` on ``side`` (as torchrun would start it with
    ``launch``); the runner's report (``exit_status`` is non-zero, with ``error``, when it
    failed; ``needs_torchrun`` says what a run without ``launch`` asked torchrun's variables
    for)."""
    env = {**os.environ, **(launch.environment() if launch else {})}
    if side.mode == "xla":
        env["PJRT_DEVICE"] = "CPU"
    else:
        env["TORCH_DEVICE_BACKEND_AUTOLOAD"] = "0"  # no torch_xla loaded behind the run's back
    with tempfile.TemporaryDirectory(prefix="trncodemod-against-") as tmp:
        code = Path(tmp) / "source.py"
        code.write_text(source, "utf-8")
        out = Path(tmp) / "report.json"
        command = [options.python, str(RUNNER), "--json", str(out), "--source", str(code)]
        command += ["--steps", str(options.steps), "--seed", str(options.seed)]
        command += ["--neuron"] if side.mode == "neuron" else []
        command += ["--no-dropout"] if options.no_dropout else []
        command += ["--torchrun"] if launch else []
        command += [str(options.script), *options.args_for(side)]
        try:
            result = run_group(
                command,
                options.timeout,
                supervised=True,
                remove=tmp,
                text=True,
                env=env,
                cwd=Path.cwd(),
            )
            stderr = result.stderr
        except subprocess.TimeoutExpired:
            return _failed(f"ran past {options.timeout} s and was stopped")
        except OSError as err:
            return _failed(f"cannot run {options.python}: {err}")
        if not out.exists():
            return _failed("the run left no report:\n" + stderr[-3000:])
        return json.loads(out.read_text("utf-8"))


def _failed(error: str) -> dict[str, Any]:
    return {"exit_status": 2, "error": error, "losses": [], "params": [], "steps": 0}


def run_problem(report: dict[str, Any]) -> str | None:
    """Why a run cannot be compared: it failed, or it recorded no loss."""
    if report.get("exit_status") or report.get("error"):
        lines = (report.get("error") or "").strip().splitlines()
        frames = [i for i, line in enumerate(lines) if line.startswith("  File ")]
        if not frames:
            return (lines or [f"exit status {report.get('exit_status')}"])[-1]
        after = lines[frames[-1] + 1 :]
        # The exception line: the first after the last frame that is not the frame's code.
        raised = [line for line in after if line and not line.startswith(" ")]
        return (raised or lines)[0]
    if not report.get("losses"):
        return "no backward() call: nothing trained (is this a training script?)"
    return None


# -- Text -------------------------------------------------------------------------------------


def _value(value: Any) -> str:
    return f"{value:.6g}" if isinstance(value, float) else str(value)


def _words(args: tuple[str, ...]) -> str:
    return shlex.join(args) if args else "(none)"


def describe_difference(difference: Difference | None, tol: Tolerance) -> str:
    if difference is None:
        return f"same: every loss and trained parameter within {tol.relative:g} relative"
    gap = ""
    if isinstance(difference.original, float) and isinstance(difference.migrated, float):
        gap = (
            f" (relative difference {relative_gap(difference.original, difference.migrated):.2g}"
            f" > {tol.relative:g})"
        )
    where = f"step {difference.step}: " if difference.step is not None else ""
    return (
        f"first difference: {where}{difference.detail}: original {_value(difference.original)}, "
        f"migrated {_value(difference.migrated)}{gap}"
    )


def summary_line(name: str, report: dict[str, Any], side: Side) -> str:
    precision, why = precision_of(report)
    losses = len(report.get("losses", []))
    skipped = skipped_updates(report)
    left_out = (
        f" ({skipped} whose update its GradScaler skipped for inf/NaN gradients, left out)"
        if skipped
        else ""
    )
    return (
        f"  {name} {side.label}, {precision} ({why}): {report.get('steps', 0)} step(s), "
        f"{losses} loss(es){left_out}, parameter checksum {checksum(report):.6g}"
    )


def launch_line(launch: Launch | None) -> str | None:
    if launch is None:
        return None
    shown = ", ".join(f"{n}={TORCHRUN_ENV[n]}" for n in ("RANK", "LOCAL_RANK", "WORLD_SIZE"))
    return (
        f"launch: both runs as `torchrun --nproc-per-node 1` starts its process ({shown}, "
        f"MASTER_ADDR={TORCHRUN_ENV['MASTER_ADDR']}, MASTER_PORT a free port), since "
        f"{launch.why}"
    )


def process_group_line(original: dict[str, Any], migrated: dict[str, Any]) -> str | None:
    """The runs' ``torch.distributed`` mappings: NCCL as gloo, DDP device ids of a CPU module."""
    parts = []
    for name, report in (("original", original), ("migrated", migrated)):
        backends = sorted(set(report.get("gloo_for") or []))
        if backends:
            asked = ", ".join(f"`{b}`" for b in backends)
            parts.append(f"{asked} run as `gloo` in the {name} run (no NCCL on the CPU)")
        if report.get("ddp_device_ids_dropped"):
            parts.append(
                f"DistributedDataParallel's device_ids dropped in the {name} run (its module is "
                "on the CPU)"
            )
    return "process groups: " + "; ".join(parts) if parts else None


def sample_order_line(original: dict[str, Any], migrated: dict[str, Any]) -> str | None:
    """What the runs did with a shuffling ``DistributedSampler`` over one replica, if either
    had one: it drew the order the loader's ``RandomSampler`` would (the runner's mapping)."""
    counts = [
        (name, report.get("sampler_as_random", 0))
        for name, report in (("migrated", migrated), ("original", original))
    ]
    drawn = [f"{count} epoch(s) in the {name} run" for name, count in counts if count]
    if not drawn:
        return None
    return (
        "sample order: a DistributedSampler over 1 replica with shuffle=True drew the order "
        "DataLoader(shuffle=True)'s RandomSampler draws (its seed from the global generator), "
        "not its own (seed + epoch): " + ", ".join(drawn)
    )


# -- The command --------------------------------------------------------------------------------


@dataclass
class Verdict:
    """Both runs, compared: ``status`` 0 same, 1 different, 2 a run could not be made."""

    label: str  # how the original is named
    original: dict[str, Any]
    migrated: dict[str, Any]
    migrated_side: Side
    problems: dict[str, str]  # "original"/"migrated" -> why that run failed
    tol: Tolerance
    difference: Difference | None
    launch: Launch | None = None
    bisection: Any = None  # verify_bisect.Bisection

    def harness(self) -> list[str]:
        """What the runs were given beyond CUDA on the CPU and the CPU generator, each said."""
        lines = (
            launch_line(self.launch),
            process_group_line(self.original, self.migrated),
            sample_order_line(self.original, self.migrated),
        )
        return [line for line in lines if line]

    @property
    def status(self) -> int:
        return 2 if self.problems else (1 if self.difference else 0)

    @property
    def word(self) -> str:
        return ("same", "different", "could not run")[self.status]

    def headline(self) -> str:
        """One line for a pull request: the verdict and why."""
        if self.problems:
            name, problem = next(iter(self.problems.items()))
            return f"could not run: the {name} run failed: {problem}"
        return f"{self.word}: " + describe_difference(self.difference, self.tol)


def compare_runs(
    options: RunOptions, original: str, target_is_xla: bool, target: str, bisect: bool = False
) -> Verdict:
    """Run the original on the CPU and SCRIPT on its target, compare them, and bisect the
    migration's changes when asked and they differ."""
    old, label = original_source(original, options.script)
    new = options.script.read_text("utf-8")
    migrated_side = Side("xla" if target_is_xla else "neuron")
    launch = None
    reference = run_side(options, old, Side("cpu"))
    if needs := reference.get("needs_torchrun"):
        launch = Launch(f"without torchrun's variables the original stopped at {needs}")
        reference = run_side(options, old, Side("cpu"), launch)
    migrated = run_side(options, new, migrated_side, launch)
    if launch is None and (needs := migrated.get("needs_torchrun")):
        launch = Launch(f"without torchrun's variables the migration stopped at {needs}")
        reference = run_side(options, old, Side("cpu"), launch)
        migrated = run_side(options, new, migrated_side, launch)
    problems = {
        name: problem
        for name, report in (("original", reference), ("migrated", migrated))
        if (problem := run_problem(report))
    }
    tol = tolerance(reference, migrated)
    difference = None if problems else compare(reference, migrated, tol)
    verdict = Verdict(label, reference, migrated, migrated_side, problems, tol, difference, launch)
    if bisect and difference is not None:
        from trncodemod.commands import verify_bisect

        def probe(text: str) -> tuple[bool | None, str]:
            report = run_side(options, text, migrated_side, launch)
            problem = run_problem(report)
            if problem:
                return None, problem
            return compare(reference, report, tolerance(reference, report)) is not None, ""

        tool, findings = verify_bisect.tool_migration(old, label, target, options.script.parent)
        verdict.bisection = verify_bisect.bisect(old, new, findings, probe, tool)
    return verdict


def verify_against(
    options: RunOptions, original: str, target_is_xla: bool, target: str, bisect: bool, fmt: str
) -> int:
    """``verify --against``: print the verdict (and the bisection); the exit code."""
    from trncodemod.commands import verify_bisect

    verdict = compare_runs(options, original, target_is_xla, target, bisect)
    tol, difference, bisection = verdict.tol, verdict.difference, verdict.bisection
    if fmt == "json":
        click.echo(
            json.dumps(
                {
                    "script": str(options.script),
                    "against": verdict.label,
                    "verdict": verdict.word,
                    "tolerance": {
                        "relative": tol.relative,
                        "absolute": tol.absolute,
                        "precision": tol.precision,
                        "why": tol.why,
                    },
                    "dropout": "off" if options.no_dropout else "same masks",
                    "harness": verdict.harness(),
                    "arguments": {
                        "original": list(options.args_for(Side("cpu"))),
                        "migrated": list(options.args),
                    },
                    "problems": verdict.problems,
                    "difference": None if difference is None else difference.__dict__,
                    "bisect": None if bisection is None else verify_bisect.summary(bisection),
                    "original": verdict.original,
                    "migrated": verdict.migrated,
                },
                indent=2,
            )
        )
        return verdict.status
    click.echo(
        f"{options.script} against {verdict.label}: {options.steps} step(s), seed {options.seed}"
    )
    if options.original_args is not None:
        click.echo(
            f"  arguments: original {_words(options.original_args)}; migrated {_words(options.args)}"
        )
    click.echo(summary_line("original", verdict.original, Side("cpu")))
    click.echo(summary_line("migrated", verdict.migrated, verdict.migrated_side))
    dropout = (
        "no dropout in either run (--no-dropout)"
        if options.no_dropout
        else "the same dropout masks in both runs"
    )
    click.echo(
        f"  tolerance: {tol.relative:g} relative, {tol.absolute:g} absolute, for {tol.precision} "
        f"({tol.why}); random tensors from the CPU generator, {dropout}"
    )
    for line in verdict.harness():
        click.echo("  " + line)
    for name, problem in verdict.problems.items():
        click.echo(f"  the {name} run failed: {problem}")
    if not verdict.problems:
        click.echo("  " + describe_difference(difference, tol))
    if bisection is not None:
        for line in verify_bisect.report(bisection):
            click.echo("  " + line)
    click.echo("verdict: " + verdict.word)
    for name, report in (("original", verdict.original), ("migrated", verdict.migrated)):
        if name in verdict.problems and report.get("error"):
            click.echo(f"{name}: " + report["error"].rstrip()[-3000:], err=True)
    return verdict.status
