"""`trncodemod verify --against`: the comparison, its tolerance, the original's source, argument
handling and the bisection's search, all without torch (the runs themselves are in
tests/test_verify_against_xla.py, the XLA lane)."""

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from trncodemod.cli import main
from trncodemod.commands.verify_against import (
    TOLERANCES,
    CannotRun,
    Side,
    compare,
    describe_difference,
    original_source,
    precision_of,
    run_problem,
    sample_order_line,
    summary_line,
    tolerance,
)
from trncodemod.commands.verify_bisect import _search, bisect, report


def _run(losses, params=None, steps=None, autocast=(), dtypes=("float32",), xla_bf16=()) -> dict:
    """A runner report: ``losses`` per step (a list of values for steps with several calls)."""
    records = []
    for step, value in enumerate(losses):
        for v in value if isinstance(value, list) else [value]:
            records.append({"step": step, "value": v})
    return {
        "exit_status": 0,
        "error": None,
        "steps": len(losses) if steps is None else steps,
        "losses": records,
        "params": params
        if params is not None
        else [{"name": "fc.weight", "shape": [2, 3], "sum": 1.5, "abs_sum": 4.0}],
        "precision": {
            "autocast": list(autocast),
            "param_dtypes": list(dtypes),
            "xla_bf16": list(xla_bf16),
        },
    }


def test_fp32_runs_that_agree_to_rounding_are_the_same() -> None:
    a = _run([2.302585, 2.1, 1.9])
    b = _run([2.302585 * (1 + 2e-6), 2.1 * (1 - 1e-5), 1.9])
    tol = tolerance(a, b)
    assert tol.precision == "fp32" and tol.relative == TOLERANCES["fp32"]
    assert compare(a, b, tol) is None


def test_the_first_differing_step_is_reported_with_both_values() -> None:
    a, b = _run([2.3, 2.1, 1.9, 1.7]), _run([2.3, 2.1, 1.95, 1.0])
    difference = compare(a, b, tolerance(a, b))
    assert difference is not None
    assert (difference.step, difference.original, difference.migrated) == (2, 1.9, 1.95)
    text = describe_difference(difference, tolerance(a, b))
    assert text.startswith("first difference: step 2: loss at step 2: original 1.9, migrated 1.95")
    assert "relative difference 0.026 > 0.001" in text


def test_bf16_in_either_run_widens_the_tolerance_and_says_why() -> None:
    fp32 = _run([2.3, 2.1])
    autocast = _run([2.3 * 1.01, 2.1 * 0.99], autocast=["bfloat16"])
    tol = tolerance(fp32, autocast)
    assert tol.precision == "bf16" and tol.relative == TOLERANCES["bf16"]
    assert "migrated bfloat16 autocast" in tol.why and "original fp32 throughout" in tol.why
    assert compare(fp32, autocast, tol) is None
    assert compare(fp32, autocast, tolerance(fp32, fp32)) is not None, "1% is not fp32 rounding"
    assert precision_of(_run([1.0], dtypes=["bfloat16"])) == ("bf16", "bfloat16 parameters")
    assert precision_of(_run([1.0], xla_bf16=["XLA_USE_BF16"])) == ("bf16", "XLA_USE_BF16=1")
    assert precision_of(_run([1.0], autocast=["float16"]))[0] == "fp16"
    both = precision_of(_run([1.0], autocast=["float16", "bfloat16"]))
    assert both[0] == "bf16", "the least precise format decides"


def test_nan_is_only_the_same_as_nan_and_zero_losses_use_the_absolute_bound() -> None:
    tol = tolerance(_run([1.0]), _run([1.0]))
    assert tol.same(math.nan, math.nan) and not tol.same(math.nan, 1.0)
    assert tol.same(0.0, 5e-6) and not tol.same(0.0, 1e-3)


def test_a_step_with_a_different_number_of_backward_calls_differs_there() -> None:
    a, b = _run([1.0, [0.5, 0.4], 0.3]), _run([1.0, [0.5], 0.3])
    difference = compare(a, b, tolerance(a, b))
    assert difference is not None
    assert (difference.step, difference.what, difference.original, difference.migrated) == (
        1,
        "loss count",
        2,
        1,
    )


def test_a_backward_call_whose_update_the_grad_scaler_skipped_is_left_out_and_said() -> None:
    """fp16 loss scaling skips the first update (inf gradients at scale 65536): the original's
    step 0 holds two backward() calls, the bf16 migration's one (golden
    pipeline/amp_training_loop, measured: the trained parameters agree)."""
    original, migrated = _run([[2.0, 2.0], 1.5, 1.2]), _run([2.0, 1.5, 1.2])
    assert compare(original, migrated, tolerance(original, migrated)) is not None
    original["losses"][0]["skipped"] = True
    assert compare(original, migrated, tolerance(original, migrated)) is None
    line = summary_line("original", original, Side("cpu"))
    assert "4 loss(es) (1 whose update its GradScaler skipped for inf/NaN gradients" in line


def test_fewer_steps_then_parameters_are_compared_after_the_losses() -> None:
    a, b = _run([1.0, 0.9]), _run([1.0, 0.9], steps=3)
    assert compare(a, b, tolerance(a, b)).what == "steps"  # type: ignore[union-attr]
    params = [{"name": "fc.weight", "shape": [2, 3], "sum": 1.5, "abs_sum": 4.2}]
    c = _run([1.0, 0.9], params=params)
    difference = compare(a, c, tolerance(a, c))
    assert difference is not None and difference.what == "parameter"
    assert "trained `fc.weight` (sum of absolute values)" in describe_difference(
        difference, tolerance(a, c)
    )
    shapes = _run([1.0, 0.9], params=[{"name": "w", "shape": [3], "sum": 0, "abs_sum": 0}])
    assert compare(a, shapes, tolerance(a, shapes)).what == "parameter"  # type: ignore[union-attr]


def test_a_distributed_sampler_drawn_as_the_loaders_random_sampler_is_said() -> None:
    """The runner's mapping of a shuffling DistributedSampler over one replica is stated with
    how many epochs each run drew so; a run that had none says nothing about it."""
    plain = _run([1.0])
    assert sample_order_line(plain, plain) is None
    migrated = {**plain, "sampler_as_random": 3}
    line = sample_order_line(plain, migrated)
    assert line is not None
    assert line.startswith(
        "sample order: a DistributedSampler over 1 replica with shuffle=True drew the order "
        "DataLoader(shuffle=True)'s RandomSampler draws (its seed from the global generator)"
    )
    assert line.endswith(": 3 epoch(s) in the migrated run")
    both = sample_order_line({**plain, "sampler_as_random": 1}, migrated)
    assert both is not None and both.endswith(
        "3 epoch(s) in the migrated run, 1 epoch(s) in the original run"
    )


def test_a_failed_or_empty_run_cannot_be_compared() -> None:
    failed = {**_run([1.0]), "exit_status": 1, "error": "Traceback...\nValueError: bad shape\n"}
    assert run_problem(failed) == "ValueError: bad shape"
    long = (
        'Traceback (most recent call last):\n  File "t.py", line 3, in <module>\n'
        "    step()\n    ^^^^\ntorch.AcceleratorError: CUDA error: no driver\n"
        "For debugging consider passing CUDA_LAUNCH_BLOCKING=1\n"
    )
    assert run_problem({**failed, "error": long}) == "torch.AcceleratorError: CUDA error: no driver"
    assert "no backward() call" in (run_problem(_run([])) or "")
    assert run_problem(_run([1.0])) is None


def test_the_original_is_a_file_or_the_script_at_a_git_revision(tmp_path: Path) -> None:
    script = tmp_path / "train.py"
    script.write_text("print('committed')\n")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"]
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    subprocess.run([*git, "-C", str(tmp_path), "add", "train.py"], check=True)
    subprocess.run([*git, "-C", str(tmp_path), "commit", "-qm", "x"], check=True)
    script.write_text("print('migrated')\n")
    assert original_source("HEAD", script) == ("print('committed')\n", "HEAD:train.py")
    other = tmp_path / "orig.py"
    other.write_text("print('file')\n")
    assert original_source(str(other), script) == ("print('file')\n", str(other))
    with pytest.raises(CannotRun, match="no such file, nor nope:train.py"):
        original_source("nope", script)


def test_bisect_and_no_dropout_need_against(tmp_path: Path) -> None:
    script = tmp_path / "train.py"
    script.write_text("print('hi')\n")
    for flag in (["--bisect"], ["--no-dropout"], ["--original-args", "--x"]):
        result = CliRunner().invoke(main, ["verify", *flag, str(script)])
        assert result.exit_code == 2
        assert "need --against" in result.output


FAKE_PYTHON = """#!{python}
# Stands in for the interpreter with torch: records the script's arguments as its only loss.
import json, sys
argv = sys.argv[1:]
out = argv[argv.index("--json") + 1]
args = argv[argv.index("--seed") + 2:]
args = args[1:] if args and args[0] in ("--neuron", "--no-dropout") else args
report = {{"exit_status": 0, "error": None, "steps": 1, "argv": args[1:],
          "losses": [{{"step": 0, "value": float(len(args[1:]))}}], "params": []}}
open(out, "w").write(json.dumps(report))
"""


def test_original_args_go_to_the_original_and_the_script_args_to_the_migration(
    tmp_path: Path,
) -> None:
    """nanoGPT's migration needs `--device=xla`, which its original's CPU run cannot take."""
    python = tmp_path / "python"
    python.write_text(FAKE_PYTHON.format(python=sys.executable))
    python.chmod(0o755)
    script, original = tmp_path / "train.py", tmp_path / "original.py"
    script.write_text("print('migrated')\n")
    original.write_text("print('original')\n")
    command = ["verify", "--python", str(python), "--format", "json", str(script)]
    command += ["--against", str(original), "--original-args", "--batch_size=2 --seed 'a b'"]
    result = CliRunner().invoke(main, [*command, "--", "--device=xla", "--batch_size=2"])
    report = json.loads(result.output)
    assert report["original"]["argv"] == ["--batch_size=2", "--seed", "a b"]
    assert report["migrated"]["argv"] == ["--device=xla", "--batch_size=2"]
    assert report["arguments"]["original"] == ["--batch_size=2", "--seed", "a b"]
    # Three arguments against two: the fake's losses differ, and the verdict says so.
    assert result.exit_code == 1 and report["verdict"] == "different"
    text_command = [c for c in command if c not in ("--format", "json")]
    text = CliRunner().invoke(main, [*text_command, "--", "--device=xla"])
    assert "  arguments: original --batch_size=2 --seed 'a b'; migrated --device=xla" in text.output


def test_against_a_revision_outside_git_exits_2(tmp_path: Path) -> None:
    script = tmp_path / "train.py"
    script.write_text("print('hi')\n")
    with pytest.raises(CannotRun) as err:
        original_source("HEAD", script)
    assert err.value.exit_code == 2


def test_binary_search_takes_log2_probes() -> None:
    for count in (1, 2, 7, 16, 33):
        for culprit in range(1, count + 1):
            asked: list[int] = []

            def differs(k: int, asked: list[int] = asked, culprit: int = culprit) -> bool:
                asked.append(k)
                return k >= culprit

            assert _search(count, differs) == (culprit, "")
            assert len(asked) <= math.ceil(math.log2(count)) if count > 1 else not asked


ORIGINAL = """\
import torch

PAD = 0


def main():
    device = "cuda" if torch.cuda.is_available() else "cpu"
    model = torch.nn.Linear(4, 2).to(device)
    labels = pad(seqs, padding_value=-100)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(3):
        loss = model(torch.randn(2, 4, device=device)).sum()
        loss.backward()
        optimizer.step()
        print(loss.item())
"""


def test_bisect_names_the_change_that_makes_the_runs_differ() -> None:
    migrated = (
        ORIGINAL.replace("import torch\n", "import torch\nimport torch_xla\n")
        .replace('"cuda" if torch.cuda.is_available() else "cpu"', "torch_xla.device()")
        .replace("padding_value=-100", "padding_value=PAD")
        .replace("optimizer.step()\n", "optimizer.step()\n        torch_xla.sync()\n")
    )
    runs: list[str] = []

    def probe(text: str) -> tuple[bool | None, str]:
        runs.append(text)
        return "padding_value=PAD" in text, ""

    tool = migrated.replace("padding_value=PAD", "padding_value=-100")
    result = bisect(ORIGINAL, migrated, (), probe, tool)
    assert result.changes >= 3
    assert result.runs == len(runs) <= math.ceil(math.log2(result.changes)) + 2
    lines = "\n".join(report(result))
    assert "-     labels = pad(seqs, padding_value=-100)" in lines
    assert "+     labels = pad(seqs, padding_value=PAD)" in lines
    assert "no rule of the tool names" in lines
    assert "migrated line 10 (an edit the tool does not make):" in lines
    assert "torch_xla.device()" not in lines
    assert "original line 9" in lines


def test_bisect_stops_and_says_why_when_a_variant_cannot_run() -> None:
    migrated = ORIGINAL.replace("lr=0.1", "lr=0.2").replace("(loss.item())", "(loss.item(), 1)")

    def probe(text: str) -> tuple[bool | None, str]:
        return (None, "RuntimeError: boom") if "lr=0.2" in text else (False, "")

    result = bisect(ORIGINAL, migrated, (), probe)
    assert result.culprit is None
    assert "could not be run (RuntimeError: boom)" in report(result)[0]


ENTRY = """import torch

model = torch.nn.Linear(2, 2).cuda()

if __name__ == "__main__":
    print(model)
"""


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    for args in (
        ["init", "-q", "-b", "main"],
        ["config", "user.email", "t@example.com"],
        ["config", "user.name", "t"],
        ["config", "commit.gpgsign", "false"],
    ):
        subprocess.run(["git", *args], cwd=tmp_path, check=True)
    (tmp_path / "train.py").write_text(ENTRY)
    subprocess.run(["git", "add", "."], cwd=tmp_path, check=True)
    subprocess.run(["git", "commit", "-qm", "gpu"], cwd=tmp_path, check=True)
    return tmp_path


def test_pr_verify_without_torch_says_it_was_not_run(repo: Path) -> None:
    result = CliRunner().invoke(
        main, ["pr", "--select", "TRN0", "--verify", "--python", "/nonexistent/python", "."]
    )
    assert result.exit_code == 0, result.output
    description = Path(result.stdout.strip().splitlines()[0]).read_text()
    assert "## Verification" in description
    assert "Not run: cannot run /nonexistent/python" in description
    assert "verify --against: could not run" in result.output


def test_pr_verify_puts_each_entry_scripts_verdict_in_the_description(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from trncodemod.commands import verify, verify_against

    base = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=repo, capture_output=True, text=True, check=True
    ).stdout.strip()
    asked = []

    def compare_runs(options, original, is_xla, target, bisect=False):  # type: ignore[no-untyped-def]
        asked.append((options.script.name, original, options.steps, options.args, is_xla))
        assert "torch_xla" in options.script.read_text(), "the migrated script is on disk"
        a, b = _run([2.0, 1.5]), _run([2.0, 1.8])
        tol = tolerance(a, b)
        return verify_against.Verdict(
            "HEAD:train.py", a, b, verify_against.Side("xla"), {}, tol, compare(a, b, tol)
        )

    monkeypatch.setattr(verify, "probe_runtime", lambda python: ("2.9.0", "2.9.0"))
    monkeypatch.setattr(verify_against, "compare_runs", compare_runs)
    result = CliRunner().invoke(
        main, ["pr", "--select", "TRN0", "--verify", "--verify-steps", "3", "."]
    )
    assert result.exit_code == 1, result.output
    assert asked == [("train.py", base, 3, (), True)]
    description = Path(result.stdout.strip().splitlines()[0]).read_text()
    assert f"--against {base[:12]} --steps 3" in description
    assert (
        "- `train.py`: different: first difference: step 1: loss at step 1: original 1.5, "
        "migrated 1.8" in description
    )


GUARDED = """\
import torch


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = torch.nn.Linear(4, 2).to(device)
    if device.type == "cuda":
        criterion = torch.nn.CrossEntropyLoss(label_smoothing=0.1)
    else:
        criterion = torch.nn.CrossEntropyLoss()
    return model, criterion
"""


def test_bisect_names_a_persons_edit_inside_a_change_of_dependent_edits() -> None:
    tool = (
        GUARDED.replace("import torch\n", "import torch\nimport torch_xla\n")
        .replace(
            'torch.device("cuda" if torch.cuda.is_available() else "cpu")', "torch_xla.device()"
        )
        .replace('device.type == "cuda"', 'device.type == "xla"')
    )
    flipped = tool.replace('device.type == "xla"', 'device.type != "xla"')

    def probe(text: str) -> tuple[bool | None, str]:
        """The original takes the label-smoothing branch; does the variant?"""
        on_xla = "torch_xla.device()" in text
        smoothing = (
            ('== "cuda"' in text and not on_xla)
            or ('== "xla"' in text and on_xla)
            or ('!= "xla"' in text and not on_xla)
        )
        return not smoothing, ""

    result = bisect(GUARDED, flipped, (), probe, tool)
    assert result.culprit is not None and len(result.culprit.units) == 2, "one change, two edits"
    lines = "\n".join(report(result))
    assert 'if device.type != "xla":' in lines and "torch_xla.device()" not in lines, lines
    assert "(an edit the tool does not make)" in lines
    assert "narrowed to 1 of its 2 edits" in lines


TORCHRUN_PYTHON = """#!{python}
# Stands in for the interpreter with torch: a source that reads LOCAL_RANK stops for the lack of
# torchrun's variables unless started with them (--torchrun); the environment is reported.
import json, os, sys
argv = sys.argv[1:]
out = argv[argv.index("--json") + 1]
source = open(argv[argv.index("--source") + 1]).read()
started = "--torchrun" in argv
needs = None if started or "LOCAL_RANK" not in source else "os.environ['LOCAL_RANK']"
names = ("RANK", "LOCAL_RANK", "WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT", "TORCHELASTIC_RUN_ID")
report = {{"exit_status": 1 if needs else 0, "error": "TorchrunNeeded" if needs else None,
          "needs_torchrun": needs, "steps": 1, "params": [],
          "losses": [] if needs else [{{"step": 0, "value": 1.0}}],
          "env": {{name: os.environ.get(name) for name in names}},
          "gloo_for": ["nccl"] if "nccl" in source else []}}
open(out, "w").write(json.dumps(report))
"""


@pytest.mark.parametrize(
    ("original", "migration", "stopped"),
    [
        ("int(os.environ['LOCAL_RANK']); 'nccl'", "int(os.environ['LOCAL_RANK'])", "original"),
        ("print('one process')", "int(os.environ['LOCAL_RANK'])", "migration"),
        ("print('one process')", "print('one process')", None),
    ],
)
def test_a_program_that_needs_torchrun_runs_both_sides_as_torchrun_starts_one_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, original: str, migration: str, stopped: str
) -> None:
    """Where either run stops for the lack of torchrun's variables, both are run again as
    `torchrun --nproc-per-node 1` starts its process (world size 1, a free localhost port), and
    the output says so and why; a program that needs none is run as it is."""
    for name in ("RANK", "LOCAL_RANK", "WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT"):
        monkeypatch.delenv(name, raising=False)
    python = tmp_path / "python"
    python.write_text(TORCHRUN_PYTHON.format(python=sys.executable))
    python.chmod(0o755)
    script, before = tmp_path / "train.py", tmp_path / "original.py"
    script.write_text(migration + "\n")
    before.write_text(original + "\n")
    command = ["verify", "--python", str(python), str(script), "--against", str(before)]
    result = CliRunner().invoke(main, [*command, "--format", "json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    launches = [line for line in report["harness"] if line.startswith("launch:")]
    if stopped is None:
        assert launches == [] and report["original"]["env"]["RANK"] is None
        return
    assert launches == [
        "launch: both runs as `torchrun --nproc-per-node 1` starts its process (RANK=0, "
        "LOCAL_RANK=0, WORLD_SIZE=1, MASTER_ADDR=127.0.0.1, MASTER_PORT a free port), since "
        f"without torchrun's variables the {stopped} stopped at os.environ['LOCAL_RANK']"
    ]
    for side in ("original", "migrated"):
        env = report[side]["env"]
        assert (env["RANK"], env["LOCAL_RANK"], env["WORLD_SIZE"]) == ("0", "0", "1")
        assert env["MASTER_ADDR"] == "127.0.0.1" and env["MASTER_PORT"].isdigit()
        assert env["TORCHELASTIC_RUN_ID"], "torch.distributed.is_torchelastic_launched()"
    groups = [line for line in report["harness"] if line.startswith("process groups:")]
    if stopped == "original":
        assert groups == [
            "process groups: `nccl` run as `gloo` in the original run (no NCCL on the CPU)"
        ]
    else:
        assert groups == []
