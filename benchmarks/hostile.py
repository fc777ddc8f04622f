"""Benchmark: what a hostile file or a killed run costs (issue 27), in one run.

    python benchmarks/hostile.py [--memory-limit-gib 3] [--timeout 300] [--probes]

``--probes`` also runs the probes of what people write and a hostile repository plants
(``hostile_inputs.py``: notebooks, the cache, the fleet report, doctor, names; and
``hostile_writes.py``: containment, git, processes, campaign folders), each pass or fail, and
exits 1 when any fails.

Each case runs `trncodemod apply --dry-run --no-cache` in a subprocess under an address-space limit
(so that a regression fails the case instead of taking the machine) and prints its wall time, the
peak memory of its largest process (the run or a worker: ``ru_maxrss`` of the children), its exit
status and the message it gave. Then it times Ctrl-C on a run reading a large file without PyTorch,
and counts the processes left 2 s after the parent of `apply -j 2` is killed (SIGKILL, SIGTERM).
Targets: each case under 5 s and 500 MB; Ctrl-C within 1 s; no process left.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = (ROOT / "examples" / "cnn_mnist.py").read_bytes()
TWENTY_MB = 20_000_000


def torch_file(size: int) -> bytes:
    """Generated code that imports torch: a data table of ``size`` bytes."""
    row = b"    (1, 2.5, 'row'),\n"
    return b"import torch\n\nTABLE = [\n" + row * (size // len(row)) + b"]\n"


def table_file(size: int) -> bytes:
    row = b"    (1, 2.5, 'row'),\n"
    return b"TABLE = [\n" + row * (size // len(row)) + b"]\n"


def deep_file(levels: int) -> bytes:
    return b"import torch\n\nf = " + b"lambda: " * levels + b"0\n"


def repeated_file(lines: int, repeated: int) -> bytes:
    """``lines`` lines, ``repeated`` of them the same line (what makes a line diff slow), and
    one line the passes rewrite."""
    distinct = lines - repeated - 2
    body = [b"x%d = %d\n" % (i, i) for i in range(distinct)]
    step = max(1, distinct // repeated)
    for index in range(repeated):
        body.insert(index * (step + 1), b"y = 0\n")
    return b"import torch\nmodel = torch.nn.Linear(4, 2).cuda()\n" + b"".join(body)


CASES = {
    "start-up: a 3-line file": lambda: b"import torch\n\nmodel = torch.nn.Linear(4, 2).cuda()\n",
    "20 MB with torch": lambda: torch_file(TWENTY_MB),
    "20 MB without torch": lambda: table_file(TWENTY_MB),
    "5,000 nested lambda:": lambda: deep_file(5000),
    "60,000 lines, 20,000 repeated": lambda: repeated_file(60_000, 20_000),
}


def measure(command: list[str], cwd: Path, limit_gib: float, timeout: float) -> dict:
    """Run ``command`` in a child process of its own and report on it (see ``--one``)."""
    probe = [sys.executable, __file__, "--one", str(limit_gib), "--timeout", str(timeout)]
    probe += ["--", *command]
    result = subprocess.run(probe, capture_output=True, text=True, cwd=cwd)
    return json.loads(result.stdout)


def one(command: list[str], limit_gib: float, timeout: float) -> None:
    def limit() -> None:
        size = int(limit_gib * (1 << 30))
        resource.setrlimit(resource.RLIMIT_AS, (size, size))

    start = time.perf_counter()
    try:
        result = subprocess.run(
            command, capture_output=True, text=True, preexec_fn=limit, timeout=timeout
        )
    except subprocess.TimeoutExpired:
        result = subprocess.CompletedProcess(command, "timeout", "", f"stopped after {timeout} s")
    elapsed = time.perf_counter() - start
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    peak = usage.ru_maxrss / 1024  # KiB on Linux
    lines = [line for line in result.stderr.splitlines() if "[error]" in line or "error" in line]
    print(
        json.dumps(
            {
                "seconds": round(elapsed, 2),
                "cpu": round(usage.ru_utime + usage.ru_stime, 2),
                "peak_mib": round(peak),
                "exit": result.returncode,
                "message": (lines or result.stderr.splitlines()[-1:] or [""])[0][:160],
            }
        )
    )


def trncodemod(*args: str) -> list[str]:
    return [sys.executable, "-m", "trncodemod", "apply", "--dry-run", "--no-cache", *args]


def interrupt_latency(folder: Path) -> tuple[float, int]:
    """Seconds from Ctrl-C to the end of a run (-j 1) on 30 files of 20 MB without PyTorch (links
    to one file), sent while it reads them, and its exit status (130: it was interrupted)."""
    (folder / "table0.py").write_bytes(table_file(TWENTY_MB))
    for index in range(1, 30):
        os.link(folder / "table0.py", folder / f"table{index}.py")
    run = subprocess.Popen(
        trncodemod("-j", "1", "."),
        cwd=folder,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    # Once it has read two of the files (start-up reads a few MB of modules): it is scanning.
    io = Path(f"/proc/{run.pid}/io")
    while run.poll() is None and _read_bytes(io) < 2 * TWENTY_MB:
        time.sleep(0.01)
    sent = time.perf_counter()
    run.send_signal(signal.SIGINT)
    status = run.wait()
    return time.perf_counter() - sent, status


def _read_bytes(io: Path) -> int:
    try:
        return int(io.read_text().split("rchar:")[1].split()[0])
    except (OSError, IndexError):
        return 0


def processes_in_group(group: int) -> int:
    count = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        count += int(fields[2]) == group and fields[0] != "Z"
    return count


def orphans_after_kill(folder: Path, sig: signal.Signals) -> int:
    """Processes left of `apply -j 2` 2 s after its parent gets ``sig``."""
    for index in range(40):
        (folder / f"train{index}.py").write_bytes(EXAMPLE + b"# %d\n" % index)
    run = subprocess.Popen(
        trncodemod("-j", "2", "."),
        cwd=folder,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    while processes_in_group(run.pid) < 3 and time.monotonic() < deadline:
        time.sleep(0.05)
    run.send_signal(sig)
    run.wait()
    time.sleep(2)
    left = processes_in_group(run.pid)
    if left:
        os.killpg(run.pid, signal.SIGKILL)
    return left


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memory-limit-gib", type=float, default=3.0)
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds a case may take")
    parser.add_argument("--one", type=float, help=argparse.SUPPRESS)
    parser.add_argument("command", nargs="*", help=argparse.SUPPRESS)
    parser.add_argument("--probes", action="store_true", help="also run every pass/fail probe")
    args = parser.parse_args()
    if args.one is not None:
        one(args.command, args.one, args.timeout)
        return
    failed = 0
    if args.probes:
        for script in ("hostile_inputs.py", "hostile_writes.py"):
            print(f"\n## {script}\n", flush=True)
            failed += (
                subprocess.run([sys.executable, str(Path(__file__).with_name(script))]).returncode
                != 0
            )
    print("| case | time (CPU) | peak memory | exit | message |")
    print("|---|---|---|---|---|")
    for name, make in CASES.items():
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            (folder / "case.py").write_bytes(make())
            command = trncodemod("-j", "1", "case.py")
            got = measure(command, folder, args.memory_limit_gib, args.timeout)
        print(
            f"| {name} | {got['seconds']} s ({got['cpu']} s) | {got['peak_mib']} MiB | {got['exit']} "
            f"| {got['message']} |",
            flush=True,
        )
    with tempfile.TemporaryDirectory() as tmp:
        latency, status = interrupt_latency(Path(tmp))
    print(f"\nCtrl-C to exit: {latency:.2f} s (exit {status})", flush=True)
    for sig in (signal.SIGKILL, signal.SIGTERM):
        with tempfile.TemporaryDirectory() as tmp:
            left = orphans_after_kill(Path(tmp), sig)
        print(f"processes left 2 s after {sig.name} to `apply -j 2`: {left}", flush=True)
    if failed:
        sys.exit(1)


if __name__ == "__main__":
    main()
