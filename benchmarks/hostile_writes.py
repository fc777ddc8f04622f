"""Probes: writes, git and processes under a hostile repository (issue 37), each pass or fail.

    python benchmarks/hostile_writes.py [--source CHECKOUT] [--only NAME]

Each probe builds its hostile repository in a temporary folder, runs the real command line
(``python -m trncodemod``, from ``--source`` when given, e.g. a worktree of an older commit) and
says whether the tool stayed inside what was asked. A fake ``git`` on PATH logs every call (to
see which arguments git receives as options) and a fake interpreter stands in for torch where a
probe only needs a process that starts children. Exit 1 when any probe fails.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

SCRIPT = (
    "import torch\nmodel = torch.nn.Linear(2, 2).cuda()\n\nif __name__ == '__main__':\n    pass\n"
)
PROBES: dict[str, Callable[[Path], tuple[bool, str]]] = {}
SOURCE: Path | None = None


def probe(function: Callable[[Path], tuple[bool, str]]) -> Callable[[Path], tuple[bool, str]]:
    PROBES[function.__name__.replace("_", "-")] = function
    return function


def environment(tmp: Path) -> dict[str, str]:
    env = {**os.environ, "TMPDIR": str(tmp / "tmp"), "XDG_CACHE_HOME": str(tmp / "cache")}
    env |= {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t"}
    env |= {"GIT_COMMITTER_EMAIL": "t@t", "PYTHONDONTWRITEBYTECODE": "1"}
    (tmp / "tmp").mkdir(exist_ok=True)
    if SOURCE is not None:
        env["PYTHONPATH"] = str(SOURCE)
    return env


def tool(tmp: Path, *args: str, cwd: Path, timeout: float = 120, env: dict | None = None):
    return subprocess.run(
        [sys.executable, "-m", "trncodemod", *args],
        cwd=cwd,
        env=env or environment(tmp),
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def git(*args: str, cwd: Path) -> str:
    return subprocess.run(
        ["git", *args], cwd=cwd, check=True, capture_output=True, text=True, env=environment(cwd)
    ).stdout


def make_repo(folder: Path, files: dict[str, str] | None = None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    git("init", "-q", "-b", "main", cwd=folder)
    for name, text in (files or {"train.py": SCRIPT}).items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    git("add", "-A", cwd=folder)
    git("commit", "-qm", "start", cwd=folder)
    return folder


def outside(tmp: Path) -> Path:
    """A folder of the user's outside every repository, with a file the passes would rewrite."""
    elsewhere = tmp / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "victim.py").write_text(SCRIPT)
    return elsewhere


def linked_repo(tmp: Path) -> tuple[Path, Path]:
    elsewhere = outside(tmp)
    repo = make_repo(tmp / "repo")
    (repo / "train").symlink_to(elsewhere)  # absolute: committed, it points out from anywhere
    git("add", "train", cwd=repo)
    git("commit", "-qm", "link", cwd=repo)
    return repo, elsewhere


def alive(pids: list[int]) -> list[int]:
    """The processes still running (a zombie that init has not reaped yet is not)."""
    left = []
    for pid in pids:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            continue
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
        except (OSError, IndexError):
            state = "?"
        if state != "Z":
            left.append(pid)
    return left


def kill_all(pids: list[int]) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def pids_in(path: Path) -> list[int]:
    return [int(x) for x in path.read_text().split()] if path.exists() else []


# -- Containment --------------------------------------------------------------------------------


@probe
def apply_through_a_committed_link(tmp: Path) -> tuple[bool, str]:
    repo, elsewhere = linked_repo(tmp)
    result = tool(tmp, "apply", "--no-cache", "train/", cwd=repo)
    kept = (elsewhere / "victim.py").read_text() == SCRIPT
    return kept, f"exit {result.returncode}; outside file {'kept' if kept else 'REWRITTEN'}"


@probe
def pr_through_a_committed_link(tmp: Path) -> tuple[bool, str]:
    repo, elsewhere = linked_repo(tmp)
    result = tool(tmp, "pr", "train/", cwd=repo)
    kept = (elsewhere / "victim.py").read_text() == SCRIPT
    return kept, f"exit {result.returncode}; outside file {'kept' if kept else 'REWRITTEN'}"


@probe
def campaign_paths_through_a_committed_link(tmp: Path) -> tuple[bool, str]:
    repo, elsewhere = linked_repo(tmp)
    spec = tmp / "fleet.toml"
    spec.write_text(f'[[repos]]\nname = "r"\nurl = "{repo}"\npaths = ["train/"]\n')
    result = tool(tmp, "campaign", "run", str(spec), "--out", "out", "--engine", "local", cwd=tmp)
    kept = (elsewhere / "victim.py").read_text() == SCRIPT
    return kept, f"exit {result.returncode}; outside file {'kept' if kept else 'REWRITTEN'}"


@probe
def apply_patch_into_git_config(tmp: Path) -> tuple[bool, str]:
    repo = make_repo(tmp / "repo")
    config = (repo / ".git" / "config").read_text()
    lines = config.splitlines()
    patch = (
        "--- a/.git/config\n+++ b/.git/config\n"
        f"@@ -1,{len(lines)} +1,{len(lines) + 1} @@\n"
        + "".join(f" {line}\n" for line in lines)
        + "+\tfsmonitor = touch PWNED\n"
    )
    (tmp / "evil.patch").write_text(patch)
    result = tool(tmp, "apply-patch", str(tmp / "evil.patch"), cwd=repo)
    kept = (repo / ".git" / "config").read_text() == config
    return kept, f"exit {result.returncode}; .git/config {'kept' if kept else 'PATCHED'}"


@probe
def cache_dir_under_a_planted_link(tmp: Path) -> tuple[bool, str]:
    repo, elsewhere = linked_repo(tmp)
    tool(tmp, "check", "--cache-dir", "train/cache", "train.py", cwd=repo)
    kept = not (elsewhere / "cache").exists()
    return kept, f"outside cache folder {'not made' if kept else 'MADE'}"


@probe
def campaign_work_over_a_users_checkout(tmp: Path) -> tuple[bool, str]:
    source = make_repo(tmp / "source")
    mine = tmp / "mine" / "r"  # the user's own clone of that repository, with work in it
    mine.parent.mkdir()
    git("clone", "-q", str(source), str(mine), cwd=tmp)
    (mine / "notes.txt").write_text("my untracked notes\n")
    spec = tmp / "fleet.toml"
    spec.write_text(f'[[repos]]\nname = "r"\nurl = "{source}"\n')
    result = tool(
        tmp, "campaign", "run", str(spec), "--out", "out", "--work", "mine", "--engine", "local",
        cwd=tmp,
    )  # fmt: skip
    kept = (mine / "notes.txt").exists()
    return (
        kept,
        f"exit {result.returncode}; the user's untracked file {'kept' if kept else 'DELETED'}",
    )


@probe
def campaign_out_deletes_files_it_did_not_write(tmp: Path) -> tuple[bool, str]:
    mine = tmp / "results" / "r"
    mine.mkdir(parents=True)
    for name in ("description.md", "migration.patch"):
        (mine / name).write_text("mine\n")
    spec = tmp / "fleet.toml"
    spec.write_text(f'[[repos]]\nname = "r"\nurl = "{tmp / "no-such-repo"}"\n')
    result = tool(
        tmp, "campaign", "run", str(spec), "--out", "results", "--engine", "local",
        "--retries", "0", cwd=tmp,
    )  # fmt: skip
    kept = all((mine / name).exists() for name in ("description.md", "migration.patch"))
    return kept, f"exit {result.returncode}; the user's files {'kept' if kept else 'DELETED'}"


# -- Limits -------------------------------------------------------------------------------------


@probe
def repository_switches_off_max_file_bytes(tmp: Path) -> tuple[bool, str]:
    repo = make_repo(tmp / "repo")
    (repo / "pyproject.toml").write_text(
        "[tool.trncodemod]\nmax-file-bytes = 0\nmax-worker-memory = 0\n"
    )
    row = "    (1, 2.5, 'row'),\n"
    (repo / "big.py").write_text(
        "import torch\nTABLE = [\n" + row * (1_500_000 // len(row)) + "]\n"
    )
    started = time.monotonic()
    try:
        result = tool(tmp, "check", "--no-cache", "big.py", cwd=repo, timeout=30)
    except subprocess.TimeoutExpired:
        return False, "still parsing after 30 s: the repository lifted the limit"
    seconds = time.monotonic() - started
    bounded = "max-file-bytes" in result.stdout + result.stderr
    return bounded, f"{seconds:.1f} s; {'refused over the limit' if bounded else 'PARSED'}"


# -- Git ----------------------------------------------------------------------------------------


def git_shim(tmp: Path, before: str) -> dict[str, str]:
    """An environment whose `git` runs the shell lines ``before``, then the real git."""
    shims = tmp / "shims"
    shims.mkdir()
    (shims / "git").write_text(f'#!/bin/sh\n{before}\nexec {shutil.which("git")} "$@"\n')
    (shims / "git").chmod(0o755)
    env = environment(tmp)
    env["PATH"] = f"{shims}{os.pathsep}{env['PATH']}"
    return env


def logging_git(tmp: Path) -> tuple[dict[str, str], Path]:
    """An environment whose `git` logs its arguments (one call a line, NUL-separated) first."""
    log = tmp / "git.log"
    return git_shim(tmp, f'printf "%s\\0" "$@" >> {log}\necho >> {log}'), log


@probe
def clone_url_read_as_an_option(tmp: Path) -> tuple[bool, str]:
    env, log = logging_git(tmp)
    spec = tmp / "fleet.toml"
    spec.write_text('[[repos]]\nname = "r"\nurl = "--template=x:y"\n')
    result = tool(
        tmp, "campaign", "run", str(spec), "--out", "out", "--engine", "local", "--retries", "0",
        cwd=tmp, env=env,
    )  # fmt: skip
    calls = [line.split("\0") for line in (log.read_text() if log.exists() else "").splitlines()]
    as_option = [c for c in calls if c and c[0] == "clone" and "--template=x:y" in c
                 and ("--" not in c or c.index("--template=x:y") < c.index("--"))]  # fmt: skip
    ok = not as_option
    return (
        ok,
        f"exit {result.returncode}; {'refused or after --' if ok else 'git clone got it as an option'}",
    )


@probe
def verify_against_writes_a_file(tmp: Path) -> tuple[bool, str]:
    repo = make_repo(tmp / "repo")
    target = tmp / "written-by-git-show"
    result = tool(
        tmp, "verify", "train.py", "--against", f"--output={target}", "--python", "/bin/false",
        cwd=repo,
    )  # fmt: skip
    written = list(tmp.glob(target.name + "*"))  # git show writes `<FILE>:train.py`
    ok = not written
    return (
        ok,
        f"exit {result.returncode}; {'no file' if ok else 'git show WROTE ' + written[0].name}",
    )


def hooked_repo(tmp: Path) -> tuple[Path, Path]:
    repo = make_repo(tmp / "repo")
    ran = tmp / "hook-ran"
    hook = repo / ".git" / "hooks" / "pre-commit"
    hook.write_text(f"#!/bin/sh\ntouch {ran}\nexit 1\n")
    hook.chmod(0o755)
    return repo, ran


@probe
def pr_runs_hooks_unasked(tmp: Path) -> tuple[bool, str]:
    repo, ran = hooked_repo(tmp)
    result = tool(tmp, "pr", ".", cwd=repo)
    ok = not ran.exists()
    return ok, f"exit {result.returncode}; pre-commit hook {'not run' if ok else 'RAN'}"


@probe
def pr_failing_hook_leaves_user_on_new_branch(tmp: Path) -> tuple[bool, str]:
    repo, _ = hooked_repo(tmp)
    result = tool(tmp, "pr", "--run-hooks", ".", cwd=repo)
    if "No such option '--run-hooks'" in result.stderr:  # a tool that runs hooks unasked
        result = tool(tmp, "pr", ".", cwd=repo)
    branch = git("branch", "--show-current", cwd=repo).strip()
    status = git("status", "--porcelain", cwd=repo)
    ok = result.returncode != 0 and branch == "main" and not status and "back on" in result.stderr
    return ok, f"exit {result.returncode}; on {branch}; status {status.strip() or 'clean'}"


@probe
def pr_stays_on_the_new_branch_after_success(tmp: Path) -> tuple[bool, str]:
    repo = make_repo(tmp / "repo")
    result = tool(tmp, "pr", ".", cwd=repo)
    branch = git("branch", "--show-current", cwd=repo).strip()
    ok = result.returncode == 0 and branch == "main"
    return ok, f"exit {result.returncode}; on {branch}"


@probe
def pr_description_omits_failed_files(tmp: Path) -> tuple[bool, str]:
    repo = make_repo(tmp / "repo", {"train.py": SCRIPT, "broken.py": "import torch\ndef (:\n"})
    result = tool(tmp, "pr", ".", cwd=repo)
    lines = result.stdout.strip().splitlines()
    text = Path(lines[-1]).read_text() if lines and Path(lines[-1]).exists() else ""
    ok = "broken.py" in text
    return ok, f"exit {result.returncode}; broken.py {'listed' if ok else 'NOT listed'}"


# -- Processes ----------------------------------------------------------------------------------


def fake_python(tmp: Path) -> tuple[Path, Path]:
    """An interpreter that passes verify's probe, and as a runner starts a child that outlives
    it (its output elsewhere) and then waits: the shape of a script that starts a server."""
    pids = tmp / "children"
    fake = tmp / "fake-python"
    fake.write_text(
        textwrap.dedent(f"""\
        #!/bin/sh
        if [ "$1" = "-c" ]; then echo '["2.9.0", "2.9.0"]'; exit 0; fi
        sleep 987 >/dev/null 2>&1 &
        echo $! >> {pids}
        echo $$ >> {pids}
        [ -n "$FAKE_WAIT" ] && sleep "$FAKE_WAIT" >/dev/null 2>&1
        exit 1
        """)
    )
    fake.chmod(0o755)
    return fake, pids


@probe
def verify_timeout_leaves_the_scripts_child(tmp: Path) -> tuple[bool, str]:
    repo = make_repo(tmp / "repo")
    fake, pids = fake_python(tmp)
    env = {**environment(tmp), "FAKE_WAIT": "60"}
    args = ("verify", "train.py", "--against", "HEAD", "--python", str(fake), "--timeout", "3")
    tool(tmp, *args, cwd=repo, env=env)
    time.sleep(1)
    left = alive(pids_in(pids))
    kill_all(left)
    return not left, f"{len(left)} process(es) left after --timeout"


def kill_when_started(
    tmp: Path, args: list[str], cwd: Path, env: dict[str, str], pids: Path, number: int
) -> tuple[bool, str]:
    """Run the tool with ``args`` until the children it starts log their ids to ``pids``,
    send it signal ``number``, and count the processes and temporary folders left after."""
    command = [sys.executable, "-m", "trncodemod", *args]
    parent = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)  # fmt: skip
    deadline = time.monotonic() + 30
    while len(pids_in(pids)) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    parent.send_signal(number)
    parent.wait()
    time.sleep(3)
    left = alive(pids_in(pids))
    kill_all(left)
    temporaries = list((tmp / "tmp").glob("trncodemod-*"))
    ok = not left and not temporaries
    return ok, f"{len(left)} process(es), {len(temporaries)} temporary folder(s) left"


def killed_parent(tmp: Path, number: int, against: bool = True) -> tuple[bool, str]:
    repo = make_repo(tmp / "repo")
    fake, pids = fake_python(tmp)
    env = {**environment(tmp), "FAKE_WAIT": "60"}
    args = ["verify", "train.py", "--python", str(fake), "--timeout", "100"]
    args += ["--against", "HEAD"] if against else []
    return kill_when_started(tmp, args, repo, env, pids, number)


@probe
def verify_runner_survives_sigkill(tmp: Path) -> tuple[bool, str]:
    return killed_parent(tmp, signal.SIGKILL)


@probe
def verify_runner_survives_sigterm(tmp: Path) -> tuple[bool, str]:
    return killed_parent(tmp, signal.SIGTERM)


@probe
def verify_runner_survives_sigkill_without_against(tmp: Path) -> tuple[bool, str]:
    return killed_parent(tmp, signal.SIGKILL, against=False)


def hanging_git(tmp: Path) -> tuple[dict[str, str], Path]:
    """An environment whose `git clone` starts a child and hangs, as a slow network does."""
    pids = tmp / "children"
    hang = f'if [ "$1" = "clone" ]; then sleep 987 & echo $! >> {pids}; echo $$ >> {pids}; wait; fi'
    return git_shim(tmp, hang), pids


@probe
def campaign_timeout_leaves_git_clone(tmp: Path) -> tuple[bool, str]:
    env, pids = hanging_git(tmp)
    spec = tmp / "fleet.toml"
    spec.write_text(f'[[repos]]\nname = "r"\nurl = "{tmp}"\ntimeout = 3\n')
    args = ("campaign", "run", str(spec), "--out", "out", "--engine", "local", "--retries", "0")
    tool(tmp, *args, cwd=tmp, env=env)
    time.sleep(1)
    left = alive(pids_in(pids))
    kill_all(left)
    temporaries = list((tmp / "tmp").glob("trncodemod-*"))
    ok = not left and not temporaries
    return ok, f"{len(left)} process(es), {len(temporaries)} temporary folder(s) left"


@probe
def campaign_killed_driver_leaves_git_clone(tmp: Path) -> tuple[bool, str]:
    env, pids = hanging_git(tmp)
    spec = tmp / "fleet.toml"
    spec.write_text(f'[[repos]]\nname = "r"\nurl = "{tmp}"\n')
    args = ["campaign", "run", str(spec), "--out", "out", "--engine", "local"]
    return kill_when_started(tmp, args, tmp, env, pids, signal.SIGKILL)


@probe
def campaign_verify_orphans_and_crashes(tmp: Path) -> tuple[bool, str]:
    repo = make_repo(tmp / "repo")
    fake, pids = fake_python(tmp)
    spec = tmp / "fleet.toml"
    spec.write_text(f'[[repos]]\nname = "r"\nurl = "{repo}"\n')
    args = ("campaign", "run", str(spec), "--out", "out", "--engine", "local", "--verify")
    tool(tmp, *args, "--verify-python", str(fake), cwd=tmp)
    time.sleep(1)
    left = alive(pids_in(pids))
    kill_all(left)
    result = json.loads((tmp / "out" / "r" / "result.json").read_text())
    ok = not left and result["status"] == "migrated"
    return ok, f"status {result['status']}; {len(left)} process(es) left"


def main() -> int:
    global SOURCE
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, help="Run the tool from this checkout.")
    parser.add_argument("--only", action="append", help="Run only this probe (repeatable).")
    options = parser.parse_args()
    SOURCE = options.source.resolve() if options.source else None
    failed = 0
    for name, function in PROBES.items():
        if options.only and name not in options.only:
            continue
        with tempfile.TemporaryDirectory(prefix="hostile-writes-") as folder:
            tmp = Path(os.path.realpath(folder))
            started = time.monotonic()
            try:
                ok, detail = function(tmp)
            except Exception as err:  # a probe that could not run is a failure, said why
                ok, detail = False, f"probe error: {type(err).__name__}: {err}"
            seconds = time.monotonic() - started
        failed += not ok
        print(f"{'pass' if ok else 'FAIL'}  {name:<48} {seconds:5.1f} s  {detail}", flush=True)
    print(f"{len(PROBES) - failed if not options.only else '-'} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
