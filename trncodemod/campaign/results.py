"""A campaign's results on disk, ``DIR/<name>/``, and which repositories a run takes on.

A repository is done when ``DIR/<name>/result.json`` exists: it is written last, atomically
(temporary file, fsync, ``os.replace``), after its patch, description and findings, and the old
one is removed before anything else is rewritten. A run killed at any moment leaves each
repository either done, with all its files, or not done; the next run finishes what is not.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from trncodemod.campaign.spec import REPORT_NAMES, RepoJob
from trncodemod.campaign.task import ARTIFACTS, FAILED, RESULT
from trncodemod.pipeline import containment

ONLY = ("failed", "blocked", "changed")
WORK = ".work"  # default work folder, inside DIR: the clones, one per repository
_UMASK = os.umask(0)
os.umask(_UMASK)


def write_atomic(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data``: a reader, or a crash at any moment, sees the old file or
    the new one, never a part."""
    fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as tmp:
            tmp.write(data)
            tmp.flush()
            os.fsync(tmp.fileno())
        os.chmod(name, 0o666 & ~_UMASK)  # as open() would make it, not mkstemp's 0600
        os.replace(name, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(name)
        raise


class ResultStore:
    def __init__(self, root: Path) -> None:
        self.root = root

    def folder(self, name: str) -> Path:
        return self.root / name

    def read(self, name: str) -> dict | None:
        """The repository's finished result; None when it has none (or an unreadable one)."""
        try:
            return json.loads((self.folder(name) / RESULT).read_text("utf-8"))
        except (OSError, ValueError):
            return None

    def write(self, name: str, result: dict, files: dict[str, bytes]) -> None:
        folder = self.folder(name)
        if not folder.exists():
            containment.claim(folder)
        # Files are deleted only where this tool made the folder (its marker): a repository's
        # folder that was there before keeps whatever this run does not write.
        ours = containment.made_here(folder)
        if ours:
            with contextlib.suppress(FileNotFoundError):
                (folder / RESULT).unlink()  # not done until the new result is complete
        for artifact in ARTIFACTS.values():
            if artifact in files:
                write_atomic(folder / artifact, files[artifact])
            elif ours:
                with contextlib.suppress(FileNotFoundError):
                    (folder / artifact).unlink()
        text = json.dumps(result, indent=2, sort_keys=True) + "\n"
        write_atomic(folder / RESULT, text.encode())

    def results(self) -> list[dict]:
        """Every finished result under the root, by name."""
        found = []
        for folder in sorted(p for p in self.root.iterdir() if p.is_dir() and not p.is_symlink()):
            if folder.name.startswith(".") or folder.name.lower() in REPORT_NAMES:
                continue
            if (folder / RESULT).is_symlink():  # a result read through a link is not ours
                continue
            result = self.read(folder.name)
            if isinstance(result, dict):
                # The folder names the repository: a `name` edited in result.json ("../x")
                # must not send a reader of its artifacts elsewhere.
                status = result.get("status")
                result = {**result, "name": folder.name}
                result["status"] = status if isinstance(status, str) else json.dumps(status)
                found.append(result)
        return found


@dataclass(frozen=True)
class Selected:
    """A repository this run takes on, with the inputs of its finished result: its task leaves
    it alone if they have not changed (None: run it whatever they are)."""

    job: RepoJob
    previous: dict | None


def select(jobs: list[RepoJob], store: ResultStore, only: str | None) -> list[Selected]:
    """Every repository, or those ``only`` names: ``failed`` (its last run failed: tried again
    even with the same inputs), ``blocked`` (blockers left), ``changed`` (a finished result whose
    commit, spec entry or tool may have moved; one without a result is left for a plain run).
    A finished result that did not fail is reused while its inputs match; a failure is not."""
    chosen = []
    for job in jobs:
        last = store.read(job.name)
        failed = last is None or last.get("status") in FAILED
        if only == "failed" and (last is None or not failed):
            continue
        if only == "blocked" and (failed or not last.get("counts", {}).get("blockers")):
            continue
        if only == "changed" and failed:
            continue
        chosen.append(Selected(job, None if failed else last.get("inputs")))
    return chosen
