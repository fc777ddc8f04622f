"""benchmarks/programs.py: real public training programs, migrated and run under `verify`.

The list, the data shims and the table are checked here without torch. The lane test runs the
quick subset (``quick = true`` in benchmarks/programs.toml) end to end: extract from the mirror,
shim, ``trncodemod apply``, ``trncodemod verify`` on XLA:CPU; it needs the bare git mirrors
(/work/.mirror) and an interpreter with torch 2.9.0 + torch-xla 2.9.0
(``TRNCODEMOD_XLA_PYTHON``, or this one), and is skipped, with the reason, without them.
"""

from __future__ import annotations

import importlib.util
import os
import pickle
import re
import struct
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import programs  # noqa: E402


def test_eight_or_more_programs_at_pinned_commits_with_known_shims() -> None:
    listed = programs.load_programs()
    assert len(listed) >= 8
    assert len({p.name for p in listed}) == len(listed)
    for program in listed:
        assert re.fullmatch(r"[0-9a-f]{40}", program.commit), program.name
        assert program.data in programs.SHIMS, program.name
        assert any(
            program.script == path or program.script.startswith(path.rstrip("/") + "/")
            for path in program.paths
        ), f"{program.name}: its script is not among the extracted paths"
        assert program.steps > 0 and program.warmup >= 1 and program.log_interval >= 1
    assert any(p.quick for p in listed)


@pytest.fixture(autouse=True)
def _cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(programs, "CACHE", tmp_path)  # programs are written under it


def _program(name: str) -> programs.Program:
    return next(p for p in programs.load_programs() if p.name == name)


def test_the_mnist_shim_writes_idx_files_torchvision_reads(tmp_path: Path) -> None:
    program = _program("mnist")
    programs.SHIMS["mnist"](program)
    raw = tmp_path / "mnist" / "data" / "MNIST" / "raw"  # `../data` from mnist/main.py
    images = (raw / "train-images-idx3-ubyte").read_bytes()
    labels = (raw / "t10k-labels-idx1-ubyte").read_bytes()
    magic, count, rows, cols = struct.unpack(">IIII", images[:16])
    assert (magic, rows, cols) == (0x803, 28, 28)
    assert len(images) == 16 + count * 28 * 28
    magic, count = struct.unpack(">II", labels[:8])
    assert magic == 0x801 and len(labels) == 8 + count
    assert set(labels[8:]) <= set(range(10))


def test_the_nanogpt_shim_writes_uint16_tokens_and_the_vocabulary(tmp_path: Path) -> None:
    program = _program("nanogpt")
    programs.SHIMS["nanogpt"](program)
    data = tmp_path / "nanogpt" / "data" / "random"
    tokens = (data / "train.bin").read_bytes()
    values = struct.unpack(f"<{len(tokens) // 2}H", tokens)
    vocab = pickle.loads((data / "meta.pkl").read_bytes())["vocab_size"]
    assert max(values) < vocab and len(values) > 1000


def _report(executions: list[int], **metrics) -> dict:  # type: ignore[no-untyped-def]
    steps = [{"executions": e, "d2h": 1, "save_d2h": 0, "uncached_compiles": 0} for e in executions]
    return {
        "passed": True,
        "criteria": [
            {"name": "no CPU fallback ops", "passed": True, "detail": "", "blocking": True}
        ],
        "metrics": {"per_step": steps, "fallback_ops": ["aten::_local_scalar_dense"], **metrics},
    }


def test_a_row_meets_the_figures_only_with_one_graph_per_one_step_iteration(
    tmp_path: Path,
) -> None:
    program = _program("mnist")
    assert programs.row(program, _report([1, 1, 1]))["meets_figures"]
    row = programs.row(program, _report([1, 2, 1]))
    assert not row["meets_figures"]
    assert row["executions_per_step"] == 1.33 and row["max_executions"] == 2
    assert row["fallbacks"] == []  # a logged scalar's read is expected
    failed = programs.row(program, {"error": "Traceback ...", "exit": 2})
    assert "run failed" in programs.table([failed])


# -- the lane --------------------------------------------------------------------------------------
@cache
def _xla_python() -> str | None:
    for candidate in (
        os.environ.get("TRNCODEMOD_XLA_PYTHON"),
        sys.executable if importlib.util.find_spec("torch_xla") else None,
    ):
        if candidate and Path(candidate).exists():
            probe = subprocess.run(
                [candidate, "-c", "import torch, torch_xla, torchvision"],
                capture_output=True,
                env={**os.environ, "PJRT_DEVICE": "CPU"},
                timeout=600,
            )
            if probe.returncode == 0:
                return candidate
    return None


def _lane_skip() -> str | None:
    if not (programs.MIRRORS / "pytorch+examples" / "repo" / "HEAD").is_file():
        return f"no git mirrors at {programs.MIRRORS} (the programs are extracted from them)"
    if _xla_python() is None:
        return (
            "no interpreter with torch 2.9.0 + torch-xla 2.9.0 + torchvision 0.24.0 "
            "(set TRNCODEMOD_XLA_PYTHON)"
        )
    return None


@pytest.mark.xla
@pytest.mark.parametrize("name", [p.name for p in programs.load_programs() if p.quick])
def test_a_quick_program_meets_the_hand_port_figures(tmp_path: Path, name: str) -> None:
    reason = _lane_skip()
    if reason:
        pytest.skip(reason)
    program = _program(name)
    programs.prepare(program, programs.MIRRORS)
    report = programs.verify(program, _xla_python() or "", timeout=900)
    row = programs.row(program, report)
    print(row)
    assert row.get("passed"), row
    assert row["meets_figures"], row
    assert row["compiles_after_warmup"] == 0 and row["fallbacks"] == []


def test_the_loss_column_is_the_largest_relative_difference_of_matched_steps() -> None:
    compared = {
        "verdict": "different",
        "original": {"losses": [{"step": 1, "value": 2.0}, {"step": 2, "value": 1.0}]},
        "migrated": {"losses": [{"step": 1, "value": 2.0}, {"step": 2, "value": 1.5}]},
    }
    assert programs.loss_difference(compared) == ("different", 0.5 / 1.5)
    assert programs.loss_difference({"error": "no JSON"}) == ("could not run", None)
