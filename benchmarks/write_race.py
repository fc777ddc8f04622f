"""Races a real editor process against ``write_atomic``: is a save ever lost?

    python benchmarks/write_race.py [--trials 2000] [--flush-ms 5]

Each trial writes a file, asks a separate writer process to save it (in place, as many editors
do, or by renaming a new file over it, as others do) after a random delay, and at once has
``write_atomic`` replace the file with migrated text. The flush to disk is slowed to
``--flush-ms`` (a real disk's fsync; on tmpfs it is free), so saves land before, during and
after the write. A save is **lost** when the file ends up holding the migrated text: the writer
always saves, so the migrated text was written over it. A refused write leaves the save.

What remains after the checks is the moment between the last check and the rename (``rename``
is not compare-and-swap): a few microseconds of each write.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from trncodemod.pipeline.writing import WriteError, write_atomic  # noqa: E402

OLD, NEW, SAVED = b"old = 1\n", b"new = 2\n", b"saved = 3\n"
HOWS = ("in place", "by rename")
WRITER = (
    "import os, sys, time\n"
    "for line in sys.stdin:\n"
    "    delay, how, path = line.rstrip('\\n').split(' ', 2)\n"
    "    time.sleep(float(delay))\n"
    "    if how == 'place':\n"
    "        with open(path, 'wb') as handle:\n"
    "            handle.write(SAVED)\n"
    "    else:\n"
    "        with open(path + '.swp', 'wb') as handle:\n"
    "            handle.write(SAVED)\n"
    "        os.replace(path + '.swp', path)\n"
    "    print('saved', flush=True)\n"
)


@dataclass
class Tally:
    trials: int = 0
    written: int = 0  # migrated text written, after the save (the save was then over it)
    refused: int = 0  # the save was seen and kept
    lost: int = 0  # migrated text written over the save


@contextmanager
def slow_flush(seconds: float) -> Iterator[None]:
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        time.sleep(seconds)
        real_fsync(fd)

    os.fsync = fsync
    try:
        yield
    finally:
        os.fsync = real_fsync


def race(trials: int, how: str, flush_s: float, folder: Path, seed: int = 0) -> Tally:
    """``trials`` writes, each raced by one save made ``how`` (one of HOWS)."""
    rng = random.Random(seed)
    writer = subprocess.Popen(
        [sys.executable, "-c", f"SAVED = {SAVED!r}\n{WRITER}"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert writer.stdin is not None and writer.stdout is not None
    path = folder / "train.py"
    tally = Tally()
    try:
        with slow_flush(flush_s):
            for _ in range(trials):
                path.write_bytes(OLD)
                delay = rng.uniform(0, 1.5 * flush_s)  # before, during and after the write
                writer.stdin.write(f"{delay} {how.split()[-1]} {path}\n")
                writer.stdin.flush()
                try:
                    write_atomic(path, NEW, OLD)
                    wrote = True
                except WriteError:
                    wrote = False
                writer.stdout.readline()  # the save is done
                tally.trials += 1
                lost = path.read_bytes() == NEW
                tally.lost += lost
                tally.written += wrote and not lost
                tally.refused += not wrote
    finally:
        writer.stdin.close()
        writer.wait(timeout=30)
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=2000)
    parser.add_argument("--flush-ms", type=float, default=5.0)
    args = parser.parse_args()
    for how in HOWS:
        with tempfile.TemporaryDirectory() as folder:
            start = time.perf_counter()
            tally = race(args.trials, how, args.flush_ms / 1000, Path(folder))
            took = time.perf_counter() - start
        print(
            f"save {how:<9}: {tally.lost} lost of {tally.trials} "
            f"({tally.refused} refused and kept, {tally.written} saved after the write), "
            f"{took:.1f} s"
        )


if __name__ == "__main__":
    main()
