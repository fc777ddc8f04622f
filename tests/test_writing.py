"""Writing: all or nothing, never over a concurrent change, mode and links respected."""

import os
import stat
from pathlib import Path

import pytest

from trncodemod.writing import WriteError, write_atomic


def test_replaces_content_and_keeps_the_file_mode(tmp_path: Path) -> None:
    path = tmp_path / "f.py"
    path.write_bytes(b"old\n")
    path.chmod(0o750)
    write_atomic(path, b"new\n", b"old\n")
    assert path.read_bytes() == b"new\n"
    assert stat.S_IMODE(path.stat().st_mode) == 0o750
    assert [p.name for p in tmp_path.iterdir()] == ["f.py"], "no temporary file left behind"


def test_refuses_a_file_changed_since_it_was_read(tmp_path: Path) -> None:
    path = tmp_path / "f.py"
    path.write_bytes(b"edited by someone else\n")
    with pytest.raises(WriteError, match="changed"):
        write_atomic(path, b"new\n", b"old\n")
    assert path.read_bytes() == b"edited by someone else\n"


def test_refuses_a_file_deleted_since_it_was_read(tmp_path: Path) -> None:
    with pytest.raises(WriteError, match="deleted"):
        write_atomic(tmp_path / "gone.py", b"new\n", b"old\n")
    assert not (tmp_path / "gone.py").exists()


def test_refuses_a_read_only_file(tmp_path: Path) -> None:
    path = tmp_path / "f.py"
    path.write_bytes(b"old\n")
    path.chmod(0o444)
    with pytest.raises(WriteError, match="read-only"):
        write_atomic(path, b"new\n", b"old\n")
    assert path.read_bytes() == b"old\n"


def test_writes_through_a_symlink_and_keeps_the_link(tmp_path: Path) -> None:
    real = tmp_path / "real.py"
    real.write_bytes(b"old\n")
    link = tmp_path / "link.py"
    os.symlink(real, link)
    write_atomic(link, b"new\n", b"old\n")
    assert link.is_symlink()
    assert real.read_bytes() == b"new\n"
