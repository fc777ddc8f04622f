"""Writing: all or nothing, never over a concurrent change, mode and links respected."""

import os
import stat
from pathlib import Path

import pytest

from trncodemod.pipeline.writing import WriteError, write_atomic

AS_ROOT = pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() != 0, reason="only root can give a file away"
)


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


@pytest.mark.skipif(os.name != "posix", reason="process liveness is asked with signal 0")
def test_removes_the_temporaries_of_a_dead_run_and_nothing_else(tmp_path: Path) -> None:
    import subprocess
    import sys

    gone = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    dead_pid = int(gone.stdout)  # exited; reused only after the kernel wraps around
    path = tmp_path / "f.py"
    path.write_bytes(b"old\n")
    stale = tmp_path / f".f.py.{dead_pid}.k3j2x9.trncodemod"
    live = tmp_path / f".f.py.{os.getpid()}.a8b7c6.trncodemod"  # a run still writing
    no_pid = tmp_path / ".f.py.q1w2e3.trncodemod"  # not ours to judge
    other = tmp_path / f".g.py.{dead_pid}.z9y8x7.trncodemod"  # another file's
    longer = tmp_path / f".f.py.{dead_pid}.py.{os.getpid()}.m4n5b6.trncodemod"  # f.py.<n>.py's
    for leftover in (stale, live, no_pid, other, longer):
        leftover.write_bytes(b"half")
    write_atomic(path, b"new\n", b"old\n")
    assert path.read_bytes() == b"new\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["f.py", live.name, no_pid.name, other.name, longer.name]
    )


def test_apply_refuses_a_named_file_that_links_outside_its_folder(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from trncodemod.cli import main

    project = tmp_path / "project"
    project.mkdir()
    victim = tmp_path / "victim.py"
    victim.write_text("import torch\nm = torch.nn.Linear(2, 2).cuda()\n")
    (project / "train.py").symlink_to(victim)
    result = CliRunner().invoke(main, ["apply", "--no-cache", str(project / "train.py")])
    assert result.exit_code == 2, result.stderr
    assert f"resolves to {victim}" in result.stderr and "nothing written" in result.stderr
    assert victim.read_text() == "import torch\nm = torch.nn.Linear(2, 2).cuda()\n"


def test_write_atomic_refuses_a_path_whose_folder_links_outside_the_roots(tmp_path: Path) -> None:
    from trncodemod.pipeline.writing import OutsideRoot, real_roots

    (tmp_path / "root").mkdir()
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "f.py").write_bytes(b"old\n")
    (tmp_path / "root" / "sub").symlink_to(tmp_path / "elsewhere")
    with pytest.raises(OutsideRoot, match="outside"):
        write_atomic(
            tmp_path / "root" / "sub" / "f.py", b"new\n", b"old\n", real_roots([tmp_path / "root"])
        )
    assert (tmp_path / "elsewhere" / "f.py").read_bytes() == b"old\n"


def _save_during_flush(monkeypatch: pytest.MonkeyPatch, path: Path, saved: bytes, how: str) -> None:
    """An editor saves ``path`` while the tool flushes the new file to disk (the slow step
    between reading a file and replacing it), in place or by renaming a file over it."""
    real_fsync = os.fsync

    def fsync_then_save(fd: int) -> None:
        real_fsync(fd)
        if path.read_bytes() == saved:
            return
        if how == "in place":
            path.write_bytes(saved)
        else:
            (path.parent / "editor.swp").write_bytes(saved)
            os.replace(path.parent / "editor.swp", path)

    monkeypatch.setattr(os, "fsync", fsync_then_save)


@pytest.mark.parametrize("how", ["in place", "by rename"])
def test_a_save_made_while_the_new_file_is_written_is_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    path = tmp_path / "f.py"
    path.write_bytes(b"old\n")
    _save_during_flush(monkeypatch, path, b"saved\n", how)
    with pytest.raises(WriteError, match="changed on disk"):
        write_atomic(path, b"new\n", b"old\n")
    assert path.read_bytes() == b"saved\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.py"], "temporary removed"


def test_a_same_size_save_within_the_same_clock_tick_is_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "f.py"
    path.write_bytes(b"old\n")
    before = path.stat()
    real_fsync = os.fsync

    def fsync_then_save(fd: int) -> None:
        real_fsync(fd)
        path.write_bytes(b"odd\n")  # same size; the clock put back as a coarse one would show it
        os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))

    monkeypatch.setattr(os, "fsync", fsync_then_save)
    with pytest.raises(WriteError, match="changed on disk"):
        write_atomic(path, b"new\n", b"old\n")
    assert path.read_bytes() == b"odd\n"


@AS_ROOT
def test_keeps_the_owner_and_group_of_a_file_owned_by_another_user(tmp_path: Path) -> None:
    path = tmp_path / "f.py"
    path.write_bytes(b"old\n")
    os.chown(path, 4321, 8765)
    path.chmod(0o640)
    write_atomic(path, b"new\n", b"old\n")
    info = path.stat()
    assert (info.st_uid, info.st_gid, stat.S_IMODE(info.st_mode)) == (4321, 8765, 0o640)
    assert path.read_bytes() == b"new\n"


@AS_ROOT
def test_refuses_a_file_whose_owner_cannot_be_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "f.py"
    path.write_bytes(b"old\n")
    os.chown(path, 4321, 8765)

    def not_permitted(*args: object) -> None:  # as for a runner who is not root
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(os, "fchown", not_permitted)
    monkeypatch.setattr(os, "chown", not_permitted)
    with pytest.raises(WriteError, match="cannot keep owner 4321:8765"):
        write_atomic(path, b"new\n", b"old\n")
    assert path.read_bytes() == b"old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.py"], "temporary removed"


def test_a_named_link_is_refused_even_when_another_argument_reaches_its_target_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from click.testing import CliRunner

    from trncodemod.cli import main

    script = "import torch\nm = torch.nn.Linear(2, 2).cuda()\n"
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "victim.py").write_text(script)
    (outside / "named.py").write_text(script)
    project = tmp_path / "project"
    project.mkdir()
    (project / "link.py").symlink_to(outside / "victim.py")
    (project / "linkdir").symlink_to(outside)
    monkeypatch.chdir(project)
    result = CliRunner().invoke(main, ["apply", "--no-cache", "link.py", "linkdir/named.py"])
    assert result.exit_code == 2, result.stderr
    # Both lead, through a link in the folder the run starts from, out of it (containment).
    assert f"link.py is a symlink inside {project} that leads to {outside / 'victim.py'}" in (
        result.stderr
    )
    assert f"linkdir is a symlink inside {project} that leads to {outside}" in result.stderr
    assert (outside / "victim.py").read_text() == script, "written through link.py"
    assert (outside / "named.py").read_text() == script, "written through linkdir"
