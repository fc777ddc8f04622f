"""The XLA lane of `trncodemod verify --against`: real runs on the CPU and XLA:CPU.

* Fault injection: small runnable programs (tests/data/verify_against/) are migrated by the
  tool, which must train the same model (exit 0); then a known-wrong edit is made to the
  migration, and `verify --against` must catch it (exit 1, the first differing step printed)
  and `--bisect` must name the edit.
* Every golden case that is a runnable GPU training program, and every example, trains the
  same model after its migration.

Run with the Python that has torch 2.9.0 + torch-xla 2.9.0 (or point TRNCODEMOD_XLA_PYTHON at
it); skipped with the reason otherwise. The runs are kept short (a few optimizer steps, tiny
models): each is one interpreter start.
"""

from __future__ import annotations

import ast
import importlib.util
import os
import re
import shutil
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner

from trncodemod.cli import main
from trncodemod.commands.golden import find_cases
from trncodemod.commands.verify_against import RunOptions, Side, run_problem, run_side

pytestmark = pytest.mark.xla

ROOT = Path(__file__).resolve().parent.parent
PROGRAMS = ROOT / "tests" / "data" / "verify_against"
XLA_PYTHON = os.environ.get("TRNCODEMOD_XLA_PYTHON") or (
    sys.executable if importlib.util.find_spec("torch_xla") else None
)
STEPS = 3


@cache
def _skip_reason() -> str | None:
    if XLA_PYTHON is None:
        return "torch_xla is not installed (optional lane: torch==2.9.0 + torch-xla==2.9.0)"
    probe = subprocess.run(
        [XLA_PYTHON, "-c", "import torch, torch_xla"],
        capture_output=True,
        text=True,
        env={**os.environ, "PJRT_DEVICE": "CPU"},
        timeout=600,
    )
    if probe.returncode != 0:
        return "torch_xla does not import: " + (probe.stderr.strip().splitlines() or ["?"])[-1]
    return None


@pytest.fixture(autouse=True)
def _needs_xla() -> None:
    reason = _skip_reason()
    if reason:
        pytest.skip(reason)


def _verify(script: Path, original: Path, *options: str, args: tuple[str, ...] = ()) -> str:
    """`verify SCRIPT --against ORIGINAL`; its output, with the exit code on the last line."""
    command = ["verify", "--python", str(XLA_PYTHON), "--steps", str(STEPS), str(script)]
    command += ["--against", str(original), *options]
    if args:
        command += ["--", *args]
    result = CliRunner().invoke(main, command)
    return f"{result.output}exit {result.exit_code}"


@pytest.fixture(scope="module")
def migrated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The programs and the tool's migration of each (``NAME.migrated.py``)."""
    folder = tmp_path_factory.mktemp("against")
    for program in sorted(PROGRAMS.glob("*.py")):
        shutil.copyfile(program, folder / program.name)
        shutil.copyfile(program, folder / f"{program.stem}.migrated.py")
    result = CliRunner().invoke(
        main, ["apply", "--no-cache", *map(str, folder.glob("*.migrated.py"))]
    )
    assert result.exit_code in (0, 1), result.output
    return folder


NAMES = sorted(p.stem for p in PROGRAMS.glob("*.py"))


@pytest.mark.parametrize("name", NAMES)
def test_the_tools_migration_trains_the_same_model(migrated: Path, name: str) -> None:
    output = _verify(migrated / f"{name}.migrated.py", migrated / f"{name}.py")
    assert output.endswith("exit 0"), output
    assert "  same: every loss and trained parameter within 0.001 relative" in output, output
    assert "fp32 (fp32 throughout)" in output


# (program, what the migration says, the known-wrong edit of it)
FAULTS = [
    pytest.param(
        "labels_pad",
        "labels = pad_sequence(seqs, batch_first=True, padding_value=-100)",
        "labels = pad_sequence(seqs, batch_first=True, padding_value=PAD)",
        id="labels-padded-with-the-pad-id",
    ),
    pytest.param(
        "noise_schedule",
        "betas = torch.linspace(1e-6, 2e-6, STEPS, dtype=torch.float64)",
        "betas = torch.linspace(1e-6, 2e-6, STEPS, dtype=torch.float32)",
        id="float64-schedule-recast-to-float32",
    ),
    pytest.param(
        "amp_guard",
        'if device.type == "xla":',
        'if device.type != "xla":',
        id="guard-flipped-into-the-other-branch",
    ),
    pytest.param(
        "epoch_sum",
        "loader = DataLoader(data, batch_size=4, shuffle=True)",
        "loader = DataLoader(data, batch_size=4, shuffle=True, drop_last=True)",
        id="drop-last-on-a-loss-summed-over-the-epoch",
    ),
]


@pytest.mark.parametrize(("name", "right", "wrong"), FAULTS)
def test_a_known_wrong_edit_is_caught_and_bisect_names_it(
    migrated: Path, tmp_path: Path, name: str, right: str, wrong: str
) -> None:
    text = (migrated / f"{name}.migrated.py").read_text()
    assert right in text, f"the migration of {name} no longer says {right!r}"
    faulty = tmp_path / f"{name}.py"
    faulty.write_text(text.replace(right, wrong))
    output = _verify(faulty, migrated / f"{name}.py", "--bisect")
    assert output.endswith("exit 1"), output
    first = re.search(r"first difference: step (\d+): .*: original (\S+), migrated (\S+)", output)
    assert first, output
    assert "verdict: different" in output
    assert re.search(r"\n +\+ +" + re.escape(wrong) + "\n", output), "bisect names the edit"
    assert "(an edit the tool does not make):" in output, output
    match = re.search(r"bisect: (\d+) change\(s\), (\d+) run\(s\)", output)
    assert match, output
    print(f"{name}: {match[1]} changes, {match[2]} bisect runs; {first[0]}")


def _runs_something(text: str) -> bool:
    """Whether a module does anything when run: a `__main__` guard, or a loop or call at the
    top level (most golden inputs only define functions)."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return False
    return any(
        isinstance(node, ast.For | ast.While | ast.With)
        or (isinstance(node, ast.Expr) and isinstance(node.value, ast.Call))
        or (isinstance(node, ast.If) and "__main__" in ast.unparse(node.test))
        for node in tree.body
    )


# Known differences the comparison does not yet allow for (pipeline/amp_training_loop was one:
# its fp16 GradScaler skips the first update, now left out of the comparison and said).
KNOWN: dict[str, str] = {}


# Why a migration cannot be compared step by step with its original: it trains on the same
# samples in another order.
RESHUFFLED = (
    "the scale-out migration replaces the loader's shuffle with a DistributedSampler, which "
    "shuffles with its own generator (seed 0 + epoch), not the global one the original's "
    "RandomSampler draws from: each epoch has the same samples in another order, so the losses "
    "differ from step 0 (measured: scale-out/global_loader and scale-out/top_level_script, 1.447 "
    "against 0.675 at step 0)"
)


def _shuffles(text: str) -> bool:
    """A `DataLoader(...)` with `shuffle=True`, by keyword or as its third argument
    (`DataLoader(data, 8, True)`, scale-out/top_level_script)."""
    for node in ast.walk(ast.parse(text)):
        if not (isinstance(node, ast.Call) and ast.unparse(node.func).endswith("DataLoader")):
            continue
        given = [k.value for k in node.keywords if k.arg == "shuffle"] + node.args[2:3]
        if any(isinstance(v, ast.Constant) and v.value is True for v in given):
            return True
    return False


def _reshuffles(original: str, migrated: str) -> bool:
    return (
        "DistributedSampler(" in migrated
        and "DistributedSampler(" not in original
        and _shuffles(original)
    )


def _gpu_golden_programs() -> list:
    """Golden cases whose input trains (a ``backward()``) on the GPU path and has an output."""
    cases = []
    for case in find_cases(ROOT / "golden"):
        text = case.input.read_text("utf-8", errors="replace")
        if not case.output.exists() or "backward(" not in text or "torch_xla" in text:
            continue
        if not _runs_something(text):
            continue
        marks = (
            [pytest.mark.xfail(reason=KNOWN[case.name], strict=True)] if case.name in KNOWN else []
        )
        if _reshuffles(text, case.output.read_text("utf-8", errors="replace")):
            marks = [pytest.mark.skip(reason=f"cannot be compared: {RESHUFFLED}")]
        cases.append(pytest.param(case, id=case.name, marks=marks))
    return cases


@pytest.mark.parametrize("case", _gpu_golden_programs())
def test_runnable_golden_cases_train_the_same_model(case, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    original = tmp_path / "original.py"
    shutil.copyfile(case.input, original)
    options = RunOptions(str(XLA_PYTHON), original, (), STEPS, 0, False, 120)
    problem = run_problem(run_side(options, original.read_text(), Side("cpu")))
    if problem:
        pytest.skip(f"not a runnable program on its own: {problem}")
    script = tmp_path / "migrated.py"
    shutil.copyfile(case.output, script)
    target = case.settings().target
    output = _verify(script, original, "--target", target)
    assert output.endswith("exit 0"), output


# The GPT example at its defaults took over 10 minutes on XLA:CPU on a loaded 2-core machine.
EXAMPLE_ARGS = {"gpt_amp": ("--batch-size", "4", "--eval-iters", "1")}


@pytest.mark.parametrize("name", sorted(p.stem for p in (ROOT / "examples").glob("*.py")))
def test_examples_train_the_same_model(name: str, tmp_path: Path) -> None:
    original = tmp_path / f"{name}.original.py"
    script = tmp_path / f"{name}.py"
    shutil.copyfile(ROOT / "examples" / f"{name}.py", original)
    shutil.copyfile(ROOT / "examples" / f"{name}.py", script)
    result = CliRunner().invoke(main, ["apply", "--no-cache", str(script)])
    assert result.exit_code in (0, 1), result.output
    args = ("--out", str(tmp_path / "out"), *EXAMPLE_ARGS.get(name, ()))
    output = _verify(script, original, args=args)
    assert output.endswith("exit 0"), output


def test_a_torchneuron_migration_trains_the_same_model_eagerly(tmp_path: Path) -> None:
    """`--target neuron`: the migration runs eagerly on the CPU with `neuron` mapped to `cpu`;
    dropout, `randn`/`randint` on the device and the guard on `device.type` all agree."""
    original = tmp_path / "amp_guard.original.py"
    script = tmp_path / "amp_guard.py"
    shutil.copyfile(PROGRAMS / "amp_guard.py", original)
    shutil.copyfile(PROGRAMS / "amp_guard.py", script)
    result = CliRunner().invoke(main, ["apply", "--no-cache", "--target", "neuron", str(script)])
    assert result.exit_code in (0, 1), result.output
    assert 'device.type == "neuron"' in script.read_text()
    output = _verify(script, original, "--target", "neuron")
    assert output.endswith("exit 0"), output
    assert "migrated eagerly on the CPU (`neuron` mapped to `cpu`)" in output
