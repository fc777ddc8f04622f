"""The optional XLA lane for the tied-weights pass (TRN250): the golden outputs, run on XLA:CPU,
keep the one shared parameter their models tie in `__init__`; the input without the re-tie does
not (the fact the pass is for: torch's `Module._apply` unties them on the XLA device).

Run with the Python that has torch-xla, e.g.
``/work/xla/venv/bin/python -m pytest tests/test_tied_weights_xla.py``; skipped elsewhere.
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

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "tied-weights"
# Loads a case as a module, builds its model with the expression given, and prints what it
# holds: every tie in these cases shares one weight, so one parameter is the tied model.
PROBE = """
import importlib.util, json, sys
import torch
spec = importlib.util.spec_from_file_location("case", sys.argv[1])
case = importlib.util.module_from_spec(spec)
spec.loader.exec_module(case)
model = eval(sys.argv[2], vars(case))
parameters = list(model.parameters())
print(json.dumps({"parameters": len(parameters), "device": parameters[0].device.type}))
"""
# (file, expression that builds the moved model, parameters it must have)
CASES = [
    ("constructor_move.out.py", "main()", 1),
    ("name_moves.out.py", "build()", 1),
    ("name_moves.out.py", "rebuild()", 1),
    ("two_ties.out.py", "Trainer().model", 1),
    ("from_cuda.out.py", "main()", 1),
    ("attribute_moves.out.py", "Trainer().model", 1),
    # A tie under a test of `__init__`'s parameters, made again under the caller's test.
    ("conditional_tie.out.py", "main(True)", 1),
    ("conditional_tie.out.py", "main(False)", 2),
    ("conditional_tie_constant.out.py", "always()", 1),
    # Ties made by a method, a function and an inner module's `__init__`.
    ("tie_helpers.out.py", "main(True)[0]", 1),
    ("tie_helpers.out.py", "main(True)[1]", 1),
    ("tie_helpers.out.py", "main(True)[2]", 1),
    ("tie_helpers.out.py", "main(True)[3]", 3),  # the shared weight and a LayerNorm's two
    ("tie_helpers.out.py", "main(True)[4]", 1),
    # The premise: without the re-tie the move leaves two parameters.
    ("constructor_move.in.py", "main()", 2),
    ("conditional_tie.in.py", "main(True)", 2),
]


def _skip_reason() -> str | None:
    if importlib.util.find_spec("torch_xla") is None:
        return "torch_xla is not installed (optional lane: torch==2.9.0 + torch-xla==2.9.0)"
    return None


@pytest.mark.parametrize(("name", "build", "expected"), CASES)
def test_moved_model_keeps_its_tie_on_xla(name: str, build: str, expected: int) -> None:
    reason = _skip_reason()
    if reason:
        pytest.skip(reason)
    result = subprocess.run(
        [sys.executable, "-c", PROBE, str(GOLDEN / name), build],
        capture_output=True,
        text=True,
        env={**os.environ, "PJRT_DEVICE": "CPU"},
        timeout=600,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert report == {"parameters": expected, "device": "xla"}, (name, build, report)
