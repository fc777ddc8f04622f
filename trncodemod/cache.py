"""A content-addressed cache of per-file results, as ruff keeps one: a second run over an
unchanged tree reads and hashes each file and parses nothing.

The key covers the file's bytes, the tool's own code (a hash of its source and data files, so a
changed pass never serves a stale result) and every setting that changes what a pass does.
Entries hold the rewritten bytes (when any) and the findings without their path. Files that
failed are never cached: their error is recomputed, and reported, every run.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
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
    from trncodemod.plugins import PluginError, load_plugin  # LibCST: only when plugins are set

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

    def _path(self, raw: bytes) -> Path:
        key = hashlib.sha256(self.salt.encode() + b"\0" + raw).hexdigest()
        return self.folder / key[:2] / f"{key}.json"

    def get(self, raw: bytes, display: str) -> Entry | None:
        try:
            data = json.loads(self._path(raw).read_text("utf-8"))
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
            )
            for f in data["findings"]
        )
        new = data["new"].encode("latin-1") if data["new"] is not None else None
        return Entry(new, findings, tuple(data["passes_run"]), data.get("profile"))

    def put(self, raw: bytes, entry: Entry) -> None:
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
        path = self._path(raw)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(document, handle)
            os.replace(tmp, path)
        except OSError:
            pass  # a cache that cannot be written only costs time


def open_cache(folder: Path, settings: Settings, enabled: frozenset[str]) -> ResultCache:
    folder.mkdir(parents=True, exist_ok=True)
    gitignore = folder / ".gitignore"
    if not gitignore.exists():
        gitignore.write_text("# Created by trncodemod.\n*\n")
    return ResultCache(folder, tool_fingerprint() + settings_fingerprint(settings, enabled))
