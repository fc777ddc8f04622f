"""Where repositories' tasks run: on Ray, or in a local pool of processes. A thin layer.

Either engine runs the same function, ``run_task``, once per repository: it starts the task's
own process (``python -m trncodemod.campaign.task``) with the repository's timeout and hands back
its result and files, so a crash or a hang costs one repository, never the campaign. Results
come back as they finish, in any order.

* **Ray** (``pip install '.[campaign]'`` in a trncodemod checkout): one Ray task per repository, with its CPU and
  memory request; Ray schedules them, retries a failed checkout (``retry_exceptions``) and
  streams them back (``ray.wait``). ``address`` joins a running cluster (every node needs
  trncodemod and git; ``work`` and ``out`` on storage the nodes share); without it Ray starts on
  this machine with ``cpus`` CPUs, a small object store and no dashboard, and stops with the run.
* **local**: a thread per slot, each waiting on one task's process (``cpus`` at a time); a failed
  checkout is tried again, ``retries`` times, as on Ray.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path

from trncodemod.campaign.repository import CloneError
from trncodemod.campaign.spec import RepoJob
from trncodemod.campaign.task import ARTIFACTS, EXIT_CLONE, RESULT
from trncodemod.pipeline.isolation import start_group, stop_group

OBJECT_STORE_BYTES = 200 * 2**20  # results are a few patches: Ray's default (30 % of RAM) is waste
ENGINES = ("local", "ray")


# The local engine's task processes, ended when the run is interrupted (Ray ends its own).
_running: set[subprocess.Popen] = set()


class EngineError(Exception):
    """The engine cannot run here (Ray not installed, no cluster at the address)."""


@dataclass(frozen=True)
class Request:
    """One repository's task: the job, its work folder, the inputs of its finished result (None:
    run it whatever they are), and the interpreter that verifies (None: no verification)."""

    job: RepoJob
    work: str
    previous: dict | None = None
    verify_python: str | None = None


@dataclass
class Payload:
    """A task's result (``result.json``'s content) and its files, by artifact name."""

    result: dict
    files: dict[str, bytes] = field(default_factory=dict)


def run_task(request: Request) -> Payload:
    """Run one repository's task in its own process, stopped after the job's timeout. Raises
    CloneError when the checkout failed, for the engine to retry."""
    job = request.job
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="trncodemod-campaign-") as tmp:
        spec = Path(tmp) / "request.json"
        out = Path(tmp) / "out"
        out.mkdir()
        document = {
            "job": job.to_json(),
            "work": request.work,
            "previous": request.previous,
            "verify_python": request.verify_python,
            "parent": os.getpid(),
            "temporary": tmp,  # the task removes it if this process dies first
        }
        spec.write_text(json.dumps(document), "utf-8")
        command = [sys.executable, "-m", "trncodemod.campaign.task", str(spec), str(out)]
        # The task leads a process group of its own (its git and verify runs in it) and ends it
        # with this process; a timeout ends the group, not only the task.
        process = start_group(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        _running.add(process)
        try:
            _, stderr = process.communicate(timeout=job.timeout)
        except subprocess.TimeoutExpired:
            stop_group(process)
            process.communicate()
            return Payload({"status": "timed-out", "reason": f"ran past its {job.timeout} s"})
        finally:
            _running.discard(process)
            stop_group(process)  # what the task left running
        path = out / RESULT
        if not path.exists():
            tail = "\n".join(stderr.strip().splitlines()[-20:])
            reason = f"the task's process died (exit status {process.returncode})"
            return Payload({"status": "crashed", "reason": reason, "traceback": tail})
        result = json.loads(path.read_text("utf-8"))
        if process.returncode == EXIT_CLONE:
            raise CloneError(result["reason"])
        files = {
            name: (out / name).read_bytes() for name in ARTIFACTS.values() if (out / name).exists()
        }
    timings = result.setdefault("timings", {})
    timings["total"] = time.monotonic() - started  # with the process's start and the hand-over
    return Payload(result, files)


def _clone_failed(request: Request, err: BaseException) -> tuple[Request, Payload]:
    return request, Payload({"status": "clone-failed", "reason": str(err)})


def _with_retries(request: Request, retries: int) -> Payload:
    tries = 0
    while True:
        try:
            return run_task(request)
        except CloneError:
            tries += 1
            if tries > retries:
                raise


def run_local(
    requests: list[Request], cpus: int, retries: int
) -> Iterator[tuple[Request, Payload]]:
    """Each request's payload as it finishes, ``cpus`` tasks at a time."""
    pool = ThreadPoolExecutor(max_workers=cpus, thread_name_prefix="campaign")
    futures = {pool.submit(_with_retries, request, retries): request for request in requests}
    pending = set(futures)
    try:
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                try:
                    yield futures[future], future.result()
                except CloneError as err:
                    yield _clone_failed(futures[future], err)
    finally:
        # Ctrl-C, or a caller that stopped reading: nothing queued starts, and the tasks running
        # are ended now, not waited for (what they did is not recorded).
        pool.shutdown(wait=False, cancel_futures=True)
        for process in list(_running):
            stop_group(process)


def describe_local(cpus: int) -> str:
    return f"engine: local, a pool of {cpus} process{'es' * (cpus != 1)} on this machine (not Ray)"


def run_ray(
    requests: list[Request], address: str | None, cpus: int, retries: int
) -> Iterator[tuple[Request, Payload] | str]:
    """Each request's payload as it finishes on Ray; first, a line that says where it runs."""
    try:
        import ray
        from ray.exceptions import RayError, RayTaskError
    except ImportError:
        raise EngineError(
            "--engine ray needs Ray, which is not installed: pip install 'ray>=2.9' "
            "(in a trncodemod checkout: pip install '.[campaign]'), or run with --engine local"
        ) from None
    try:
        if address is not None:
            context = ray.init(address=address, log_to_driver=False, logging_level="ERROR")
            where = f"joined the cluster at {address}"
        else:
            # "local": a Ray of its own, even where another cluster runs on this machine (ray.init
            # would otherwise join the last one started here, or RAY_ADDRESS's).
            context = ray.init(
                address="local",
                num_cpus=cpus,
                object_store_memory=OBJECT_STORE_BYTES,
                include_dashboard=False,
                log_to_driver=False,
                logging_level="ERROR",
            )
            where = f"started on this machine with {cpus} CPU{'s' * (cpus != 1)}"
    except (ConnectionError, RuntimeError, ValueError) as err:
        raise EngineError(
            f"Ray could not {'join ' + address if address else 'start'}: {err}"
        ) from None
    pending: list = []
    try:
        yield f"engine: Ray {ray.__version__}, {where} ({context.address_info['address']})"
        task = ray.remote(run_task)
        refs = {
            task.options(
                num_cpus=request.job.cpus,
                memory=request.job.memory_mb * 2**20,
                max_retries=retries,
                retry_exceptions=[CloneError],
                name=f"trncodemod-campaign:{request.job.name}",
            ).remote(request): request
            for request in requests
        }
        pending = list(refs)
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                try:
                    yield refs[ref], ray.get(ref)
                except RayTaskError as err:
                    if isinstance(err.cause, CloneError):
                        yield _clone_failed(refs[ref], err.cause)
                    else:
                        yield refs[ref], Payload({"status": "crashed", "reason": str(err)})
                except RayError as err:  # the worker died (out of memory, killed)
                    reason = f"{type(err).__name__}: {err}"
                    yield refs[ref], Payload({"status": "crashed", "reason": reason})
    finally:
        for ref in pending:  # Ctrl-C, or a caller that stopped reading
            ray.cancel(ref, force=True)
        ray.shutdown()  # stops the Ray it started; only disconnects from a cluster it joined
