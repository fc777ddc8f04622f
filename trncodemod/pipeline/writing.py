"""Writing a rewritten file: all or nothing, and never over a change made since it was read."""

from __future__ import annotations

import contextlib
import glob
import os
import re
import stat
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path

from trncodemod.pipeline.engine import FileOutcome
from trncodemod.pipeline.files import read_regular

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


def real_roots(paths: Sequence[Path]) -> tuple[Path, ...]:
    """The folders a run named on its command line may write in, symlinks resolved: a folder
    itself, and for a file, the folder that holds it."""
    roots = []
    for path in paths:
        folder = path if path.is_dir() else path.parent
        roots.append(Path(os.path.realpath(folder)))
    return tuple(roots)


def inside_root(path: Path, roots: Sequence[Path]) -> Path:
    """``path`` with every symlink resolved, if it lies inside one of ``roots`` (resolved by
    ``real_roots``); else OutsideRoot, naming where it leads. Every write goes through here."""
    real = Path(os.path.realpath(path))
    if any(real == root or root in real.parents for root in roots):
        return real
    shown = " or ".join(str(root) for root in roots)
    raise OutsideRoot(f"refused: resolves to {real}, outside {shown}; nothing written")


def write_atomic(
    path: Path, data: bytes, expected: bytes, roots: Sequence[Path] | None = None
) -> None:
    """Replace ``path`` with ``data`` if it still holds ``expected``.

    The new content goes to a temporary file in the same folder, is flushed to disk, takes the
    original's permission bits, and replaces the original with ``os.replace``: a reader, or a
    crash at any moment, sees either the old file or the new one. A symlink is written through
    to its target, and only inside ``roots`` (from ``real_roots``) when given.
    """
    real = path.resolve() if roots is None else inside_root(path, roots)
    try:
        info = real.stat()
        current = read_regular(real)
    except FileNotFoundError:
        raise WriteError("file was deleted after it was read; nothing written") from None
    except OSError as err:
        raise WriteError(f"cannot re-read before writing: {err.strerror}") from None
    if current != expected:
        raise WriteError("file changed on disk after it was read; nothing written")
    if not info.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH):
        raise WriteError("file is read-only; nothing written")
    for stale in stale_temporaries(real):
        with contextlib.suppress(OSError):
            stale.unlink()
    fd, tmp_name = tempfile.mkstemp(
        prefix=f".{real.name}.{os.getpid()}.", suffix=TEMPORARY_SUFFIX, dir=real.parent
    )
    try:
        with os.fdopen(fd, "wb") as tmp:
            tmp.write(data)
            tmp.flush()
            os.fsync(tmp.fileno())
        os.chmod(tmp_name, stat.S_IMODE(info.st_mode))
        os.replace(tmp_name, real)
    except BaseException as err:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp_name)
        if isinstance(err, OSError):
            raise WriteError(f"cannot write: {err.strerror}") from None
        raise


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
