"""A repository's work folder: cloned once, then fetched, checked out clean at the input commit.

Only one task uses a work folder at a time (an exclusive ``flock`` on ``<folder>.lock``, which
the kernel drops when its holder dies), so a task left running by a killed driver and the next
run's task for the same repository never share a checkout. Git never asks for credentials here
(``GIT_TERMINAL_PROMPT=0``): a clone that needs them fails, and is recorded, instead of hanging.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

# Commits in a work clone need an author even where git has none configured.
_IDENTITY = {
    "GIT_AUTHOR_NAME": "trncodemod",
    "GIT_AUTHOR_EMAIL": "trncodemod@localhost",
    "GIT_COMMITTER_NAME": "trncodemod",
    "GIT_COMMITTER_EMAIL": "trncodemod@localhost",
}


class CloneError(Exception):
    """The repository could not be cloned, fetched or its ref found; often transient (network),
    so the engines retry it."""


def _git(*args: str, cwd: Path | None, deadline: float) -> str:
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        raise TimeoutError("the repository's time ran out before git could run")
    env = {**os.environ, "GIT_TERMINAL_PROMPT": "0"}
    try:
        result = subprocess.run(
            ["git", *args], cwd=cwd, capture_output=True, text=True, timeout=remaining, env=env
        )
    except subprocess.TimeoutExpired:
        raise TimeoutError(f"git {args[0]} ran out of the repository's time") from None
    if result.returncode != 0:
        message = (result.stderr.strip() or result.stdout.strip()).splitlines()
        raise CloneError(f"git {' '.join(args[:2])}: {message[-1] if message else 'failed'}")
    return result.stdout.strip()


@contextlib.contextmanager
def locked(work: Path) -> Iterator[None]:
    """Hold ``work`` for this process alone; waits while another task holds it."""
    work.parent.mkdir(parents=True, exist_ok=True)
    with open(work.with_name(work.name + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def _resolve(ref: str | None, work: Path, deadline: float) -> str:
    candidates = (
        ["refs/remotes/origin/HEAD"]
        if ref is None
        else [f"refs/remotes/origin/{ref}", f"refs/tags/{ref}", ref]
    )
    for name in candidates:
        with contextlib.suppress(CloneError):
            return _git(
                "rev-parse",
                "--verify",
                "--quiet",
                "--end-of-options",
                f"{name}^{{commit}}",
                cwd=work,
                deadline=deadline,
            )
    raise CloneError(f"no branch, tag or commit {ref or 'HEAD'} in the repository")


def check_out(url: str, ref: str | None, work: Path, deadline: float) -> str:
    """Clone ``url`` into ``work`` (or fetch into the clone already there), check out ``ref``
    (default: the remote's HEAD) detached and clean; returns the commit."""
    if not (work / ".git").is_dir():
        shutil.rmtree(work, ignore_errors=True)  # a clone a killed task left half-made
        _git("clone", "--quiet", "--no-checkout", "--", url, str(work), cwd=None, deadline=deadline)
    else:
        _git("remote", "set-url", "origin", "--", url, cwd=work, deadline=deadline)
        _git(
            "fetch", "--quiet", "--force", "--prune", "--tags", "origin",
            "+refs/heads/*:refs/remotes/origin/*", cwd=work, deadline=deadline,
        )  # fmt: skip
        if ref is None:
            _git("remote", "set-head", "origin", "--auto", cwd=work, deadline=deadline)
    commit = _resolve(ref, work, deadline)
    _git("checkout", "--quiet", "--force", "--detach", commit, "--", cwd=work, deadline=deadline)
    _git("clean", "-fdxq", cwd=work, deadline=deadline)
    return commit


def commit_identity() -> dict[str, str]:
    """The author and committer of migration commits, unless the environment names them."""
    return {key: os.environ.get(key, value) for key, value in _IDENTITY.items()}
