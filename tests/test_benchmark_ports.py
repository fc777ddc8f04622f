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


def _port(**options) -> ports.Port:
    side = ports.Side("o/r", "0" * 40, "train.py")
    return ports.Port("p", "summary", side, side, True, **options)


def test_a_port_runs_with_its_own_target_and_options():
    port = _port(target="xla-2.1", scale_out=True, scale_lr=True)
    args = ports.tool_args(port, scale_out=True)
    assert args[args.index("--target") + 1] == "xla-2.1"
    assert args[-2:] == ["--scale-out", "--scale-lr"]
    overridden = ports.tool_args(port, scale_out=True, target="xla-2.9")
    assert overridden[overridden.index("--target") + 1] == "xla-2.9"
    # a tool without --scale-out, or a port not marked scale_out, gets neither option
    assert "--scale-lr" not in ports.tool_args(port, scale_out=False)
    assert "--scale-lr" not in ports.tool_args(_port(scale_lr=True), scale_out=True)
    # the port's own run and an overriding target's run are kept apart
    assert ports.cache_dir(port, None) == ports.cache_dir(port, "xla-2.1")
    assert ports.cache_dir(port, "xla-2.9") != ports.cache_dir(port, None)


def test_every_port_names_a_known_target():
    targets = {"xla-2.1", "xla-2.5", "xla-2.9", "neuron"}
    for port in ports.load_ports():
        assert port.target in targets, port.name
        assert not port.scale_lr or port.scale_out, port.name


def test_only_the_scripts_part_of_a_multi_file_patch_is_kept():
    patch = (
        "--- a/model.py\n+++ b/model.py\n@@ -1 +1 @@\n-a\n+b\n"
        "--- a/train.py\n+++ b/train.py\n@@ -1 +1 @@\n-c\n+d\n"
    )
    assert (
        ports.file_patch(patch, "train.py")
        == "--- a/train.py\n+++ b/train.py\n@@ -1 +1 @@\n-c\n+d\n"
    )
    assert ports.file_patch(patch, "other.py") == ""


def test_every_set_has_its_ports_review_and_table_markers():
    for name, where in ports.SETS.items():
        names = {port.name for port in ports.load_ports(where.ports)}
        assert names, name
        edits = ports.load_review(where.review)
        assert {edit.port for edit in edits} <= names, name
        assert len({(edit.port, edit.id) for edit in edits}) == len(edits), name
        text = where.readme.read_text()
        start, end = where.markers
        assert start in text and end in text, name
