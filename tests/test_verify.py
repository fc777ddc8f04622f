"""`trncodemod verify`: the §6.2 verdict, PT_XLA_DEBUG frames, and a clear line when the runtime
is missing. The run on a real XLA runtime is part of the optional XLA lane."""

import importlib.util
import os
import shutil
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from hostile_probes import hostile_probe

from trncodemod.cli import main
from trncodemod.commands.verify import RUNNER, fallback_frames, judge

ROOT = Path(__file__).resolve().parent.parent
XLA_PYTHON = os.environ.get("TRNCODEMOD_XLA_PYTHON") or (
    sys.executable if importlib.util.find_spec("torch_xla") else None
)


def _report(**step_overrides) -> dict:
    step = {"uncached_compiles": 0, "executions": 1, "d2h": 0, "save_d2h": 0}
    step.update(step_overrides)
    return {
        "exit_status": 0,
        "error": None,
        "warmup_steps": 3,
        "per_step": [dict(step) for _ in range(10)],
        "fallback_ops": ["aten::_local_scalar_dense"],
        "float64_on_device": 0,
    }


def _failed(report: dict, log_interval: int = 10) -> set[str]:
    return {c.name for c in judge(report, log_interval) if not c.passed}


def test_a_steady_step_passes() -> None:
    assert _failed(_report()) == set()


def test_each_criterion_fails_on_its_own_symptom() -> None:
    assert _failed(_report(uncached_compiles=1)) == {"no new compiles after warm-up"}
    assert _failed(_report(executions=3)) == {"about one graph execution per step"}
    assert _failed(_report(d2h=1)) == {"device-to-host transfers only at log steps"}
    assert _failed(_report(d2h=1), log_interval=1) == set(), "one read per step at interval 1"
    assert _failed(_report(d2h=2, save_d2h=2)) == set(), "checkpoint transfers are apart"
    fallback = _report()
    fallback["fallback_ops"].append("aten::nonzero")
    assert _failed(fallback) == {"no CPU fallback ops"}


def test_float64_on_the_device_warns_without_failing() -> None:
    report = _report()
    report["float64_on_device"] = 2
    criteria = {c.name: c for c in judge(report, 10)}
    assert not criteria["no float64 on the device"].passed
    assert not criteria["no float64 on the device"].blocking


def test_debug_frames_point_at_the_users_line() -> None:
    stderr = "\n".join(
        [
            "WARNING:pt-xla-profiler:Unlowered Op usage summary (more of these ops, lower performance)",
            "WARNING:pt-xla-profiler:FRAME (count=3):",
            "WARNING:pt-xla-profiler:  train (/work/train.py:42)",
            "WARNING:pt-xla-profiler:  <module> (/work/train.py:90)",
            "WARNING:pt-xla-profiler:  _run_code (<frozen runpy>:88)",
            f"WARNING:pt-xla-profiler:  main ({RUNNER}:270)",
        ]
    )
    frames = fallback_frames(stderr, Path("/work/train.py"))
    assert frames == [
        {"file": "/work/train.py", "line": 42, "function": "train", "count": 3, "in_script": True}
    ]


def test_missing_runtime_is_one_clear_line_with_the_fix(tmp_path: Path) -> None:
    if importlib.util.find_spec("torch_xla"):
        pytest.skip("this interpreter has torch_xla")
    script = tmp_path / "train.py"
    script.write_text("print('hi')\n")
    result = CliRunner().invoke(main, ["verify", str(script)])
    assert result.exit_code == 2
    assert "pip install torch==2.9.0 torch-xla==2.9.0" in result.output
    assert "pip install '.[verify]'" in result.output


@pytest.mark.xla
@pytest.mark.skipif(XLA_PYTHON is None, reason="torch-xla 2.9.0 not installed (optional XLA lane)")
def test_migrated_example_passes_verify(tmp_path: Path) -> None:
    shutil.copy(ROOT / "examples" / "cnn_mnist.py", tmp_path / "cnn_mnist.py")
    runner = CliRunner()
    assert runner.invoke(main, ["apply", "--no-cache", str(tmp_path)]).exit_code in (0, 1)
    result = runner.invoke(
        main, ["verify", "--python", XLA_PYTHON, "--steps", "4", str(tmp_path / "cnn_mnist.py")]
    )
    assert result.exit_code == 0, result.output
    assert "verdict: pass" in result.output


def test_a_run_that_never_touched_the_xla_device_fails_with_one_line() -> None:
    criteria = judge(_report(executions=0), 10)
    assert [c.name for c in criteria if not c.passed] == ["graphs ran on the XLA device"]
    assert "0 graph executions in 10 step(s)" in criteria[-1].detail
    assert "no new compiles after warm-up" not in {c.name for c in criteria}, "no empty verdicts"


@pytest.mark.xla
@pytest.mark.skipif(XLA_PYTHON is None, reason="torch-xla 2.9.0 not installed (optional XLA lane)")
def test_a_script_training_on_the_cpu_fails_verify_on_the_xla_device(tmp_path: Path) -> None:
    script = tmp_path / "train.py"
    script.write_text(
        "import torch\n"
        "model = torch.nn.Linear(4, 1)\n"
        "optimizer = torch.optim.SGD(model.parameters(), lr=0.1)\n"
        "for _ in range(8):\n"
        "    optimizer.zero_grad()\n"
        "    model(torch.randn(2, 4)).sum().backward()\n"
        "    optimizer.step()\n"
    )
    result = CliRunner().invoke(
        main, ["verify", "--python", XLA_PYTHON, "--steps", "3", "--warmup", "2", str(script)]
    )
    assert result.exit_code == 1, result.output
    assert "FAIL graphs ran on the XLA device: 0 graph executions" in result.output


@pytest.mark.parametrize(
    "probe",
    [
        "verify-timeout-leaves-the-scripts-child",
        "verify-runner-survives-sigkill",
        "verify-runner-survives-sigterm",
        "verify-runner-survives-sigkill-without-against",
        "verify-against-writes-a-file",
    ],
)
def test_verify_leaves_no_process_file_or_temporary_folder_behind(
    tmp_path: Path, probe: str
) -> None:
    passed, seen = hostile_probe(probe)(tmp_path.resolve())
    assert passed, seen


def test_an_against_revision_that_looks_like_an_option_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import subprocess

    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    (tmp_path / "train.py").write_text("x = 1\n")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(
        main, ["verify", "train.py", "--against", "--output=out", "--python", "/bin/false"]
    )
    assert result.exit_code == 2
    assert "starts with '-', which git would read as an option" in result.output
    assert not list(tmp_path.glob("out*"))
