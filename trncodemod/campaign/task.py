"""One repository's work, the same whichever engine schedules it.

``python -m trncodemod.campaign.task JOB.json OUT`` checks the repository out in its work folder,
migrates it onto a branch exactly as ``trncodemod pr`` does (``make_migration_branch``; nothing
is pushed), optionally verifies the changed entry scripts, and leaves in ``OUT`` the patch, the
description, the findings (JSON and SARIF) and ``result.json``. It runs in a process of its own,
so that a repository that crashes the interpreter or runs past its time is stopped and recorded
without touching the others (``engines.run_task``). Exit 0 with a result; ``EXIT_CLONE`` when
the repository could not be checked out (the engines retry that); anything else is a crash.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import os
import platform
import subprocess
import sys
import threading
import time
import traceback
from collections import Counter
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import trncodemod
from trncodemod.campaign.repository import CloneError, check_out, commit_identity, locked
from trncodemod.campaign.spec import RepoJob

if TYPE_CHECKING:  # LibCST and the passes load only once a repository is checked out
    from trncodemod.config import Settings
    from trncodemod.pipeline.engine import FileOutcome

EXIT_CLONE = 75  # EX_TEMPFAIL: the checkout failed, perhaps for a moment
EXIT_ORPHANED = 70  # the engine's process is gone: nobody will read the result
RESULT = "result.json"
ARTIFACTS = {
    "patch": "migration.patch",
    "description": "description.md",
    "findings": "findings.json",
    "sarif": "findings.sarif",
}
FAILED = ("clone-failed", "timed-out", "crashed")  # statuses of a repository the tool failed on
UP_TO_DATE = "up-to-date"  # nothing new: the finished result for these inputs stands


@cache
def tool_identity() -> dict[str, str]:
    """The version, and a hash of the installed sources and data: a development checkout keeps
    its version while its passes change, and a result is reused only from the same tool."""
    import trncodemod.transforms

    digest = hashlib.sha256()
    for package in (trncodemod, trncodemod.transforms):
        root = Path(package.__file__).parent
        for path in sorted(root.rglob("*")):
            if path.suffix in (".py", ".toml", ".txt") and "__pycache__" not in path.parts:
                digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
    return {"version": trncodemod.__version__, "build": digest.hexdigest()[:12]}


def versions() -> dict[str, str]:
    git = subprocess.run(["git", "--version"], capture_output=True, text=True).stdout.split()
    return {
        "trncodemod": trncodemod.__version__,
        "build": tool_identity()["build"],
        "python": platform.python_version(),
        "libcst": importlib.metadata.version("libcst"),
        "git": git[-1] if git else "unknown",
    }


def _settings(job: RepoJob, work: Path) -> Settings:
    """The repository's own configuration (never its plugins), with the spec's options over it.
    A configuration above the work folder is not the repository's and is not read."""
    from trncodemod.config import Settings, find_pyproject, load_settings, table_values

    config = find_pyproject(work / job.paths[0])
    own = (
        load_settings(work, config, allow_plugins=False)
        if config is not None and Path(os.path.realpath(work)) in config.parents
        else Settings(root=work)
    )
    return own.with_overrides(**table_values(job.options, job.name, "the spec"))


def _rules(outcomes: list[FileOutcome]) -> dict[str, dict[str, int]]:
    from trncodemod.pipeline.engine import blocks

    findings = [f for o in outcomes for f in o.findings]
    fixed = Counter(f.code for f in findings if f.fixed)
    blockers = Counter(f.code for f in findings if blocks(f))
    total = Counter(f.code for f in findings)
    return {
        code: {"findings": total[code], "fixed": fixed[code], "blockers": blockers[code]}
        for code in sorted(total)
    }


def _verify(
    single: list[FileOutcome], multi: list[FileOutcome], target: str, python: str, deadline: float
) -> dict:
    """Each changed single-process entry script run as ``trncodemod verify`` runs it; the
    verdict "not run" with its reason where there is nothing to run or no runtime to run it."""
    from trncodemod.commands import verify
    from trncodemod.targets import load_target

    skipped = [
        {"script": o.display, "verdict": "not run", "reason": "multi-process: run it under its "
         "launcher on a Trainium instance"}
        for o in multi
    ]  # fmt: skip
    if not single:
        return {"verdict": "not run", "reason": "no single-process entry script changed",
                "scripts": skipped}  # fmt: skip
    xla = load_target(target).is_xla
    try:
        runtime = verify.probe_runtime(python) if xla else (verify.probe_torch(python),)
    except verify.RuntimeMissing as err:
        return {"verdict": "not run", "reason": err.message, "scripts": skipped}
    scripts = []
    for outcome in single:
        timeout = max(1, int(deadline - time.monotonic()))
        script = outcome.path.resolve()
        if xla:
            report, _ = verify.run_script(python, script, (), 10, 3, timeout)
            criteria = verify.judge(report, 10)
        else:
            report, _ = verify.run_eager(python, script, (), 10, timeout)
            criteria = verify.judge_eager(report)
        passed = all(c.passed for c in criteria if c.blocking)
        failed = [f"{c.name}: {c.detail}" for c in criteria if c.blocking and not c.passed]
        scripts.append({"script": outcome.display, "verdict": "pass" if passed else "fail",
                        "reason": "; ".join(failed)})  # fmt: skip
    verdict = "pass" if all(s["verdict"] == "pass" for s in scripts) else "fail"
    return {"verdict": verdict, "runtime": list(runtime), "scripts": scripts + skipped}


def migrate_repository(
    job: RepoJob, work: Path, out: Path, previous: dict | None, verify_python: str | None
) -> dict:
    """The repository's result (``result.json``); its files are written into ``out``.
    ``previous``: the inputs of its finished result, to leave alone when they are unchanged."""
    from trncodemod.commands.pull_request import changed_entry_scripts, make_migration_branch
    from trncodemod.output.report import json_report
    from trncodemod.output.sarif import sarif_log

    started = time.monotonic()
    deadline = started + job.timeout
    timings: dict[str, float] = {}
    result: dict = {"name": job.name, "url": job.url, "ref": job.ref, "branch": job.branch}
    with locked(work):
        timings["lock_wait"] = time.monotonic() - started
        mark = time.monotonic()
        commit = check_out(job.url, job.ref, work, deadline)
        timings["checkout"] = time.monotonic() - mark
        inputs = {"commit": commit, "spec": job.fingerprint, "tool": tool_identity()}
        result["inputs"] = inputs
        if previous == inputs:
            return {**result, "status": UP_TO_DATE, "timings": timings}
        mark = time.monotonic()
        os.chdir(work)  # paths in findings and the patch are relative to the repository
        settings = _settings(job, work)
        os.environ.update(commit_identity())
        made = make_migration_branch(
            [Path(p) for p in job.paths], settings, work, job.branch, commit, True, None, jobs=1
        )
        timings["migrate"] = time.monotonic() - mark
        counts = summarize_counts(made.outcomes)
        sarif = sarif_log(made.outcomes, settings.target)
        sarif["runs"][0]["automationDetails"] = {"id": f"trncodemod-campaign/{job.name}/"}
        sarif["runs"][0]["versionControlProvenance"] = [
            {"repositoryUri": _uri(job.url), "revisionId": commit, "branch": job.branch}
        ]
        files = {
            "patch": b"".join(o.diff for o in made.outcomes),
            "description": made.description.encode(),
            "findings": json_report(made.outcomes, "apply", settings.target).encode(),
            "sarif": json.dumps(sarif, indent=1, ensure_ascii=False).encode(),
        }
        for key, data in files.items():
            (out / ARTIFACTS[key]).write_bytes(data)
        if verify_python is not None:
            mark = time.monotonic()
            single, multi = changed_entry_scripts(made.outcomes)
            result["verify"] = _verify(single, multi, settings.target, verify_python, deadline)
            timings["verify"] = time.monotonic() - mark
        else:
            result["verify"] = {"verdict": "not asked", "reason": "run without --verify"}
    return {
        **result,
        "status": "migrated" if made.branch else "no-change",
        "target": settings.target,
        "branch_commit": _head(work) if made.branch else None,
        "counts": counts,
        # The verdict per entry point (issue 34): how many run, do not, cannot tell.
        "verdict": sarif["runs"][0]["properties"]["verdict"]["counts"],
        "rules": _rules(made.outcomes),
        "errors": [o.error_text() for o in made.errors],
        "timings": {**timings, "task": time.monotonic() - started},
        "versions": versions(),
    }


def summarize_counts(outcomes: list[FileOutcome]) -> dict[str, int]:
    from trncodemod.findings import Safety
    from trncodemod.pipeline.engine import summarize

    counts = summarize(outcomes)
    counts["review"] = sum(
        f.fixed and f.safety is Safety.REVIEW for o in outcomes for f in o.findings
    )
    return counts


def _uri(url: str) -> str:
    """A URI for SARIF: a local clone's path as a ``file:`` URI."""
    return Path(url).as_uri() if Path(url).is_absolute() else url


def _head(work: Path) -> str:
    return subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=work, capture_output=True, text=True
    ).stdout.strip()


def _exit_with(parent: int) -> None:
    """Stop within a second of the engine's process (a killed driver, a cancelled Ray task), so
    no orphan goes on holding the work folder or spending a core."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1)
        os._exit(EXIT_ORPHANED)

    threading.Thread(target=watch, daemon=True).start()


def main(argv: list[str]) -> int:
    request = json.loads(Path(argv[0]).read_text("utf-8"))
    _exit_with(request["parent"])
    out = Path(argv[1])
    job = RepoJob.from_json(request["job"])
    try:
        result = migrate_repository(
            job, Path(request["work"]), out, request["previous"], request["verify_python"]
        )
        code = 0
    except CloneError as err:
        result, code = {"status": "clone-failed", "reason": str(err)}, EXIT_CLONE
    except TimeoutError as err:
        result, code = {"status": "timed-out", "reason": str(err)}, 0
    except Exception as err:  # the tool failed on this repository: recorded, the campaign goes on
        reason = f"{type(err).__name__}: {err}"
        result = {"status": "crashed", "reason": reason, "traceback": traceback.format_exc()}
        code = 1
    (out / RESULT).write_text(json.dumps(result, indent=2, sort_keys=True), "utf-8")
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
