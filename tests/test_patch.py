"""Patches: git apply accepts them for every kind of file, and unidiff reads them back."""

import subprocess
from pathlib import Path

import pytest

from trncodemod.patch import PatchError, build_file_diff, check_file_diff, split_lines

CASES = {
    "lf": (b"a\nb\nc\n", b"a\nB\nc\n"),
    "crlf": (b"a\r\nb\r\nc\r\n", b"a\r\nB\r\nc\r\n"),
    "no-final-newline": (b"a\nb\nc", b"a\nb\nC"),
    "adds-final-newline": (b"a\nb", b"a\nb\n"),
    "latin-1": ("x = 'é'\ny = 1\n".encode("latin-1"), "x = 'é'\ny = 2\n".encode("latin-1")),
    "bom": (b"\xef\xbb\xbfx = 1\ny = 1\n", b"\xef\xbb\xbfx = 2\ny = 1\n"),
    # str.splitlines() would split at the form feed and git would reject the patch.
    "form-feed": (b"import os\n\x0c\nx = 1\n", b"import os\n\x0c\nx = 2\n"),
    "insert-at-top": (b"x = 1\n", b"import torch_xla\nx = 1\n"),
    "empty-file": (b"", b"x = 1\n"),
}


@pytest.mark.parametrize("name", CASES)
def test_patch_applies_with_git_and_reproduces_the_new_bytes(name: str, tmp_path: Path) -> None:
    old, new = CASES[name]
    (tmp_path / "f.py").write_bytes(old)
    (tmp_path / "p.diff").write_bytes(build_file_diff("f.py", old, new))
    result = subprocess.run(
        ["git", "apply", "p.diff"], cwd=tmp_path, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "f.py").read_bytes() == new


def test_headers_are_relative_a_and_b_paths() -> None:
    diff = build_file_diff("pkg/train.py", b"x = 1\n", b"x = 2\n")
    assert diff.startswith(b"--- a/pkg/train.py\n+++ b/pkg/train.py\n")


def test_unchanged_file_has_an_empty_diff() -> None:
    assert build_file_diff("f.py", b"x\n", b"x\n") == b""


def test_a_patch_that_does_not_describe_the_change_is_caught() -> None:
    diff = build_file_diff("f.py", b"a\nb\n", b"a\nB\n")
    with pytest.raises(PatchError):
        check_file_diff(diff, b"a\nb\n", b"a\nC\n")


def test_split_lines_splits_on_newline_only() -> None:
    assert split_lines(b"a\x0cb\r\nc") == [b"a\x0cb\r\n", b"c"]
