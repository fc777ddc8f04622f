"""Applying a patch a person has reviewed, and perhaps edited (hunks deleted):
``trncodemod apply-patch FILE``.

Every hunk's context and removed lines must still match the file on disk; a file with one
hunk that does not match is refused whole, with the reason, and left exactly as it is. Each file
is written atomically, so a file is either fully patched or untouched.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path, PurePosixPath, PureWindowsPath

import click
from unidiff import PatchedFile, PatchSet
from unidiff.errors import UnidiffParseError

from trncodemod.output.patch import PatchError, apply_patched_file, split_lines, unquote_path
from trncodemod.pipeline.files import read_regular
from trncodemod.pipeline.writing import (
    OutsideRoot,
    WriteError,
    inside_root,
    real_roots,
    write_atomic,
)


@dataclass(frozen=True)
class FileResult:
    path: Path
    new: bytes | None  # None when refused or unchanged
    error: str | None  # why the file is refused; the command says "refused"
    old: bytes | None = None  # what the patch was checked against: written over only if unchanged


def _header_path(name: str) -> str:
    """A path named in the patch (read as latin-1, byte for byte), unquoted as git quotes it and
    decoded as the file system's names are, without its ``a/`` or ``b/``."""
    path = os.fsdecode(unquote_path(name.encode("latin-1")))
    return path[2:] if path.startswith(("a/", "b/")) else path


def _escapes(name: str) -> str | None:
    """Why a path named in the patch may not be written under the folder, before any symlink is
    looked at: absolute, or climbing out with ``..``."""
    if PurePosixPath(name).is_absolute() or PureWindowsPath(name).drive:
        return "an absolute path"
    if ".." in PurePosixPath(name).parts:
        return "a path with `..`"
    if any(part.casefold() == ".git" for part in PurePosixPath(name).parts):
        return "a path inside .git, which only git writes (as `git apply` refuses)"
    return None


def _target(patched: PatchedFile, root: Path) -> tuple[Path, str | None]:
    """The file a section of the patch changes, and why it may not, if it may not."""
    if patched.is_added_file or patched.is_removed_file or patched.is_rename:
        return root / _header_path(patched.path), "creates, deletes or renames a file"
    name = _header_path(patched.target_file)
    source = _header_path(patched.source_file)
    why = _escapes(name) or _escapes(source)
    if why is None and source != name:
        why = "different names before and after (a/ and b/)"
    return root / name, None if why is None else f"{why}; nothing written"


def plan(patch_bytes: bytes, root: Path) -> list[FileResult]:
    """What applying the patch would do to each file, without writing anything.

    Sections for the same file apply in turn, each to what the one before made of it, as
    ``git apply`` does; a section that does not apply refuses the file whole."""
    try:
        patch = PatchSet(patch_bytes.decode("latin-1"))
    except UnidiffParseError as err:
        raise PatchError(f"not a unified diff: {err}") from None
    if not len(patch):
        raise PatchError("the patch names no file")
    roots = real_roots([root])
    results: dict[Path, FileResult] = {}  # by real path: two names of one file are one file
    originals: dict[Path, bytes] = {}
    for patched in patch:
        path, why = _target(patched, root)
        key = path
        if why is None:
            try:
                key = inside_root(path, roots)
            except OutsideRoot as err:
                why = err.reason
        earlier = results.get(key)
        if earlier is not None and earlier.error is not None:
            continue  # refused whole already
        if why is None and earlier is None:
            try:
                originals[key] = read_regular(path)
            except OSError as err:
                why = f"cannot read: {err.strerror}"
        if why is not None:
            results[key] = FileResult(path, None, why)
            continue
        old = earlier.new if earlier is not None and earlier.new is not None else originals[key]
        old_lines = [line.decode("latin-1") for line in split_lines(old)]
        try:
            new = "".join(apply_patched_file(old_lines, patched)).encode("latin-1")
        except PatchError as err:
            why = "after the patch's earlier section for it" if earlier else "the file changed"
            results[key] = FileResult(path, None, f"{err}; {why}")
            continue
        original = originals[key]
        results[key] = FileResult(path, new if new != original else None, None, original)
    return list(results.values())


@click.command("apply-patch")
@click.argument("patch_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--check", is_flag=True, help="Only check that every hunk applies; write nothing.")
@click.option(
    "--directory",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    default=Path("."),
    help="Folder the patch's paths are relative to (default: the current folder).",
)
def apply_patch_command(patch_file: Path, check: bool, directory: Path) -> None:
    """Apply PATCH_FILE (from `apply --patch` or `--dry-run`, possibly edited by a person).

    A file whose hunks no longer match is refused whole and named; the others are written.
    Exit 0 when every file applied, 2 when any was refused.
    """
    try:
        results = plan(read_regular(patch_file), directory)
    except OutsideRoot as err:
        raise click.UsageError(f"--directory {err}") from None
    except PatchError as err:
        raise click.UsageError(f"{patch_file}: {err}") from None
    refused = 0
    for result in results:
        if result.error is None and result.new is not None and not check:
            try:
                # Against the bytes the hunks were checked on: a save made since is kept.
                write_atomic(result.path, result.new, result.old, real_roots([directory]))  # type: ignore[arg-type]
            except WriteError as err:
                result = FileResult(result.path, None, getattr(err, "reason", str(err)))
        if result.error is not None:
            refused += 1
            click.echo(f"{result.path}: refused: {result.error}", err=True)
    verb = "would apply" if check else "applied"
    click.echo(f"{len(results) - refused} file(s) {verb}, {refused} refused.", err=True)
    sys.exit(2 if refused else 0)
