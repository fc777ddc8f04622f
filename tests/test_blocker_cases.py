"""Which golden cases leave blockers: a finding that means "this program will not run on the
accelerator" must be one, and its must-not-fire twin must leave none (the golden `.findings`
files do not show severities)."""

from __future__ import annotations

from pathlib import Path

import pytest

from trncodemod.commands.golden import GoldenCase
from trncodemod.findings import Severity
from trncodemod.pipeline.migrate import migrate_text

GOLDEN = Path(__file__).resolve().parent.parent / "golden"

# case -> the (line, code) of every blocker it leaves
BLOCKERS = {
    "device/generator_on_device": [(11, "TRN008"), (13, "TRN008")],
    "device/generator_on_cpu": [],
    "device/map_location_target_device": [(29, "TRN005")],
    "device/map_location_target_device_twin": [],
    "data-parallel/reduce_average": [(15, "TRN148"), (32, "TRN148")],
    "data-parallel/reduce_sum_then_divide": [],
    "data-parallel/backend_held_by_flag": [(20, "TRN143")],
    "data-parallel/backend_held_by_flag_twin": [],
    # DDP's device_ids kept: every torchrun rank but the first raises in DDP's _pre_forward.
    "data-parallel/ddp_kept": [(8, "TRN144")],
    "data-parallel/ddp_inputs_made_on_cpu": [],
    # A torch.cuda call measured to raise without CUDA, left in the program (measured-cuda-raises).
    "cuda-calls/raising_call": [(14, "TRN315"), (15, "TRN316"), (22, "TRN316"), (23, "TRN316")],
    "cuda-calls/raising_call_twin": [],
    # The CUDA device count carried through a name or attribute into a division.
    "cuda-calls/divide_by_carried_device_count": [(17, "TRN315"), (27, "TRN315")],
    "cuda-calls/divide_by_carried_device_count_twin": [],
    # A CUDA extension built when the module is imported: the import raises without CUDA.
    "cuda-extensions/build_at_import": [(13, "TRN050")],
    # An import of a library that needs CUDA, run when the module is imported; one in a function
    # or under a condition is a warning (the run stops only where it is taken).
    "cuda-libraries/import_at_top_level": [(4, "TRN051"), (8, "TRN051")],
    "cuda-libraries/import_reraised_in_except": [(6, "TRN051")],
    "cuda-libraries/import_twice_at_top_level": [(5, "TRN051"), (7, "TRN051")],
    "cuda-libraries/import_under_condition": [],
    "cuda-libraries/import_in_function": [],
    "cuda-extensions/build_except_import_error": [(9, "TRN050"), (14, "TRN050")],
    "cuda-extensions/build_guarded_by_cuda_check": [],
    "cuda-extensions/build_caught_with_fallback": [],
    "cuda-extensions/build_in_function": [],  # a warning: the call sites decide
    "cuda-extensions/build_in_function_called_at_import": [(12, "TRN050")],
}


@pytest.mark.parametrize("name", sorted(BLOCKERS))
def test_case_leaves_exactly_its_blockers(name: str) -> None:
    case = GoldenCase(GOLDEN / f"{name}.in.py")
    migration = migrate_text(case.input.read_text("utf-8"), case.input.name, case.settings(False))
    blockers = [(f.line, f.code) for f in migration.findings if f.severity is Severity.BLOCKER]
    assert blockers == BLOCKERS[name]
