"""Reading the program: every given module's summary (from the cache, or its ``ast``), the
launch lines and console scripts around them, then ``analysis.program.build_program``. Runs
once per run in the parent process, before any file is migrated; each file's worker gets its
module's view only."""

from __future__ import annotations

import contextlib
import os
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from pathlib import Path, PurePosixPath

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from trncodemod.analysis import config_files
from trncodemod.analysis.device_facts import facts_for
from trncodemod.analysis.evaluate import launch_decisions
from trncodemod.analysis.program import (
    ModuleSummary,
    ModuleView,
    Program,
    build_program,
    summarize,
)
from trncodemod.pipeline.cache import ResultCache
from trncodemod.pipeline.files import open_regular, read_open, read_regular
from trncodemod.pipeline.source import SourceError, decode_source

# `python train.py`, `python -m torch.distributed.run ... x.py`, `torchrun --nproc_per_node=8
# x.py`, `accelerate launch x.py`, `deepspeed x.py`, `uv run x.py`: the script is the first
# `.py` word after.
_LAUNCH = re.compile(
    r"\b(?:python[0-9.]*|torchrun|accelerate\s+launch|deepspeed|uv\s+run)\b[^\n|;&]*?([\w./-]+\.py)\b"
)
_LAUNCH_FILES = ("Makefile", "makefile", "GNUmakefile")
_LAUNCH_SUFFIXES = (".sh", ".bash", ".md", ".rst", ".txt", ".mk")


def program_views(
    paths: Sequence[Path], displays: Sequence[str], cache: ResultCache | None, target: str = ""
) -> dict[str, ModuleView]:
    """Each given module's view of the program, by display path (only where there is a
    program: two modules or more), with the flags the launch decides as the program's run on
    ``target`` reads them."""
    modules = [(p, d) for p, d in zip(paths, displays, strict=True) if p.suffix == ".py"]
    if len(modules) < 2:
        return {}
    summaries: dict[str, ModuleSummary] = {}
    texts: dict[str, str] = {}  # what the program's run reads: each module read once
    for path, display in modules:
        try:
            raw = read_regular(path)
        except OSError:
            continue  # the file's own migration reports it
        summary = _summary(raw, cache)
        if summary is not None:
            summaries[display] = summary
            with contextlib.suppress(SourceError):
                texts[display] = decode_source(raw).text
    folders = {PurePosixPath(d).parent: p.parent for p, d in modules}
    launched, scripts = _launches(folders, set(summaries))
    program = build_program(summaries, [path for path, _ in launched], scripts, launched)
    views = program.views
    for path, packaging in _published(folders, program).items():
        if path in views:
            views[path] = replace(views[path], published=packaging)
    facts = facts_for("neuron" if target == "neuron" else "xla")
    found = launch_decisions(
        texts, facts, launched, scripts, config_reader(zip(paths, displays, strict=True))
    )
    for path, view in views.items():
        if view.off_device and path in found.needs_cuda:
            # Every run of the program that runs the module moves a model or a tensor to CUDA
            # as written: on the target's host the original does not run, so the port is
            # applied and the op that stops it on the device stays a blocker (TRN028/TRN029).
            view = views[path] = replace(view, off_device=())
        flags, checks = found.flags.get(path, {}), found.checks.get(path, frozenset())
        literals = found.literals.get(path, frozenset())
        seeds = frozenset(
            int(where.rpartition(":")[2])
            for where in found.seeds
            if where.rpartition(":")[0] == path
        )
        stale = found.stale_optimizers.get(path, frozenset())
        if flags or checks or literals or found.options_saved or seeds or stale:
            views[path] = replace(
                view,
                launch_flags=flags,
                deciding_checks=checks,
                stale_optimizers=stale,
                device_literals=literals,
                options_saved=found.options_saved,
                training_seeds=seeds,
            )
    return views


def config_reader(files: Iterable[tuple[Path, str]]) -> Callable[[str], str | None]:
    """A reader of the repository's configuration files by their path in it (the paths the
    findings use): the text of a small `.json`/`.yaml`/`.yml` file inside the one folder the
    given files (real path, path in the repository) are under (and an absl flag file:
    `.txt`, `.cfg`, `.flags`), never one a link or `..` leads out of it; None otherwise."""
    roots = set()
    for path, display in files:
        parts = PurePosixPath(display).parts
        real = path.absolute()
        if parts and ".." not in parts and len(real.parents) >= len(parts):
            if real.parts[-len(parts) :] == parts:  # the display is the path under the root
                roots.add(real.parents[len(parts) - 1])
    root = next(iter(roots)) if len(roots) == 1 else None

    def read(path: str) -> str | None:
        suffixes = config_files.SUFFIXES + config_files.FLAG_FILE_SUFFIXES
        if root is None or not path.endswith(suffixes) or ".." in path.split("/"):
            return None
        try:
            real = (root / path).resolve()
            if not real.is_relative_to(root.resolve()):
                return None
            fd = open_regular(real)  # never blocks; a FIFO or device is refused
        except (OSError, ValueError):
            return None
        try:
            if os.fstat(fd).st_size > config_files.MAX_BYTES:
                return None
            return read_open(fd).decode("utf-8")
        except (OSError, UnicodeDecodeError):
            return None
        finally:
            os.close(fd)

    return read


def _summary(raw: bytes, cache: ResultCache | None) -> ModuleSummary | None:
    if cache is not None:
        data = cache.get_summary(raw)
        if data is not None:
            with contextlib.suppress(KeyError, TypeError, ValueError):  # an older layout
                return ModuleSummary.from_json(data)
    try:
        text = decode_source(raw).text
    except SourceError:
        return None
    summary = summarize(text)
    if summary is not None and cache is not None:
        cache.put_summary(raw, summary.to_json())
    return summary


def _launches(
    folders: dict[PurePosixPath, Path], modules: set[str]
) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """Scripts named on launch lines, each with its line ("README.md: python main.py --cuda"),
    and console scripts, in the files beside the modules."""
    launched: list[tuple[str, str]] = []
    scripts: list[tuple[str, str]] = []
    for shown, folder in sorted(_with_ancestors(folders).items()):
        try:
            entries = sorted(folder.iterdir())
        except OSError:
            continue
        for entry in entries:
            name = entry.name
            if name == "pyproject.toml":
                scripts += _console_scripts(entry)
            elif (
                name in _LAUNCH_FILES
                or name.startswith("README")
                or name.endswith(_LAUNCH_SUFFIXES)
            ):
                launched += _launched(entry, shown, modules)
    return launched, scripts


def _published(folders: dict[PurePosixPath, Path], program: Program) -> dict[str, str]:
    """The modules of a package the repository publishes, each with what publishes it
    ("`x_transformers` (published by pyproject.toml)"): the package is a folder with an
    `__init__.py` beside a packaging file that declares a distribution (``_declares``); its
    modules are those its users import, every one but a script in it (``_script``:
    `pygcn/train.py`, launched as `python train.py`, which no `__init__.py` imports), and every given
    module that importing the package loads, at any depth (`spinup/__init__.py` imports its
    algorithms, entry points too)."""
    found: dict[str, str] = {}
    for shown, folder in sorted(_with_ancestors(folders).items()):
        packaging = next(
            (name for name in _PACKAGING if _declares(name, _read_small(folder / name))), None
        )
        if packaging is None:
            continue
        where = (shown / packaging).as_posix().removeprefix("./")
        for init in sorted(program.imports):
            package = PurePosixPath(init)
            if package.name != "__init__.py" or package.parent.parent != shown:
                continue
            if package.parent.name in _NOT_SHIPPED:
                continue
            what = f"`{package.parent.name}` (published by {where})"
            inside = f"{package.parent.as_posix()}/"
            for path in program.imports:
                if path.startswith(inside) and not _script(program, path):
                    found.setdefault(path, what)
            pending = [init]
            loaded: set[str] = set()
            while pending:
                path = pending.pop()
                if path not in loaded:
                    loaded.add(path)
                    found.setdefault(path, what)
                    pending += sorted(program.imports.get(path, ()))
    return {path: what for path, what in found.items() if path not in program.tests}


def _script(program: Program, path: str) -> bool:
    """Whether the module is a script: an entry point that a launch line runs or that reaches
    a training step (a library module's `__main__` smoke test is neither)."""
    if path not in program.entry_points:
        return False
    return bool(program.view(path).launch_lines or program.steps_of(path))


_PACKAGING = ("pyproject.toml", "setup.py", "setup.cfg")
# Top-level packages beside a packaging file that a distribution does not ship as a library.
_NOT_SHIPPED = frozenset({"tests", "test", "examples", "example", "docs", "scripts", "benchmarks"})


def _declares(name: str, text: str) -> bool:
    """Whether a packaging file's text declares a distribution: a `[project]` or
    `[tool.poetry]` table, a `setup(` call, a `[metadata]` section."""
    if not text:
        return False
    if name == "pyproject.toml":
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError:
            return False
        return "project" in data or "poetry" in data.get("tool", {})
    if name == "setup.py":
        return re.search(r"\bsetup\s*\(", text) is not None
    return re.search(r"^\[metadata\]", text, re.MULTILINE) is not None


def _with_ancestors(folders: dict[PurePosixPath, Path]) -> dict[PurePosixPath, Path]:
    """``folders`` and the folders above them, up to the folder the tool runs in where each is
    under it (shown relative, with no `..`), else up to the deepest folder that holds them all:
    a README above its scripts (`examples/NLG/README.md` launching `src/gpt2_ft.py`) launches
    them too. Nothing above those folders is read."""
    inside = all(not shown.is_absolute() and ".." not in shown.parts for shown in folders)
    common = 0
    if not inside:
        parts = [shown.parts for shown in folders]
        while all(len(p) > common for p in parts) and len({p[common] for p in parts}) == 1:
            common += 1
    every = dict(folders)
    for shown, folder in folders.items():
        while len(shown.parts) > common:
            shown, folder = shown.parent, folder.parent
            every.setdefault(shown, folder)
    return every


def _read_small(path: Path) -> str:
    try:
        if not path.is_file() or path.stat().st_size > 1_000_000:
            return ""
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def _launched(path: Path, shown: PurePosixPath, modules: set[str]) -> list[tuple[str, str]]:
    found = []
    # A command continued on the next line, in a file with LF or CRLF line ends (a backslash
    # with spaces after it, as documentation often has, is meant as one too).
    text = _CONTINUED.sub(" ", _read_small(path))
    for match in _LAUNCH.finditer(text):
        script = match.group(1)
        beside = (shown / script).as_posix().removeprefix("./")
        candidates = [beside] if beside in modules else []
        # Elsewhere, only a script under the launching file's folder: word_language_model's
        # README `python main.py` is not dcgan's main.py.
        under = "" if str(shown) in ("", ".") else f"{shown.as_posix()}/"
        candidates += sorted(
            m for m in modules if (m == script or m.endswith("/" + script)) and m.startswith(under)
        )
        if len(candidates) == 1 or candidates and candidates[0] == beside:
            # (`python main.py` in a README above several `main.py`: which one is not said)
            rest = _LINE_END.split(text[match.start() :], maxsplit=1)[0]
            if _HELP.intersection(rest.split()):
                continue  # `python main.py -h` asks for the options: it runs no training
            found.append((candidates[0], f"{path.name}: {' '.join(rest.split())}"))
    return found


_HELP = frozenset({"-h", "--help"})
# Where a launch line's command ends: the line, a pipe, `;` or `&`, or the backtick that ends
# a Markdown code span (`python main.py --help` in a sentence).
_LINE_END = re.compile(r"[\n|;&`]")
_CONTINUED = re.compile(r"\\[ \t]*\r?\n")


def _console_scripts(path: Path) -> list[tuple[str, str]]:
    try:
        data = tomllib.loads(_read_small(path))
    except tomllib.TOMLDecodeError:
        return []
    table = data.get("project", {}).get("scripts", {})
    found = []
    for value in table.values() if isinstance(table, dict) else ():
        if isinstance(value, str) and ":" in value:
            module, _, function = value.partition(":")
            found.append((module.strip(), function.strip().split(".", 1)[0]))
    return found
