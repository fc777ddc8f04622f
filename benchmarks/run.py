"""Benchmark: `trncodemod apply --dry-run` against a LibCST parse-only baseline on the same files.

    python benchmarks/run.py [--files 3000] [--training-share 0.1] [--scripts 30] [-j 2]

Prints files/s for each measurement and the ratios the README reports. The baseline parses every
file with `libcst.parse_module` in one process: the floor for any LibCST-based tool. A second
baseline also resolves LibCST's scope analysis on the training files: the floor for any tool that
matches qualified names (`torch.cuda.amp.autocast` however it was imported).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import libcst as cst
from libcst.metadata import MetadataWrapper, ScopeProvider

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus import ROOT, generate  # noqa: E402

EXAMPLES = sorted((ROOT / "examples").glob("*.py"))


def parse_all(files: list[Path], scopes: bool = False) -> float:
    """Seconds to parse ``files`` with LibCST in one process; with ``scopes``, also to resolve the
    scope analysis that any tool matching qualified names needs (TorchFix, Fixit and ours)."""
    start = time.perf_counter()
    for path in files:
        module = cst.parse_module(path.read_bytes())
        if scopes:
            MetadataWrapper(module, unsafe_skip_copy=True).resolve(ScopeProvider)
    return time.perf_counter() - start


def tool(folder: Path, jobs: int, *extra: str) -> tuple[float, int]:
    command = [
        sys.executable,
        "-m",
        "trncodemod",
        "apply",
        "--dry-run",
        "--exit-zero",
        "-j",
        str(jobs),
        *extra,
        str(folder),
    ]
    start = time.perf_counter()
    result = subprocess.run(command, capture_output=True)
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        sys.exit(f"trncodemod failed ({result.returncode}): {result.stderr.decode()[-2000:]}")
    return elapsed, len(result.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=3000)
    parser.add_argument("--training-share", type=float, default=0.1)
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--scripts", type=int, default=30, help="full-size training scripts")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="trncodemod-bench-") as tmp:
        mixed = Path(tmp) / "mixed"
        counts = generate(mixed, args.files, args.training_share)
        files = sorted(mixed.rglob("*.py"))
        training = [p for p in files if p.name.startswith("training_")]
        lines = sum(p.read_bytes().count(b"\n") for p in files)
        print(f"corpus: {len(files)} files, {lines} lines ({counts}); {args.jobs} jobs")

        base_all = parse_all(files)
        base_train = parse_all(training)
        scoped_train = parse_all(training, scopes=True)
        run_all, patch_bytes = tool(mixed, args.jobs, "--no-cache")
        only_train = Path(tmp) / "training"
        only_train.mkdir()
        for path in training:
            (only_train / path.name).write_bytes(path.read_bytes())
        run_train, _ = tool(only_train, args.jobs, "--no-cache")
        # Full-size scripts: most generated training files are short golden inputs (about 20
        # lines), which flatters files/s; these are the examples (140-170 lines), renamed apart.
        scripts = Path(tmp) / "scripts"
        scripts.mkdir()
        for index in range(args.scripts):
            example = EXAMPLES[index % len(EXAMPLES)]
            (scripts / f"script_{index}.py").write_text(
                f"# copy {index}\n{example.read_text('utf-8')}", "utf-8"
            )
        full = sorted(scripts.glob("*.py"))
        base_full, scoped_full = parse_all(full), parse_all(full, scopes=True)
        run_full, _ = tool(scripts, args.jobs, "--no-cache")
        cache = ("--cache-dir", str(Path(tmp) / "cache"))  # empty: the first run is cold
        cold, _ = tool(mixed, args.jobs, *cache)
        warm, _ = tool(mixed, args.jobs, *cache)

        def rate(n: int, seconds: float) -> str:
            return f"{n / seconds:8.1f} files/s ({seconds:6.2f} s)"

        print(f"LibCST parse-only, every file      {rate(len(files), base_all)}")
        print(
            f"trncodemod --dry-run, mixed tree   {rate(len(files), run_all)}  patch {patch_bytes} B"
        )
        print(f"LibCST parse-only, training files  {rate(len(training), base_train)}")
        print(f"LibCST parse + scopes, training    {rate(len(training), scoped_train)}")
        print(f"trncodemod --dry-run, training     {rate(len(training), run_train)}")
        print(f"LibCST parse-only, full scripts    {rate(len(full), base_full)}")
        print(f"LibCST parse + scopes, full scripts{rate(len(full), scoped_full)}")
        print(f"trncodemod --dry-run, full scripts {rate(len(full), run_full)}")
        print(f"cache: first run {cold:.2f} s, second run {warm:.2f} s")
        print(
            f"ratio mixed tree throughput (tool / parse-only): {base_all / run_all:.1f}x  [target >= 10x]"
        )
        print(
            f"ratio training time (tool / parse-only):         {run_train / base_train:.2f}x [target <= 1.5x]"
        )
        print(
            f"ratio training time (tool / parse + scopes):      {run_train / scoped_train:.2f}x "
            "[the floor for any tool that resolves names]"
        )
        print(
            f"ratio full-script time (tool / parse-only):      {run_full / base_full:.2f}x; "
            f"(tool / parse + scopes): {run_full / scoped_full:.2f}x"
        )
        print(f"ratio cached second run / first run:             {warm / cold:.1%} [target < 5%]")
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        print(f"peak memory of one trncodemod process: {peak:.0f} MiB")


if __name__ == "__main__":
    main()
