"""Reading the dependency files a project pins its packages in, for ``trncodemod doctor``.

``requirements*.txt`` (and ``*.txt`` in a ``requirements/`` folder) with their ``-r``/``-c``
includes and index lines, ``pyproject.toml`` (``[project]`` dependencies, optional-dependencies and
requires-python; Poetry's ``[tool.poetry.dependencies]`` and groups; ``[dependency-groups]``),
``setup.cfg`` (``install_requires``, ``extras_require``, ``python_requires``), ``setup.py`` (the same
keywords, read with ``ast``: never executed) and ``environment.yml`` (conda packages and its
``pip:`` list). Each becomes one or more environments (``Env``): one requirements file with its
includes, one base dependency list (and the base plus each extra or group), or one conda file.
"""

from __future__ import annotations

import ast
import configparser
import json
import os
import re
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from fnmatch import fnmatch
from pathlib import Path

import yaml
from packaging.markers import Marker
from packaging.requirements import InvalidRequirement, Requirement
from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

from trncodemod.pipeline.files import ALWAYS_SKIPPED, open_regular

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

MANIFESTS = ("pyproject.toml", "setup.cfg", "setup.py", "environment.yml", "environment.yaml")


class ManifestError(Exception):
    def __init__(self, path: Path, line: int | None, reason: str):
        super().__init__(reason)
        self.path, self.line, self.reason = path, line, reason

    def text(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else str(self.path)
        return f"{where}: error: {self.reason}"


@dataclass(frozen=True)
class Dep:
    """One requirement as written in a file; ``spec`` is None when its version is unknowable
    (a URL, a Poetry git/path dependency, a constraint the tool cannot translate)."""

    name: str  # canonical
    written: str
    spec: SpecifierSet | None
    path: Path
    line: int
    style: str  # requirements | pep621 | poetry | setup.py | setup.cfg | conda
    as_named: str = ""
    extras: str = ""
    marker: Marker | None = None
    constraint: bool = False


@dataclass
class Env:
    """One installable set of requirements."""

    deps: list[Dep] = field(default_factory=list)
    python: Dep | None = None
    indexes: list[str] = field(default_factory=list)
    # Package metadata (pyproject, setup.*): an index cannot be declared there, so one named by
    # any file of the project counts.
    metadata: bool = False

    def plus(self, deps: list[Dep]) -> Env:
        return Env([*self.deps, *deps], self.python, list(self.indexes), self.metadata)


def _requirement(
    text: str, path: Path, line: int, style: str, constraint: bool = False
) -> Dep | None:
    """A PEP 508 requirement; None for a URL or path line pip accepts but that names no version."""
    try:
        req = Requirement(text)
    except InvalidRequirement as err:
        if "/" in text or "\\" in text or text.startswith(".") or "://" in text:
            return None
        reason = str(err).splitlines()[0]
        raise ManifestError(path, line, f"cannot parse requirement {text!r}: {reason}") from None
    extras = f"[{','.join(sorted(req.extras))}]" if req.extras else ""
    return Dep(
        name=canonicalize_name(req.name),
        written=text.strip(),
        spec=None if req.url else req.specifier,
        path=path,
        line=line,
        style=style,
        as_named=req.name,
        extras=extras,
        marker=req.marker,
        constraint=constraint,
    )


_COMMENT = re.compile(r"(^|\s)#.*$")
_ITEM_OPTION = re.compile(
    r"\s+--?[A-Za-z]"
)  # per-requirement options: --hash=..., --config-settings


def _logical_lines(text: str) -> Iterator[tuple[int, str]]:
    """pip's reading: backslash continuations joined, comments dropped; with the first line."""
    start, parts = 0, []
    for number, raw in enumerate(text.splitlines(), 1):
        if not parts:
            start = number
        if raw.endswith("\\"):
            parts.append(raw[:-1])
            continue
        parts.append(raw)
        line = _COMMENT.sub("", "".join(parts)).strip()
        parts = []
        if line:
            yield start, line


def _option(line: str) -> tuple[str, str]:
    if line.startswith("--"):
        head, sep, value = line.partition("=")
        if sep and not any(c.isspace() for c in head):
            return head, value.strip()
        head, *rest = line.split(None, 1)
        return head, rest[0].strip() if rest else ""
    return line[:2], line[2:].strip()


def _pip_line(
    env: Env, path: Path, number: int, line: str, style: str, seen: set[Path], constraint: bool
) -> None:
    if not line.startswith("-"):
        dep = _requirement(_ITEM_OPTION.split(line, 1)[0], path, number, style, constraint)
        if dep is not None:
            env.deps.append(dep)
        return
    flag, value = _option(line)
    if flag in ("-r", "--requirement", "-c", "--constraint"):
        included = path.parent / value
        is_constraint = constraint or flag in ("-c", "--constraint")
        if len(seen) >= MAX_INCLUDED_FILES:
            raise ManifestError(path, number, f"`{line}`: more than {MAX_INCLUDED_FILES} files")
        try:
            text = _read(included)
        except ManifestError as err:
            raise ManifestError(path, number, f"cannot read `{line}`: {err.reason}") from None
        _requirements_into(env, included, text, seen, is_constraint)
    elif flag in ("-i", "--index-url", "--extra-index-url"):
        env.indexes.append(value)
    # Every other option (-e, -f, --pre, --only-binary, ...) adds no pinned requirement.


def _requirements_into(
    env: Env, path: Path, text: str, seen: set[Path], constraint: bool = False
) -> None:
    key = path.resolve()
    if key in seen:
        return
    seen.add(key)
    for number, line in _logical_lines(text):
        _pip_line(env, path, number, line, "requirements", seen, constraint)


# A dependency file is a few kilobytes; a larger one is read no further (`-r /dev/zero` grew
# without bound), and a chain of includes deeper than this is a loop in disguise.
MAX_MANIFEST_BYTES = 5_000_000
MAX_INCLUDED_FILES = 64


def _read(path: Path) -> str:
    """A dependency file's text: a regular file only (a FIFO or a device would block or never
    end), at most MAX_MANIFEST_BYTES; a ManifestError naming the file otherwise."""
    try:
        fd = open_regular(path)
        try:
            raw = os.read(fd, MAX_MANIFEST_BYTES + 1)
            while len(raw) <= MAX_MANIFEST_BYTES and (chunk := os.read(fd, 1 << 20)):
                raw += chunk
        finally:
            os.close(fd)
        if len(raw) > MAX_MANIFEST_BYTES:
            raise ManifestError(
                path, None, f"larger than {MAX_MANIFEST_BYTES // 1_000_000} MB; not read"
            )
        return raw.decode("utf-8-sig")
    except (OSError, UnicodeDecodeError) as err:
        reason = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
        raise ManifestError(path, None, f"cannot read: {reason}") from None


class _Lines:
    """Finds the line a value parsed by tomllib/configparser came from."""

    def __init__(self, text: str):
        self.lines = text.splitlines()

    def header(self, pattern: str) -> int:
        rx = re.compile(rf"^\s*\[\s*{pattern}\s*\]")
        return next((i for i, line in enumerate(self.lines) if rx.match(line)), 0)

    def find(self, needles: Sequence[str], start: int) -> int:
        for i in range(start, len(self.lines)):
            if any(needle in self.lines[i] for needle in needles):
                return i + 1
        return start + 1

    def quoted(self, value: str, start: int) -> int:
        return self.find([f'"{value}"', f"'{value}'"], start)

    def key(self, name: str, start: int) -> int:
        rx = re.compile(rf"^\s*[\"']?{re.escape(name)}[\"']?\s*=")
        for i in range(start, len(self.lines)):
            if rx.match(self.lines[i]):
                return i + 1
        return start + 1


def _string_list(value: object, path: Path, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ManifestError(path, None, f"`{where}` is not a list of strings")
    return value


def _pep621(values: list[str], path: Path, lines: _Lines, start: int) -> list[Dep]:
    deps = []
    for value in values:
        dep = _requirement(value, path, lines.quoted(value, start), "pep621")
        if dep is not None:
            deps.append(dep)
    return deps


def _poetry_version(text: str) -> SpecifierSet | None:
    """Poetry's constraint syntax (``^2.9``, ``~2.9``, ``2.9.*``, ``>=2.9,<3``) as PEP 440;
    None where it has no PEP 440 form (``||``)."""
    if "||" in text:
        return None
    clauses = []
    for part in re.split(r"\s*,\s*|\s+(?=[<>=!~^])", text.strip()):
        if part in ("", "*"):
            continue
        if part[0] in "^~" and not part.startswith("~="):
            version = Version(part[1:].strip())
            release = list(version.release) + [0] * (3 - len(version.release))
            if part[0] == "^":
                digits = len(version.release)
                cut = next((i for i, p in enumerate(release[:digits]) if p), digits - 1)
            else:
                cut = 0 if len(version.release) == 1 else 1
            upper = [*release[:cut], release[cut] + 1]
            clauses += [f">={version}", f"<{'.'.join(map(str, upper))}"]
        elif part[0] in "<>=!~":
            clauses.append(part)
        else:
            clauses.append(f"=={part}")
    return SpecifierSet(",".join(clauses))


def _poetry(table: object, path: Path, lines: _Lines, start: int, env: Env) -> list[Dep]:
    if not isinstance(table, dict):
        return []
    deps = []
    for name, value in table.items():
        line = lines.key(name, start)
        version = value.get("version") if isinstance(value, dict) else value
        try:
            spec = _poetry_version(version) if isinstance(version, str) else None
        except (InvalidVersion, InvalidSpecifier) as err:
            raise ManifestError(path, line, f"cannot read constraint {version!r}: {err}") from None
        written = f"{name} = {json.dumps(value) if isinstance(value, str) else '{...}'}"
        dep = Dep(canonicalize_name(name), written, spec, path, line, "poetry", as_named=name)
        if dep.name == "python":
            env.python = dep
        else:
            deps.append(dep)
    return deps


def _pyproject(path: Path, text: str) -> list[Env]:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise ManifestError(path, None, f"cannot parse TOML: {err}") from None

    lines = _Lines(text)
    env = Env(metadata=True)
    groups: list[list[Dep]] = []
    project = data.get("project", {})
    at = lines.header("project")
    if isinstance(project.get("requires-python"), str):
        value = project["requires-python"]
        line = lines.key("requires-python", at)
        try:
            spec = SpecifierSet(value)
        except InvalidSpecifier as err:
            raise ManifestError(path, line, f"bad requires-python {value!r}: {err}") from None
        env.python = Dep("python", value, spec, path, line, "pep621")
    values = _string_list(project.get("dependencies", []), path, "project.dependencies")
    env.deps += _pep621(values, path, lines, at)
    optional = project.get("optional-dependencies", {})
    at_optional = lines.header(r"project\.optional-dependencies") or at
    for name, values in optional.items():
        values = _string_list(values, path, f"project.optional-dependencies.{name}")
        groups.append(_pep621(values, path, lines, lines.key(name, at_optional) - 1))
    at_groups = lines.header("dependency-groups")
    for name, values in data.get("dependency-groups", {}).items():
        strings = [v for v in values if isinstance(v, str)] if isinstance(values, list) else []
        groups.append(_pep621(strings, path, lines, lines.key(name, at_groups) - 1))
    tool = data.get("tool", {})
    poetry = tool.get("poetry", {})
    env.deps += _poetry(
        poetry.get("dependencies"), path, lines, lines.header(r"tool\.poetry\.dependencies"), env
    )
    dev = poetry.get("dev-dependencies")
    groups.append(_poetry(dev, path, lines, lines.header(r"tool\.poetry\.dev-dependencies"), env))
    for name, group in poetry.get("group", {}).items():
        at_group = lines.header(rf"tool\.poetry\.group\.{re.escape(name)}\.dependencies")
        groups.append(_poetry(group.get("dependencies"), path, lines, at_group, env))
    for source in [*poetry.get("source", []), *tool.get("uv", {}).get("index", [])]:
        if isinstance(source, dict) and isinstance(source.get("url"), str):
            env.indexes.append(source["url"])
    pdm = tool.get("pdm", {}).get("source", [])
    env.indexes += [s["url"] for s in pdm if isinstance(s, dict) and isinstance(s.get("url"), str)]
    return [env, *(env.plus(group) for group in groups if group)]


def _setup_cfg(path: Path, text: str) -> list[Env]:
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(text, str(path))
    except configparser.Error as err:
        raise ManifestError(path, getattr(err, "lineno", None), f"cannot parse: {err}") from None
    lines = _Lines(text)
    env = Env(metadata=True)

    def listed(section: str, key: str) -> list[Dep]:
        at = lines.header(re.escape(section))
        start = lines.key(key, at) - 1
        deps = []
        for value in parser.get(section, key, fallback="").splitlines():
            value = _COMMENT.sub("", value).strip()
            if value:
                dep = _requirement(value, path, lines.find([value], start), "setup.cfg")
                deps += [dep] if dep else []
        return deps

    if parser.has_option("options", "python_requires"):
        value = parser.get("options", "python_requires").strip()
        line = lines.key("python_requires", lines.header("options"))
        try:
            env.python = Dep("python", value, SpecifierSet(value), path, line, "setup.cfg")
        except InvalidSpecifier as err:
            raise ManifestError(path, line, f"bad python_requires {value!r}: {err}") from None
    env.deps += listed("options", "install_requires")
    extras = "options.extras_require"
    groups = (
        [listed(extras, key) for key in parser.options(extras)]
        if parser.has_section(extras)
        else []
    )
    return [env, *(env.plus(group) for group in groups if group)]


def _setup_py(path: Path, text: str) -> list[Env]:
    try:
        module = ast.parse(text, str(path))
    except SyntaxError as err:
        raise ManifestError(path, err.lineno, f"cannot parse: {err.msg}") from None
    except MemoryError:  # the parser's own limit on nesting
        raise ManifestError(path, None, "cannot parse: nested too deeply") from None
    names = {
        node.targets[0].id: node.value
        for node in module.body
        if isinstance(node, ast.Assign)
        and len(node.targets) == 1
        and isinstance(node.targets[0], ast.Name)
    }

    def strings(node: ast.expr) -> list[tuple[str, int]]:
        if isinstance(node, ast.Name) and node.id in names:
            node = names[node.id]
        if isinstance(node, (ast.List, ast.Tuple)):
            return [
                (elt.value, elt.lineno)
                for elt in node.elts
                if isinstance(elt, ast.Constant) and isinstance(elt.value, str)
            ]
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return [(s.strip(), node.lineno + i) for i, s in enumerate(node.value.splitlines())]
        return []  # computed at run time: not knowable without executing setup.py

    def deps(node: ast.expr) -> list[Dep]:
        found = (_requirement(text, path, line, "setup.py") for text, line in strings(node) if text)
        return [dep for dep in found if dep is not None]

    envs = []
    for call in ast.walk(module):
        func = call.func if isinstance(call, ast.Call) else None
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
        if name != "setup":
            continue
        env, groups = Env(metadata=True), []
        for keyword in call.keywords:
            if keyword.arg == "install_requires":
                env.deps += deps(keyword.value)
            elif keyword.arg == "python_requires":
                for value, line in strings(keyword.value)[:1]:
                    try:
                        spec = SpecifierSet(value)
                    except InvalidSpecifier as err:
                        reason = f"bad python_requires {value!r}: {err}"
                        raise ManifestError(path, line, reason) from None
                    env.python = Dep("python", value, spec, path, line, "setup.py")
            elif keyword.arg == "extras_require":
                value = keyword.value
                if isinstance(value, ast.Name) and value.id in names:
                    value = names[value.id]
                if isinstance(value, ast.Dict):
                    groups += [deps(v) for v in value.values]
        envs += [env, *(env.plus(group) for group in groups if group)]
    return envs


_CONDA = re.compile(r"^(?:[^:\s]+::)?(?P<name>[A-Za-z0-9_][A-Za-z0-9_.\-]*)\s*(?P<rest>.*)$")


def _conda_spec(rest: str) -> SpecifierSet:
    """A conda match spec's version (``=2.9`` is a prefix, ``==2.9.0`` exact, ``2.9.0 build``)."""
    rest = rest.strip()
    if not rest:
        return SpecifierSet()
    if rest.startswith("=") and not rest.startswith("=="):
        return SpecifierSet(f"=={rest[1:].split('=')[0].strip().rstrip('.*')}.*")
    if rest[0] not in "<>=!~":
        version = rest.split()[0]
        if version.endswith("*"):
            return SpecifierSet(f"=={version.rstrip('.*')}.*")
        return SpecifierSet(f"=={version}")
    return SpecifierSet(rest.split()[0])


def _environment_yml(path: Path, text: str) -> list[Env]:
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        raise ManifestError(path, mark.line + 1 if mark else None, f"cannot parse: {err}") from None
    env = Env()
    if not isinstance(root, yaml.MappingNode):
        return [env]
    listing = next((v for k, v in root.value if k.value == "dependencies"), None)
    for item in listing.value if isinstance(listing, yaml.SequenceNode) else []:
        if isinstance(item, yaml.MappingNode):
            for key, value in item.value:
                if key.value == "pip" and isinstance(value, yaml.SequenceNode):
                    for entry in value.value:
                        line, seen = entry.start_mark.line + 1, {path.resolve()}
                        text = _COMMENT.sub("", str(entry.value)).strip()
                        _pip_line(env, path, line, text, "requirements", seen, False)
            continue
        line = item.start_mark.line + 1
        match = _CONDA.match(str(item.value).strip())
        if match is None:
            raise ManifestError(path, line, f"cannot read conda spec {item.value!r}")
        name = canonicalize_name(match["name"])
        name = "torch" if name == "pytorch" else name
        try:
            spec = _conda_spec(match["rest"])
        except InvalidSpecifier as err:
            reason = f"cannot read conda spec {item.value!r}: {err}"
            raise ManifestError(path, line, reason) from None
        dep = Dep(name, str(item.value), spec, path, line, "conda", as_named=match["name"])
        if name == "python":
            env.python = dep
        else:
            env.deps.append(dep)
    return [env]


def read_manifest(path: Path) -> list[Env]:
    """The environments one dependency file describes."""
    try:
        return _read_manifest(path)
    except RecursionError:  # TOML or YAML nested thousands deep; the parsers recurse
        raise ManifestError(path, None, "cannot parse: nested too deeply") from None


def _read_manifest(path: Path) -> list[Env]:
    text = _read(path)
    if path.name == "pyproject.toml":
        return _pyproject(path, text)
    if path.name == "setup.cfg":
        return _setup_cfg(path, text)
    if path.name == "setup.py":
        return _setup_py(path, text)
    if path.suffix in (".yml", ".yaml"):
        return _environment_yml(path, text)
    env = Env()
    _requirements_into(env, path, text, set())
    return [env]


def is_manifest(path: Path) -> bool:
    name = path.name
    return (
        name in MANIFESTS
        or fnmatch(name, "requirements*.txt")
        or (path.parent.name == "requirements" and name.endswith(".txt"))
    )


def find_manifests(root: Path) -> list[Path]:
    """Dependency files under ``root``, sorted; tool folders (.venv, node_modules, ...) skipped."""
    if root.is_file():
        return [root]
    found = []
    for folder, dirnames, filenames in _walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in ALWAYS_SKIPPED)
        found += [folder / name for name in filenames if is_manifest(folder / name)]
    return sorted(found, key=lambda p: p.as_posix())


def _walk(root: Path) -> Iterator[tuple[Path, list[str], list[str]]]:
    for folder, dirnames, filenames in os.walk(root, followlinks=False):
        yield Path(folder), dirnames, filenames
