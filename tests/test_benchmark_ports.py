"""The human-port benchmark's bookkeeping: the review's claims against a run, and the table."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import ports  # noqa: E402


def _edit(status: str, rules: list[str], category: str = "device") -> ports.Edit:
    return ports.Edit("p", status, category, "human edit", status, "why", rules)


def test_a_made_claim_needs_a_fix_by_one_of_its_rules():
    run = {
        "p": {"findings": [{"code": "TRN101", "fixed": True}, {"code": "TRN131", "fixed": False}]}
    }
    assert ports.stale_claims([_edit("made", ["TRN101"])], run) == []
    assert ports.stale_claims([_edit("made", ["TRN131"])], run)  # reported, not made
    assert ports.stale_claims([_edit("reported", ["TRN131"])], run) == []
    assert ports.stale_claims([_edit("reported", ["TRN101"])], run)  # made, not reported
    assert ports.stale_claims([_edit("missed", [])], run) == []


def test_table_counts_each_category_and_the_shares():
    edits = [
        _edit("made", ["TRN101"]),
        _edit("reported", ["TRN501"], "framework"),
        _edit("missed", [], "framework"),
        _edit("missed", [], "framework"),
    ]
    table = ports.table(edits)
    assert "| HF Trainer / framework | 0 | 1 | 2 | 3 |" in table
    assert "| **all** | **1** | **1** | **2** | **4** |" in table
    assert "| share | 25 % | 25 % | 50 % | |" in table


def test_the_ports_and_the_review_agree():
    names = {port.name for port in ports.load_ports()}
    assert len(names) >= 12
    edits = ports.load_review()
    assert {edit.port for edit in edits} <= names
    assert len({(edit.port, edit.id) for edit in edits}) == len(edits)
