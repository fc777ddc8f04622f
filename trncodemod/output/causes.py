"""One finding per cause: a note about the run's environment is said once per run, a blocker
repeated with the same message in one file (the same expression deciding the device, read at
several places) is one blocker with its places, and one edit is one finding: the fixes on one
line of the input are one change of that line, whichever passes made it (the gate and the
device string of `torch.device("cuda" if use_cuda and torch.cuda.is_available() else "cpu")`,
an autocast rewritten and the compiler flag it needs), so they are one finding, the most severe
first, that names the others. Other repeats stay apart: each is its own edit for a person (and
`apply --annotate` writes a TODO at each).

Applied to the outcomes of a run before anything is shown, so `check` and `apply` count the
same findings; the repeats' places travel as the finding's related locations (JSON `related`,
SARIF `relatedLocations`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from trncodemod.findings import Finding, Safety, Severity
from trncodemod.pipeline.engine import FileOutcome, blocks

# Notes about where the run's compiled graphs go: one launcher line serves every file.
RUN_NOTES = frozenset({"TRN343"})
# A finding that says all another says at the same place: `assert torch.cuda.is_available()`
# removed (TRN803) is the whole story of the availability check in it (TRN007).
SUBSUMES = {"TRN803": frozenset({"TRN007"}), "TRN805": frozenset({"TRN007"})}


def one_per_cause(outcomes: Sequence[FileOutcome]) -> list[FileOutcome]:
    """The findings of a run as every output shows and counts them; applying it again changes
    nothing."""
    merged = [_one_per_edit(_merge_repeats(outcome)) for outcome in outcomes]
    for code in sorted(RUN_NOTES):
        notes = [(i, f) for i, o in enumerate(merged) for f in o.findings if _is_note(f, code)]
        if len(notes) < 2:
            continue
        (first_index, first), rest = notes[0], notes[1:]
        kept = first
        for _, repeat in rest:
            kept = _with_places(kept, repeat)
        for index, outcome in enumerate(merged):
            findings = tuple(
                kept if f is first else f
                for f in outcome.findings
                if f is first or not _is_note(f, code)
            )
            if len(findings) != len(outcome.findings) or index == first_index:
                merged[index] = replace(outcome, findings=findings)
    return merged


def _is_note(finding: Finding, code: str) -> bool:
    return finding.code == code and not finding.fixed


def _merge_repeats(outcome: FileOutcome) -> FileOutcome:
    """Blockers left with the same code and message in one file: one, with the others' places;
    a finding another says all of at the same place (``SUBSUMES``): gone."""
    covered = {
        (code, f.line, f.column) for f in outcome.findings for code in SUBSUMES.get(f.code, ())
    }
    findings: list[Finding] = []
    seen: dict[tuple[str, str], int] = {}
    for finding in outcome.findings:
        key = (finding.code, finding.message)
        if (finding.code, finding.line, finding.column) in covered:
            continue
        if not blocks(finding):
            findings.append(finding)
        elif key in seen:
            findings[seen[key]] = _with_places(findings[seen[key]], finding)
        else:
            seen[key] = len(findings)
            findings.append(finding)
    if len(findings) == len(outcome.findings):
        return outcome
    return replace(outcome, findings=tuple(findings))


def _with_places(first: Finding, repeat: Finding) -> Finding:
    places = (*first.related, repeat.location, *repeat.related)
    return replace(first, related=tuple(dict.fromkeys(places)))


# Which fix of one line speaks for it: the most severe, then one a person should review.
_RANK = {Severity.BLOCKER: 0, Severity.ERROR: 1, Severity.WARNING: 2, Severity.INFO: 3}


def _one_per_edit(outcome: FileOutcome) -> FileOutcome:
    """The fixes anchored on one line of the input: one finding, where the group's first was,
    at its lead's place; its message says the others' (with their codes), their places are its
    related places."""
    lines: dict[tuple[int | None, int], list[Finding]] = {}
    for f in outcome.findings:
        if f.fixed:
            lines.setdefault((f.cell, f.line), []).append(f)
    if all(len(group) == 1 for group in lines.values()):
        return outcome
    findings: list[Finding] = []
    for f in outcome.findings:
        group = lines.get((f.cell, f.line)) if f.fixed else None
        if group is None or len(group) == 1:
            findings.append(f)
        elif f is group[0]:
            findings.append(_one_edit(group))
    return replace(outcome, findings=tuple(findings))


def _one_edit(group: list[Finding]) -> Finding:
    lead = min(group, key=lambda f: (_RANK[f.severity], f.safety is not Safety.REVIEW))
    others = [f for f in group if f is not lead]
    said = [lead.message]
    for f in others:
        text = f.message if f.code == lead.code else f"{f.code} {f.message}"
        if text not in said:
            said.append(text)
    merged = replace(
        lead,
        message="; ".join(said),
        safety=Safety.REVIEW if any(f.safety is Safety.REVIEW for f in group) else lead.safety,
    )
    for f in others:
        merged = _with_places(merged, f)
    places = tuple(p for p in merged.related if p != merged.location)
    return replace(merged, related=places)
