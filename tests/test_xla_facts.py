"""The optional XLA lane for the measured facts rules cite: ``benchmarks/xla_facts.py`` still
observes what ``benchmarks/xla_facts.json`` records (the run the rules' sources point at).

Run with the Python that has torch 2.9.0 + torch-xla 2.9.0, or point ``TRNCODEMOD_XLA_PYTHON`` at
it; skipped, with the reason, without one. A difference means a fact a rule states has changed:
rerun the script, update the JSON, and read the rules that cite the check
(``grep -rn "measured-..." transforms``).
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.xla

ROOT = Path(__file__).resolve().parent.parent
XLA_PYTHON = os.environ.get("TRNCODEMOD_XLA_PYTHON") or (
    sys.executable if importlib.util.find_spec("torch_xla") else None
)


@pytest.mark.skipif(XLA_PYTHON is None, reason="no torch-xla (set TRNCODEMOD_XLA_PYTHON)")
def test_the_measured_facts_are_what_the_rules_say() -> None:
    recorded = json.loads((ROOT / "benchmarks" / "xla_facts.json").read_text("utf-8"))
    run = subprocess.run(
        [XLA_PYTHON, str(ROOT / "benchmarks" / "xla_facts.py")],
        capture_output=True,
        text=True,
        env={**os.environ, "PJRT_DEVICE": "CPU"},
        timeout=900,
        cwd=ROOT,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    observed = json.loads(run.stdout)
    differing = sorted(
        check
        for check in recorded.keys() - {"date"}
        if _facts(observed.get(check)) != _facts(recorded[check])
        and "not installed" not in _values(observed.get(check))
    )
    assert not differing, differing


def _values(value: object) -> list[object]:
    """A check's top-level values: a check of an optional library (ignite) that the XLA
    Python lacks says "not installed", and is not compared."""
    return list(value.values()) if isinstance(value, dict) else []


def _facts(value: object) -> object:
    """What a check observed, less its wall-clock times (keys ending in " ms"): those are kept
    in the JSON as measured once, and vary from run to run; counts and outcomes do not."""
    if isinstance(value, dict):
        return {k: _facts(v) for k, v in value.items() if not str(k).endswith(" ms")}
    if isinstance(value, list):
        return [_facts(v) for v in value]
    return value
