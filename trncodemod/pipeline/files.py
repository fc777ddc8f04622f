"""Which files a run touches: Python files under the given paths, in a stable order.

Honours ``.gitignore`` files (each relative to its own folder) and the ``exclude`` patterns of the
configuration, skips well-known tool folders, and never follows a symlink: a linked file is taken
only when its target lies inside the folder being searched, and it is then written through its
real path.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import pathspec

# Ruff's default exclusions (the folders tools, editors and Jupyter write), so that a copy such as
# `.ipynb_checkpoints/train-checkpoint.ipynb` is never ported, reported or counted beside the
# notebook it copies; a file named on the command line is still taken.
ALWAYS_SKIPPED = frozenset(
    {
        ".bzr",
        ".direnv",
        ".eggs",
        ".git",
        ".git-rewrite",
        ".hg",
        ".ipynb_checkpoints",
        ".mypy_cache",
        ".nox",
        ".pants.d",
        ".pyenv",
        ".pytest_cache",
        ".pytype",
        ".ruff_cache",
        ".svn",
        ".tox",
        ".trncodemod_cache",
        ".venv",
        ".vscode",
        "__pycache__",
        "__pypackages__",
        "_build",
        "buck-out",
        "build",
        "dist",
        "node_modules",
        "site-packages",
        "venv",
    }
)
SUFFIXES = (".py", ".ipynb")


@dataclass(frozen=True)
class Skipped:
    path: Path
    reason: str


@dataclass(frozen=True)
class Discovery:
    files: tuple[Path, ...]
    skipped: tuple[Skipped, ...]
    missing: tuple[Path, ...]


_KINDS = {
    stat.S_IFIFO: "a FIFO",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFSOCK: "a socket",
    stat.S_IFDIR: "a folder",
}


def not_regular(mode: int) -> str | None:
    """Why a file of ``mode`` is not read (opening a FIFO or a device can block forever)."""
    if stat.S_ISREG(mode):
        return None
    return f"not a regular file ({_KINDS.get(stat.S_IFMT(mode), 'a special file')})"


class NotRegularFile(OSError):
    """Raised instead of opening something that is not a regular file."""


def open_regular(path: Path) -> int:
    """A read-only descriptor of ``path``, if it is a regular file (a symlink is followed). The
    open never blocks (O_NONBLOCK), and the file's kind is checked on the open descriptor
    (fstat), so a file swapped for a FIFO after discovery is refused too."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    why = not_regular(os.fstat(fd).st_mode)
    if why is not None:
        os.close(fd)
        raise NotRegularFile(0, why, str(path))
    return fd


def read_open(fd: int) -> bytes:
    """Every byte of the open file ``fd``, from its start."""
    os.lseek(fd, 0, os.SEEK_SET)
    chunks = []
    while chunk := os.read(fd, 1 << 20):
        chunks.append(chunk)
    return b"".join(chunks)


def read_regular(path: Path) -> bytes:
    """The bytes of ``path``, if it is a regular file (``open_regular``)."""
    fd = open_regular(path)
    try:
        return read_open(fd)
    finally:
        os.close(fd)


def _gitignore(folder: Path) -> pathspec.PathSpec | None:
    ignore_file = folder / ".gitignore"
    if not ignore_file.is_file():
        return None
    try:
        raw = read_regular(ignore_file)
    except OSError:
        return None
    lines = raw.decode("utf-8", errors="replace").splitlines()
    return pathspec.GitIgnoreSpec.from_lines(lines)


class _Filter:
    def __init__(self, exclude: Sequence[str], exclude_root: Path, respect_gitignore: bool):
        self.exclude = pathspec.GitIgnoreSpec.from_lines(exclude) if exclude else None
        self.exclude_root = exclude_root.resolve()
        self.respect_gitignore = respect_gitignore
        self._specs: dict[Path, pathspec.PathSpec | None] = {}

    def _spec(self, folder: Path) -> pathspec.PathSpec | None:
        if folder not in self._specs:
            self._specs[folder] = _gitignore(folder) if self.respect_gitignore else None
        return self._specs[folder]

    def excluded(self, path: Path, is_dir: bool, top: Path) -> str | None:
        """Why ``path`` is left out, or None. ``.gitignore`` files apply from the configuration
        root (when the search lies inside it) or else from the searched folder, down."""
        suffix = "/" if is_dir else ""
        if self.exclude is not None:
            try:
                rel = path.relative_to(self.exclude_root).as_posix()
            except ValueError:
                rel = None
            if rel and self.exclude.match_file(rel + suffix):
                return "excluded by configuration"
        if self.respect_gitignore:
            # Every .gitignore from the search root down to the file's folder applies.
            base = self.exclude_root if _within(top, self.exclude_root) else top
            for folder in (base, *[p for p in reversed(path.parents) if base in p.parents]):
                spec = self._spec(folder)
                if spec is not None and spec.match_file(
                    path.relative_to(folder).as_posix() + suffix
                ):
                    return f"ignored by {folder / '.gitignore'}"
        return None


def _within(path: Path, root: Path) -> bool:
    return path == root or root in path.parents


def discover(
    paths: Sequence[Path],
    exclude: Sequence[str] = (),
    exclude_root: Path | None = None,
    respect_gitignore: bool = True,
) -> Discovery:
    """Expand ``paths`` into the Python files to process, sorted, each once."""
    filt = _Filter(exclude, exclude_root or Path.cwd(), respect_gitignore)
    found: dict[Path, Path] = {}  # real path -> path as the user will see it
    skipped: list[Skipped] = []
    missing: list[Path] = []
    for given in paths:
        if given.is_symlink() and not given.exists():
            skipped.append(Skipped(given, "broken symlink"))  # dangling, or a loop
            continue
        if not given.exists():
            missing.append(given)
            continue
        kind = not_regular(given.stat().st_mode)
        if kind is not None and kind != "not a regular file (a folder)":
            skipped.append(Skipped(given, kind))
            continue
        if given.is_file():
            if given.suffix not in SUFFIXES:
                skipped.append(Skipped(given, "not a Python file"))
                continue
            found.setdefault(given.resolve(), given)
            continue
        top = given.resolve()
        for path in _walk(given, top, filt, skipped):
            found.setdefault(path.resolve(), path)
    ordered = sorted(found.values(), key=lambda p: p.as_posix())
    return Discovery(tuple(ordered), tuple(skipped), tuple(missing))


def _walk(given: Path, top: Path, filt: _Filter, skipped: list[Skipped]) -> Iterator[Path]:
    for folder, dirnames, filenames in os.walk(given, followlinks=False):
        here = Path(folder)
        real_here = here.resolve()
        keep = []
        for name in sorted(dirnames):
            sub = here / name
            if name in ALWAYS_SKIPPED or sub.is_symlink():
                continue
            if filt.excluded(real_here / name, True, top) is None:
                keep.append(name)
        dirnames[:] = keep
        for name in sorted(filenames):
            path = here / name
            if not name.endswith(SUFFIXES):
                continue
            if path.is_symlink():
                try:
                    target = path.resolve()
                except (OSError, RuntimeError):  # a symlink loop: RuntimeError before 3.13
                    skipped.append(Skipped(path, "symlink loop"))
                    continue
                if not target.is_file() or not _within(target, top):
                    skipped.append(Skipped(path, "symlink to a file outside the searched folder"))
                    continue
            reason = filt.excluded(real_here / name, False, top)
            if reason is not None:
                continue
            try:
                kind = not_regular(path.stat().st_mode)
            except OSError as err:
                kind = f"cannot read: {err.strerror}"
            if kind is not None:
                skipped.append(Skipped(path, kind))
                continue
            yield path
