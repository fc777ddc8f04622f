"""Scale figures for ``trncodemod campaign run``: repositories per minute on 1 and 2 cores, and
the overhead over running ``trncodemod pr`` in each repository by hand.

``python benchmarks/campaign.py [--repos 20] [--engines local,ray] [--cores 1,2]`` makes N local
git repositories, each an example script (``examples/``) with two golden inputs beside it, then
times, in one run: ``pr`` alone in a fresh clone of each repository, one after another (what a
person with a shell loop would do on one core), and the campaign with each engine and core
count, each into a fresh results folder (nothing up to date). Ray's start is part of its time.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from trncodemod.campaign.spec import load_spec

ROOT = Path(__file__).resolve().parent.parent
TOOL = [sys.executable, "-m", "trncodemod"]
IDENTITY = {**os.environ, **{f"GIT_{who}_{what}": value for who in ("AUTHOR", "COMMITTER")
            for what, value in (("NAME", "b"), ("EMAIL", "b@example.com"))}}  # fmt: skip


def git(*args: str, cwd: Path) -> None:
    subprocess.run(
        ["git", "-c", "user.name=b", "-c", "user.email=b@example.com", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
    )


def make_fleet(root: Path, count: int) -> Path:
    examples = sorted((ROOT / "examples").glob("*.py"))
    golden = sorted((ROOT / "golden").glob("*/*.in.py"))
    entries = []
    for index in range(count):
        repo = root / "repos" / f"repo{index:03d}"
        (repo / "lib").mkdir(parents=True)
        shutil.copy(examples[index % len(examples)], repo / "train.py")
        for k in range(2):
            source = golden[(2 * index + k) % len(golden)]
            shutil.copy(source, repo / "lib" / f"{source.parent.name}_{source.stem[:-3]}.py")
        git("init", "-q", "-b", "main", cwd=repo)
        git("add", ".", cwd=repo)
        git("commit", "-qm", "initial", cwd=repo)
        entries.append(f'[[repos]]\nname = "{repo.name}"\nurl = "{repo}"\n')
    spec = root / "spec.toml"
    spec.write_text("[defaults]\ntimeout = 1800\n\n" + "\n".join(entries))
    return spec


def time_pr_alone(root: Path, count: int) -> float:
    """``trncodemod pr .`` in a fresh clone of each repository, one after another."""
    total = 0.0
    for index in range(count):
        clone = root / "pr" / f"repo{index:03d}"
        git("clone", "-q", str(root / "repos" / clone.name), str(clone), cwd=root)
        started = time.perf_counter()
        subprocess.run([*TOOL, "pr", "."], cwd=clone, capture_output=True, env=IDENTITY)
        total += time.perf_counter() - started
    return total


def time_campaign(spec: Path, out: Path, engine: str, cores: int) -> tuple[float, dict]:
    started = time.perf_counter()
    run = subprocess.run(
        [*TOOL, "campaign", "run", str(spec), "--out", str(out), "--engine", engine,
         "--cpus", str(cores)],
        capture_output=True, text=True,
    )  # fmt: skip
    elapsed = time.perf_counter() - started
    statuses: dict[str, int] = {}
    tasks = 0.0
    for path in out.glob("*/result.json"):
        result = json.loads(path.read_text())
        statuses[result["status"]] = statuses.get(result["status"], 0) + 1
        tasks += result.get("timings", {}).get("task", 0.0)
    if sum(statuses.values()) != len(load_spec(spec)):
        raise SystemExit(f"campaign failed ({engine}, {cores} cores): {run.stderr[-2000:]}")
    return elapsed, {"statuses": statuses, "task_seconds": tasks}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repos", type=int, default=20)
    parser.add_argument("--engines", default="local,ray")
    parser.add_argument("--cores", default="1,2")
    args = parser.parse_args()
    engines = [e for e in args.engines.split(",") if e != "ray" or importlib.util.find_spec("ray")]
    cores = [int(c) for c in args.cores.split(",")]
    with tempfile.TemporaryDirectory(prefix="trncodemod-campaign-bench-") as tmp:
        root = Path(tmp)
        spec = make_fleet(root, args.repos)
        lines = Path(root / "repos").rglob("*.py")
        print(f"{args.repos} repositories, {sum(len(p.read_text().splitlines()) for p in lines)} "
              f"lines of Python; {os.cpu_count()} cores on this machine")  # fmt: skip
        alone = time_pr_alone(root, args.repos)
        print("| run | cores | time | repositories/min | vs pr alone | statuses |")
        print("|---|---|---|---|---|---|")
        print(f"| `pr` in each repository, one after another | 1 | {alone:.1f} s | "
              f"{60 * args.repos / alone:.1f} | 1.00× | |")  # fmt: skip
        for engine in engines:
            for count in cores:
                out = root / f"out-{engine}-{count}"
                elapsed, detail = time_campaign(spec, out, engine, count)
                print(f"| campaign, {engine} | {count} | {elapsed:.1f} s | "
                      f"{60 * args.repos / elapsed:.1f} | {elapsed / alone:.2f}× | "
                      f"{detail['statuses']} |", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
