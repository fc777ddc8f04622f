"""``trncodemod doctor [PATH]``: check dependency pins against the Neuron version matrix.

Reads the dependency files under PATH (``trncodemod.commands.manifests``: requirements files, pyproject,
setup.cfg, setup.py, environment.yml) and checks each environment they describe against
``data/matrix.toml`` for the target. Every problem says the line to write and why, with its
source. Version logic is ``packaging``'s; a requirement whose environment marker is false on
Linux x86_64 for every Python the target supports is left out.

Codes (with the keys of their sources in ``data/sources.toml``):

======  ======================  ================================================================
DOC001  neuronx-release         torch-neuronx pin that is not (only) a release of the target, or
                                none in a GPU/CPU project ([neuron-manifest, neuron-pt29])
DOC002  torch-release           torch pin that no torch-neuronx of the target is built for, or a
                                torchvision / torchaudio built for another torch
                                ([neuron-manifest, neuron-pt29])
DOC003  torch-xla-release       torch-xla pin other than the one the target's torch-neuronx uses,
                                e.g. 2.8.0 where 2.8.1 is needed, or none in a GPU project
                                ([neuron-manifest, neuron-pt29])
DOC004  torch-xla-abi           torch and torch-xla that do not match, or torch left unpinned
                                beside torch-xla: its wheels do not declare torch ([xla-setup])
DOC005  neuron-index            torch-neuronx / neuronx-cc (or a GPU project) without the Neuron
                                package index: PyPI's torch-neuronx is a 2022 placeholder
                                ([neuron-manifest, neuron-pt29])
DOC006  hf-minimum              transformers / accelerate below Neuron's minimum for torch-xla 2.7+
                                ([neuron-pt29])
DOC007  python-version          requires-python (or a conda python) with no Python the target
                                ships wheels for ([neuron-manifest, neuron-pt29])
DOC008  torch-xla-on-neuron     torch-xla on the neuron target: TorchNeuron uses none
                                ([neuron-training])
DOC009  optimum-neuron-release  optimum-neuron pin that allows a release built for another
                                torch-neuronx, or any pin where no release is built for it
                                (optimum-neuron tags; TRN501)
======  ======================  ================================================================

Exit codes: 0 no problem, 1 problems, 2 a file that could not be read (named, with the reason).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from importlib import resources
from pathlib import Path

import click
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

from trncodemod.commands.manifests import Dep, Env, ManifestError, find_manifests, read_manifest
from trncodemod.config import ConfigError, load_settings
from trncodemod.sources import cite_urls
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
    "DOC009": "optimum-neuron-release",
}
PYTHONS = tuple(f"3.{minor}" for minor in range(6, 17))


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
    torchvision: str = ""
    torchaudio: str = ""
    optimum_neuron: str = ""  # a specifier, "none" (no release) or "" (not known)
    optimum_neuron_pin: str = ""

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
            torchvision=row.get("torchvision", ""),
            torchaudio=row.get("torchaudio", ""),
            optimum_neuron=row.get("optimum_neuron", ""),
            optimum_neuron_pin=row.get("optimum_neuron_pin", ""),
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


def check(
    env: Env, target: Target, index_known: bool = False, stack_known: bool = False
) -> list[Problem]:
    """The problems of one environment for ``target``; ``index_known``: some file of the project
    names the Neuron index (what package metadata, which cannot name one, relies on);
    ``stack_known``: some file names torch-neuronx or torch-xla (a file another includes, or a
    base requirements file, is then not a GPU project missing them)."""
    return _Checker(env, target, index_known, stack_known).run()


_ABI = "a torch-xla wheel does not declare torch and needs exactly the torch it was built for"


class _Checker:
    """Narrows the target's rows by each pin in turn (torch-neuronx, torch, torch-xla), reporting
    a pin that leaves none, so each message names the row the other pins chose."""

    def __init__(self, env: Env, target: Target, index_known: bool, stack_known: bool = False):
        self.env, self.target, self.index_known = env, target, index_known
        self.stack_known = stack_known
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
            self.report(xla, "DOC008", message, "", "[neuron-training]")
        elif xla is not None and xla.spec is not None and all(r.torch_xla for r in self.rows):
            final = self.torch_xla(xla, xla.spec, torch, torch_rows, nx is None)
        for package in ("transformers", "accelerate"):
            self.minimum(package, final)
        for package in ("torchvision", "torchaudio"):
            self.companion(package, final)
        self.optimum_neuron(final)
        self.python(final)
        if nx is None and xla is None and not self.stack_known and not self.native_target:
            self.missing(torch, final)  # a GPU or CPU project: nothing of the Neuron stack yet
        else:
            self.index(torch is not None)
        return self.problems

    @property
    def native_target(self) -> bool:
        return all(r.native for r in self.rows)

    def companion(self, package: str, rows: list[Row]) -> None:
        """torchvision / torchaudio: each wheel requires exactly the torch it was built for, so
        another release makes pip replace the target's torch (or fail)."""
        dep = self.deps.get(package)
        row = self.pick(rows)
        pin = getattr(row, package)
        if dep is None or dep.spec is None or not pin or meets(dep.spec, [SpecifierSet(pin)]):
            return
        message = (
            f"`{dep.written}` is not the {package} built for torch {_plain(_spec(row.torch_pin))} "
            f"of {row.label}{self.by_pin}: pip would replace that torch to satisfy it"
        )
        source = f"pytorch/{package.removeprefix('torch')} compatibility table; [neuron-manifest]"
        self.report(dep, "DOC002", message, _render(dep, dep.as_named, pin), source)

    def optimum_neuron(self, rows: list[Row]) -> None:
        """optimum-neuron: each release's `neuronx` extra pins one torch-neuronx, so another
        release replaces the target's torch-neuronx and torch (or fails to resolve)."""
        dep = self.deps.get("optimum-neuron")
        row = self.pick(rows)
        if dep is None or dep.spec is None or not row.optimum_neuron:
            return
        source = "optimum-neuron tags (`neuronx` extra); TRN501"
        if row.optimum_neuron == "none":
            message = (
                f"no optimum-neuron release is built for {row.label}{self.by_pin} (0.4.x pins "
                "torch-neuronx 2.8.0): its trainers cannot run on this target; use "
                "transformers' Trainer, or a target whose torch-neuronx optimum-neuron pins"
            )
            self.report(dep, "DOC009", message, "", source)
            return
        loose = escape(dep.spec, [SpecifierSet(row.optimum_neuron)])
        if loose is None:
            return
        allows = f"optimum-neuron {loose}" if len(dep.spec) else "any optimum-neuron release"
        message = (
            f"`{dep.written}` allows {allows}, which is not built for {row.label}{self.by_pin}: "
            "pip would replace that torch-neuronx to satisfy it"
        )
        write = _render(dep, dep.as_named, row.optimum_neuron_pin)
        self.report(dep, "DOC009", message, write, source)

    def missing(self, torch: Dep | None, rows: list[Row]) -> None:
        """A GPU or CPU project (torch, no torch-neuronx): what the target needs added, each on
        the line of its torch requirement (or of torchvision/torchaudio without one)."""
        anchor = torch or self.deps.get("torchvision") or self.deps.get("torchaudio")
        if anchor is None:
            return
        row = self.pick(rows)
        source = row.source
        why = f"target {self.target.name} trains through {row.label}"
        add = _render(anchor, "torch-neuronx", row.neuronx_pin)
        self.report_add(anchor, "DOC001", f"no torch-neuronx: {why}", add, source)
        if torch is not None and torch.spec is not None and row.torch is not None:
            loose = escape(torch.spec, [row.torch])
            if loose is not None:
                allows = f"torch {loose}" if len(torch.spec) else "any torch release"
                message = (
                    f"`{torch.written}` allows {allows}, but {row.label} is built for torch "
                    f"{_plain(_spec(row.torch_pin))} alone"
                )
                write = _render(torch, torch.as_named, row.torch_pin)
                self.report(torch, "DOC002", message, write, source)
        if row.torch_xla is not None:
            message = f"no torch-xla: {row.label} uses torch-xla {_plain(row.torch_xla)}"
            write = _render(anchor, "torch-xla", _text(row.torch_xla))
            self.report_add(anchor, "DOC003", message, write, source)
        url = self.matrix.neuron_index
        if not any(url in index for index in self.env.indexes) and not (
            self.env.metadata and self.index_known
        ):
            message = (
                "no Neuron package index: torch-neuronx and neuronx-cc come from it (the PyPI "
                "torch-neuronx is a 2022 placeholder)"
            )
            self.report_add(
                anchor,
                "DOC005",
                message,
                _render_index(anchor, url),
                "[neuron-pt29]",
            )

    def report_add(self, dep: Dep, code: str, message: str, write: str, source: str) -> None:
        self.problems.append(
            Problem(dep.path, dep.line, code, f"{message}; add `{write}`", write, cite_urls(source))
        )

    def report(self, dep: Dep, code: str, message: str, write: str, source: str) -> None:
        action = f"write `{write}`" if write else "remove this line"
        self.problems.append(
            Problem(dep.path, dep.line, code, f"{message}; {action}", write, cite_urls(source))
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
        self.report(nx, "DOC001", message, write, row.source)

    def torch(self, torch: Dep, spec: SpecifierSet) -> list[Row]:
        """The rows whose torch the pin allows (all of them, after reporting, when none)."""
        fit = [r for r in self.rows if r.torch is not None and meets(spec, [r.torch])]
        if fit or not all(r.torch for r in self.rows):
            return fit or self.rows
        row = self.pick(self.rows)
        message = f"`{torch.written}`: {row.label}{self.by_pin} is built for torch {_plain(SpecifierSet(row.torch_pin))}"
        write = _render(torch, torch.as_named, row.torch_pin)
        self.report(torch, "DOC002", message, write, row.source)
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
            self.report(xla, "DOC004", message, write, "[xla-setup]")
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
        self.report(xla, "DOC003", message, write, row.source)

    def abi(self, xla: Dep, torch: Dep | None, rows: list[Row]) -> None:
        """Without torch-neuronx nothing else pins torch next to torch-xla ([xla-setup])."""
        row = self.pick(rows)
        if torch is None:
            message = f"`{xla.written}` without torch: {_ABI}"
            self.report(xla, "DOC004", message, _render(xla, "torch", row.torch_pin), "[xla-setup]")
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
            self.report(torch, "DOC004", message, write, "[xla-setup]")

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
            self.report(dep, "DOC006", message, write, "[neuron-pt29]")

    def python(self, rows: list[Row]) -> None:
        py = self.env.python
        supported = [r.python for r in rows if r.python]
        if py is None or py.spec is None or not supported or meets(py.spec, supported, PYTHONS):
            return
        row = self.pick(rows)
        message = f"`{py.written}` allows no Python that {row.label} ships wheels for ({_text(row.python)})"
        write = _render_python(py, _text(row.python))
        self.report(py, "DOC007", message, write, row.source)

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
        source = "[neuron-pt29]"
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
    stack_known = any(
        dep.name in ("torch-neuronx", "torch-xla")
        for _, envs in read
        for env in envs
        for dep in env.deps
    )
    seen: set[tuple[Path, int, str]] = set()
    for _, envs in read:
        for env in envs:
            for problem in check(env, target, index_known, stack_known):
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
