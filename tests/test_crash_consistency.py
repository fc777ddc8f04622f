"""A run killed at any moment leaves every file either exactly as it was or exactly migrated.

`apply` is started on 300 GPU training scripts and SIGKILLed once the first files are written.
A warm result cache makes the run reach its write phase at once, and a wrapper makes each
``fsync`` take 10 ms, so the kill lands in the middle of the writes on any machine.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

from trncodemod.pipeline.files import discover

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = sorted((ROOT / "examples").glob("*.py"))
COPIES = 300
SLOW_FSYNC = (
    "import os, sys, time\n"
    "real_fsync = os.fsync\n"
    "def slow_fsync(fd):\n"
    "    time.sleep(0.01)\n"
    "    real_fsync(fd)\n"
    "os.fsync = slow_fsync\n"
    "from trncodemod.cli import main\n"
    "sys.argv[0] = 'trncodemod'\n"
    "main()\n"
)
TEMPORARY = re.compile(r"^\.(?P<name>.+\.py)\.(?P<pid>[0-9]+)\.[A-Za-z0-9_]+\.trncodemod$")


def apply(folder: Path, cache: Path, *, slow: bool = False) -> subprocess.Popen[bytes]:
    head = [sys.executable, "-c", SLOW_FSYNC] if slow else [sys.executable, "-m", "trncodemod"]
    return subprocess.Popen(
        [*head, "apply", "--exit-zero", "-j", "2", "--cache-dir", str(cache), str(folder)],
        cwd=folder.parent,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,  # its own process group, workers included
    )


def test_sigkill_during_apply_leaves_each_file_old_or_new(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    # The expected new bytes, from a complete run on one copy of each script (this warms the
    # cache, which is keyed by content, for the run that is killed).
    warm = tmp_path / "warm"
    warm.mkdir()
    for script in SCRIPTS:
        (warm / script.name).write_bytes(script.read_bytes())
    finished = apply(warm, cache)
    _, err = finished.communicate(timeout=300)
    # 1: a blocker left (`--exit-zero` never forgives one); the run itself completed.
    assert finished.returncode in (0, 1), err.decode()
    old = {script.name: script.read_bytes() for script in SCRIPTS}
    new = {script.name: (warm / script.name).read_bytes() for script in SCRIPTS}
    assert all(old[name] != new[name] for name in old), "every script must have changes"

    tree = tmp_path / "tree"
    origin: dict[Path, str] = {}
    for index in range(COPIES):
        name = SCRIPTS[index % len(SCRIPTS)].name
        path = tree / f"pkg{index % 10}" / f"train_{index:03d}.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(old[name])
        origin[path] = name
    sizes = {path: len(old[name]) for path, name in origin.items()}

    run = apply(tree, cache, slow=True)
    deadline = time.monotonic() + 240
    try:
        while time.monotonic() < deadline and run.poll() is None:
            written = sum(path.stat().st_size != sizes[path] for path in origin)
            if written >= 5:
                break
            time.sleep(0.005)
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
        run.wait(timeout=60)
    assert run.returncode == -signal.SIGKILL, "the run ended before it could be killed"

    states = {}
    for path, name in origin.items():
        data = path.read_bytes()
        assert data in (old[name], new[name]), f"{path.name} is neither old nor new"
        states[path] = data == new[name]
    assert 0 < sum(states.values()) < COPIES, "the kill did not land in the write phase"

    # What a kill leaves: at most the temporaries being written, named so that no discovery
    # (ours, or any tool that globs *.py) takes them for source.
    leftovers = [p for p in tree.rglob("*") if p.is_file() and p not in origin]
    assert len(leftovers) <= 2, [p.name for p in leftovers]
    for leftover in leftovers:
        match = TEMPORARY.match(leftover.name)
        assert match and (leftover.parent / match["name"]) in origin, leftover.name
    assert set(discover([tree]).files) == set(origin)

    # A second run finishes the job, and removes the killed run's temporaries as it writes the
    # files they belong to (their process is gone); it never reads them as source.
    again = apply(tree, cache)
    _, err = again.communicate(timeout=300)
    assert again.returncode in (0, 1), err.decode()
    assert all(path.read_bytes() == new[name] for path, name in origin.items())
    assert not any(leftover.exists() for leftover in leftovers), [p.name for p in leftovers]
