"""Migrating many files: read each, serve it from the cache or migrate it (``trncodemod.pipeline.migrate``),
in worker processes. A file that cannot be read, decoded or parsed, or on which a pass fails, is
reported with its path and line and left untouched; the other files go on. Workers compute; only
the caller writes.

Nothing here imports LibCST or the passes: a run whose every file is in the cache never loads
them (importing LibCST alone takes a third of a second).
"""

from __future__ import annotations

import gc
import os
import threading
from collections.abc import Iterator, Sequence
from concurrent.futures import InvalidStateError, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path

from trncodemod.analysis.program import LONE, ModuleView
from trncodemod.config import Settings
from trncodemod.findings import Finding, Severity
from trncodemod.output.patch import PatchError, build_file_diff
from trncodemod.pipeline.cache import Entry, ResultCache
from trncodemod.pipeline.files import read_regular
from trncodemod.pipeline.isolation import enter_worker, run_alone, worker_context
from trncodemod.pipeline.source import SourceError, decode_source


@dataclass(frozen=True)
class FileOutcome:
    path: Path
    display: str
    old: bytes | None = None
    new: bytes | None = None  # None when nothing changed or on error
    diff: bytes = b""
    findings: tuple[Finding, ...] = ()
    error: str | None = None
    error_line: int | None = None
    error_column: int | None = None
    passes_run: tuple[str, ...] = field(default=())
    # The file's training profile (``TrainingProfile.to_json``); None for a notebook or an error.
    profile: dict | None = None

    @property
    def changed(self) -> bool:
        return self.new is not None

    def error_text(self) -> str:
        where = self.display
        if self.error_line is not None:
            where += f":{self.error_line}"
            if self.error_column is not None:
                where += f":{self.error_column}"
        return f"{where}: {self.error}"


def display_path(path: Path, cwd: Path | None = None) -> str:
    """``path`` relative to ``cwd`` (resolved; pass it resolved once for many paths) when it lies
    inside it, else as given: ``/srv/proj/train.py`` keeps its ``/``, ``../x.py`` its ``..``."""
    cwd = cwd or Path.cwd().resolve()
    try:
        return path.resolve().relative_to(cwd).as_posix()
    except ValueError:
        return path.as_posix()


def migrate_file(
    path: Path,
    display: str,
    settings: Settings,
    cache: ResultCache | None = None,
    view: ModuleView = LONE,
) -> FileOutcome:
    try:
        raw = read_regular(path)  # never blocks on a FIFO named *.py
    except OSError as err:
        return FileOutcome(path, display, error=f"cannot read: {err.strerror or err}")
    if cache is not None:
        entry = cache.get(raw, display, view.fingerprint())
        if entry is not None:
            diff = build_file_diff(display, raw, entry.new) if entry.new is not None else b""
            return FileOutcome(
                path,
                display,
                old=raw,
                new=entry.new,
                diff=diff,
                findings=entry.findings,
                passes_run=entry.passes_run,
                profile=entry.profile,
            )
    # Imported on the first file the cache does not answer (once per process).
    from trncodemod.pipeline.migrate import Migration, MigrationError, migrate_text

    try:
        if path.suffix == ".ipynb":
            from trncodemod.pipeline.notebooks import migrate_notebook

            new, found, ran = migrate_notebook(raw, display, settings)
            migration = Migration("", found, ran)
        else:
            source = decode_source(raw)
            migration = migrate_text(source.text, display, settings, view)
            new = source.encode(migration.text) if migration.text != source.text else None
        diff = build_file_diff(display, raw, new) if new is not None else b""
    except SourceError as err:
        return FileOutcome(path, display, old=raw, error=err.reason, error_line=err.line)
    except MigrationError as err:
        return FileOutcome(
            path, display, old=raw, error=err.reason, error_line=err.line, error_column=err.column
        )
    except PatchError as err:
        return FileOutcome(
            path, display, old=raw, error=f"internal error building the patch: {err}"
        )
    except MemoryError:  # over the worker's limit (`isolation.limit_memory`)
        return FileOutcome(path, display, old=raw, error=_out_of_memory(settings))
    except Exception as err:  # a bug on one file must not take the other files down
        return FileOutcome(
            path, display, old=raw, error=f"internal error: {type(err).__name__}: {err}"
        )
    profile = None if path.suffix == ".ipynb" else migration.profile.to_json()
    if cache is not None:
        entry = Entry(new, migration.findings, migration.passes_run, profile)
        cache.put(raw, display, entry, view.fingerprint())
    return FileOutcome(
        path,
        display,
        old=raw,
        new=new,
        diff=diff,
        findings=migration.findings,
        passes_run=migration.passes_run,
        profile=profile,
    )


def _out_of_memory(settings: Settings) -> str:
    limit = settings.max_worker_memory
    where = f"over the limit of {limit:,} MiB (`max-worker-memory`)" if limit else "memory"
    return f"ran out of {where} while migrating this file; nothing was written for it"


Item = tuple[Path, str, Settings, ResultCache | None, ModuleView]


def _migrate_item(item: Item) -> FileOutcome:
    return migrate_file(*item)


def migrate_files(
    paths: Sequence[Path],
    settings: Settings,
    jobs: int | None = None,
    cache: ResultCache | None = None,
) -> Iterator[FileOutcome]:
    """Outcomes in the order of ``paths``; ``jobs`` worker processes (1: in this process)."""
    # A LibCST tree is hundreds of thousands of objects, and the cyclic collector, started
    # every 700 allocations, walked them 5-7 % of a run (measured on the real-code benchmark);
    # rarer collections cost about 20 MiB more at the peak. Forked workers inherit it.
    thresholds = gc.get_threshold()
    gc.set_threshold(GC_THRESHOLD, *thresholds[1:])
    try:
        yield from _migrate_files(paths, settings, jobs, cache)
    finally:
        gc.set_threshold(*thresholds)


GC_THRESHOLD = 100_000


def _migrate_files(
    paths: Sequence[Path],
    settings: Settings,
    jobs: int | None,
    cache: ResultCache | None,
) -> Iterator[FileOutcome]:
    cwd = Path.cwd().resolve()
    displays = [display_path(path, cwd) for path in paths]
    # The program is read once, here, before any file; each worker gets its module's view.
    from trncodemod.pipeline.program import program_views

    views = program_views(paths, displays, cache, settings.target)
    items = [
        (path, display, settings, cache, views.get(display, LONE))
        for path, display in zip(paths, displays, strict=True)
    ]
    jobs = jobs or os.cpu_count() or 1
    if jobs == 1:
        yield from map(_migrate_item, items)
        return
    # Workers even for one file: there a parser crash or runaway memory is that file's error;
    # in this process it would end the run (`isolation`). Each imports LibCST (0.45 s of CPU),
    # worth it from two files a worker.
    jobs = min(jobs, max(1, len(items) // 2))
    pending = items
    while pending:
        done = 0
        pool = _pool(jobs, settings)
        try:
            chunk = max(1, min(8, len(pending) // (jobs * 8)))  # small: progress moves
            for outcome in pool.map(_migrate_item, pending, chunksize=chunk):
                yield outcome
                done += 1
            pool.shutdown()
            return
        except BrokenProcessPool:
            pool.shutdown(wait=False, cancel_futures=True)
            # A worker died (out of memory, a crash in native code or a plugin), failing every
            # file still in the pool. The first of them runs alone: it is either the one that
            # kills its process, reported as such, or innocent; the rest go to a fresh pool.
            yield _alone(pending[done])
            pending = pending[done + 1 :]
        except BaseException:
            # Ctrl-C, or the caller stopped reading: waiting for the pool to drain took tens of
            # seconds, so the workers are stopped now (they hold nothing the caller needs).
            _stop(pool)
            raise


def _pool(jobs: int, settings: Settings) -> ProcessPoolExecutor:
    """Workers that die with this process, each under the memory limit."""
    return ProcessPoolExecutor(
        max_workers=jobs,
        mp_context=worker_context(),
        initializer=enter_worker,
        initargs=(os.getpid(), settings.max_worker_memory),
    )


def _stop(pool: ProcessPoolExecutor) -> None:
    """Cancel what is queued and end the workers without waiting for the file they are on."""
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14+
    if terminate is not None:
        terminate()
        return
    # Before shutdown, which forgets them; the pool's manager thread then sees them gone and
    # fails what is queued (cancelling it too races that thread: InvalidStateError on 3.11).
    workers = list((getattr(pool, "_processes", None) or {}).values())
    manager = getattr(pool, "_executor_manager_thread", None)
    previous = threading.excepthook

    def quiet(args: threading.ExceptHookArgs) -> None:
        # The rest of that race (CPython 3.11): `map`'s iterator, closed as the
        # interrupt leaves the caller, cancels what that thread is failing at the same moment.
        if args.thread is manager and isinstance(args.exc_value, InvalidStateError):
            return
        previous(args)

    threading.excepthook = quiet
    for process in workers:
        process.terminate()
    pool.shutdown(wait=False)


def _alone(item: Item) -> FileOutcome:
    outcome, death = run_alone(_migrate_item, (item,), item[2].max_worker_memory)
    if outcome is not None:
        return outcome
    return FileOutcome(
        item[0],
        item[1],
        error=f"the worker process died while migrating this file: {death}; nothing "
        "was written for it",
    )


def blocks(finding: Finding) -> bool:
    """Left, and the migrated program will not run on the accelerator while it is."""
    return finding.severity is Severity.BLOCKER and not finding.fixed
