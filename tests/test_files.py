"""Discovery: the right Python files, each once, in a stable order."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from trncodemod.pipeline.files import NotRegularFile, discover, read_regular


def _tree(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_finds_python_files_sorted_and_skips_other_files(tmp_path: Path) -> None:
    _tree(tmp_path, {"b.py": "", "a/z.py": "", "a/y.py": "", "notes.txt": "", "c.pyi": ""})
    found = discover([tmp_path])
    assert [p.relative_to(tmp_path).as_posix() for p in found.files] == ["a/y.py", "a/z.py", "b.py"]


def test_honours_gitignore_and_configured_excludes(tmp_path: Path) -> None:
    _tree(
        tmp_path,
        {
            ".gitignore": "generated/\n*_pb2.py\n",
            "generated/x.py": "",
            "msg_pb2.py": "",
            "sub/.gitignore": "local.py\n",
            "sub/local.py": "",
            "sub/kept.py": "",
            "third_party/lib.py": "",
            "train.py": "",
        },
    )
    found = discover([tmp_path], exclude=["third_party/"], exclude_root=tmp_path)
    assert [p.relative_to(tmp_path).as_posix() for p in found.files] == ["sub/kept.py", "train.py"]


def test_tool_folders_are_never_entered(tmp_path: Path) -> None:
    _tree(
        tmp_path,
        {
            ".venv/lib/x.py": "",
            ".git/hooks/h.py": "",
            "node_modules/m.py": "",
            "nb/.ipynb_checkpoints/t-checkpoint.ipynb": "{}",
            "nb/t.ipynb": "{}",
            "t.py": "",
        },
    )
    found = discover([tmp_path], respect_gitignore=False).files
    assert [p.relative_to(tmp_path).as_posix() for p in found] == ["nb/t.ipynb", "t.py"]
    # A file named on the command line is taken, wherever it lies.
    named = tmp_path / "nb/.ipynb_checkpoints/t-checkpoint.ipynb"
    assert discover([named]).files == (named,)


def test_symlinks_out_of_the_root_and_symlinked_folders_are_not_followed(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    root = tmp_path / "root"
    _tree(tmp_path, {"outside/secret.py": "", "root/inside.py": ""})
    os.symlink(outside / "secret.py", root / "link_out.py")
    os.symlink(root / "inside.py", root / "link_in.py")
    os.symlink(outside, root / "linked_dir")
    os.symlink(root, root / "loop")  # a loop must not hang the walk
    found = discover([root])
    assert [p.name for p in found.files] == ["inside.py"], "the in-root link is the same file"
    assert any("outside" in s.reason for s in found.skipped)


def test_a_folder_named_like_a_python_file_is_a_folder(tmp_path: Path) -> None:
    _tree(tmp_path, {"x.py/inner.py": ""})
    assert [p.name for p in discover([tmp_path]).files] == ["inner.py"]


def test_missing_paths_are_reported(tmp_path: Path) -> None:
    found = discover([tmp_path / "nope.py"])
    assert found.missing == (tmp_path / "nope.py",)


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    # A subprocess with a timeout: the behaviour under test is "does not hang".
    return subprocess.run(
        [sys.executable, "-m", "trncodemod", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
    )


SCRIPT = "import torch\nmodel = torch.nn.Linear(2, 2).cuda()\n"


@pytest.mark.parametrize("command", [["check"], ["apply"], ["apply", "--dry-run"]])
def test_a_fifo_named_like_python_in_a_folder_is_skipped_with_a_message(
    tmp_path: Path, command: list[str]
) -> None:
    (tmp_path / "train.py").write_text(SCRIPT)
    os.mkfifo(tmp_path / "pipe.py")
    result = _cli(*command, "--no-cache", ".", cwd=tmp_path)
    assert "pipe.py: skipped: not a regular file (a FIFO)" in result.stderr
    assert "train.py" in result.stdout + result.stderr
    assert result.returncode in (0, 1), result.stderr


def test_a_fifo_named_on_the_command_line_is_an_error_not_a_silent_success(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.py")
    result = _cli("check", "--no-cache", "pipe.py", cwd=tmp_path)
    assert result.returncode == 2
    assert "pipe.py: skipped: not a regular file (a FIFO)" in result.stderr


def test_a_device_named_on_the_command_line_is_skipped(tmp_path: Path) -> None:
    found = discover([Path(os.devnull)])
    assert found.files == ()
    assert found.skipped[0].reason == "not a regular file (a character device)"


def test_reading_refuses_a_fifo_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "late.py"
    os.mkfifo(fifo)  # as if swapped in after discovery: the open must not wait for a writer
    with pytest.raises(NotRegularFile, match="FIFO"):
        read_regular(fifo)


def test_a_fifo_gitignore_or_configuration_does_not_hang_discovery(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(SCRIPT)
    os.mkfifo(tmp_path / ".gitignore")
    os.mkfifo(tmp_path / "pyproject.toml")
    result = _cli("check", "--no-cache", ".", cwd=tmp_path)
    assert result.returncode == 1, result.stderr
