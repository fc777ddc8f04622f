"""Writing a rewritten file: all or nothing, and never over a change made since it was read."""

from __future__ import annotations

import contextlib
import glob
import hashlib
import os
import re
import stat
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from trncodemod.pipeline import containment
from trncodemod.pipeline.engine import FileOutcome
from trncodemod.pipeline.files import open_regular, read_open

TEMPORARY_SUFFIX = ".trncodemod"
_OWNER = re.compile(r"([0-9]+)\.[A-Za-z0-9_]+")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # it exists and belongs to someone else
        return True
    return True


def stale_temporaries(real: Path) -> Iterator[Path]:
    """Temporaries for ``real`` (``.<name>.<pid>.<random>.trncodemod``) left by a run that was
    killed between writing one and renaming it, and whose process is gone. A live process's
    temporary, or one whose name does not carry a process id, is never touched."""
    if os.name != "posix":  # no signal 0 to ask whether a process exists
        return
    prefix = f".{real.name}."
    for path in real.parent.glob(glob.escape(prefix) + "*" + TEMPORARY_SUFFIX):
        # `<pid>.<random>` exactly (mkstemp's letters, digits, `_`): not the temporary of a
        # longer name such as `a.py.5.py`.
        owner = _OWNER.fullmatch(path.name[len(prefix) : -len(TEMPORARY_SUFFIX)])
        if owner and int(owner[1]) > 0 and not _alive(int(owner[1])):
            yield path


class WriteError(Exception):
    """The file was not written; it is exactly as it was."""


class OutsideRoot(WriteError):
    """The path, symlinks resolved, lies outside every root the run was given."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"refused: {reason}")
        self.reason = reason  # for a caller that says "refused" itself


def real_roots(paths: Sequence[Path]) -> tuple[Path, ...]:
    """The folders a run named on its command line may write in, symlinks resolved: a folder
    itself, and for a file, the folder that holds it; OutsideRoot for one reached through a
    symlink that leads out of its work tree (``containment``)."""
    try:
        return tuple(containment.root_of(path) for path in paths)
    except containment.Escape as err:
        raise OutsideRoot(f"{err.path}: {err.reason}; nothing written") from None


def inside_root(path: Path, roots: Sequence[Path]) -> Path:
    """``path`` with every symlink resolved, if it lies inside one of ``roots`` (resolved by
    ``real_roots``) and not in a ``.git`` folder; else OutsideRoot, naming where it leads.
    Every write goes through here."""
    escapes = []
    for root in roots:
        try:
            return containment.inside(path, root)
        except containment.Escape as err:
            escapes.append(err.reason)
    if len(escapes) > 1:
        real = Path(os.path.realpath(path))
        shown = " or ".join(str(root) for root in roots)
        raise OutsideRoot(f"resolves to {real}, outside {shown}; nothing written")
    raise OutsideRoot(f"{escapes[0] if escapes else 'no folder to write in'}; nothing written")


@dataclass(frozen=True)
class _Seen:
    """What a file was when it was checked: which file the path names, and what it holds."""

    device: int
    inode: int
    size: int
    mtime_ns: int
    digest: bytes


def _look(real: Path, fd: int) -> tuple[_Seen, os.stat_result]:
    """``real`` as it is now, through ``fd`` (the file as it was opened): its content hash and
    the open file's size and time, and the identity of the file the path names now (an editor
    that saves by renaming a new file over it changes that, not the open file)."""
    digest = hashlib.sha256(read_open(fd)).digest()
    info = os.fstat(fd)
    now = os.stat(real)
    seen = _Seen(now.st_dev, now.st_ino, info.st_size, info.st_mtime_ns, digest)
    if (now.st_dev, now.st_ino) != (info.st_dev, info.st_ino):
        seen = replace(seen, digest=b"")  # another file: never equal to what was read
    return seen, info


_CHANGED = "file changed on disk after it was read; nothing written"


def write_atomic(
    path: Path, data: bytes, expected: bytes, roots: Sequence[Path] | None = None
) -> None:
    """Replace ``path`` with ``data`` if it still holds ``expected``; else WriteError, the file
    as it was.

    The new content goes to a temporary file in the same folder, takes the original's owner,
    group and permission bits, is flushed to disk, and replaces the original with
    ``os.replace``: a reader, or a crash at any moment, sees either the old file or the new one.
    A symlink is written through to its target, and only inside ``roots`` (from ``real_roots``)
    when given.
    """
    real = path.resolve() if roots is None else inside_root(path, roots)
    try:
        fd = open_regular(real)
    except FileNotFoundError:
        raise WriteError("file was deleted after it was read; nothing written") from None
    except OSError as err:
        raise WriteError(f"cannot re-read before writing: {err.strerror}") from None
    try:
        seen, info = _look(real, fd)
        if seen.digest != hashlib.sha256(expected).digest():
            raise WriteError(_CHANGED)
        if not info.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH):
            raise WriteError("file is read-only; nothing written")
        for stale in stale_temporaries(real):
            with contextlib.suppress(OSError):
                stale.unlink()
        _replace_if_unchanged(real, fd, seen, info, data)
    except FileNotFoundError:
        raise WriteError("file was deleted after it was read; nothing written") from None
    except OSError as err:
        raise WriteError(f"cannot write: {err.strerror}; nothing written") from None
    finally:
        os.close(fd)


def _replace_if_unchanged(
    real: Path, fd: int, seen: _Seen, info: os.stat_result, data: bytes
) -> None:
    try:
        tmp_fd, tmp_name = tempfile.mkstemp(
            prefix=f".{real.name}.{os.getpid()}.", suffix=TEMPORARY_SUFFIX, dir=real.parent
        )
    except OSError as err:
        raise WriteError(
            f"cannot write: {err.strerror}, creating a temporary file in its folder; "
            "nothing written"
        ) from None
    try:
        with os.fdopen(tmp_fd, "wb") as tmp:
            tmp.write(data)
            tmp.flush()
            _keep_owner(tmp.fileno(), info)
            os.fchmod(tmp.fileno(), stat.S_IMODE(info.st_mode))  # after fchown, which clears setuid
            os.fsync(tmp.fileno())
        # The flush above takes milliseconds on a real disk: an editor may have saved meanwhile.
        # Look again, through the file opened at the first look, just before the rename. What
        # remains is the moment between this look and the rename (rename is not
        # compare-and-swap): a save landing in those microseconds is still replaced.
        if _look(real, fd)[0] != seen:
            raise WriteError(_CHANGED)
        os.replace(tmp_name, real)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp_name)
        raise


def _keep_owner(tmp_fd: int, info: os.stat_result) -> None:
    """Give the temporary the original's owner and group: a run as root must not hand a user's
    file to root. WriteError when that is not allowed (a file of another user, for one)."""
    mine = os.fstat(tmp_fd)
    if (mine.st_uid, mine.st_gid) == (info.st_uid, info.st_gid):
        return
    try:
        os.fchown(tmp_fd, info.st_uid, info.st_gid)
    except OSError as err:
        raise WriteError(
            f"cannot keep owner {info.st_uid}:{info.st_gid} ({err.strerror}); nothing written"
        ) from None


def roots_of(path: Path, arguments: Sequence[Path]) -> tuple[Path, ...]:
    """The real roots (``real_roots``) of the command-line arguments ``path`` was found through:
    itself, if it was named, or a folder named above it. Each argument vouches only for its own
    files: a folder one argument reaches does not let another argument's symlink write there."""
    return real_roots([given for given in arguments if given == path or given in path.parents])


def write_outcomes(outcomes: list[FileOutcome], arguments: Sequence[Path]) -> list[FileOutcome]:
    """Write every changed file that lies inside the roots of the ``arguments`` (the paths the
    user named) it was found through; a file that cannot be written becomes an error outcome
    that claims no fix, since nothing was written."""
    written = []
    for outcome in outcomes:
        if outcome.changed:
            try:
                roots = roots_of(outcome.path, arguments)
                write_atomic(outcome.path, outcome.new, outcome.old, roots)  # type: ignore[arg-type]
            except WriteError as err:
                outcome = replace(
                    outcome,
                    new=None,
                    diff=b"",
                    findings=tuple(f for f in outcome.findings if not f.fixed),
                    error=str(err),
                )
        written.append(outcome)
    return written
