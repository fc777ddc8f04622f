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
import shutil
import subprocess
import sys
import time
import traceback
from collections import Counter
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import trncodemod
from trncodemod.campaign.repository import CloneError, check_out, commit_identity, locked
from trncodemod.campaign.spec import RepoJob
from trncodemod.pipeline.isolation import die_with_parent

if TYPE_CHECKING:  # LibCST and the passes load only once a repository is checked out
    from trncodemod.config import Settings
    from trncodemod.pipeline.engine import FileOutcome

EXIT_CLONE = 75  # EX_TEMPFAIL: the checkout failed, perhaps for a moment
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
        load_settings(work, config, allow_plugins=False, from_user=False)
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


def _blocking(outcomes: list[FileOutcome]) -> list[str]:
    """Each blocker left, ``path:line:column CODE``: what the campaign's summary names."""
    from trncodemod.pipeline.engine import blocks

    return [f"{f.location} {f.code}" for o in outcomes for f in o.findings if blocks(f)]


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
    import click

    scripts = []
    for outcome in single:
        timeout = max(1, int(deadline - time.monotonic()))
        script = outcome.path.resolve()
        try:
            if xla:
                report, _ = verify.run_script(python, script, (), 10, 3, timeout)
                criteria = verify.judge(report, 10)
            else:
                report, _ = verify.run_eager(python, script, (), 10, timeout)
                criteria = verify.judge_eager(report)
        except click.ClickException as err:
            # A script that left no report (it crashed, ran past its time, exited early) is a
            # failed verification of a migrated repository, not a crash of the tool.
            scripts.append({"script": outcome.display, "verdict": "fail",
                            "reason": err.format_message()[-2000:]})  # fmt: skip
            continue
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
    from trncodemod.output.counts import count
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
        verified: dict = {"verdict": "not asked", "reason": "run without --verify"}

        def verify_on_branch(outcomes: list[FileOutcome]) -> None:
            # With the migration checked out: the scripts import the migrated modules.
            if verify_python is not None:
                mark = time.monotonic()
                single, multi = changed_entry_scripts(outcomes)
                verified.clear()
                verified.update(_verify(single, multi, settings.target, verify_python, deadline))
                timings["verify"] = time.monotonic() - mark

        made = make_migration_branch(
            [Path(p) for p in job.paths],
            settings,
            work,
            job.branch,
            commit,
            True,
            None,
            jobs=1,
            on_branch=verify_on_branch,
        )
        if verify_python is not None and made.branch is None:
            verified = _verify([], [], settings.target, verify_python, deadline)
        timings["migrate"] = time.monotonic() - mark - timings.get("verify", 0.0)
        counts = count(made.outcomes).to_json()
        sarif = sarif_log(made.outcomes, settings.target)
        sarif["runs"][0]["automationDetails"] = {"id": f"trncodemod-campaign/{job.name}/"}
        sarif["runs"][0]["versionControlProvenance"] = [
            {"repositoryUri": _uri(job.url), "revisionId": commit, "branch": job.branch}
        ]
        files = {
            "patch": b"".join(o.diff for o in made.outcomes),
            "description": made.description.encode(),
            # A file name that is not UTF-8 (surrogates in the text) is written as escapes.
            "findings": json_report(made.outcomes, "apply", settings.target).encode(
                "utf-8", "backslashreplace"
            ),
            "sarif": json.dumps(sarif, indent=1, ensure_ascii=False).encode(
                "utf-8", "backslashreplace"
            ),
        }
        for key, data in files.items():
            (out / ARTIFACTS[key]).write_bytes(data)
        result["verify"] = verified
    return {
        **result,
        "status": "migrated" if made.branch else "no-change",
        "target": settings.target,
        "branch_commit": made.commit if made.branch else None,
        "counts": counts,
        # The verdict per entry point (issue 34): how many run, do not, cannot tell.
        "verdict": sarif["runs"][0]["properties"]["verdict"]["counts"],
        "rules": _rules(made.outcomes),
        "blocking": _blocking(made.outcomes),
        "errors": [o.error_text() for o in made.errors],
        "timings": {**timings, "task": time.monotonic() - started},
        "versions": versions(),
    }


def _uri(url: str) -> str:
    """A URI for SARIF: a local clone's path as a ``file:`` URI."""
    return Path(url).as_uri() if Path(url).is_absolute() else url


def main(argv: list[str]) -> int:
    request = json.loads(Path(argv[0]).read_text("utf-8"))
    # Stop with the engine's process (a killed driver, a cancelled Ray task), and with this
    # task its whole process group (`start_group`): the git it runs, verify's runners; the
    # engine's temporary folder goes too. No orphan holds the work folder or spends a core.
    temporary = request.get("temporary")
    die_with_parent(
        request["parent"],
        group=True,
        cleanup=lambda: temporary and shutil.rmtree(temporary, ignore_errors=True),
    )
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
