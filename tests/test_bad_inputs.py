"""Files the tool cannot migrate: each is named with its reason, left byte-identical, and never
stops the run; the neighbour file beside it is still migrated, and nothing is half-written."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import trncodemod.cli
import trncodemod.pipeline.writing
from trncodemod.cli import main
from trncodemod.pipeline.writing import write_atomic

GPU_SCRIPT = b"import torch\n\nmodel = torch.nn.Linear(4, 2).cuda()\n"
MIGRATED = b"model = torch.nn.Linear(4, 2).to(torch_xla.device())\n"


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "neighbour.py").write_bytes(GPU_SCRIPT)
    return tmp_path


def apply(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["apply", "--no-cache", "-j", "1", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"the run crashed: {result.exception!r}\n{result.stderr}"
    )
    return result.exit_code, result.stderr


def assert_untouched_and_neighbour_migrated(tree: Path, name: str, before: bytes) -> None:
    assert (tree / name).read_bytes() == before
    assert MIGRATED in (tree / "neighbour.py").read_bytes()
    leftovers = [p.name for p in tree.rglob("*.trncodemod")]
    assert leftovers == [], "temporary files left behind"


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (GPU_SCRIPT + b"def f(:\n    pass\n", "bad.py:4:7: syntax error"),
        (
            GPU_SCRIPT + b"w = Wrapper(replay, async=True)\n",
            "bad.py:4:21: syntax error: invalid syntax: `async` is a reserved word since Python 3.7",
        ),
        (
            GPU_SCRIPT + b"x = x.cuda(async=True)\n",
            "passes it to `.cuda()`; torch 0.4 renamed it: write `non_blocking=True`",
        ),
        (GPU_SCRIPT + b"x = 1\x00\n", "bad.py:4: file contains a NUL byte"),
        (GPU_SCRIPT + b"s = '\xff\xfe'\n", "bad.py:4: cannot decode as utf-8: byte 0xff"),
        (b"s = '\xff'\n" + GPU_SCRIPT, "bad.py:1: cannot decode as utf-8: byte 0xff"),
        (b"# -*- coding: ascii -*-\ns = 'caf\xc3\xa9'\n" + GPU_SCRIPT, "cannot decode as ascii"),
        (b"# coding: klingon\n" + GPU_SCRIPT, "bad.py: bad encoding declaration"),
        (b"\xef\xbb\xbf# coding: latin-1\n" + GPU_SCRIPT, "bad.py: bad encoding declaration"),
        (
            b"class A:\n\x0c pass\n" + GPU_SCRIPT,
            "bad.py: indentation '\\x0c ' is not spaces or tabs",
        ),
    ],
    ids=[
        "syntax-error",
        "async-as-a-name",
        "cuda-async-keyword",
        "nul-byte",
        "undecodable-byte",
        "undecodable-first-line",
        "cookie-contradicts-bytes",
        "unknown-cookie",
        "bom-contradicts-cookie",
        "form-feed-indent",
    ],
)
def test_unreadable_source_is_named_with_its_reason(
    tree: Path, content: bytes, reason: str
) -> None:
    (tree / "bad.py").write_bytes(content)
    code, err = apply(".")
    assert code == 2
    assert reason in err, err
    assert "internal error" not in err and "Traceback" not in err
    assert_untouched_and_neighbour_migrated(tree, "bad.py", content)


def test_an_empty_file_is_left_alone_without_an_error(tree: Path) -> None:
    (tree / "empty.py").write_bytes(b"")
    code, err = apply(".")
    assert "empty.py" not in err and code in (0, 1)
    assert_untouched_and_neighbour_migrated(tree, "empty.py", b"")


def test_a_5_mb_file_is_read_and_left_whole(tree: Path) -> None:
    # Generated code (a data table) with no GPU code in it: the shape of real 5 MB files. Only the
    # device pass runs: a 5 MB file that the passes parse costs LibCST a minute and 4-5 GB here,
    # and the diagnostics passes whose needles ("[", ":") match every file take minutes.
    rows = b"".join(b"    (%d, %d.5, 'row %d')," % (i, i, i) + b"\n" for i in range(190_000))
    content = b"TABLE = [\n" + rows + b"]\n"
    assert len(content) > 5_000_000
    (tree / "big.py").write_bytes(content)
    code, err = apply("--select", "TRN001", ".")
    assert "big.py" not in err, err
    assert_untouched_and_neighbour_migrated(tree, "big.py", content)


def test_code_over_max_file_bytes_is_not_parsed_and_says_which_setting(tree: Path) -> None:
    # The default (1 MB) spares a run an hour and gigabytes on one generated file; a small limit
    # stands in for it here.
    (tree / "pyproject.toml").write_text("[tool.trncodemod]\nmax-file-bytes = 1000\n")
    content = GPU_SCRIPT + b"".join(b"# padding line %d\n" % i for i in range(100))
    (tree / "big.py").write_bytes(content)
    code, err = apply(".")
    assert code == 2, err
    assert f"big.py: too large to migrate: {len(content):,} bytes of code" in err, err
    assert "over `max-file-bytes` (1,000)" in err
    assert_untouched_and_neighbour_migrated(tree, "big.py", content)


KILLING_PLUGIN = """\
import os
import libcst as cst

class Killer(cst.CSTTransformer):
    def visit_Module(self, node):
        if "DIE" + "_HERE" in node.code:
            os._exit(9)  # what an out-of-memory kill looks like to the pool
"""


def test_a_worker_that_dies_is_an_error_for_its_file_and_the_run_goes_on(tmp_path: Path) -> None:
    tree = tmp_path / "tree"
    tree.mkdir()
    for index in range(8):
        (tree / f"f{index}.py").write_bytes(GPU_SCRIPT + (b"# DIE_HERE\n" if index == 5 else b""))
    (tmp_path / "killer.py").write_text(KILLING_PLUGIN)
    result = subprocess.run(
        [sys.executable, "-m", "trncodemod", "apply", "--dry-run", "--no-cache", "-j", "2"]
        + ["--plugin", str(tmp_path / "killer.py") + ":Killer", "tree"],
        capture_output=True,
        cwd=tmp_path,
        timeout=300,
    )
    err = result.stderr.decode()
    assert result.returncode == 2, err
    assert "Traceback" not in err
    assert "tree/f5.py: the worker process died while migrating this file" in err, err
    assert result.stdout.count(b"+++ b/tree/f") == 7, "every other file is migrated"


def test_2000_nested_parentheses_are_a_per_file_error_not_a_crash(tree: Path) -> None:
    # In a subprocess: LibCST's native parser overflows the C stack on such input (a segfault),
    # which would take pytest down with it if the engine's guard ever regressed.
    content = GPU_SCRIPT + b"x = " + b"(" * 2000 + b"1" + b")" * 2000 + b"\n"
    (tree / "deep.py").write_bytes(content)
    for jobs in ("1", "2"):
        result = subprocess.run(
            [sys.executable, "-m", "trncodemod", "apply", "--no-cache", "-j", jobs, "--dry-run"]
            + ["deep.py", "neighbour.py"],
            capture_output=True,
            cwd=tree,
            timeout=120,
        )
        err = result.stderr.decode()
        assert result.returncode == 2, err
        assert "deep.py:4:" in err and "too many nested parentheses" in err, err
        assert b"+++ b/neighbour.py" in result.stdout
    assert (tree / "deep.py").read_bytes() == content


def test_a_read_only_file_is_reported_and_not_written(tree: Path) -> None:
    (tree / "locked.py").write_bytes(GPU_SCRIPT)
    (tree / "locked.py").chmod(0o444)
    code, err = apply(".")
    assert code == 2
    assert "locked.py: file is read-only; nothing written" in err
    assert_untouched_and_neighbour_migrated(tree, "locked.py", GPU_SCRIPT)


def test_a_file_that_could_not_be_written_reports_no_fix(tree: Path) -> None:
    (tree / "locked.py").write_bytes(GPU_SCRIPT)
    (tree / "locked.py").chmod(0o444)
    _, err = apply("locked.py")
    assert "[fixed]" not in err, err


@pytest.mark.parametrize("change", ["deleted", "edited"])
def test_a_file_changed_between_read_and_write_is_not_overwritten(
    tree: Path, monkeypatch: pytest.MonkeyPatch, change: str
) -> None:
    (tree / "moving.py").write_bytes(GPU_SCRIPT)

    def someone_else_first(path: Path, data: bytes, expected: bytes, roots=None) -> None:
        if path.name == "moving.py":
            if change == "deleted":
                path.unlink()
            else:
                path.write_bytes(b"# edited meanwhile\n" + GPU_SCRIPT)
        write_atomic(path, data, expected, roots)

    monkeypatch.setattr(trncodemod.pipeline.writing, "write_atomic", someone_else_first)
    code, err = apply(".")
    assert code == 2
    if change == "deleted":
        assert "moving.py: file was deleted after it was read; nothing written" in err
        assert not (tree / "moving.py").exists()
    else:
        assert "moving.py: file changed on disk after it was read; nothing written" in err
        assert (tree / "moving.py").read_bytes() == b"# edited meanwhile\n" + GPU_SCRIPT
    assert MIGRATED in (tree / "neighbour.py").read_bytes()
    assert list(tree.rglob("*.trncodemod")) == []


def test_a_symlink_loop_does_not_stop_the_run(tree: Path) -> None:
    os.symlink("loop_b.py", tree / "loop_a.py")
    os.symlink("loop_a.py", tree / "loop_b.py")
    code, err = apply(".")
    assert "Traceback" not in err and code in (0, 1), err
    assert MIGRATED in (tree / "neighbour.py").read_bytes()
    assert os.readlink(tree / "loop_a.py") == "loop_b.py"


def test_a_symlink_loop_named_on_the_command_line_is_reported(tree: Path) -> None:
    os.symlink("loop_b.py", tree / "loop_a.py")
    os.symlink("loop_a.py", tree / "loop_b.py")
    code, err = apply("loop_a.py", "neighbour.py")
    assert "loop_a.py" in err and code == 2, err


def test_a_folder_named_like_a_python_file_is_searched_not_read(tree: Path) -> None:
    (tree / "x.py").mkdir()
    (tree / "x.py" / "inner.py").write_bytes(GPU_SCRIPT)
    for args in ((".",), ("x.py", "neighbour.py")):
        code, err = apply(*args)
        assert "error" not in err and "x.py:" not in err.replace("x.py/inner.py", ""), err
    assert MIGRATED in (tree / "x.py" / "inner.py").read_bytes()
    assert MIGRATED in (tree / "neighbour.py").read_bytes()


@pytest.mark.parametrize(
    "content",
    [
        b"not json",
        b"",
        b'{"cells": "nope"}',
        b"\xff\xfe\x00",
    ],
)
def test_a_notebook_that_is_not_a_notebook_is_reported_or_skipped(
    tree: Path, content: bytes
) -> None:
    (tree / "broken.ipynb").write_bytes(content)
    code, err = apply(".")
    assert "Traceback" not in err and "internal error" not in err, err
    if "broken.ipynb" in err:
        assert code == 2, "a reported notebook is an error"
    else:
        assert code in (0, 1), "a silently skipped notebook cannot fail the run"
    assert_untouched_and_neighbour_migrated(tree, "broken.ipynb", content)


def test_a_file_saved_while_the_migrated_files_are_written_keeps_the_save(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tree / "moving.py").write_bytes(GPU_SCRIPT)
    saved = b"# saved by an editor\n" + GPU_SCRIPT
    real_fsync = os.fsync

    def fsync_then_save(fd: int) -> None:  # the editor saves during the slowest step
        real_fsync(fd)
        if (tree / "moving.py").read_bytes() == GPU_SCRIPT:
            (tree / "moving.py").write_bytes(saved)

    monkeypatch.setattr(os, "fsync", fsync_then_save)
    code, err = apply(".")
    assert code == 2
    assert "moving.py: file changed on disk after it was read; nothing written" in err
    assert_untouched_and_neighbour_migrated(tree, "moving.py", saved)


def test_a_folder_that_cannot_be_written_is_an_error_and_the_run_goes_on(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tree / "a_locked").mkdir()
    (tree / "a_locked" / "f.py").write_bytes(GPU_SCRIPT)
    (tree / "b_open").mkdir()
    (tree / "b_open" / "g.py").write_bytes(GPU_SCRIPT)
    (tree / "a_locked").chmod(0o555)
    if os.geteuid() == 0:  # root writes through folder permissions: deny as the kernel would
        real_open = os.open
        locked = str(tree / "a_locked")

        def denied(path, flags, *args, **kwargs):
            if flags & os.O_CREAT and os.path.dirname(os.path.abspath(path)) == locked:
                raise PermissionError(13, "Permission denied", path)
            return real_open(path, flags, *args, **kwargs)

        monkeypatch.setattr(os, "open", denied)
    try:
        code, err = apply(".")
    finally:
        (tree / "a_locked").chmod(0o755)
    assert code == 2, err
    assert "a_locked/f.py: cannot write: Permission denied" in err
    assert "1 error;" in err.splitlines()[-1], "the summary is printed"
    assert (tree / "a_locked" / "f.py").read_bytes() == GPU_SCRIPT
    assert MIGRATED in (tree / "b_open" / "g.py").read_bytes()
