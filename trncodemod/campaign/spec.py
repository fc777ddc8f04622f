"""A campaign's spec: the TOML file that names the fleet.

``[defaults]`` holds what every repository gets; each ``[[repos]]`` table names one repository
(``name``, ``url``: a local path, relative to the spec, or anything ``git clone`` accepts;
optional ``ref``) and may override any default. Options are the keys of ``[tool.trncodemod]``
(checked by the same converters) plus the campaign's own: ``paths``, ``branch``, ``timeout``,
``cpus`` and ``memory-mb``. A bad spec is a SpecError that names the table and the key.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path

from trncodemod.config import ConfigError, table_values
from trncodemod.targets import DEFAULT_TARGET

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
# What `campaign report` writes beside the repositories' folders: no repository takes a name.
REPORT_NAMES = ("report.html", "report.md", "report.sarif")
# `git clone` takes a URL (`scheme://`) or scp-like `host:path` (a colon before any slash);
# anything else is a path, which the spec resolves against its own folder.
_REMOTE = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://|^[^/]+:")
# The campaign's own keys, with their defaults: a repository's work may take this long
# (seconds), and asks the scheduler for these cores and this memory.
CAMPAIGN_KEYS = {"paths": ["."], "branch": "", "timeout": 900, "cpus": 1, "memory-mb": 2048}


class SpecError(Exception):
    """A spec the campaign cannot run; the message names the file, the table and the key."""


@dataclass(frozen=True)
class RepoJob:
    """One repository's work, as plain values: it travels as JSON to the task's process."""

    name: str
    url: str
    ref: str | None
    paths: tuple[str, ...]
    branch: str
    timeout: int
    cpus: float
    memory_mb: int
    options: dict = field(default_factory=dict)  # [tool.trncodemod] keys, as the spec wrote them

    @property
    def fingerprint(self) -> str:
        """What the spec asks of this repository; a result is reused only while it is the same."""
        text = json.dumps(asdict(self), sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict) -> RepoJob:
        return cls(**{**data, "paths": tuple(data["paths"])})


def _url(url: object, spec_dir: Path, where: str) -> str:
    if not isinstance(url, str) or not url:
        raise SpecError(f"{where}: `url` must be a non-empty string")
    if url.startswith("-"):
        raise SpecError(
            f"{where}: `url` {url!r} starts with '-', which git would read as an option"
        )
    if _REMOTE.match(url):
        return url
    return str((spec_dir / Path(url).expanduser()).resolve())


def _job(entry: dict, defaults: dict, spec_dir: Path, where: str) -> RepoJob:
    name = entry.get("name")
    if not isinstance(name, str) or not NAME.match(name):
        raise SpecError(f"{where}: `name` must be letters, digits, '.', '_' or '-' (got {name!r})")
    if name.lower() in REPORT_NAMES:
        raise SpecError(f"{where}: `name` {name!r} is the name of a report the campaign writes")
    where = f"{where} ({name})"
    merged = {**defaults, **{k: v for k, v in entry.items() if k not in ("name", "url", "ref")}}
    ref = entry.get("ref")
    if ref is not None and (not isinstance(ref, str) or not ref):
        raise SpecError(f"{where}: `ref` must be a non-empty string")
    for key, value in (("ref", ref), ("branch", merged.get("branch"))):
        if isinstance(value, str) and value.startswith("-"):
            raise SpecError(
                f"{where}: `{key}` {value!r} starts with '-' (git would read an option)"
            )
    own = {key: merged.pop(key, default) for key, default in CAMPAIGN_KEYS.items()}
    if "plugins" in merged:
        raise SpecError(f"{where}: `plugins` is not taken from a spec: a campaign runs no plugins")
    try:
        table_values(merged, where, "the spec")
    except ConfigError as err:
        raise SpecError(str(err)) from None
    paths = own["paths"]
    if not isinstance(paths, list) or not paths or not all(isinstance(p, str) for p in paths):
        raise SpecError(f"{where}: `paths` must be a non-empty list of strings")
    for key in ("timeout", "memory-mb"):
        if isinstance(own[key], bool) or not isinstance(own[key], int) or own[key] < 1:
            raise SpecError(f"{where}: `{key}` must be a positive integer")
    if (
        isinstance(own["cpus"], bool)
        or not isinstance(own["cpus"], int | float)
        or own["cpus"] <= 0
    ):
        raise SpecError(f"{where}: `cpus` must be a positive number")
    if not isinstance(own["branch"], str):
        raise SpecError(f"{where}: `branch` must be a string")
    target = merged.get("target", DEFAULT_TARGET)
    return RepoJob(
        name=name,
        url=_url(entry.get("url"), spec_dir, where),
        ref=ref,
        paths=tuple(paths),
        branch=own["branch"] or f"trncodemod/{target}",
        timeout=own["timeout"],
        cpus=float(own["cpus"]),
        memory_mb=own["memory-mb"],
        options=merged,
    )


def load_spec(path: Path) -> list[RepoJob]:
    """The repositories a spec names, in its order, each with its defaults applied."""
    try:
        data = tomllib.loads(path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as err:
        raise SpecError(f"{path}: cannot read: {err}") from None
    except RecursionError:  # arrays or tables nested thousands deep: tomllib recurses
        raise SpecError(f"{path}: cannot read: TOML nested too deeply") from None
    unknown = set(data) - {"defaults", "repos"}
    if unknown:
        raise SpecError(f"{path}: unknown table(s) {', '.join(sorted(unknown))}")
    defaults = data.get("defaults", {})
    repos = data.get("repos", [])
    if not isinstance(defaults, dict) or not isinstance(repos, list) or not repos:
        raise SpecError(f"{path}: needs `[[repos]]` tables (and optionally `[defaults]`)")
    jobs = [
        _job(entry, defaults, path.parent, f"{path}: [[repos]] #{number}")
        for number, entry in enumerate(repos, 1)
    ]
    seen: set[str] = set()
    for job in jobs:
        if job.name in seen:
            raise SpecError(f"{path}: two repositories are named {job.name!r}")
        seen.add(job.name)
    return jobs
