"""An editor saving a file while `apply` replaces it: the save is kept and the write refused.

The timing race with a real editor process lives in `benchmarks/write_race.py` (its figures are
in benchmarks/README.md); a timed race in the suite fails by chance on a loaded machine. Here the save is
made at an exact moment of the write instead: while the new text is flushed to disk, which is
where about half the saves were lost before the check just ahead of the rename. What remains,
the moment between that check and the rename, no check can close and no test can pin.
"""

import os
from pathlib import Path

import pytest

from trncodemod.pipeline.writing import WriteError, write_atomic

OLD, NEW, SAVED = b"old = 1\n", b"new = 2\n", b"saved = 3\n"


def _save(path: Path, how: str, text: bytes) -> None:
    if how == "in place":
        path.write_bytes(text)
    else:
        swap = path.with_name(path.name + ".swp")
        swap.write_bytes(text)
        os.replace(swap, path)


@pytest.mark.parametrize("how", ["in place", "by rename"])
@pytest.mark.parametrize("size", ["same size", "other size"])
def test_a_save_made_while_the_write_flushes_is_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str, size: str
) -> None:
    path = tmp_path / "train.py"
    path.write_bytes(OLD)
    saved = SAVED if size == "other size" else b"saved=3\n"
    assert (len(saved) == len(OLD)) == (size == "same size")
    real_fsync = os.fsync
    calls: list[int] = []

    def fsync_with_a_save(fd: int) -> None:
        real_fsync(fd)
        if not calls:
            calls.append(fd)
            _save(path, how, saved)

    monkeypatch.setattr(os, "fsync", fsync_with_a_save)
    with pytest.raises(WriteError) as refused:
        write_atomic(path, NEW, OLD)
    assert calls, "the write never flushed: the save was not made during it"
    assert path.read_bytes() == saved, "the editor's save was lost"
    assert "changed on disk" in str(refused.value)
    assert [p.name for p in tmp_path.iterdir()] == ["train.py"], "a temporary file was left"


def test_without_a_save_the_write_lands(tmp_path: Path) -> None:
    path = tmp_path / "train.py"
    path.write_bytes(OLD)
    write_atomic(path, NEW, OLD)
    assert path.read_bytes() == NEW
