"""Patches: git apply accepts them for every kind of file, and unidiff reads them back."""

import difflib
import subprocess
import time
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trncodemod.output import line_diff
from trncodemod.output.patch import PatchError, build_file_diff, check_file_diff, split_lines

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


# A long file with many blank lines (215 lines, "b" blank, "s" a statement) and four edits: the
# shape on which difflib.unified_diff's autojunk (on past 200 lines) described the change with
# other counts than the check's matcher, and the file was lost to an internal error.
LONG_SHAPE = (
    "sbsbsbssbbbssssbbsbbsbbssssbbbssbssbsbbbssbbsssssssbbsssbsssbbssssssbssbssbbssssssssbbssbsb"
    "sssssbsbsbssssbsbbsbsbssbbsssbssbbsssbbsbsbssbsbsbbbbssbssbbsbbbbsssbbssbsssbbbbssbbssbbbss"
    "ssbbbsssssssssssbsbsbsbsbssbsbssb"
)


def _long_file_and_edit() -> tuple[bytes, bytes]:
    lines = [b"\n" if kind == "b" else b"x = %d\n" % i for i, kind in enumerate(LONG_SHAPE)]
    new = list(lines)
    del new[34]
    new.insert(126, b"\n")
    del new[35]
    new[145] = b"y = 0\n"
    return b"".join(lines), b"".join(new)


def test_a_long_file_with_many_blank_lines_gets_a_patch_git_applies(tmp_path: Path) -> None:
    old, new = _long_file_and_edit()
    autojunk = b"".join(
        difflib.diff_bytes(difflib.unified_diff, split_lines(old), split_lines(new), b"a", b"b")
    )
    with pytest.raises(PatchError):  # the shape really is one autojunk gets wrong
        check_file_diff(autojunk, old, new)
    (tmp_path / "f.py").write_bytes(old)
    (tmp_path / "p.diff").write_bytes(build_file_diff("f.py", old, new))
    result = subprocess.run(["git", "apply", "p.diff"], cwd=tmp_path, capture_output=True)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "f.py").read_bytes() == new


_LINE = st.sampled_from([b"\n", b"\n", b"x = 1\n", b"    pass\n", b"y = f(x)\n", b"# c\n"])


@settings(max_examples=60, deadline=None)
@given(
    lines=st.lists(_LINE, min_size=201, max_size=400),
    edits=st.lists(st.tuples(st.integers(0, 10_000), st.sampled_from(["ins", "del", "set"]))),
)
def test_files_past_200_lines_get_patches_that_reproduce_them(
    lines: list[bytes], edits: list[tuple[int, str]]
) -> None:
    new = list(lines)
    for position, kind in edits:
        at = position % (len(new) + 1)
        if kind == "ins":
            new.insert(at, b"import torch_xla\n" if position % 2 else b"\n")
        elif new and at < len(new):
            if kind == "del":
                del new[at]
            else:
                new[at] = b"\n" if position % 2 else b"xm.mark_step()\n"
    old_bytes, new_bytes = b"".join(lines), b"".join(new)
    diff = build_file_diff("f.py", old_bytes, new_bytes)  # builds and checks, or raises
    assert (diff == b"") == (old_bytes == new_bytes)
    # The same with every piece split at its unique lines, as a file of many repeated lines is.
    with mock.patch.object(line_diff, "MAX_PAIRS", 0):
        diff = build_file_diff("f.py", old_bytes, new_bytes)
    assert (diff == b"") == (old_bytes == new_bytes)


def test_an_absolute_path_keeps_its_slash_in_the_headers() -> None:
    diff = build_file_diff("/srv/proj/train.py", b"x = 1\n", b"x = 2\n")
    assert diff.startswith(b"--- a//srv/proj/train.py\n+++ b//srv/proj/train.py\n")


def _among_repeated_lines(count: int) -> tuple[bytes, bytes]:
    """A script with ``count`` identical comment lines in its middle, changed on both sides of
    them: the shape on which difflib's matcher visits every pair of equal lines."""
    head = b"import torch\n\nmodel = torch.nn.Linear(2, 2).cuda()\n"
    tail = b"for step in range(3):\n    loss = model(x).sum()\n"
    old = head + b"# padding\n" * count + tail
    new = (
        b"import torch\nimport torch_xla\n\nmodel = torch.nn.Linear(2, 2).to(torch_xla.device())\n"
        + b"# padding\n" * count
        + tail
        + b"    torch_xla.sync()\n"
    )
    return old, new


def test_a_patch_among_many_identical_lines_takes_linear_time(tmp_path: Path) -> None:
    old, new = _among_repeated_lines(10_000)  # difflib alone: 10^8 pairs, minutes
    started = time.perf_counter()
    diff = build_file_diff("f.py", old, new)  # builds and checks it
    assert time.perf_counter() - started < 10.0  # quadratic takes minutes; linear, 0.1 s
    assert diff.count(b"\n") < 30, "one hunk per change, not the padding"
    (tmp_path / "f.py").write_bytes(old)
    (tmp_path / "p.diff").write_bytes(diff)
    result = subprocess.run(["git", "apply", "p.diff"], cwd=tmp_path, capture_output=True)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "f.py").read_bytes() == new


def test_an_ordinary_file_gets_the_hunks_difflib_gives() -> None:
    old, new = _long_file_and_edit()
    old_lines, new_lines = split_lines(old), split_lines(new)
    ours = line_diff.LineMatcher(old_lines, new_lines).get_opcodes()
    assert ours == difflib.SequenceMatcher(None, old_lines, new_lines, False).get_opcodes()


@pytest.mark.parametrize("name", ["foo\nbar.py", 'say "hi".py', "tab\there.py"])
def test_a_file_name_git_must_quote_gets_a_quoted_header_git_applies(
    tmp_path: Path, name: str
) -> None:
    (tmp_path / name).write_bytes(b"x = 1\n")
    diff = build_file_diff(name, b"x = 1\n", b"x = 2\n")
    assert diff.startswith(b'--- "a/')
    (tmp_path / "p.diff").write_bytes(diff)
    result = subprocess.run(["git", "apply", "p.diff"], cwd=tmp_path, capture_output=True)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / name).read_bytes() == b"x = 2\n"


@pytest.mark.parametrize(
    ("name", "header"),
    [
        ("back\\slash.py", b'--- "a/back\\\\slash.py"\n+++ "b/back\\\\slash.py"\n'),
        ('quote".py', b'--- "a/quote\\".py"\n+++ "b/quote\\".py"\n'),
        ("tab\t.py", b'--- "a/tab\\t.py"\n+++ "b/tab\\t.py"\n'),
    ],
)
def test_a_name_with_a_character_git_quotes_is_quoted_as_git_diff_quotes_it_and_applies(
    tmp_path: Path, name: str, header: bytes
) -> None:
    # The header is what `git diff` writes for such a name (quote.c); a backslash is part of a
    # POSIX file name, never a separator.
    (tmp_path / name).write_bytes(b"x = 1\n")
    diff = build_file_diff(name, b"x = 1\n", b"x = 2\n")
    assert diff.startswith(header)
    (tmp_path / "p.diff").write_bytes(diff)
    result = subprocess.run(["git", "apply", "p.diff"], cwd=tmp_path, capture_output=True)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / name).read_bytes() == b"x = 2\n"
