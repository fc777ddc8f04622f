"""User plugins: a LibCST codemod and a Bowler query run after the built-in passes, in the same
patch; a file Bowler cannot parse is an error, never a silent skip."""

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from trncodemod.cli import main
from trncodemod.config import Settings
from trncodemod.pipeline.engine import migrate_file
from trncodemod.pipeline.migrate import MigrationError, migrate_text

ROOT = Path(__file__).resolve().parent.parent
LIBCST_PLUGIN = f"{ROOT}/examples/plugins/perf_counter.py:UsePerfCounter"
BOWLER_PLUGIN = f"{ROOT}/examples/plugins/rename_eval_function.py:query"


def test_libcst_plugin_changes_the_gpt_example_in_the_same_patch(tmp_path: Path) -> None:
    script = tmp_path / "gpt_amp.py"
    shutil.copy(ROOT / "examples" / "gpt_amp.py", script)
    outcome = migrate_file(script, "gpt_amp.py", Settings(plugins=(LIBCST_PLUGIN,)))
    assert outcome.error is None, outcome.error
    assert b"time.perf_counter()" in outcome.diff and b"torch_xla" in outcome.diff
    assert b"time.time()" not in outcome.new
    assert any(f.code == "TRN900" for f in outcome.findings)


def test_bowler_plugin_changes_the_mnist_example(tmp_path: Path) -> None:
    script = tmp_path / "cnn_mnist.py"
    shutil.copy(ROOT / "examples" / "cnn_mnist.py", script)
    outcome = migrate_file(script, "cnn_mnist.py", Settings(plugins=(BOWLER_PLUGIN,)))
    assert outcome.error is None, outcome.error
    assert b"def evaluate(" in outcome.new and b"def test(" not in outcome.new
    assert b"+def evaluate(" in outcome.diff


def test_a_file_bowler_cannot_parse_is_an_error(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "modern.py").write_text(
        "import torch\n\ndef test(x, /):\n    match x:\n        case _:\n            return x.cuda()\n"
    )
    (tmp_path / "plain.py").write_text("import torch\nm = torch.nn.Linear(2, 2).cuda()\n")
    result = CliRunner().invoke(
        main, ["apply", "--dry-run", "--no-cache", "--plugin", BOWLER_PLUGIN, "."]
    )
    assert result.exit_code == 2
    assert "modern.py" in result.stderr and "cannot read this file" in result.stderr
    assert b"+++ b/plain.py" in result.stdout_bytes, "the other file is still migrated"


def test_plugin_that_cannot_be_loaded_is_named() -> None:
    with pytest.raises(MigrationError, match="no attribute 'Nope'"):
        migrate_text(
            "x = 1\n", "t.py", Settings(plugins=(f"{ROOT}/examples/plugins/perf_counter.py:Nope",))
        )


def test_plugin_option_on_the_command_line(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    shutil.copy(ROOT / "examples" / "gpt_amp.py", tmp_path / "gpt_amp.py")
    result = CliRunner().invoke(
        main, ["apply", "--dry-run", "--no-cache", "--plugin", LIBCST_PLUGIN, "gpt_amp.py"]
    )
    assert result.exit_code == 1, result.stderr
    assert b"+    t0 = time.perf_counter()" in result.stdout_bytes
    assert "TRN900" in result.stderr


STATIC_BATCHES = f"{ROOT}/examples/plugins/static_batches.py:query"
LOADERS = """\
import torch
from data import make_loader

train = make_loader(ds, batch_size=32)
val = make_loader(ds, 64, shuffle=False)
default = make_loader()
kept = make_loader(ds, drop_last=False)
maybe = make_loader(ds, **options)
other = build_loader(ds)
"""


def test_documented_bowler_plugin_asks_the_team_helper_for_whole_batches(
    tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "train.py").write_text(LOADERS)
    result = CliRunner().invoke(
        main, ["apply", "--no-cache", "--plugin", STATIC_BATCHES, "train.py"]
    )
    assert result.exit_code == 0, result.stderr
    assert (tmp_path / "train.py").read_text() == LOADERS.replace(
        "batch_size=32)", "batch_size=32, drop_last=True)"
    ).replace("shuffle=False)", "shuffle=False, drop_last=True)").replace(
        "make_loader()", "make_loader(drop_last=True)"
    )
    assert "TRN900" in result.stderr


def test_the_plugin_manual_shows_the_tested_example_as_it_is() -> None:
    manual = (ROOT / "docs" / "plugins.md").read_text("utf-8")
    source = (ROOT / "examples" / "plugins" / "static_batches.py").read_text("utf-8")
    assert source in manual
