"""``trncodemod campaign run``: the spec's repositories through an engine into the result store.

The driver chooses the repositories (``results.select``), hands them to the engine, and records
each result as it comes back, atomically; it never migrates anything itself. Progress (done of
total, failures, time left) is shown on a terminal only.
"""

from __future__ import annotations

import datetime
import sys
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from trncodemod.campaign.engines import Payload, Request, describe_local, run_local, run_ray
from trncodemod.campaign.results import WORK, ResultStore, select
from trncodemod.campaign.spec import RepoJob
from trncodemod.campaign.task import FAILED, UP_TO_DATE
from trncodemod.output.counts import plural
from trncodemod.pipeline import containment


@dataclass
class CampaignRun:
    """What one run did: statuses of the results it recorded, what it left alone, and of every
    repository it took on, what failed and what still blocks (from each result's counts,
    ``counts.count``, as its description and report count them)."""

    selected: int = 0
    statuses: Counter = field(default_factory=Counter)
    up_to_date: list[str] = field(default_factory=list)
    recorded: list[str] = field(default_factory=list)
    failures: dict[str, str] = field(default_factory=dict)  # name: "status: reason"
    # name: how many blockers it has left, and the first one's place and code (when recorded)
    blocked: dict[str, tuple[int, str | None]] = field(default_factory=dict)

    @property
    def failed(self) -> int:
        return sum(self.statuses[status] for status in FAILED)

    def note(self, name: str, result: dict) -> None:
        """What ``result`` (recorded now, or kept) leaves: a failure, or blockers."""
        if result.get("status") in FAILED:
            self.failures[name] = f"{result['status']}: {result.get('reason', '')}".rstrip(": ")
        blockers = result.get("counts", {}).get("blockers", 0)
        if blockers:
            self.blocked[name] = (blockers, next(iter(result.get("blocking", [])), None))

    def summary(self, out: Path) -> str:
        parts = [f"{n} {status}" for status, n in sorted(self.statuses.items())]
        if self.up_to_date:
            parts.append(f"{len(self.up_to_date)} up to date (kept)")
        lines = [
            f"campaign: {self.selected} repositor{'ies' if self.selected != 1 else 'y'}: "
            + (", ".join(parts) or "nothing to do")
            + f"; results in {out}"
        ]
        if self.blocked:
            lines.append(
                f"blocked: {_repositories(len(self.blocked))}, the migrated program will not "
                "run on the accelerator until each blocker is done by hand:"
            )
            for name, (blockers, first) in sorted(self.blocked.items()):
                where = f"; read first: {first}" if first else ""
                lines.append(f"  {name}: {plural(blockers, 'blocker')}{where}")
        if self.failures:
            lines.append(f"failed: {_repositories(len(self.failures))}:")
            lines += [f"  {name}: {why}" for name, why in sorted(self.failures.items())]
        return "\n".join(lines)


def _repositories(count: int) -> str:
    return f"{count} repositor{'ies' if count != 1 else 'y'}"


@dataclass(frozen=True)
class Options:
    engine: str = "local"
    address: str | None = None
    cpus: int = 1
    retries: int = 2
    only: str | None = None
    verify_python: str | None = None
    work: Path | None = None
    reuse_out: bool = False  # write (and delete) in an --out folder the tool did not make
    reuse_work: bool = False  # clone, check out and clean in a --work folder it did not make


def _now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def run_campaign(
    jobs: list[RepoJob],
    out: Path,
    options: Options,
    say: Callable[[str], None],
) -> CampaignRun:
    containment.claim(out, options.reuse_out, "--reuse-out")
    store = ResultStore(out)
    work = containment.claim(options.work or out / WORK, options.reuse_work, "--reuse-work")
    work = work.resolve()
    chosen = select(jobs, store, options.only)
    requests = [
        Request(s.job, str(work / s.job.name), s.previous, options.verify_python) for s in chosen
    ]
    run = CampaignRun(selected=len(requests))
    run_id = uuid.uuid4().hex[:12]
    if options.engine == "ray":
        stream: Iterator = run_ray(requests, options.address, options.cpus, options.retries)
    else:
        say(describe_local(options.cpus))
        stream = run_local(requests, options.cpus, options.retries)
    with _progress(len(requests)) as advance:
        try:
            for item in stream:
                if isinstance(item, str):  # the engine says where it runs
                    say(item)
                    continue
                request, payload = item
                _record(store, request, payload, run, run_id, options.engine)
                advance(run.failed)
        finally:
            close = getattr(stream, "close", None)
            if close is not None:
                close()
    return run


def _record(
    store: ResultStore,
    request: Request,
    payload: Payload,
    run: CampaignRun,
    run_id: str,
    engine: str,
) -> None:
    result = payload.result
    if result["status"] == UP_TO_DATE:
        run.up_to_date.append(request.job.name)
        run.note(request.job.name, store.read(request.job.name) or {})
        return
    job = request.job
    result = {
        "name": job.name,
        "url": job.url,
        "ref": job.ref,
        **result,
        "spec": job.to_json(),
        "run": {"id": run_id, "engine": engine, "finished_at": _now()},
    }
    store.write(job.name, result, payload.files)
    run.statuses[result["status"]] += 1
    run.note(job.name, result)
    run.recorded.append(job.name)


class _progress:
    """Done of total, failures and time left on stderr, on a terminal only (rich)."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.progress = None

    def __enter__(self) -> Callable[[int], None]:
        if not sys.stderr.isatty() or not self.total:
            return lambda failed: None
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self.progress = Progress(
            TextColumn("campaign"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[failed]} failed"),
            TimeElapsedColumn(),
            TextColumn("ETA"),
            TimeRemainingColumn(),
            console=Console(stderr=True),
            transient=True,
        )
        task = self.progress.add_task("campaign", total=self.total, failed=0)
        self.progress.start()
        progress = self.progress
        # Drawn at each repository's end, not only at the next tick: a fleet whose repositories
        # end within one tick still shows each count.
        return lambda failed: progress.update(task, advance=1, failed=failed, refresh=True)

    def __exit__(self, *exc: object) -> None:
        if self.progress is not None:
            self.progress.stop()
