"""Benchmark on real code: trncodemod against its peers on the source of pinned PyPI packages.

    python benchmarks/real.py [--library-files 500] [-j 2] [--torchfix PATH] [--ruff PATH]
                              [--repos] [--tree NAME=DIR ...] [--no-wheels] [--before DIR]

Two sets of files nobody on this project wrote, fetched from PyPI alone (no other network):
* training scripts: the training scripts that accelerate ships in its wheel
  (``accelerate/test_utils/scripts``), plus this repository's ``examples/``;
* library code: a deterministic sample of the ``transformers`` wheel's modules.

In one run it times, as CPU seconds of the child processes (fairer than wall time on a shared
machine; worker processes are counted), `trncodemod check` cold and cached, LibCST parse-only,
``ast.parse``, and TorchFix and ruff when their executables are given or on PATH, and prints the
ratios issue 13 sets targets for. The wheels are downloaded once into ``--cache`` (default
``~/.cache/trncodemod-bench``) with ``pip download --no-deps``.

``--repos`` adds the training code of the 25 repositories of ``benchmarks/repos.toml``
(materialised from their mirrors as ``benchmarks/repos.py`` does) as one set, and
``--tree NAME=DIR`` any folder as a set of its own (the whole transformers tree, a package);
``--no-wheels`` leaves out the two wheel sets. ``--before DIR`` also times, in the same run, the
trncodemod whose source is in DIR (a ``git archive`` of an older commit; its ``transforms/`` is
put inside the package, as installed), cold. Each row gives the peak memory of the largest
process of the command too. ``--rounds N`` times every command N times, in turn, and gives each
row's least CPU seconds with the median: this shared machine's speed swings by up to 2× from
one run to the next, and other work only ever adds time.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PINS = ("transformers==4.57.1", "accelerate==1.15.0")
SCRIPTS_IN_WHEEL = "accelerate/test_utils/scripts/"

PARSE = """
import sys
import {module}
for path in sys.argv[1:]:
    with open(path, "rb") as handle:
        {call}
"""


def fetch(cache: Path) -> dict[str, Path]:
    """Each pinned wheel, extracted once under ``cache``; {package name: folder}."""
    folders = {}
    for pin in PINS:
        name = pin.split("==")[0]
        folder = cache / pin
        if not folder.is_dir():
            with tempfile.TemporaryDirectory() as download:
                subprocess.run(
                    [
                        sys.executable,
                        "-m",
                        "pip",
                        "download",
                        "-q",
                        "--no-deps",
                        "-d",
                        download,
                        pin,
                    ],
                    check=True,
                )
                (wheel,) = Path(download).glob("*.whl")
                partial = cache / f".{pin}.partial"
                shutil.rmtree(partial, ignore_errors=True)
                with zipfile.ZipFile(wheel) as archive:
                    archive.extractall(partial)
                partial.rename(folder)
        folders[name] = folder
    return folders


def corpus(folders: dict[str, Path], library_files: int, into: Path) -> dict[str, Path]:
    """Copy the two sets into ``into`` (so no cache or config of the packages interferes)."""
    sets = {"training": into / "training", "library": into / "library"}
    for folder in sets.values():
        folder.mkdir(parents=True)
    accelerate = folders["accelerate"]
    scripts = sorted(accelerate.glob(SCRIPTS_IN_WHEEL + "**/*.py"))
    for path in [*scripts, *sorted((ROOT / "examples").glob("*.py"))]:
        if path.name != "__init__.py":
            relative = path.relative_to(accelerate if path.is_relative_to(accelerate) else ROOT)
            (sets["training"] / "__".join(relative.parts)).write_bytes(path.read_bytes())
    modules = sorted(folders["transformers"].glob("transformers/**/*.py"))
    random.Random(13).shuffle(modules)
    for path in modules[:library_files]:
        relative = path.relative_to(folders["transformers"])
        (sets["library"] / "__".join(relative.parts)).write_bytes(path.read_bytes())
    return sets


# Wall seconds and peak memory (MiB) of the last command ``cpu_seconds`` timed.
LAST = {"wall": 0.0, "peak": 0.0}


def cpu_seconds(
    command: list[str], ok: tuple[int, ...] = (0,), env: dict[str, str] | None = None
) -> float:
    """User + system CPU seconds of ``command`` and every process it waited for; its wall time
    and the peak memory of its largest process go to ``LAST``."""
    started = time.perf_counter()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        process = subprocess.Popen(command, stdout=out, stderr=err, env=env)
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        stderr = err.read()
    LAST["wall"] = time.perf_counter() - started
    LAST["peak"] = usage.ru_maxrss / 1024  # the largest of the process and those it waited for
    if process.returncode not in ok:
        sys.exit(f"{command[0]} failed ({process.returncode}): {stderr.decode()[-2000:]}")
    return usage.ru_utime + usage.ru_stime


class Rows(dict):
    """Label -> CPU seconds; ``wall`` and ``peak`` of each label, as ``cpu_seconds`` left them."""

    def __init__(self) -> None:
        super().__init__()
        self.wall: dict[str, float] = {}
        self.peak: dict[str, float] = {}

    def __setitem__(self, label: str, seconds: float) -> None:
        super().__setitem__(label, seconds)
        self.wall[label], self.peak[label] = LAST["wall"], LAST["peak"]


def measure(files: list[Path], folder: Path, args: argparse.Namespace, tmp: Path) -> Rows:
    paths = [str(p) for p in files]
    python = sys.executable
    rows = Rows()
    rows["ast.parse"] = cpu_seconds(
        [python, "-c", PARSE.format(module="ast", call="ast.parse(handle.read())"), *paths]
    )
    rows["LibCST parse-only"] = cpu_seconds(
        [python, "-c", PARSE.format(module="libcst", call="libcst.parse_module(handle.read())")]
        + paths
    )
    # The floor of any tool that matches qualified names with LibCST (TorchFix, Fixit, this one).
    scopes = (
        "libcst.metadata.MetadataWrapper(libcst.parse_module(handle.read()), unsafe_skip_copy=True)"
        ".resolve(libcst.metadata.ScopeProvider)"
    )
    rows["LibCST parse + scopes"] = cpu_seconds(
        [python, "-c", PARSE.format(module="libcst.metadata", call=scopes), *paths]
    )
    tool = [python, "-m", "trncodemod", "check", "-j", str(args.jobs)]
    # Exit 1: findings were left (blockers among them); 2 would be a file it could not migrate.
    if args.before:
        env = {**os.environ, "PYTHONPATH": str(args.before)}
        rows["trncodemod check, cold, before"] = cpu_seconds(
            [*tool, "--no-cache", str(folder)], ok=(0, 1), env=env
        )
    rows["trncodemod check, cold"] = cpu_seconds([*tool, "--no-cache", str(folder)], ok=(0, 1))
    cache = ["--cache-dir", str(tmp / f"cache-{folder.name}")]
    cpu_seconds([*tool, *cache, str(folder)], ok=(0, 1))  # fills the cache
    rows["trncodemod check, cached"] = cpu_seconds([*tool, *cache, str(folder)], ok=(0, 1))
    if args.torchfix:
        # TorchFix exits 1 when it finds something.
        rows["TorchFix (all rules)"] = cpu_seconds(
            [args.torchfix, "--select", "ALL", str(folder)], ok=(0, 1)
        )
    if args.ruff:
        rows["ruff --select ALL"] = cpu_seconds(
            [args.ruff, "check", "--no-cache", "--select", "ALL", "--exit-zero", "-q", str(folder)]
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--library-files", type=int, default=500)
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--cache", type=Path, default=Path.home() / ".cache/trncodemod-bench")
    parser.add_argument("--torchfix", default=shutil.which("torchfix"))
    parser.add_argument("--ruff", default=shutil.which("ruff"))
    parser.add_argument("--repos", action="store_true", help="the repositories of repos.toml")
    parser.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    parser.add_argument("--tree", action="append", default=[], metavar="NAME=DIR")
    parser.add_argument("--no-wheels", action="store_true", help="leave out the wheel sets")
    parser.add_argument("--before", type=Path, help="the source of an older trncodemod")
    parser.add_argument(
        "--rounds", type=int, default=1, help="time every command this many times, in turn"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="trncodemod-real-") as tmp:
        if args.before:
            args.before = packaged(args.before, Path(tmp) / "before")
        compile_bytecode([ROOT / "trncodemod", ROOT / "transforms", args.before])
        sets: dict[str, Path] = {}
        if not args.no_wheels:
            args.cache.mkdir(parents=True, exist_ok=True)
            sets.update(corpus(fetch(args.cache), args.library_files, Path(tmp)))
        if args.repos:
            sets["repos"] = repos_corpus(args.mirrors, Path(tmp) / "repos")
        for tree in args.tree:
            name, _, folder = tree.partition("=")
            sets[name] = Path(folder).resolve()
        for name, folder in sets.items():
            files = sorted(folder.rglob("*.py"))
            lines = sum(p.read_bytes().count(b"\n") for p in files)
            print(f"\n{name}: {len(files)} files, {lines} lines, -j {args.jobs}", flush=True)
            rounds = [measure(files, folder, args, Path(tmp)) for _ in range(args.rounds)]
            rows = least(rounds)
            parse = rows["LibCST parse-only"]
            cold = rows["trncodemod check, cold"]
            for label, seconds in rows.items():
                spread = (
                    f"  (median {statistics.median(r[label] for r in rounds):.2f} s of "
                    f"{len(rounds)})"
                    if len(rounds) > 1
                    else ""
                )
                print(
                    f"  {label:31s} {seconds:8.2f} s CPU  {seconds / parse:6.2f}x LibCST parse  "
                    f"{rows.wall[label]:7.1f} s wall  {rows.peak[label]:5.0f} MiB{spread}"
                )
            if "TorchFix (all rules)" in rows:
                print(f"  TorchFix / trncodemod cold: {rows['TorchFix (all rules)'] / cold:.2f}x")
            if "trncodemod check, cold, before" in rows:
                before = rows["trncodemod check, cold, before"]
                print(f"  before / now, cold: {before / cold:.2f}x")
            print(f"  cached / cold: {rows['trncodemod check, cached'] / cold:.1%}", flush=True)


def compile_bytecode(folders: list[Path | None]) -> None:
    """Byte-compile the trncodemod sources timed, as pip does when it installs a package (its
    peers here were installed so). Where ``PYTHONDONTWRITEBYTECODE`` is set (this machine's
    shell sets it) Python writes no bytecode, and every run of an editable install or a source
    folder would compile its 150 modules again: 0.4 to 0.6 s CPU a start, measured, that no
    installed copy pays."""
    for folder in folders:
        if folder is not None:
            subprocess.run(
                [sys.executable, "-m", "compileall", "-q", str(folder)],
                check=True,
                stdout=subprocess.DEVNULL,
            )


def least(rounds: list[Rows]) -> Rows:
    """Each label's least CPU seconds over ``rounds`` (with that round's wall time and peak):
    other work on a shared machine only ever adds time, so the least is the fairest figure."""
    best = Rows()
    for label in rounds[0]:
        fastest = min(rounds, key=lambda r: r[label])
        LAST["wall"], LAST["peak"] = fastest.wall[label], fastest.peak[label]
        best[label] = fastest[label]
    return best


def packaged(source: Path, into: Path) -> Path:
    """``source`` (a `git archive` of trncodemod's ``trncodemod/`` and ``transforms/``) laid out
    as installed, ``transforms`` inside the package: on ``PYTHONPATH`` as it is, an editable
    install of the working tree would still give ``trncodemod.transforms`` from the working
    tree's ``transforms/`` folder, not the older one."""
    if not (source / "transforms").is_dir() or (source / "trncodemod" / "transforms").is_dir():
        return source
    shutil.copytree(source / "trncodemod", into / "trncodemod")
    shutil.copytree(source / "transforms", into / "trncodemod" / "transforms")
    return into


def repos_corpus(mirrors: Path, into: Path) -> Path:
    """The training code of every repository of ``repos.toml``, one folder each under ``into``
    (``benchmarks/repos.py`` materialises them)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import repos  # benchmarks/repos.py

    for repo in repos.load_repos():
        repos.materialise(repo, mirrors, into / repo.name)
    return into


if __name__ == "__main__":
    main()
