"""Fleets of small local git repositories for the campaign tests, and a spec naming them."""

from __future__ import annotations

import subprocess
from pathlib import Path

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
# Three kinds, in turn: one the tool migrates, one with a blocker it leaves (the device comes
# from a file), one it has nothing to do for.
KINDS = {
    "cuda": "import torch\n\nmodel = torch.nn.Linear(2, 2).cuda()\nx = torch.ones(2).cuda()\n",
    # The device comes from a file the tool cannot read: TRN026, a blocker.
    "blocked": (GOLDEN / "device" / "config_device_blocker.in.py").read_text(),
    "plain": "x = 1\n",
}


BROKEN = """
[[repos]]
name = "gone"
url = "repos/does-not-exist"

[[repos]]
name = "badconfig"
url = "repos/badconfig"
"""


def git(*args: str, cwd: Path) -> str:
    return subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()


def make_repository(path: Path, files: dict[str, str]) -> str:
    """A git repository at ``path`` with ``files`` in one commit on ``main``; its commit."""
    path.mkdir(parents=True)
    for name, text in files.items():
        (path / name).parent.mkdir(parents=True, exist_ok=True)
        (path / name).write_text(text)
    git("init", "-q", "-b", "main", cwd=path)
    git("add", ".", cwd=path)
    git("commit", "-qm", "initial", cwd=path)
    return git("rev-parse", "HEAD", cwd=path)


def kind_of(index: int) -> str:
    return list(KINDS)[index % len(KINDS)]


def make_fleet(root: Path, count: int, extra: str = "") -> Path:
    """``count`` repositories under ``root/repos`` (``r00``, ``r01``, ...) and ``root/spec.toml``
    naming them; ``extra`` is appended to the spec (more ``[[repos]]``)."""
    entries = ['[defaults]\ntarget = "xla-2.9"\ntimeout = 300\n']
    for index in range(count):
        name = f"r{index:02d}"
        make_repository(root / "repos" / name, {"train.py": KINDS[kind_of(index)]})
        entries.append(f'[[repos]]\nname = "{name}"\nurl = "repos/{name}"\n')
    spec = root / "spec.toml"
    spec.write_text("\n".join(entries) + extra)
    return spec


def run_mixed_fleet(root: Path) -> tuple[Path, Path, int, str]:
    """Six repositories (two of each kind), one that cannot be cloned and one whose
    configuration the tool refuses, run once on the local engine with --verify and no runtime
    to verify with: the root, the results folder, the exit code and the output."""
    from click.testing import CliRunner

    from trncodemod.cli import main

    spec = make_fleet(root, 6, BROKEN)
    files = {"train.py": KINDS["cuda"], "pyproject.toml": "[tool.trncodemod]\ncolour = 1\n"}
    make_repository(root / "repos" / "badconfig", files)
    out = root / "out"
    result = CliRunner().invoke(
        main,
        ["campaign", "run", str(spec), "--out", str(out), "--engine", "local", "--cpus", "2",
         "--verify", "--verify-python", str(root / "no-such-python")],
    )  # fmt: skip
    return root, out, result.exit_code, result.output
