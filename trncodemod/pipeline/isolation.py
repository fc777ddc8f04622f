"""Keeping one file's crash, or its runaway memory, that file's error; and every process the
tool starts dying with it.

Worker processes die with the run that started them (a killed run left them blocked on a pipe
nobody reads, for minutes), live under a memory limit, and a parse that might crash the process
runs in a child of its own. Commands the tool starts (a campaign's task and its git, verify's
runner and what the verified script starts) run in a process group of their own that dies with
their parent, by the same means (``start_group``, ``run_group``, ``supervise``). Nothing here
imports LibCST: a worker answered from the cache never loads it.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from multiprocessing.context import BaseContext
from typing import TypeVar

# Linux's prctl(2) option: the signal a process gets when the thread that forked it exits.
_PR_SET_PDEATHSIG = 1
# How often a worker without prctl looks for its parent (the portable fallback).
PARENT_POLL_SECONDS = 0.5
_MIB = 1 << 20
T = TypeVar("T")

# Whether this process is a worker, where a crash is reported as the file's error by the parent
# (`engine`); in the parent a crash would end the run, so a doubtful parse is isolated instead.
in_worker = False


def worker_context() -> BaseContext:
    """The start method whose children are children of this process (under a fork server, the
    server would be their parent, and the check that the parent is still there would not hold)."""
    return multiprocessing.get_context("fork" if sys.platform == "linux" else "spawn")


def enter_worker(parent: int, memory_mib: int) -> None:
    """Set up a worker process started by ``parent`` (a pool initializer): Ctrl-C is left to the
    parent, the worker dies with it, and it may use at most ``memory_mib`` MiB (0: no limit)."""
    global in_worker
    in_worker = True
    # Ctrl-C reaches the whole process group; the parent alone decides, and stops the workers.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent(parent)
    limit_memory(memory_mib)


def die_with_parent(
    parent: int, group: bool = False, cleanup: Callable[[], None] | None = None
) -> None:
    """End this process when ``parent`` ends, however it ends (SIGKILL included). With
    ``group``, this process leads its process group (``start_group``) and ends the whole group,
    the commands it started included, after ``cleanup`` (its temporary folders)."""

    def end() -> None:
        if group:
            end_group(cleanup)
        os._exit(1)

    if group:
        # SIGTERM, not SIGKILL, so that the group goes too: from the parent's death, or from
        # whoever stops this process.
        signal.signal(signal.SIGTERM, lambda number, frame: end())
    _set_parent_death_signal(signal.SIGTERM if group else signal.SIGKILL)
    if os.getppid() != parent:  # it died before the signal was asked for
        end()
    # prctl is Linux's; elsewhere (or where it failed) a thread watches for the parent to go.
    # On Linux too: the signal follows the thread that forked the process, not the process.
    threading.Thread(
        target=watch_parent, args=(parent, PARENT_POLL_SECONDS, end), daemon=True
    ).start()


def end_group(cleanup: Callable[[], None] | None = None) -> None:
    """Run ``cleanup``, then kill this process's group with it, if it leads one."""
    try:
        if cleanup is not None:
            cleanup()
    finally:
        if os.getpgrp() == os.getpid():
            os.killpg(os.getpid(), signal.SIGKILL)
        os._exit(1)


def _set_parent_death_signal(number: int = signal.SIGKILL) -> None:
    if sys.platform != "linux":
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, number, 0, 0, 0)
    except (OSError, AttributeError):
        pass  # the watching thread remains


def watch_parent(
    parent: int, interval: float = PARENT_POLL_SECONDS, end: Callable[[], None] | None = None
) -> None:
    """End the process (``end``, default exit) as soon as its parent is no longer ``parent`` (it
    died, and the process was handed to init or a subreaper)."""
    while os.getppid() == parent:
        time.sleep(interval)
    if end is not None:
        end()
    os._exit(1)


# -- Commands in a process group of their own ---------------------------------------------------
#
# A command the tool starts (a campaign's task, verify's runner and the script it runs, the git
# they call) runs in a process group of its own, led by a process of the tool that dies with its
# parent (``die_with_parent(group=True)``) and takes the group with it: a timeout, a Ctrl-C or a
# parent killed with SIGKILL leaves nothing running. A command that is not the tool's (a runner
# under another interpreter, git) is led by ``supervise``, this module run as a program.


def start_group(
    command: list[str], *, supervised: bool = False, remove: str | None = None, **popen: object
) -> subprocess.Popen:
    """``command`` started in a new process group. ``supervised``: under ``supervise``, which
    ends the group, and removes ``remove`` (a temporary folder), when this process dies."""
    if supervised:
        command = [sys.executable, "-m", __name__, str(os.getpid()), remove or "", *command]
    return subprocess.Popen(command, start_new_session=True, **popen)  # type: ignore[call-overload]


def stop_group(process: subprocess.Popen) -> None:
    """Kill ``process``'s group, what is left of it, and reap ``process``. (Its id stays the
    group's while a member lives; Linux hands ids out in turn, so a new group with that id in
    the moment after ``process`` ended is not a case to design for.)"""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()


def run_group(
    command: list[str],
    timeout: float | None,
    *,
    supervised: bool = False,
    remove: str | None = None,
    **popen: object,
) -> subprocess.CompletedProcess:
    """``subprocess.run`` in a group of its own (``start_group``), its output captured: on a
    timeout (TimeoutExpired, with what it printed) and on any exception, the whole group is
    killed; on return too, so nothing it left behind goes on."""
    popen = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, **popen}
    process = start_group(command, supervised=supervised, remove=remove, **popen)
    try:
        try:
            out, err = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            stop_group(process)
            try:
                out, err = process.communicate(timeout=5)
            except subprocess.TimeoutExpired:  # a process that left the group holds the pipes
                out = err = None
            raise subprocess.TimeoutExpired(command, timeout or 0, out, err) from None
    finally:
        stop_group(process)
    return subprocess.CompletedProcess(command, process.returncode, out, err)


def supervise(argv: list[str]) -> int:
    """``python -m trncodemod.pipeline.isolation PARENT REMOVE COMMAND...``: run COMMAND in this
    process's group and return its status; when PARENT dies first, remove REMOVE (when not
    empty) and kill the group."""
    parent, remove, command = int(argv[0]), argv[1], argv[2:]

    def cleanup() -> None:
        if remove:
            shutil.rmtree(remove, ignore_errors=True)

    die_with_parent(parent, group=True, cleanup=cleanup)
    try:
        status = subprocess.call(command)
    except OSError as err:
        print(f"cannot run {command[0]}: {err.strerror}", file=sys.stderr)
        return 127
    return status if status >= 0 else 128 - status


if __name__ == "__main__":
    sys.exit(supervise(sys.argv[1:]))


def limit_memory(memory_mib: int) -> None:
    """Cap this process's address space, so that a runaway parse fails here (MemoryError, or an
    abort in native code) instead of taking the machine's memory."""
    if not memory_mib:
        return
    try:
        import resource
    except ImportError:  # Windows
        return
    limit = memory_mib * _MIB
    _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


def death_reason(exitcode: int | None, memory_mib: int) -> str:
    """What a child process's exit code says about how it died, for a user."""
    over = f": over the limit of {memory_mib:,} MiB (`max-worker-memory`)" if memory_mib else ""
    if exitcode is not None and exitcode < 0:
        number = -exitcode
        if number == signal.SIGSEGV:
            return "crashed in native code (segmentation fault)"
        if number == signal.SIGABRT:
            return f"aborted, most likely out of memory{over}"
        if number == signal.SIGKILL:
            return "was killed (by the system's out-of-memory killer, or a person)"
        return f"died of signal {signal.Signals(number).name}"
    if exitcode == MEMORY_EXIT:
        return f"ran out of memory{over}"
    return f"exited with status {exitcode}"


MEMORY_EXIT = 3


def _run_child(
    parent: int, memory_mib: int, send: Connection, work: Callable[..., object], args: tuple
) -> None:
    enter_worker(parent, memory_mib)
    try:
        result = work(*args)
    except MemoryError:
        os._exit(MEMORY_EXIT)
    send.send(result)


def run_alone(
    work: Callable[..., T], args: tuple, memory_mib: int
) -> tuple[T, None] | tuple[None, str]:
    """``work(*args)`` in a child process of its own, under the memory limit: its result and None,
    or None and how the child died. Ctrl-C (or any exception here) ends the child too."""
    context = worker_context()
    receive, send = context.Pipe(duplex=False)
    child = context.Process(
        target=_run_child, args=(os.getpid(), memory_mib, send, work, args), daemon=True
    )
    child.start()
    send.close()
    try:
        try:
            result = receive.recv()
        except EOFError:  # it died before sending
            result = None
        child.join()
    finally:
        if child.is_alive():
            child.kill()
            child.join()
        receive.close()
    if child.exitcode != 0:
        return None, death_reason(child.exitcode, memory_mib)
    return result, None
