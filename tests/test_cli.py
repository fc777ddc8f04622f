"""The command line, end to end: streams, exit codes, files on disk."""

import json
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from trncodemod.cli import main

GPU_SCRIPT = """import torch

model = torch.nn.Linear(4, 2).cuda()
x = torch.randn(3, 4).cuda()
"""


def run(*args: str) -> tuple[int, bytes, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout_bytes, result.stderr


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "train.py").write_text(GPU_SCRIPT)
    return tmp_path


def test_dry_run_prints_only_the_patch_on_stdout_and_writes_nothing(tree: Path) -> None:
    code, out, err = run("apply", "--dry-run", ".")
    assert code == 1, "changes pending"
    assert out.startswith(b"--- a/train.py\n+++ b/train.py\n")
    assert b"TRN001" not in out
    assert "train.py:3:9: TRN001" in err
    assert (tree / "train.py").read_text() == GPU_SCRIPT
    result = subprocess.run(
        ["git", "apply", "--check", "-"], input=out, cwd=tree, capture_output=True
    )
    assert result.returncode == 0, result.stderr


def test_apply_then_dry_run_is_clean(tree: Path) -> None:
    code, _, _ = run("apply", ".")
    assert code == 0
    assert "torch_xla.device()" in (tree / "train.py").read_text()
    code, out, err = run("apply", "--dry-run", ".")
    assert (code, out) == (0, b""), err


def test_patch_file_holds_the_same_patch_as_stdout(tree: Path) -> None:
    _, out, _ = run("apply", "--dry-run", "--patch", "migration.patch", ".")
    assert (tree / "migration.patch").read_bytes() == out


def test_mixed_tree_broken_file_is_named_and_the_others_are_migrated(tree: Path) -> None:
    (tree / "broken.py").write_text("import torch\ndef f(:\n    x.cuda()\n")
    latin = "# -*- coding: latin-1 -*-\nimport torch\n# café\nm = torch.nn.Linear(2, 2).cuda()\n"
    (tree / "latin.py").write_bytes(latin.encode("latin-1"))
    (tree / "crlf.py").write_bytes(b"import torch\r\nm = torch.nn.Linear(2, 2).cuda()\r\n")
    (tree / "bom.py").write_bytes(b"\xef\xbb\xbfimport torch\nm = torch.nn.Linear(2, 2).cuda()")
    code, _, err = run("apply", ".")
    assert code == 2
    assert "broken.py:2:" in err and "syntax error" in err
    assert (tree / "broken.py").read_text() == "import torch\ndef f(:\n    x.cuda()\n"
    latin_after = (tree / "latin.py").read_bytes()
    assert "# café".encode("latin-1") in latin_after and b".to(torch_xla.device())" in latin_after
    assert (tree / "crlf.py").read_bytes() == (
        b"import torch\r\nimport torch_xla\r\nm = torch.nn.Linear(2, 2).to(torch_xla.device())\r\n"
    )
    bom_after = (tree / "bom.py").read_bytes()
    assert bom_after.startswith(b"\xef\xbb\xbf") and not bom_after.endswith(b"\n")


def test_exit_zero_and_json_findings(tree: Path) -> None:
    code, out, err = run("apply", "--dry-run", "--exit-zero", "--format", "json", ".")
    assert code == 0 and out
    report = json.loads(err)
    assert report["version"] == 1
    assert report["summary"]["changed"] == 1
    assert {f["code"] for f in report["findings"]} == {"TRN001"}


def test_select_and_ignore_by_prefix(tree: Path) -> None:
    _, out, _ = run("apply", "--dry-run", "--ignore", "TRN0", ".")
    assert out == b""
    code, _, err = run("apply", "--dry-run", "--select", "TRN7", ".")
    assert code == 2 and "TRN7" in err


def test_unknown_config_key_is_a_usage_error(tree: Path) -> None:
    (tree / "pyproject.toml").write_text("[tool.trncodemod]\ntarget-version = 'x'\n")
    code, _, err = run("apply", "--dry-run", ".")
    assert code == 2 and "unknown key `target-version`" in err


def test_missing_path_is_an_error(tree: Path) -> None:
    code, _, err = run("apply", "--dry-run", "nope.py")
    assert code == 2 and "nope.py: no such file" in err


def test_explain_prints_the_rule_documentation() -> None:
    code, out, _ = run("explain", "TRN001")
    text = out.decode()
    assert code == 0
    for section in ("## What it does", "## Why", "## Example", "## Use instead", "## Sources"):
        assert section in text
    assert "https://" in text or "benchmarks/" in text


def test_explain_unknown_rule_is_a_usage_error() -> None:
    code, _, err = run("explain", "TRN999")
    assert code == 2 and "unknown rule" in err


def test_target_neuron_emits_the_neuron_device(tree: Path) -> None:
    _, out, _ = run("apply", "--dry-run", "--target", "neuron", ".")
    assert b'.to(torch.device("neuron"))' in out and b"torch_xla" not in out


def test_parallel_run_gives_the_same_patch_as_a_serial_one(tree: Path) -> None:
    for index in range(12):
        (tree / f"t{index:02}.py").write_text(GPU_SCRIPT)
    _, serial, _ = run("apply", "--dry-run", "-j", "1", ".")
    _, parallel, _ = run("apply", "--dry-run", "-j", "2", ".")
    assert serial == parallel and serial.count(b"+++ b/") == 13


def test_dry_run_exit_code_answers_whether_anything_would_change(tree: Path) -> None:
    (tree / "train.py").write_text("import torch\nok = torch.cuda.is_available()\n")
    code, out, err = run("apply", "--dry-run", ".")
    assert (code, out) == (0, b"") and "TRN007" in err
    code, _, _ = run("apply", ".")
    assert code == 1, "a writing run exits 1 while findings are left for a person"


def test_ctrl_c_stops_within_a_second_with_exit_130_and_no_aborted(tmp_path: Path) -> None:
    import signal
    import sys
    import time

    examples = sorted((Path(__file__).parent.parent / "examples").glob("*.py"))
    for index in range(40):
        for example in examples:
            (tmp_path / f"t{index}_{example.name}").write_bytes(example.read_bytes())
    process = subprocess.Popen(
        [sys.executable, "-m", "trncodemod", "check", "--no-cache", "-j", "2", "."],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    time.sleep(2.0)  # past start-up, well inside the run
    assert process.poll() is None, "the run ended before it could be interrupted"
    sent = time.monotonic()
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=30)
    assert time.monotonic() - sent < 5.0  # waiting for the files in flight would take far longer
    assert process.returncode == 130
    assert b"Aborted!" not in err and b"interrupted" in err
    assert b"Traceback" not in err, err.decode()


def test_absolute_paths_outside_the_folder_keep_their_leading_slash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "proj").mkdir()
    (tmp_path / "here").mkdir()
    script = tmp_path / "proj" / "train.py"
    script.write_text(GPU_SCRIPT)
    monkeypatch.chdir(tmp_path / "here")
    given = script.as_posix()
    _, out, _ = run("check", "--no-cache", given)
    assert out.decode().startswith(f"{given}:3:9: TRN001")
    _, out, _ = run("check", "--no-cache", "--format", "json", given)
    assert {f["path"] for f in json.loads(out)["findings"]} == {given}
    _, out, _ = run("check", "--no-cache", "--format", "github", given)
    assert f"file={given}".replace(":", "%3A") in out.decode()
    _, out, _ = run("check", "--no-cache", "--format", "sarif", given)
    uris = {
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        for r in json.loads(out)["runs"][0]["results"]
    }
    assert uris == {given}
    _, out, err = run("apply", "--dry-run", "--no-cache", given)
    assert out.startswith(f"--- a/{given}\n+++ b/{given}\n".encode())
    assert f"{given}:3:9: TRN001" in err


class _Terminal:
    """stderr as a terminal, for the progress display."""

    def isatty(self) -> bool:
        return True

    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        pass


class _Progress:
    def __init__(self) -> None:
        self.started = self.stopped = False
        self.updates: list[dict] = []

    def start(self) -> None:
        self.started = True

    def stop(self) -> None:
        self.stopped = True

    def update(self, task: int, **fields: object) -> None:
        self.updates.append(fields)


def _slow_run(monkeypatch: pytest.MonkeyPatch, delay: float) -> _Progress:
    import sys
    import time

    from trncodemod import cli as cli_module
    from trncodemod.pipeline.engine import FileOutcome

    progress = _Progress()
    monkeypatch.setattr(cli_module, "_progress", lambda total, first: (progress, 0))
    monkeypatch.setattr(cli_module, "PROGRESS_AFTER_S", 0.05)
    monkeypatch.setattr(sys, "stderr", _Terminal())

    def slow(files, *args, **kwargs):  # type: ignore[no-untyped-def]
        for path in files:
            time.sleep(delay)
            yield FileOutcome(path, str(path))

    monkeypatch.setattr(cli_module, "migrate_files", slow)
    files = [Path("a.py"), Path("b.py"), Path("c.py")]
    cli_module._run(files, None, 1, None)  # type: ignore[arg-type]
    return progress


def test_a_run_longer_than_a_moment_shows_progress_on_a_terminal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    progress = _slow_run(monkeypatch, delay=0.1)
    assert progress.started and progress.stopped
    assert progress.updates[-1]["completed"] == 3
    assert progress.updates[0] == {"completed": 1, "current": "b.py"}


def test_a_run_over_within_the_moment_shows_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    assert not _slow_run(monkeypatch, delay=0).started


def test_ctrl_c_while_files_are_written_says_so_truthfully_with_the_summary(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import os
    import signal

    import trncodemod.cli

    (tree / "second.py").write_text(GPU_SCRIPT)
    real_write = trncodemod.cli.write_outcomes

    def interrupted_while_writing(outcomes, roots):
        os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C as the first file is written
        return real_write(outcomes, roots)

    monkeypatch.setattr(trncodemod.cli, "write_outcomes", interrupted_while_writing)
    code, _, err = run("apply", "--no-cache", "-j", "1", ".")
    assert code == 130
    assert "torch_xla.device()" in (tree / "second.py").read_text()
    assert "nothing more was written" not in err
    lines = err.splitlines()
    assert lines[-2].startswith("xla-2.9: 2 files checked, 2 changed"), err
    assert lines[-1] == "interrupted while writing: stopped once every file was written or refused"
