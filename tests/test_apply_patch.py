"""`trncodemod apply-patch`: a reviewed (edited) patch applies; a stale one writes nothing."""

from pathlib import Path

import pytest
from click.testing import CliRunner

from trncodemod.cli import main

SCRIPT = (
    "import torch\n\nmodel = torch.nn.Linear(2, 2).cuda()\n"
    + "".join(f"x{i} = {i}\n" for i in range(12))
    + "batch = torch.zeros(2).cuda()\n"
)


@pytest.fixture
def patched(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "train.py").write_text(SCRIPT)
    result = CliRunner().invoke(
        main, ["apply", "--dry-run", "--no-cache", "--patch", "m.patch", "."]
    )
    assert result.exit_code == 1
    assert (tmp_path / "m.patch").read_text().count("@@ ") == 2, "two hunks to choose from"
    return tmp_path


def _drop_last_hunk(patch: str) -> str:
    return patch[: patch.rindex("@@ -")]


def test_edited_patch_applies_only_the_hunks_left_in_it(patched: Path) -> None:
    (patched / "m.patch").write_text(_drop_last_hunk((patched / "m.patch").read_text()))
    result = CliRunner().invoke(main, ["apply-patch", "m.patch"])
    assert result.exit_code == 0, result.stderr
    text = (patched / "train.py").read_text()
    assert "Linear(2, 2).to(torch_xla.device())" in text
    assert "batch = torch.zeros(2).cuda()" in text, "the deleted hunk was not applied"


def test_stale_patch_is_refused_and_nothing_is_written(patched: Path) -> None:
    edited = SCRIPT.replace("model =", "net =")
    (patched / "train.py").write_text(edited)
    result = CliRunner().invoke(main, ["apply-patch", "m.patch"])
    assert result.exit_code == 2
    assert "train.py: refused" in result.stderr
    assert (patched / "train.py").read_text() == edited


def test_check_writes_nothing(patched: Path) -> None:
    result = CliRunner().invoke(main, ["apply-patch", "--check", "m.patch"])
    assert result.exit_code == 0
    assert (patched / "train.py").read_text() == SCRIPT


def test_garbage_is_a_usage_error(patched: Path) -> None:
    (patched / "bad.patch").write_text("@@ nonsense\n")
    assert CliRunner().invoke(main, ["apply-patch", "bad.patch"]).exit_code == 2
