"""Keeping one file's crash, or its runaway memory, that file's error.

Worker processes die with the run that started them (a killed run left them blocked on a pipe
nobody reads, for minutes), live under a memory limit, and a parse that might crash the process
runs in a child of its own. Nothing here imports LibCST: a worker answered from the cache never
loads it.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
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


def die_with_parent(parent: int) -> None:
    """End this process when ``parent`` ends, however it ends (SIGKILL included)."""
    _set_parent_death_signal()
    if os.getppid() != parent:  # it died before the signal was asked for
        os._exit(1)
    # prctl is Linux's; elsewhere (or where it failed) a thread watches for the parent to go.
    # On Linux too: the signal follows the thread that forked the process, not the process.
    threading.Thread(target=watch_parent, args=(parent,), daemon=True).start()


def _set_parent_death_signal() -> None:
    if sys.platform != "linux":
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        pass  # the watching thread remains


def watch_parent(parent: int, interval: float = PARENT_POLL_SECONDS) -> None:
    """Exit the process as soon as its parent is no longer ``parent`` (it died, and the process
    was handed to init or a subreaper)."""
    while os.getppid() == parent:
        time.sleep(interval)
    os._exit(1)


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
