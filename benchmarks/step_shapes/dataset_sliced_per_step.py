"""A whole dataset moved to the device and sliced at each step's Python-int offset (TRN056), on
two trainers of locuslab/TCN as the tool ports them: how many graphs compile?

    PJRT_DEVICE=CPU /work/xla-venv/bin/python benchmarks/step_shapes/dataset_sliced_per_step.py \\
        BEFORE_TREE AFTER_TREE

Each tree is a copy of locuslab/TCN at 2f8c2b8 with a patch applied (first-sight batch E keeps
them under ``benchmarks/.cache/first_sight/batch-2026-12-06-e/applied/tcn``): BEFORE with the
whole-tensor moves ported (`X_train = X_train.to(torch_xla.device())`), AFTER with the tensors
kept on the host and each slice moved. The data sizes are made small (add_test: 200 training
and 50 test samples, seq_len 20; copymem_test: 128 and 32, blank_len 10; 2 levels, 1 epoch)
and each script runs in its own process under torch_xla.debug.metrics. Printed: graph
executions (``ExecuteTime`` samples) and compiles (``UncachedCompile``) per script and tree.

Measured with torch 2.9.0 + torch-xla 2.9.0 on XLA:CPU: add_test 37 executions and 36 compiles
before, 37 and 12 after; copymem_test 27 and 26 before, 27 and 8 after. Before, the compiles
grow with the steps (add_test with 400 samples: 66); after, they do not (12).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

SCRIPTS = {
    "adding_problem/add_test.py": (
        [
            ("data_generator(50000, seq_length)", "data_generator(200, seq_length)"),
            ("data_generator(1000, seq_length)", "data_generator(50, seq_length)"),
        ],
        ["--epochs", "1", "--seq_len", "20", "--levels", "2", "--log-interval", "1000"],
    ),
    "copy_memory/copymem_test.py": (
        [("n_train = 10000", "n_train = 128"), ("n_test = 1000", "n_test = 32")],
        ["--epochs", "1", "--blank_len", "10", "--levels", "2", "--log-interval", "1000"],
    ),
}

_RUN = """
import os, runpy, sys
import torch_xla.core.xla_model as xm
import torch_xla.debug.metrics as met
sys.argv = sys.argv[1:]
sys.path.insert(0, os.path.dirname(os.path.abspath(sys.argv[0])))
runpy.run_path(sys.argv[0], run_name="__main__")
xm.wait_device_ops()
execute = met.metric_data("ExecuteTime")
print("COUNTS", execute[0] if execute else 0, met.counter_value("UncachedCompile") or 0)
"""


def measure(tree: Path) -> dict:
    results = {}
    with tempfile.TemporaryDirectory() as scratch:
        copy = Path(scratch) / "tcn"
        shutil.copytree(tree, copy)
        for script, (edits, args) in SCRIPTS.items():
            path = copy / "TCN" / script
            text = path.read_text()
            for old, new in edits:
                assert old in text, f"{script}: {old!r} not found"
                text = text.replace(old, new)
            path.write_text(text)
            done = subprocess.run(
                [sys.executable, "-c", _RUN, path.name, *args],
                cwd=path.parent,
                env={**os.environ, "PJRT_DEVICE": "CPU", "PYTHONPATH": str(copy)},
                capture_output=True,
                text=True,
                check=True,
            )
            line = next(x for x in done.stdout.splitlines() if x.startswith("COUNTS"))
            executions, compiles = map(int, line.split()[1:])
            results[script] = {"executions": executions, "compiles": compiles}
    return results


if __name__ == "__main__":
    before, after = map(Path, sys.argv[1:3])
    print(json.dumps({"before": measure(before), "after": measure(after)}, indent=2))
