"""Where a command may write: inside the repository the user named, never through a symlink that
leads out of it, never inside ``.git``.

One rule, asked by every command that writes (``apply``, ``apply-patch``, ``pr``, ``campaign
run``, ``--cache-dir``, ``golden update``): a path is resolved one component at a time, as the
kernel would, and a symlink met on the way may only lead somewhere inside the work tree that
holds it: the innermost folder above it with a ``.git``, or, outside any work tree, the current
folder. So a committed ``train -> /elsewhere`` is refused whether the user names ``train/``,
``train/sub/`` or a cache folder under it, while the user's own links above a repository
(``~/work -> /mnt/work``) are followed as they always were. ``git apply`` refuses a ``.git``
component in any path it writes, whatever its case; so does ``inside``.
"""

from __future__ import annotations

import os
from pathlib import Path

MAX_LINKS = 40  # as the kernel's ELOOP limit
_NOT_WORK_TREES = {Path("/"), Path(os.path.realpath(os.path.expanduser("~")))}


class Escape(ValueError):
    """A path the rule refuses; the message names it and why, for a user."""

    def __init__(self, path: Path | str, reason: str) -> None:
        super().__init__(f"{path}: refused: {reason}; nothing written")
        self.path = Path(path)
        self.reason = reason


def within(path: Path, root: Path) -> bool:
    return path == root or root in path.parents


def work_tree(folder: Path, cwd: Path) -> Path | None:
    """The innermost work tree holding the real ``folder`` (a folder with a ``.git``), or the
    real current folder ``cwd`` when ``folder`` lies in it and no work tree holds it."""
    # Never the home folder or `/`: a dotfiles repository there, or a run started there, does
    # not make every link of the user's own (`~/work -> /mnt/work`) a repository's link.
    for candidate in (folder, *folder.parents):
        if candidate not in _NOT_WORK_TREES and os.path.lexists(candidate / ".git"):
            return candidate
    return cwd if within(folder, cwd) and cwd not in _NOT_WORK_TREES else None


def resolve(path: Path | str) -> Path:
    """``path`` with every symlink resolved, as ``os.path.realpath`` gives it; Escape where a
    symlink leads out of the work tree that holds it (``work_tree``), or links loop. Components
    that do not exist yet are kept as written."""
    cwd = Path(os.path.realpath(os.getcwd()))
    given = Path(path)
    real = Path(given.anchor) if given.is_absolute() else cwd
    pending = list(given.parts[1:] if given.is_absolute() else given.parts)
    links = 0
    while pending:
        part = pending.pop(0)
        if part in ("", "."):
            continue
        if part == "..":
            real = real.parent  # `real` holds no link, so its parent is the kernel's `..`
            continue
        step = real / part
        if not os.path.islink(step):
            real = step
            continue
        links += 1
        if links > MAX_LINKS:
            raise Escape(path, "too many levels of symlinks")
        target = os.path.realpath(step)
        holder = work_tree(real, cwd)
        if holder is not None and not within(Path(target), holder):
            raise Escape(
                path,
                f"{step} is a symlink inside {holder} that leads to {target}, outside it",
            )
        link = Path(os.readlink(step))
        if link.is_absolute():
            real = Path(link.anchor)
            pending = [*link.parts[1:], *pending]
        else:
            pending = [*link.parts, *pending]
    return real


def inside(path: Path | str, root: Path) -> Path:
    """The real ``path`` (``resolve``) if it lies inside the real ``root`` and not inside a
    ``.git`` folder under it; else Escape naming where it leads."""
    real = resolve(path)
    if not within(real, root):
        raise Escape(path, f"resolves to {real}, outside {root}")
    if any(part.casefold() == ".git" for part in real.relative_to(root).parts):
        raise Escape(path, "inside .git, which only git writes (as `git apply` refuses)")
    return real


def root_of(path: Path | str) -> Path:
    """The real folder a path named on the command line lets a command write in: the folder
    itself, or for a file, the folder holding its name (not its target's: a named link is
    written through only inside its own folder). ``resolve``, so a symlink on the way that
    leads out of its work tree is refused."""
    given = Path(path)
    return resolve(given) if os.path.isdir(given) else resolve(given.parent)


def refused(paths: list[Path] | tuple[Path, ...], root: Path | None = None) -> list[Escape]:
    """What the rule refuses among paths named on the command line, each with why: a path whose
    symlinks lead out of their work tree, or with ``root``, out of ``root``."""
    found = []
    for path in paths:
        try:
            if root is None:
                resolve(path)
            else:
                inside(path, root)
        except Escape as err:
            found.append(err)
    return found


# -- Folders the tool made ------------------------------------------------------------------------
#
# A folder a command makes to write into (a campaign's --out and --work, each repository's
# result folder) holds MARKER; the command deletes, overwrites or force-checks-out only in a
# folder that holds it, so a folder of the user's own named by mistake is refused, not emptied.

MARKER = ".trncodemod-made"
_MARKER_TEXT = "Made by trncodemod, which writes and deletes only in folders that hold this file.\n"


class NotMade(Escape):
    """A folder the tool did not make, and was not told to take over."""


def made_here(folder: Path) -> bool:
    """Whether the tool made ``folder`` (it holds MARKER, a regular file, not a link)."""
    return (folder / MARKER).is_file() and not (folder / MARKER).is_symlink()


def claim(folder: Path, adopt: bool = False, flag: str = "") -> Path:
    """``folder``, made and marked when it does not exist (or is empty); one that exists, holds
    something and is not marked is NotMade (naming ``flag``), unless ``adopt``."""
    if folder.is_symlink():
        resolve(folder)  # Escape when it leads out of its work tree
    if folder.exists() and not made_here(folder):
        if not folder.is_dir():
            raise NotMade(folder, "not a folder")
        if any(folder.iterdir()) and not adopt:
            raise NotMade(
                folder,
                f"it holds files and trncodemod did not make it (no {MARKER}); name an empty or "
                f"new folder, or pass {flag} to let trncodemod write and delete in it",
            )
    folder.mkdir(parents=True, exist_ok=True)
    if not made_here(folder):
        (folder / MARKER).write_text(_MARKER_TEXT, "utf-8")
    return folder
