"""What a hostile file or a killed run cannot do (issue 27): leave worker processes behind, end the
run from the native parser, or cost gigabytes before a limit applies. The runs are subprocesses
under an address-space limit, so that a regression fails its test instead of taking the machine."""

from __future__ import annotations

import ast
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import libcst
import pytest

from trncodemod.config import Settings
from trncodemod.pipeline.migrate import MigrationError, migrate_text

GPU_SCRIPT = b"import torch\n\nmodel = torch.nn.Linear(4, 2).cuda()\n"
EXAMPLE = (Path(__file__).parent.parent / "examples" / "cnn_mnist.py").read_bytes()
GIB = 1 << 30


def trncodemod(*args: str) -> list[str]:
    return [sys.executable, "-m", "trncodemod", *args]


def at_most(gib: int):
    """A preexec_fn capping the run's address space (workers inherit it)."""

    def limit() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (gib * GIB, gib * GIB))

    return limit


def live_processes_in_group(group: int) -> list[int]:
    """Processes of the process group, zombies left out (they hold no memory and run nothing)."""
    alive = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # it ended while being read
            continue
        state, pgrp = fields[0], int(fields[2])
        if pgrp == group and state != "Z":
            alive.append(int(stat.parent.name))
    return alive


needs_proc = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")


@needs_proc
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM], ids=["SIGKILL", "SIGTERM"])
def test_workers_die_with_a_killed_run(tmp_path: Path, sig: signal.Signals) -> None:
    for index in range(40):
        (tmp_path / f"train{index}.py").write_bytes(EXAMPLE + b"# %d\n" % index)
    run = subprocess.Popen(
        trncodemod("apply", "--dry-run", "--no-cache", "-j", "2", "."),
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # its own process group: the workers are found by it
        preexec_fn=at_most(3),
    )
    try:
        deadline = time.monotonic() + 60
        while len(live_processes_in_group(run.pid)) < 3 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(live_processes_in_group(run.pid)) == 3, "the run and its two workers"
        run.send_signal(sig)
        run.wait(timeout=10)
        time.sleep(2)
        assert live_processes_in_group(run.pid) == []
    finally:
        run.kill()
        for pid in live_processes_in_group(run.pid):
            os.kill(pid, signal.SIGKILL)


WATCHED_CHILD = """\
import os, time
from trncodemod.pipeline.isolation import watch_parent

parent = os.getpid()
child = os.fork()
if child == 0:
    watch_parent(parent, interval=0.1)  # returns only by ending the process
    os._exit(0)
print(child, flush=True)
"""


@needs_proc
def test_a_worker_without_prctl_ends_when_its_parent_is_gone() -> None:
    # The portable fallback alone: the forked child never asked for a death signal.
    result = subprocess.run(
        [sys.executable, "-c", WATCHED_CHILD], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    child = Path(f"/proc/{int(result.stdout)}/stat")
    deadline = time.monotonic() + 2
    while child.exists() and time.monotonic() < deadline:
        if child.read_text().rsplit(")", 1)[1].split()[0] == "Z":
            break
        time.sleep(0.05)
    else:
        assert not child.exists(), "the orphan is still running"


def run_cli(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        trncodemod("apply", "--dry-run", "--no-cache", *args),
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=300,
        preexec_fn=at_most(2),
    )


@pytest.mark.parametrize(
    ("levels", "reason"),
    [
        (5000, "deep.py: too deeply nested to parse (Python's own parser gives up)"),
        (300, "deep.py: too deeply nested to migrate: more than 100 levels of syntax"),
    ],
    ids=["over-python's-limit", "over-the-tool's-limit"],
)
def test_a_file_nested_too_deep_for_the_parser_is_refused_and_the_others_migrated(
    tmp_path: Path, levels: int, reason: str
) -> None:
    # 5,000 nested `lambda:` (40 KB) took LibCST's parser 4.75 GB, then a crash that ended the run
    # (one file, so it ran in the run's own process); 300 took 40 MB, and 100 lines of 190 took
    # 735 MB.
    (tmp_path / "deep.py").write_text("import torch\nf = " + "lambda: " * levels + "0\n")
    (tmp_path / "train.py").write_bytes(GPU_SCRIPT)
    result = run_cli(tmp_path, "-j", "2", "deep.py", "train.py")
    assert result.returncode == 2, result.stderr
    assert reason in result.stderr
    assert "+++ b/train.py" in result.stdout, "the other file is migrated"


def test_a_parser_crash_on_a_file_python_cannot_read_is_that_files_error(tmp_path: Path) -> None:
    # Python stops at the string (an unknown \N name), so the nesting after it is never measured;
    # LibCST reads the string and goes on into the lambdas. With -j 1 the run's own process parses:
    # the first parse is tried in a child, under the memory limit (small here, to fail fast).
    (tmp_path / "pyproject.toml").write_text("[tool.trncodemod]\nmax-worker-memory = 400\n")
    (tmp_path / "deep.py").write_text(
        'import torch\ns = "\\N{NO SUCH NAME}"\nf = ' + "lambda: " * 5000 + "0\n"
    )
    (tmp_path / "train.py").write_bytes(GPU_SCRIPT)
    result = run_cli(tmp_path, "-j", "1", "deep.py", "train.py")
    assert result.returncode == 2, result.stderr
    assert (
        "deep.py: LibCST's parser aborted, most likely out of memory: over the limit of 400 MiB"
        in result.stderr
    )
    assert "+++ b/train.py" in result.stdout, "the other file is migrated"


def test_runaway_memory_in_a_worker_is_that_files_error(tmp_path: Path) -> None:
    # Under every limit but memory: 200 lines of 90 nested `lambda:` (150 KB) take LibCST over
    # 300 MB more; each worker may use 300 MiB here (a small file takes a worker under 250, the
    # program model included).
    (tmp_path / "pyproject.toml").write_text("[tool.trncodemod]\nmax-worker-memory = 300\n")
    line = "f = " + "lambda: " * 90 + "0\n"
    (tmp_path / "hungry.py").write_text(GPU_SCRIPT.decode() + line * 200)
    for index in range(3):
        (tmp_path / f"train{index}.py").write_bytes(GPU_SCRIPT + b"# %d\n" % index)
    result = run_cli(tmp_path, "-j", "2", ".")
    assert result.returncode == 2, result.stderr
    assert "hungry.py: " in result.stderr and "out of memory" in result.stderr, result.stderr
    assert result.stdout.count("+++ b/train") == 3, "the other files are migrated"


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts Python's or LibCST's parser is given, from here on."""
    given: list[str] = []

    def recording(parse):
        def parse_and_record(text, *args, **kwargs):
            given.append(text)
            return parse(text, *args, **kwargs)

        return parse_and_record

    monkeypatch.setattr(ast, "parse", recording(ast.parse))
    monkeypatch.setattr(libcst, "parse_module", recording(libcst.parse_module))
    return given


def test_code_over_max_file_bytes_is_refused_before_any_parse(parses: list[str]) -> None:
    # A 17.8 MB file took 57 s and 3.5 GB (Python's parse and facts) before it was refused.
    text = GPU_SCRIPT.decode() + "x = 1\n" * 400
    with pytest.raises(MigrationError, match="too large to migrate"):
        migrate_text(text, "big.py", Settings(max_file_bytes=1000))
    assert parses == []


def test_a_file_without_pytorch_is_never_parsed(parses: list[str]) -> None:
    # A 19.5 MB file without torch took 54 s and 3.7 GB, where docs/trust-model.md promises a
    # read and a substring search.
    text = "TABLE = [\n" + "    (1, 2.5, 'row'),\n" * 1000 + "]\n"
    migration = migrate_text(text, "table.py", Settings())
    assert (migration.text, migration.findings, parses) == (text, (), [])
