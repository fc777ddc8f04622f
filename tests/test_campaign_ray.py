"""The Ray engine: the same campaign on Ray started on this machine and on the local engine gives
the same results. Skipped where Ray is not installed (CI installs `.[test]` only: Ray takes
about 3 minutes and 285 MB to install and 0.6 GB to run; docs/campaigns.md)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from fleet import make_fleet

from trncodemod.cli import main

pytest.importorskip(
    "ray", reason="Ray is not installed (pip install '.[campaign]'); the local engine's "
    "tests run without it"
)  # fmt: skip

UNCLONABLE = '\n[[repos]]\nname = "gone"\nurl = "repos/does-not-exist"\n'
# What depends on when and where a repository ran, not on what the tool made of it.
RUN_FIELDS = {"run", "timings", "branch_commit"}


def _results(out: Path) -> dict[str, dict]:
    found = {}
    for path in sorted(out.glob("*/result.json")):
        result = json.loads(path.read_text())
        files = {p.name: p.read_bytes() for p in path.parent.iterdir() if p.name != "result.json"}
        found[path.parent.name] = (
            {k: v for k, v in result.items() if k not in RUN_FIELDS},
            files,
        )
    return found


def test_ray_on_this_machine_and_the_local_engine_give_the_same_results(tmp_path: Path) -> None:
    spec = make_fleet(tmp_path, 20, UNCLONABLE)
    outputs = {}
    for engine in ("ray", "local"):
        result = CliRunner().invoke(
            main,
            ["campaign", "run", str(spec), "--out", str(tmp_path / engine), "--engine", engine,
             "--cpus", "2", "--retries", "1"],
        )  # fmt: skip
        assert result.exit_code == 1, result.output  # the unclonable repository
        outputs[engine] = result.output
    assert (
        "engine: Ray" in outputs["ray"] and "started on this machine with 2 CPUs" in outputs["ray"]
    )
    ray_results, local_results = _results(tmp_path / "ray"), _results(tmp_path / "local")
    assert len(ray_results) == 21
    assert ray_results == local_results
    assert ray_results["gone"][0]["status"] == "clone-failed"
    statuses = {r["status"] for r, _ in ray_results.values()}
    assert statuses == {"migrated", "no-change", "clone-failed"}


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_address_joins_a_running_cluster_and_leaves_it_running(tmp_path: Path) -> None:
    spec = make_fleet(tmp_path, 2)
    ray_cli = str(Path(sys.executable).with_name("ray"))
    port = _free_port()
    address = f"127.0.0.1:{port}"
    # Ray 2.5x turns token authentication on for `ray start`; this test cluster opts out, as
    # its warning says (RAY_AUTH_MODE=disabled), so the driver needs no token.
    head = subprocess.Popen(
        [ray_cli, "start", "--head", "--block", f"--port={port}",
         "--num-cpus=2", f"--object-store-memory={200 * 2**20}", "--include-dashboard=false",
         "--disable-usage-stats"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        env={**os.environ, "RAY_AUTH_MODE": "disabled"},
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 180
        while True:  # the head's GCS answers on its port once the cluster is up
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
                break
            assert head.poll() is None and time.monotonic() < deadline, "the cluster did not start"
            time.sleep(1)
        result = CliRunner().invoke(
            main,
            ["campaign", "run", str(spec), "--out", str(tmp_path / "out"), "--engine", "ray",
             "--address", address, "--exit-zero"],
        )  # fmt: skip
        assert result.exit_code == 0, result.output  # r01's blocker forgiven: none failed
        assert f"joined the cluster at {address}" in result.output
        assert len(list((tmp_path / "out").glob("*/result.json"))) == 2
        assert head.poll() is None, "a cluster the campaign joined is not stopped by it"
    finally:
        os.killpg(head.pid, signal.SIGTERM)
        head.wait(timeout=60)
