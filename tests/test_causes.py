"""One finding per cause, and the summary lines that count findings alike in check and apply."""

from __future__ import annotations

from pathlib import Path

from trncodemod.findings import Finding, Safety, Severity
from trncodemod.output.causes import one_per_cause
from trncodemod.output.report import check_summary, summary_line
from trncodemod.pipeline.engine import FileOutcome


def _finding(path: str, line: int, code: str, message: str, **kwargs) -> Finding:
    fields = {"severity": Severity.WARNING, "safety": Safety.REVIEW, "fixed": False}
    fields.update(kwargs)
    return Finding(path, line, 1, code, message, "name", **fields)


def _outcome(path: str, *findings: Finding, new: bytes | None = None) -> FileOutcome:
    return FileOutcome(Path(path), path, old=b"", new=new, findings=findings)


NOTE = "compiled graphs go to /var/tmp/neuron-compile-cache on this host"


def test_the_compile_cache_note_is_said_once_per_run_with_the_other_places():
    outcomes = one_per_cause(
        [
            _outcome("a.py", _finding("a.py", 5, "TRN343", NOTE, severity=Severity.INFO)),
            _outcome("b.py", _finding("b.py", 7, "TRN343", NOTE, severity=Severity.INFO)),
            _outcome("c.py", _finding("c.py", 9, "TRN343", NOTE, severity=Severity.INFO)),
        ]
    )
    notes = [f for o in outcomes for f in o.findings]
    assert len(notes) == 1
    assert notes[0].location == "a.py:5:1"
    assert notes[0].related == ("b.py:7:1", "c.py:9:1")


def test_a_blocker_repeated_with_one_message_in_a_file_is_one_blocker_with_its_places():
    same = "the training device is decided by `args.device`, and `args.device` has no default"
    outcome = _outcome(
        "t.py",
        _finding("t.py", 3, "TRN026", same, severity=Severity.BLOCKER),
        _finding("t.py", 8, "TRN026", same, severity=Severity.BLOCKER),
        _finding("t.py", 9, "TRN026", "another cause", severity=Severity.BLOCKER),
    )
    (merged,) = one_per_cause([outcome])
    assert [(f.line, f.related) for f in merged.findings] == [(3, ("t.py:8:1",)), (9, ())]


def test_other_repeats_stay_apart_each_is_an_edit_for_a_person():
    same = "`loss.item()` syncs every step"
    outcome = _outcome(
        "t.py", _finding("t.py", 3, "TRN125", same), _finding("t.py", 8, "TRN125", same)
    )
    (merged,) = one_per_cause([outcome])
    assert len(merged.findings) == 2


def test_fixes_are_never_merged_each_is_its_own_edit():
    fixed = [_finding("t.py", line, "TRN001", ".cuda() → .to(xla)", fixed=True) for line in (1, 2)]
    (merged,) = one_per_cause([_outcome("t.py", *fixed)])
    assert len(merged.findings) == 2


def test_check_and_apply_count_the_same_findings_and_end_with_the_verdict():
    outcomes = [
        _outcome(
            "t.py",
            _finding("t.py", 1, "TRN001", "fix", fixed=True),
            _finding("t.py", 2, "TRN343", NOTE, severity=Severity.INFO),
            _finding("t.py", 3, "TRN125", "left"),
            new=b"x",
        )
    ]
    assert check_summary(outcomes, "xla-2.9") == (
        "xla-2.9: Found 3 findings (1 fixable with `trncodemod apply`, 2 left); "
        "no verdict: no PyTorch code."
    )
    assert summary_line(outcomes, True, "xla-2.9") == (
        "xla-2.9: 1 file checked, 1 would change, 1 fix (1 to review), 2 findings left; "
        "no verdict: no PyTorch code."
    )


def test_the_verdict_names_the_blocker_to_read_first():
    blocker = _finding("t.py", 4, "TRN026", "device", severity=Severity.BLOCKER)
    line = check_summary([_outcome("t.py", blocker)], "neuron")
    assert line.endswith(
        "1 blocker (will not run on the accelerator); read first: t.py:4:1 TRN026."
    )
    assert line.startswith("neuron: ")
