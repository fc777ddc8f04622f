"""A content-addressed cache of per-file results, as ruff keeps one: a second run over an
unchanged tree reads and hashes each file and parses nothing.

The key covers the file's bytes, the tool's own code (a hash of its source and data files, so a
changed pass never serves a stale result) and every setting that changes what a pass does.
Entries hold the rewritten bytes (when any) and the findings without their path. Files that
failed are never cached: their error is recomputed, and reported, every run.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import json
import os
import stat
import tempfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from trncodemod.config import Settings
from trncodemod.findings import Finding, Safety, Severity

FORMAT = 1


@cache
def tool_fingerprint() -> str:
    """A hash of the installed tool's code and data."""
    digest = hashlib.sha256(f"format {FORMAT}".encode())
    for package in ("trncodemod", "trncodemod.transforms"):
        spec = importlib.util.find_spec(package)  # located, not imported (the passes load LibCST)
        if spec is None or spec.origin is None:
            raise RuntimeError(f"cannot locate the installed package {package}")
        folder = Path(spec.origin).parent
        for path in sorted([*folder.glob("*.py"), *folder.glob("data/*")]):
            digest.update(path.name.encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def settings_fingerprint(settings: Settings, enabled: frozenset[str]) -> str:
    parts = [
        settings.target,
        ",".join(sorted(enabled)),
        str(settings.log_interval),
        ",".join(map(str, settings.buckets)),
        str(settings.bucket_multiple),
        settings.optimizer,
        str(settings.max_file_bytes),
        *(f"{spec}={_plugin_fingerprint(spec)}" for spec in settings.plugins),
    ]
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


def _plugin_fingerprint(spec: str) -> str:
    from trncodemod.pipeline.plugins import (  # LibCST: only when plugins are set
        PluginError,
        load_plugin,
    )

    try:
        return load_plugin(spec).fingerprint
    except PluginError:
        return "unloadable"  # the engine reports it on every file


@dataclass(frozen=True)
class Entry:
    new: bytes | None
    findings: tuple[Finding, ...]
    passes_run: tuple[str, ...]
    profile: dict | None = None  # the training profile, as `check --format json` shows it


@dataclass(frozen=True)
class ResultCache:
    folder: Path
    salt: str  # tool and settings fingerprints

    def _path(self, raw: bytes, context: str = "") -> Path:
        # ``context``: what else the result depends on (the module's view of the program).
        salt = self.salt + context
        key = hashlib.sha256(salt.encode() + b"\0" + raw).hexdigest()
        return self.folder / key[:2] / f"{key}.json"

    def get(self, raw: bytes, display: str, context: str = "") -> Entry | None:
        try:
            data = json.loads(_read_own(self._path(raw, context)))
        except (OSError, ValueError):
            return None
        findings = tuple(
            Finding(
                path=display,
                line=f["line"],
                column=f["column"],
                code=f["code"],
                message=f["message"],
                name=f["name"],
                severity=Severity(f["severity"]),
                safety=Safety(f["safety"]),
                fixed=f["fixed"],
                cell=f.get("cell"),
                related=tuple(f.get("related", ())),
            )
            for f in data["findings"]
        )
        new = data["new"].encode("latin-1") if data["new"] is not None else None
        return Entry(new, findings, tuple(data["passes_run"]), data.get("profile"))

    def get_summary(self, raw: bytes) -> dict | None:
        """A module's program summary (``analysis.program.ModuleSummary``), by its bytes."""
        try:
            return json.loads(_read_own(self._path(raw, "\0summary")))
        except (OSError, ValueError):
            return None

    def put_summary(self, raw: bytes, summary: dict) -> None:
        self._write(self._path(raw, "\0summary"), summary)

    def put(self, raw: bytes, entry: Entry, context: str = "") -> None:
        findings = []
        for finding in entry.findings:
            data = finding.to_json()
            del data["path"]
            findings.append(data)
        document = {
            "new": entry.new.decode("latin-1") if entry.new is not None else None,
            "findings": findings,
            "passes_run": list(entry.passes_run),
            "profile": entry.profile,
        }
        self._write(self._path(raw, context), document)

    def _write(self, path: Path, document: object) -> None:
        try:
            _own_folder(path.parent)
            # mkstemp creates with O_EXCL (never through a link); os.replace swaps a link planted
            # at `path` for the entry instead of writing where it points.
            fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(document, handle)
            os.replace(tmp, path)
        except OSError:
            pass  # a cache that cannot be written only costs time


def _own_folder(folder: Path) -> None:
    """Create ``folder`` (its parents as needed) and make sure it is a folder, not a symlink a
    scanned repository planted to send cache files elsewhere; OSError otherwise."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    with contextlib.suppress(FileExistsError):
        os.mkdir(folder)
    info = os.lstat(folder)
    if stat.S_ISLNK(info.st_mode) or not stat.S_ISDIR(info.st_mode):
        raise OSError(f"{folder} is a symlink or not a folder; not followed")


def _read_own(path: Path) -> bytes:
    """An entry's bytes: never through a symlink, never blocking on a FIFO."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    fd = os.open(path, flags)
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(f"{path} is not a regular file")
        return handle.read()


def open_cache(folder: Path, settings: Settings, enabled: frozenset[str]) -> ResultCache:
    """The cache in ``folder``, created safely: OSError (the caller runs without a cache) when it
    is a symlink or cannot be created, as in a read-only tree."""
    _own_folder(folder)
    # O_EXCL | O_NOFOLLOW: an existing `.gitignore`, or a dangling symlink planted in its place,
    # is left alone rather than written through.
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    with contextlib.suppress(FileExistsError):
        fd = os.open(folder / ".gitignore", flags, 0o644)
        with os.fdopen(fd, "w") as handle:
            handle.write("# Created by trncodemod.\n*\n")
    return ResultCache(folder, tool_fingerprint() + settings_fingerprint(settings, enabled))
