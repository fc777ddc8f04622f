"""`--scale-out` reaches the pass from the command line and from the configuration, and without
it a training entry script gets only the one-NeuronCore note."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from trncodemod.cli import main

SCRIPT = (
    Path(__file__).resolve().parent.parent / "golden" / "scale-out" / "one_neuroncore_note.in.py"
)


@pytest.fixture
def script(tmp_path: Path) -> Path:
    path = tmp_path / "train.py"
    path.write_bytes(SCRIPT.read_bytes())
    return path


def _check(*args: str) -> str:
    result = CliRunner().invoke(main, ["check", "--no-cache", "-j", "1", *args])
    assert result.exit_code in (0, 1), result.output
    return result.output


def test_without_the_option_a_training_script_is_noted_not_scaled_out(script: Path) -> None:
    output = _check(str(script))
    assert "TRN162" in output and "TRN161" not in output


def test_the_flag_scales_the_script_out(script: Path) -> None:
    output = _check("--scale-out", str(script))
    assert "TRN161" in output and "TRN162" not in output
    assert "torchrun --nproc_per_node=32 train.py" in output


def test_the_configuration_key_scales_the_script_out(script: Path) -> None:
    (script.parent / "pyproject.toml").write_text("[tool.trncodemod]\nscale-out = true\n")
    assert "TRN161" in _check(str(script))
