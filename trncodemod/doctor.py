"""``trncodemod doctor [PATH]``: check dependency pins against the Neuron version matrix.

Reads the dependency files under PATH — ``requirements*.txt`` (and ``*.txt`` in a
``requirements/`` folder) with their ``-r``/``-c`` includes and index lines, ``pyproject.toml``
(``[project]`` dependencies, optional-dependencies and requires-python; Poetry's
``[tool.poetry.dependencies]`` and groups; ``[dependency-groups]``), ``setup.cfg``
(``install_requires``, ``extras_require``, ``python_requires``), ``setup.py`` (the same keywords,
read with ``ast``: never executed) and ``environment.yml`` (conda packages and its ``pip:`` list)
— and checks each environment they describe against ``data/matrix.toml`` for the target. Every
problem says the line to write and why, with its source.

An environment is one requirements file with its includes, one pyproject/setup base dependency
list (and the base plus each extra or group), or one conda file. Version logic is ``packaging``'s;
a requirement whose environment marker is false on Linux x86_64 for every Python the target
supports is left out.

Codes (reference sections of ``shared/reference/trainium-migration.md``):

======  ======================  ================================================================
DOC001  neuronx-release         torch-neuronx pin that is not (only) a release of the target (§1.1)
DOC002  torch-release           torch pin that no torch-neuronx of the target is built for (§1.1)
DOC003  torch-xla-release       torch-xla pin other than the one the target's torch-neuronx uses,
                                e.g. 2.8.0 where 2.8.1 is needed (§1.1)
DOC004  torch-xla-abi           torch and torch-xla that do not match, or torch left unpinned
                                beside torch-xla: its wheels do not declare torch (§6.1)
DOC005  neuron-index            torch-neuronx / neuronx-cc without the Neuron package index: PyPI's
                                torch-neuronx is a 2022 placeholder (§1.1)
DOC006  hf-minimum              transformers / accelerate below Neuron's minimum for torch-xla 2.7+
                                (§D3)
DOC007  python-version          requires-python (or a conda python) with no Python the target
                                ships wheels for (§1.1)
DOC008  torch-xla-on-neuron     torch-xla on the neuron target: TorchNeuron uses none (§0, §5)
======  ======================  ================================================================

Exit codes: 0 no problem, 1 problems, 2 a file that could not be read (named, with the reason).
"""

from __future__ import annotations

import ast
import configparser
import json
import os
import re
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from fnmatch import fnmatch
from functools import cache
from importlib import resources
from pathlib import Path

import click
import yaml
from packaging.markers import Marker
from packaging.requirements import InvalidRequirement, Requirement
from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

from trncodemod.config import ConfigError, load_settings
from trncodemod.files import ALWAYS_SKIPPED
from trncodemod.targets import Target, load_target, target_names

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

EXIT_CLEAN, EXIT_PROBLEMS, EXIT_ERROR = 0, 1, 2
RULES = {
    "DOC001": "neuronx-release",
    "DOC002": "torch-release",
    "DOC003": "torch-xla-release",
    "DOC004": "torch-xla-abi",
    "DOC005": "neuron-index",
    "DOC006": "hf-minimum",
    "DOC007": "python-version",
    "DOC008": "torch-xla-on-neuron",
}
PYTHONS = tuple(f"3.{minor}" for minor in range(6, 17))
MANIFESTS = ("pyproject.toml", "setup.cfg", "setup.py", "environment.yml", "environment.yaml")


# The matrix ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    """One torch-neuronx family of ``data/matrix.toml``."""

    neuronx: SpecifierSet
    neuronx_pin: str
    label: str
    torch: SpecifierSet | None
    torch_pin: str
    torch_xla: SpecifierSet | None
    torch_xla_why: str
    native: bool
    python: SpecifierSet | None
    transformers: str
    accelerate: str
    targets: tuple[str, ...]
    source: str

    @property
    def family(self) -> str:
        return str(self.neuronx).removeprefix("==").removesuffix(".*")


@dataclass(frozen=True)
class Matrix:
    rows: tuple[Row, ...]
    neuron_index: str
    neuron_packages: frozenset[str]

    def rows_for(self, target: str) -> list[Row]:
        return [row for row in self.rows if target in row.targets]

    def default_row(self, target: Target) -> Row:
        """The target's row for the torch that targets.toml names."""
        rows = self.rows_for(target.name)
        for row in rows:
            if row.torch is not None and row.torch.contains(target.torch, prereleases=True):
                return row
        return rows[-1]


def _spec(text: str) -> SpecifierSet | None:
    return SpecifierSet(text) if text else None


@cache
def load_matrix() -> Matrix:
    text = resources.files("trncodemod").joinpath("data/matrix.toml").read_text("utf-8")
    data = tomllib.loads(text)
    rows = tuple(
        Row(
            neuronx=SpecifierSet(row["neuronx"]),
            neuronx_pin=row["neuronx_pin"],
            label=row["label"],
            torch=_spec(row["torch"]),
            torch_pin=row["torch_pin"],
            torch_xla=_spec(row["torch_xla"]),
            torch_xla_why=row.get("torch_xla_why", ""),
            native=row.get("native", False),
            python=_spec(row["python"]),
            transformers=row.get("transformers", ""),
            accelerate=row.get("accelerate", ""),
            targets=tuple(row["targets"]),
            source=row["source"],
        )
        for row in data["rows"]
    )
    packages = frozenset(canonicalize_name(name) for name in data["neuron_packages"])
    return Matrix(rows, data["neuron_index"], packages)


# Version sets, through packaging: does a pin allow any version of a set, or one outside it? ---


def _versions(specs: Iterable[SpecifierSet | None]) -> Iterator[Version]:
    """The versions a set of specifiers names, and their neighbours on each side."""
    for spec in specs:
        for clause in spec or ():
            try:
                version = Version(clause.version.removesuffix(".*"))
            except InvalidVersion:  # `===` arbitrary equality
                continue
            yield version
            release = version.release
            for i, part in enumerate(release):
                yield Version(".".join(map(str, (*release[:i], part + 1))))
                if part:
                    yield Version(".".join(map(str, (*release[:i], part - 1))))
                    yield Version(".".join(map(str, (*release[:i], part - 1, 999))))


def _probes(spec: SpecifierSet, allowed: Sequence[SpecifierSet], extra: Iterable[str]) -> list:
    found = {Version(v) for v in extra} | set(_versions([spec, *allowed]))
    return sorted(found)


def meets(spec: SpecifierSet, allowed: Sequence[SpecifierSet], extra: Iterable[str] = ()) -> bool:
    """Whether ``spec`` allows some version that one of ``allowed`` allows."""
    return any(
        spec.contains(v, prereleases=True) and any(a.contains(v, prereleases=True) for a in allowed)
        for v in _probes(spec, allowed, extra)
    )


def escape(spec: SpecifierSet, allowed: Sequence[SpecifierSet]) -> Version | None:
    """A version ``spec`` allows that none of ``allowed`` does, if there is one."""
    for version in _probes(spec, allowed, ()):
        if spec.contains(version, prereleases=True) and not any(
            a.contains(version, prereleases=True) for a in allowed
        ):
            return version
    return None


# Reading dependency files ---------------------------------------------------------------------


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


def _read(path: Path) -> str:
    try:
        return path.read_text("utf-8-sig")
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


# Checks --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Problem:
    path: Path
    line: int
    code: str
    message: str
    write: str  # the line to write; "" = remove the line
    source: str

    def text(self) -> str:
        return f"{self.path}:{self.line}: {self.code} {self.message}"

    def to_json(self) -> dict:
        return {
            "path": self.path.as_posix(),
            "line": self.line,
            "code": self.code,
            "name": RULES[self.code],
            "message": self.message,
            "write": self.write,
            "source": self.source,
        }


def _render(like: Dep, name: str, spec: str) -> str:
    """``name`` + ``spec`` written the way ``like``'s file writes a requirement."""
    if like.style == "poetry":
        simple = spec.startswith("==") and "," not in spec
        return f'{name} = "{spec[2:] if simple else spec}"'
    if like.style == "conda":
        name = "pytorch" if name == "torch" else name
        if spec.startswith("==") and spec.endswith(".*") and "," not in spec:
            spec = "=" + spec[2:-2]
        return f"{name}{spec}"
    same = canonicalize_name(like.as_named) == canonicalize_name(name)
    extras = like.extras if same else ""
    marker = f"; {like.marker}" if same and like.marker else ""
    text = f"{name}{extras}{spec}{marker}"
    quote = "'" if '"' in text else '"'
    return f"{quote}{text}{quote}" if like.style in ("pep621", "setup.py") else text


def _render_python(like: Dep, spec: str) -> str:
    return {
        "pep621": f'requires-python = "{spec}"',
        "poetry": f'python = "{spec}"',
        "setup.py": f'python_requires="{spec}"',
        "setup.cfg": f"python_requires = {spec}",
    }.get(like.style, f"python{spec}")


def _render_index(like: Dep, url: str) -> str:
    if like.style == "poetry":
        return f'[[tool.poetry.source]] name = "neuron", url = "{url}", priority = "supplemental"'
    if like.style in ("pep621", "setup.py", "setup.cfg"):
        # Package metadata cannot name an index: the install command (or pip.conf) must.
        return f"pip install --extra-index-url {url} ..."
    return f"--extra-index-url {url}"


def _marker_env(python: str) -> dict[str, str]:
    return {
        "python_version": python,
        "python_full_version": f"{python}.0",
        "sys_platform": "linux",
        "platform_system": "Linux",
        "platform_machine": "x86_64",
        "os_name": "posix",
        "implementation_name": "cpython",
        "platform_python_implementation": "CPython",
        "extra": "",
    }


def _active(dep: Dep, pythons: Sequence[str]) -> bool:
    if dep.marker is None:
        return True
    try:
        return any(dep.marker.evaluate(_marker_env(python)) for python in pythons)
    except Exception:  # an undefined comparison: keep the requirement rather than guess
        return True


def _effective(env: Env, pythons: Sequence[str]) -> dict[str, Dep]:
    """One requirement per package, its specifiers merged with its constraints; the line shown is
    the most specific occurrence (the one to edit)."""
    grouped: dict[str, list[Dep]] = {}
    for dep in env.deps:
        if _active(dep, pythons):
            grouped.setdefault(dep.name, []).append(dep)
    merged = {}
    for name, deps in grouped.items():
        if all(dep.constraint for dep in deps):
            continue
        if any(dep.spec is None for dep in deps):
            merged[name] = next(dep for dep in deps if dep.spec is None)
            continue
        spec = SpecifierSet()
        for dep in deps:
            spec &= dep.spec  # type: ignore[operator]
        shown = max(deps, key=lambda d: len(d.spec))  # type: ignore[arg-type]
        merged[name] = replace(shown, spec=spec)
    return merged


def _text(spec: SpecifierSet | None) -> str:
    """A specifier set written lower bound first, as people write it (``>=3.10,<3.14``)."""
    clauses = sorted(spec or (), key=lambda c: (not c.operator.startswith(">"), str(c)))
    return ",".join(str(c) for c in clauses)


def _plain(spec: SpecifierSet | None) -> str:
    text = _text(spec)
    return text[2:] if text.startswith("==") and "," not in text else text


def check(env: Env, target: Target, index_known: bool = False) -> list[Problem]:
    """The problems of one environment for ``target``; ``index_known``: some file of the project
    names the Neuron index (what package metadata, which cannot name one, relies on)."""
    return _Checker(env, target, index_known).run()


_ABI = "a torch-xla wheel does not declare torch and needs exactly the torch it was built for"


class _Checker:
    """Narrows the target's rows by each pin in turn (torch-neuronx, torch, torch-xla), reporting
    a pin that leaves none, so each message names the row the other pins chose."""

    def __init__(self, env: Env, target: Target, index_known: bool):
        self.env, self.target, self.index_known = env, target, index_known
        self.matrix = load_matrix()
        self.rows = self.matrix.rows_for(target.name)
        self.default = self.matrix.default_row(target)
        pythons = [p for p in PYTHONS if any(r.python and r.python.contains(p) for r in self.rows)]
        self.deps = _effective(env, pythons)
        self.problems: list[Problem] = []
        self.by_pin = ""  # names the torch-neuronx line once it has chosen the rows
        self.torch_reported = False

    def run(self) -> list[Problem]:
        nx, torch, xla = (self.deps.get(n) for n in ("torch-neuronx", "torch", "torch-xla"))
        if nx is not None and nx.spec is not None:
            self.neuronx(nx, nx.spec)
        torch_rows = self.rows
        if torch is not None and torch.spec is not None:
            torch_rows = self.torch(torch, torch.spec)
        final = torch_rows
        if xla is not None and all(r.native for r in self.rows):
            message = (
                f"`{xla.written}` on target {self.target.name}: TorchNeuron is a native PyTorch "
                "backend and uses no torch-xla"
            )
            self.report(xla, "DOC008", message, "", "reference §0, §5")
        elif xla is not None and xla.spec is not None and all(r.torch_xla for r in self.rows):
            final = self.torch_xla(xla, xla.spec, torch, torch_rows, nx is None)
        for package in ("transformers", "accelerate"):
            self.minimum(package, final)
        self.python(final)
        self.index(torch is not None)
        return self.problems

    def report(self, dep: Dep, code: str, message: str, write: str, source: str) -> None:
        action = f"write `{write}`" if write else "remove this line"
        self.problems.append(
            Problem(dep.path, dep.line, code, f"{message}; {action}", write, source)
        )

    def pick(self, rows: Sequence[Row]) -> Row:
        return self.default if self.default in rows else rows[-1]

    def neuronx(self, nx: Dep, spec: SpecifierSet) -> None:
        name = self.target.name
        chosen = [r for r in self.matrix.rows if meets(spec, [r.neuronx])]
        inside = [r for r in chosen if name in r.targets]
        outside = [r for r in chosen if name not in r.targets]
        families = ", ".join(r.family for r in outside)
        if inside:
            self.rows, self.by_pin = inside, f" (torch-neuronx on line {nx.line})"
        if not inside:
            row = self.default
            what = chosen[0].label if len(chosen) == 1 else f"torch-neuronx {families}"
            if not chosen:
                what = "no torch-neuronx release in the version matrix"
            message = (
                f"`{nx.written}` is {what}, not a release for target {name}, which is {row.label}"
            )
        elif outside and max(map(self.matrix.rows.index, outside)) > max(
            map(self.matrix.rows.index, inside)
        ):
            # Only a newer release outside the target can win: pip takes the newest.
            row = self.pick(inside)
            message = (
                f"`{nx.written}` also allows torch-neuronx {families}, outside target {name}, "
                f"and pip takes the newest it finds: pin {row.label}"
            )
        else:
            return
        write = _render(nx, nx.as_named, row.neuronx_pin)
        self.report(nx, "DOC001", message, write, f"reference §1.1: {row.source}")

    def torch(self, torch: Dep, spec: SpecifierSet) -> list[Row]:
        """The rows whose torch the pin allows (all of them, after reporting, when none)."""
        fit = [r for r in self.rows if r.torch is not None and meets(spec, [r.torch])]
        if fit or not all(r.torch for r in self.rows):
            return fit or self.rows
        row = self.pick(self.rows)
        message = f"`{torch.written}`: {row.label}{self.by_pin} is built for torch {_plain(SpecifierSet(row.torch_pin))}"
        write = _render(torch, torch.as_named, row.torch_pin)
        self.report(torch, "DOC002", message, write, f"reference §1.1: {row.source}")
        self.torch_reported = True
        return self.rows

    def torch_xla(
        self,
        xla: Dep,
        spec: SpecifierSet,
        torch: Dep | None,
        torch_rows: list[Row],
        alone: bool,
    ) -> list[Row]:
        """Checks torch-xla against the target, then against torch; returns the rows left."""
        in_target = [r for r in self.rows if meets(spec, [r.torch_xla])]  # type: ignore[list-item]
        pair = [r for r in in_target if r in torch_rows]
        if not in_target:
            row = self.pick(torch_rows)
            message = (
                f"`{xla.written}`: {row.label}{self.by_pin} uses torch-xla {_plain(row.torch_xla)}"
            )
            self.report_xla(xla, message, row)
            return torch_rows
        if not pair and torch is not None:
            row = self.pick(torch_rows)
            message = (
                f"`{xla.written}` does not match `{torch.written}` (line {torch.line}): a "
                "torch-xla wheel is built for exactly one torch release and fails to import "
                "(undefined symbol) with another"
            )
            write = _render(xla, xla.as_named, _text(row.torch_xla))
            self.report(xla, "DOC004", message, write, "reference §6.1")
            return torch_rows
        pair = pair or in_target
        loose = escape(spec, [r.torch_xla for r in pair])  # type: ignore[misc]
        # A bare `torch-xla` beside a pinned torch-neuronx is resolved by torch-neuronx.
        if loose is not None and (alone or len(spec)):
            row = self.pick(pair)
            allows = str(loose) if len(spec) else "any version"
            message = f"`{xla.written}` allows torch-xla {allows}, but {row.label} uses torch-xla {_plain(row.torch_xla)}"
            self.report_xla(xla, message, row)
        elif alone and not self.torch_reported:
            self.abi(xla, torch, pair)
        return pair

    def report_xla(self, xla: Dep, message: str, row: Row) -> None:
        if row.torch_xla_why:
            message += f" ({row.torch_xla_why})"
        write = _render(xla, xla.as_named, _text(row.torch_xla))
        self.report(xla, "DOC003", message, write, f"reference §1.1: {row.source}")

    def abi(self, xla: Dep, torch: Dep | None, rows: list[Row]) -> None:
        """Without torch-neuronx nothing else pins torch next to torch-xla (§6.1)."""
        row = self.pick(rows)
        if torch is None:
            message = f"`{xla.written}` without torch: {_ABI}"
            self.report(
                xla, "DOC004", message, _render(xla, "torch", row.torch_pin), "reference §6.1"
            )
            return
        if torch.spec is None:
            return
        loose = escape(torch.spec, [r.torch for r in rows])  # type: ignore[misc]
        if loose is not None:
            allows = str(loose) if len(torch.spec) else "any version"
            message = (
                f"`{torch.written}` allows torch {allows} next to `{xla.written}` "
                f"(line {xla.line}): {_ABI}"
            )
            write = _render(torch, torch.as_named, row.torch_pin)
            self.report(torch, "DOC004", message, write, "reference §6.1")

    def minimum(self, package: str, rows: list[Row]) -> None:
        dep = self.deps.get(package)
        minimums = {getattr(r, package) for r in rows}
        if dep is None or dep.spec is None or "" in minimums:
            return
        least = max(minimums, key=Version)
        if not meets(dep.spec, [SpecifierSet(f">={least}")]):
            message = (
                f"`{dep.written}` is below {package} {least}, which Neuron requires with "
                "torch-xla 2.7 and later"
            )
            write = _render(dep, dep.as_named, f"=={least}.*")
            self.report(
                dep, "DOC006", message, write, "reference §D3 (introducing-pytorch-2-9.rst)"
            )

    def python(self, rows: list[Row]) -> None:
        py = self.env.python
        supported = [r.python for r in rows if r.python]
        if py is None or py.spec is None or not supported or meets(py.spec, supported, PYTHONS):
            return
        row = self.pick(rows)
        message = f"`{py.written}` allows no Python that {row.label} ships wheels for ({_text(row.python)})"
        write = _render_python(py, _text(row.python))
        self.report(py, "DOC007", message, write, f"reference §1.1: {row.source}")

    def index(self, with_torch: bool) -> None:
        url = self.matrix.neuron_index
        packages = self.matrix.neuron_packages
        neuron = [d for d in self.deps.values() if d.name in packages and d.spec is not None]
        named = any(url in index for index in self.env.indexes)
        if not neuron or named or (self.env.metadata and self.index_known):
            return
        dep = neuron[0]
        message = (
            f"`{dep.written}` without the Neuron package index: the PyPI project torch-neuronx "
            "is a 2022 placeholder (1.0), so pip cannot install the real one"
        )
        if with_torch:
            message += " and takes a stock torch from PyPI beside it"
        source = "reference §1.1 (pytorch-dev-install.txt)"
        self.report(dep, "DOC005", message, _render_index(dep, url), source)


# Running -------------------------------------------------------------------------------------


@dataclass
class Report:
    target: str
    files: list[Path] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    errors: list[ManifestError] = field(default_factory=list)

    def exit_code(self) -> int:
        return EXIT_ERROR if self.errors else EXIT_PROBLEMS if self.problems else EXIT_CLEAN

    def to_json(self) -> str:
        document = {
            "version": 1,
            "target": self.target,
            "files": [path.as_posix() for path in self.files],
            "problems": [problem.to_json() for problem in self.problems],
            "errors": [
                {"path": e.path.as_posix(), "line": e.line, "reason": e.reason} for e in self.errors
            ],
            "summary": {
                "files": len(self.files),
                "problems": len(self.problems),
                "errors": len(self.errors),
            },
        }
        return json.dumps(document, indent=2, sort_keys=True)


def diagnose(root: Path, target: Target) -> Report:
    """Check every dependency file under ``root`` against the matrix for ``target``."""
    report = Report(target.name, find_manifests(root))
    read: list[tuple[Path, list[Env]]] = []
    for path in report.files:
        try:
            read.append((path, read_manifest(path)))
        except ManifestError as err:
            report.errors.append(err)
    index = load_matrix().neuron_index
    index_known = any(index in url for _, envs in read for env in envs for url in env.indexes)
    seen: set[tuple[Path, int, str]] = set()
    for _, envs in read:
        for env in envs:
            for problem in check(env, target, index_known):
                key = (problem.path, problem.line, problem.code)
                if key not in seen:
                    seen.add(key)
                    report.problems.append(problem)
    report.problems.sort(key=lambda p: (p.path.as_posix(), p.line, p.code))
    return report


@click.command("doctor")
@click.argument("path", required=False, type=click.Path(exists=True, path_type=Path))
@click.option(
    "--target", type=click.Choice(target_names()), help="Target profile (default: config, xla-2.9)."
)
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
@click.option(
    "--config",
    type=click.Path(dir_okay=False, exists=True, path_type=Path),
    help="A pyproject.toml to read [tool.trncodemod] from (default: the nearest).",
)
def doctor_command(path: Path | None, target: str | None, fmt: str, config: Path | None) -> None:
    """Check the dependency pins under PATH (default: .) against the Neuron version matrix.

    Prints `file:line: DOCxxx message` for each problem, with the line to write. Exit 0: no
    problem; 1: problems; 2: a file that could not be read.
    """
    root = path or Path(".")
    try:
        settings = load_settings(root, config).with_overrides(target=target)
    except ConfigError as err:
        click.echo(f"error: {err}", err=True)
        sys.exit(EXIT_ERROR)
    report = diagnose(root, load_target(settings.target))
    if fmt == "json":
        click.echo(report.to_json())
    else:
        for problem in report.problems:
            click.echo(problem.text())
        for error in report.errors:
            click.echo(error.text(), err=True)
        count = len(report.problems)
        click.echo(
            f"{len(report.files)} dependency file{'s' * (len(report.files) != 1)} checked for "
            f"{report.target}: {count} problem{'s' * (count != 1)}"
            + (f", {len(report.errors)} unreadable" if report.errors else "")
            + ".",
            err=True,
        )
    sys.exit(report.exit_code())
