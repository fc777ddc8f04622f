"""The Ray engine: the same campaign on Ray started on this machine and on the local engine gives
the same results. Skipped where Ray is not installed (CI installs `.[test]` only: Ray takes
about 3 minutes and 285 MB to install and 0.6 GB to run; README, "Campaigns")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from fleet import make_fleet

from trncodemod.cli import main

pytest.importorskip(
    "ray", reason="Ray is not installed (pip install 'trncodemod[campaign]'); the local engine's "
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
