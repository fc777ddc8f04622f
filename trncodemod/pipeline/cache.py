"""A content-addressed cache of per-file results, as ruff keeps one: a second run over an
unchanged tree reads and hashes each file and parses nothing.

The key covers the file's bytes, the tool's own code (a hash of its source and data files, so a
changed pass never serves a stale result) and every setting that changes what a pass does.
Entries hold the rewritten bytes (when any) and the findings without their path, so a renamed
or copied file is a hit: most results do not depend on the file's name. Some do: a launch line
names the script (`torchrun ... train.py`), a related place is "path:line:column", a plugin is
given the path, and the file's suffix says whether it is a notebook. Such a result is stored
under a key that includes the path, and the path-free key holds only a note sending lookups
there; a cached result is then always what `--no-cache` gives for that file. (Naming the file at
output time instead would mean finding its name in free text, messages and rewritten code, and
telling the path from a basename or another file's name that contains it.) Files that failed are
never cached: their error is recomputed, and reported, every run.

An entry is code the tool will write into the user's files, and its name is computable by anyone
(the public tool, the file's text), so entries are signed with an HMAC whose key lives in the
user's own cache folder, never in a scanned tree; one that does not verify is recomputed. The
cache itself lives there too by default, so `check` writes nothing in the tree it reads.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import importlib.util
import json
import os
import secrets
import stat
import tempfile
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from trncodemod.config import Settings
from trncodemod.findings import Finding, Safety, Severity
from trncodemod.pipeline import containment

FORMAT = 3  # 2: entries are signed (``ResultCache._seal``); 3: by path where it matters


@cache
def tool_fingerprint() -> str:
    """A hash of the installed tool's code and data."""
    digest = hashlib.sha256(f"format {FORMAT}".encode())
    for package in ("trncodemod", "trncodemod.transforms"):
        spec = importlib.util.find_spec(package)  # located, not imported (the passes load LibCST)
        if spec is None or spec.origin is None:
            raise RuntimeError(f"cannot locate the installed package {package}")
        folder = Path(spec.origin).parent
        # Every module below the package too: a changed analysis must not serve a stale result.
        for path in sorted([*folder.rglob("*.py"), *folder.glob("data/*")]):
            digest.update(str(path.relative_to(folder)).encode())
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
        f"scale-out={settings.scale_out},scale-lr={settings.scale_lr}",
        settings.accumulation_cut,
        f"port-published={settings.port_published}",
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


_MAGIC = b"trncodemod-cache "


@dataclass(frozen=True)
class ResultCache:
    folder: Path
    salt: str  # tool and settings fingerprints
    key: bytes = field(repr=False)  # signs every entry (``user_key``)
    by_path: bool = False  # every result depends on the path (a plugin is given it)

    def _path(self, raw: bytes, context: str = "") -> Path:
        # ``context``: what else the result depends on (the module's view of the program).
        salt = self.salt + context
        key = hashlib.sha256(salt.encode() + b"\0" + raw).hexdigest()
        return self.folder / key[:2] / f"{key}.json"

    def _seal(self, path: Path, body: bytes) -> bytes:
        """An entry's bytes: a MAC over its name (so an entry cannot be moved to another file's
        name) and its body, then the body."""
        mac = hmac.new(self.key, path.name.encode() + b"\0" + body, hashlib.sha256).hexdigest()
        return _MAGIC + mac.encode() + b"\n" + body

    def _verified(self, path: Path) -> bytes | None:
        """The body of the entry at ``path``, or None: also for one this user's runs did not
        write (it does not verify) or cannot read, which is recomputed, never trusted."""
        try:
            sealed = _read_own(path)
        except OSError:
            return None
        body = sealed.partition(b"\n")[2]
        if not hmac.compare_digest(sealed, self._seal(path, body)):
            return None
        return body

    def get(self, raw: bytes, display: str, context: str = "") -> Entry | None:
        """The entry for ``raw`` named ``display`` in ``context`` (the module's view of the
        program), or None."""
        context += _kind(display)
        data = self._document(self._path(raw, context))
        if isinstance(data, dict) and data.get("by_path") is True:
            data = self._document(self._path(raw, _by_path(context, display)))
        if data is None:
            return None
        try:
            return _entry(data, display)
        except (ValueError, KeyError, TypeError, AttributeError):
            return None  # an older layout; verified, but not ours to guess at

    def _document(self, path: Path) -> object:
        body = self._verified(path)
        if body is None:
            return None
        try:
            return json.loads(body)
        except ValueError:
            return None

    def get_summary(self, raw: bytes) -> dict | None:
        """A module's program summary (``analysis.program.ModuleSummary``), by its bytes."""
        body = self._verified(self._path(raw, "\0summary"))
        if body is None:
            return None
        try:
            summary = json.loads(body)
        except ValueError:
            return None
        return summary if isinstance(summary, dict) else None

    def put_summary(self, raw: bytes, summary: dict) -> None:
        self._write(self._path(raw, "\0summary"), summary)

    def get_verdict(self, key: bytes) -> dict | None:
        """A run's verdict per entry point (``pipeline.verdicts``), by what it depends on."""
        body = self._verified(self._path(key, "\0verdict"))
        try:
            found = json.loads(body) if body is not None else None
        except ValueError:
            return None
        return found if isinstance(found, dict) else None

    def put_verdict(self, key: bytes, verdict: dict) -> None:
        self._write(self._path(key, "\0verdict"), verdict)

    def put(self, raw: bytes, display: str, entry: Entry, context: str = "") -> None:
        """Keep ``entry``, computed for ``raw`` named ``display`` in ``context``."""
        context += _kind(display)
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
        if self.by_path or _names(entry, display):
            self._write(self._path(raw, _by_path(context, display)), document)
            document = {"by_path": True}
        self._write(self._path(raw, context), document)

    def _write(self, path: Path, document: object) -> None:
        try:
            _own_folder(path.parent)
            # mkstemp creates with O_EXCL (never through a link); os.replace swaps a link planted
            # at `path` for the entry instead of writing where it points.
            _publish(path, self._seal(path, json.dumps(document).encode()))
        except OSError:
            pass  # a cache that cannot be written only costs time


def _kind(display: str) -> str:
    """What a file's name alone decides: the same bytes are a notebook only as ``*.ipynb``."""
    return "\0notebook" if display.endswith(".ipynb") else ""


def _by_path(context: str, display: str) -> str:
    return f"{context}\0path\0{display}"


def _names(entry: Entry, display: str) -> bool:
    """Whether a result names its file anywhere (its path, or only its basename)."""
    names = {display, display.rsplit("/", 1)[-1]}
    text = json.dumps([f.to_json() | {"path": ""} for f in entry.findings] + [entry.profile])
    new = entry.new or b""
    return any(json.dumps(n)[1:-1] in text or n.encode("utf-8", "replace") in new for n in names)


def _entry(data: dict, display: str) -> Entry:
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


def _publish(path: Path, data: bytes) -> None:
    """``path`` holds ``data`` whole, or is as it was: written to a temporary beside it, which
    is removed when the write fails (a full disk, a quota)."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _own_folder(folder: Path, mode: int = 0o777) -> None:
    """Create ``folder`` (its parents as needed) and make sure it is a folder, not a symlink a
    scanned repository planted to send cache files elsewhere; OSError otherwise."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    with contextlib.suppress(FileExistsError):
        os.mkdir(folder, mode)
    info = os.lstat(folder)
    if stat.S_ISLNK(info.st_mode) or not stat.S_ISDIR(info.st_mode):
        raise OSError(f"{folder} is a symlink or not a folder; not followed")


def _read_own(path: Path, private: bool = False) -> bytes:
    """A file's bytes: never through a symlink, never blocking on a FIFO; with ``private``, only
    if this user owns it and no one else may read or write it."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    fd = os.open(path, flags)
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise OSError(f"{path} is not a regular file")
        if private and (info.st_uid != _euid() or info.st_mode & 0o077):
            raise OSError(
                f"{path} is not private to this user (owner {info.st_uid}, mode "
                f"{stat.S_IMODE(info.st_mode):o}); no entry is trusted with it"
            )
        return handle.read()


def _euid() -> int:
    return os.geteuid() if hasattr(os, "geteuid") else 0


def user_folder() -> Path:
    """trncodemod's folder in the user's cache folder: ``$XDG_CACHE_HOME/trncodemod`` (when
    absolute, as the XDG spec asks), else ``~/.cache/trncodemod``. Never inside a scanned tree
    unless the user put it there."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):
        try:
            base = str(Path.home() / ".cache")
        except RuntimeError as err:  # no HOME and no password entry
            raise OSError(f"no user cache folder: {err}") from None
    return Path(base) / "trncodemod"


KEY_BYTES = 32


def user_key(folder: Path) -> bytes:
    """The key that signs this user's entries, ``folder/key``: random bytes made on the first
    run, readable and writable by this user only (0600, in a 0700 folder). OSError when it is a
    link, another user's, or readable by others: whoever can read it can forge entries."""
    _own_folder(folder, 0o700)
    key = folder / "key"
    try:
        data = _read_own(key, private=True)
    except FileNotFoundError:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".key.")  # 0600
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(secrets.token_bytes(KEY_BYTES))
            # A link publishes the key whole or not at all; a run that made one first wins.
            with contextlib.suppress(FileExistsError):
                os.link(tmp, key)
        finally:
            os.unlink(tmp)
        data = _read_own(key, private=True)
    if len(data) != KEY_BYTES:
        raise OSError(f"{key} holds {len(data)} bytes, not a key of {KEY_BYTES}")
    return data


def open_cache(folder: Path | None, settings: Settings, enabled: frozenset[str]) -> ResultCache:
    """The cache in ``folder`` (default: ``results`` in ``user_folder``), created safely, its
    entries signed with ``user_key``: OSError (the caller runs without a cache) when a folder is
    a symlink or cannot be created, or the key cannot be trusted."""
    key = user_key(user_folder())
    if folder is not None:
        # Every component, not only the last: `--cache-dir repo/link/cache` with a link the
        # repository planted would create folders wherever it leads (`containment`).
        try:
            containment.resolve(folder)
        except containment.Escape as err:
            raise OSError(f"{err.path}: {err.reason}") from None
    folder = folder if folder is not None else user_folder() / "results"
    _own_folder(folder)
    # O_EXCL | O_NOFOLLOW: an existing `.gitignore`, or a dangling symlink planted in its place,
    # is left alone rather than written through.
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    with contextlib.suppress(FileExistsError):
        fd = os.open(folder / ".gitignore", flags, 0o644)
        with os.fdopen(fd, "w") as handle:
            handle.write("# Created by trncodemod.\n*\n")
    salt = tool_fingerprint() + settings_fingerprint(settings, enabled)
    return ResultCache(folder, salt, key, by_path=bool(settings.plugins))
