"""Times `apply --dry-run` on files built to make a line diff quadratic: many identical lines.

    python benchmarks/hostile_patch.py [--lines 5000 20000]

Two inputs per size: ``examples/cnn_mnist.py`` with N identical comment lines between its
imports and its model (so the rewrites land on both sides of them), and a notebook whose code
cell needs a rewrite and whose output holds N identical lines. Each row is the wall and CPU time
of a whole run (migration, patch built and checked), one worker, no cache; a line diff that is
quadratic in repeated lines takes minutes at 20,000.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "examples" / "cnn_mnist.py"
REPEATED = "# padding padding padding\n"


def repeated_lines_script(count: int) -> bytes:
    """The example training script with ``count`` identical comment lines after its imports."""
    text = SCRIPT.read_text("utf-8")
    at = text.index("\nclass Net")
    return (text[:at] + "\n" + REPEATED * count + text[at:]).encode("utf-8")


def repeated_outputs_notebook(count: int) -> bytes:
    """A notebook with one code cell to rewrite, whose output is ``count`` identical lines (each
    its own JSON line, as Jupyter writes a stream output)."""
    code = "import torch\nmodel = torch.nn.Linear(2, 2).cuda()\nx = torch.ones(2).cuda()\n"
    notebook = {
        "cells": [
            {
                "cell_type": "code",
                "execution_count": 1,
                "metadata": {},
                "outputs": [
                    {"name": "stdout", "output_type": "stream", "text": ["loss 0.5\n"] * count}
                ],
                "source": code.splitlines(keepends=True),
            },
            {
                "cell_type": "code",
                "execution_count": 2,
                "metadata": {},
                "outputs": [],
                "source": ["y = torch.zeros(2).cuda()\n"],
            },
        ],
        "metadata": {},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    return (json.dumps(notebook, indent=1) + "\n").encode("utf-8")


def time_apply(path: Path) -> tuple[float, float]:
    """Wall and CPU seconds of one `trncodemod apply --dry-run` on ``path`` (exit 1: changes).
    The CPU time is the figure to compare on a shared machine."""
    cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-m", "trncodemod", "apply", "--dry-run", "--no-cache", "-j", "1"]
        + [str(path)],
        capture_output=True,
        cwd=path.parent,
    )
    elapsed = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    used = after.ru_utime + after.ru_stime - cpu.ru_utime - cpu.ru_stime
    if result.returncode != 1 or not result.stdout.startswith(b"--- a/"):
        raise RuntimeError(f"{path.name}: exit {result.returncode}: {result.stderr.decode()}")
    return elapsed, used


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, nargs="+", default=[5000, 20000])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for count in args.lines:
            for name, build in (
                ("train.py", repeated_lines_script),
                ("train.ipynb", repeated_outputs_notebook),
            ):
                path = Path(folder) / name
                path.write_bytes(build(count))
                wall, cpu = time_apply(path)
                print(f"{name:12} {count:>7} repeated lines  {wall:7.2f} s  ({cpu:.2f} s CPU)")


if __name__ == "__main__":
    main()
