"""One finding per cause, and the summary lines that count findings alike in check and apply."""

from __future__ import annotations

import textwrap
from dataclasses import replace
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


def test_fixes_on_one_line_are_one_edit_and_one_finding_that_names_them_all():
    # `torch.device("cuda" if use_cuda and torch.cuda.is_available() else "cpu")`: the gate
    # (TRN021) and the device string (TRN002) are two passes' fixes of one changed line.
    gate = _finding("t.py", 7, "TRN021", "gate → True", fixed=True, severity=Severity.ERROR)
    device = _finding("t.py", 7, "TRN002", '"cuda" → "xla"', fixed=True, safety=Safety.SAFE)
    left = _finding("t.py", 7, "TRN026", "set outside", severity=Severity.BLOCKER)
    device = replace(device, column=20)
    (merged,) = one_per_cause([_outcome("t.py", device, gate, left)])
    assert [(f.code, f.fixed) for f in merged.findings] == [("TRN021", True), ("TRN026", False)]
    one = merged.findings[0]
    assert one.message == 'gate → True; TRN002 "cuda" → "xla"'
    assert one.related == ("t.py:7:20",)
    assert one_per_cause([merged]) == [merged]  # once per cause, however often it is asked


def test_the_fix_that_speaks_for_a_line_is_the_most_severe_then_the_one_to_review():
    autocast = _finding("t.py", 4, "TRN301", "autocast", fixed=True, severity=Severity.ERROR)
    flag = _finding("t.py", 4, "TRN304", "flag", fixed=True, safety=Safety.SAFE)
    (merged,) = one_per_cause([_outcome("t.py", flag, autocast)])
    (one,) = merged.findings
    assert (one.code, one.message, one.safety) == ("TRN301", "autocast; TRN304 flag", Safety.REVIEW)


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
        "xla-2.9: Found 3 findings (1 fixable with `trncodemod apply`, 1 left, 1 note); "
        "no verdict: no PyTorch code."
    )
    assert summary_line(outcomes, True, "xla-2.9") == (
        "xla-2.9: 1 file checked, 1 would change, 1 fix (1 to review), 1 finding left, 1 note; "
        "no verdict: no PyTorch code."
    )


def test_the_verdict_names_the_blocker_to_read_first():
    blocker = _finding("t.py", 4, "TRN026", "device", severity=Severity.BLOCKER)
    line = check_summary([_outcome("t.py", blocker)], "neuron")
    assert line.endswith(
        "1 blocker (will not run on the accelerator); read first: t.py:4:1 TRN026."
    )
    assert line.startswith("neuron: ")


def _run(source: str) -> list[Finding]:
    from trncodemod.config import Settings
    from trncodemod.pipeline.migrate import migrate_text

    migration = migrate_text(textwrap.dedent(source), "t.py", Settings())
    outcome = FileOutcome(Path("t.py"), "t.py", findings=migration.findings)
    (merged,) = one_per_cause([outcome])
    return [f for f in merged.findings if f.fixed]


def test_a_device_decided_on_one_line_is_one_fix_whatever_passes_rewrote_it():
    fixes = _run(
        """
        import torch

        def main(args):
            device = torch.device("cuda" if args.cuda and torch.cuda.is_available() else "cpu")
            return torch.zeros(2).to(device)
        """
    )
    (decision,) = [f for f in fixes if f.line == 5]
    assert decision.code == "TRN021" and "TRN002" in decision.message


def test_fixes_on_adjacent_lines_one_pass_rewrote_stay_on_their_own_lines():
    # The device pass rewrites both lines; a later pass's finding on the second line was
    # anchored on the first (the changed block's start), and merged into its fix.
    fixes = _run(
        """
        import torch

        def batch(x, device):
            if device.type == "cuda":
                return x.pin_memory().cuda(non_blocking=True)
            return x.to(device)
        """
    )
    assert [(f.line, f.code) for f in fixes] == [(5, "TRN023"), (6, "TRN001")]
    assert "TRN314" in fixes[1].message and "TRN314" not in fixes[0].message
