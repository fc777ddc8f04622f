"""The float64 pass's rules: codes in its range and documentation `trncodemod explain` can print."""

from __future__ import annotations

import pytest
from trncodemod.transforms.float64 import Float64ToFloat32

from trncodemod.findings import Safety, Severity


@pytest.mark.parametrize("rule", Float64ToFloat32.rules, ids=lambda r: r.code)
def test_rule_is_documented_with_its_source(rule) -> None:
    doc = rule.doc()
    for section in ("## What it does", "## Why", "## Example", "## Use instead"):
        assert section in doc, f"{rule.code}: missing {section}"
    assert "neuron-data-types" in rule.sources
    # TRN153, the note under BF16 downcast, is from the training-profile range (issue 12);
    # TRN219/TRN220 (a deliberate float64, a model kept with its inputs) from issue 23.
    assert "TRN201" <= rule.code <= "TRN209" or rule.code in ("TRN153", "TRN219", "TRN220")


@pytest.mark.parametrize("rule", Float64ToFloat32.rules, ids=lambda r: r.code)
def test_rule_changing_numerics_is_review_class(rule) -> None:
    assert rule.safety is Safety.REVIEW


def test_only_unknown_numpy_dtype_host_float64_and_bf16_downcast_are_notes() -> None:
    notes = [rule.code for rule in Float64ToFloat32.rules if rule.severity is Severity.INFO]
    assert notes == ["TRN206", "TRN209", "TRN153"]
