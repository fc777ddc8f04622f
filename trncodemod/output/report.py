"""How findings and run results are shown: text for people, JSON and SARIF for tools, GitHub
workflow annotations for CI logs.

JSON (``--format json``) is one object, stable across releases within ``"version": 1``; its JSON
Schema is ``tests/data/report.schema.json``::

    {"version": 1,
     "mode":     "apply" | "dry-run" | "check",
     "files":    [{"path": str, "changed": bool, "error": str | null,
                   "profile": {...} | null}],
     "findings": [{"path", "line", "column", "code", "name", "message",
                   "severity": "blocker"|"error"|"warning"|"info", "safety": "safe"|"review",
                   "fixed": bool, "cell": int | null}],
     "summary":  {"files", "changed", "errors", "findings", "fixed", "review", "remaining",
                  "notes", "blockers"},
     "verdict":  {"entry_points": [{"entry": str, "verdict": "runs"|"does not"|"cannot tell"|
                                    "no step", "where": "path:line", "why": str}],
                  "counts": {verdict: int}, "not_judged": str | null, "failed": [str]}}

``summary`` is ``counts.count`` (the numbers every output gives): every finding is fixed, left
(``remaining``) or a note. ``fixed`` and ``changed`` mean "applied" after ``apply`` and "would be applied by ``apply``" after
``apply --dry-run`` and ``check``. ``cell`` is the notebook cell a line counts in (null in a
``.py`` file).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence

from trncodemod.analysis.verdict import CANNOT_TELL, DOES_NOT, NO_STEP, RUNS, EntryVerdict
from trncodemod.findings import Finding, Severity
from trncodemod.output.counts import count, plural
from trncodemod.pipeline.engine import FileOutcome, blocks

MODES = ("apply", "dry-run", "check")
FIXABLE_MARK = "[*]"
BLOCKER_MARK = "[blocker]"
EXCERPT_WIDTH = 80


def one_line(message: str, width: int | None = EXCERPT_WIDTH) -> str:
    """``message`` on one line, as ``path:line:col: CODE message`` needs: a code excerpt in
    backticks that spans lines has its whitespace collapsed, and one longer than ``width`` is
    cut with "…" (None: never cut)."""
    parts = message.split("`")
    for index in range(1, len(parts) - 1, 2):  # the spans between backticks (paired)
        code = parts[index]
        if "\n" in code:
            code = " ".join(code.split())
        if width is not None and len(code) > width:
            code = code[: width - 1].rstrip() + "…"
        parts[index] = code
    return " ".join("`".join(parts).split("\n"))


def _blockers_first(outcomes: Sequence[FileOutcome]) -> list[tuple[FileOutcome | None, Finding]]:
    """Every finding, the blockers left (across files) first; otherwise in file order."""
    found = [(o, f) for o in outcomes for f in o.findings]
    return [item for item in found if blocks(item[1])] + [
        item for item in found if not blocks(item[1])
    ]


def _finding_line(f: Finding, fixable_mark: bool) -> str:
    mark = f"{BLOCKER_MARK} " if blocks(f) else ""
    if fixable_mark and f.fixed:
        mark += f"{FIXABLE_MARK} "
    return f"{f.location}: {f.code} {mark}{one_line(f.message)}"


def finding_lines(outcomes: Sequence[FileOutcome]) -> list[str]:
    """``apply``'s lines: the blockers left first, then each file's errors, what was fixed (and
    whether to review it) and what is left."""
    lines = [_finding_line(f, False) for o in outcomes for f in o.findings if blocks(f)]
    for outcome in outcomes:
        if outcome.error is not None:
            lines.append(f"{outcome.error_text()} [error]")
        for f in outcome.findings:
            if blocks(f):
                continue
            status = ""
            if f.fixed:
                status = " [fixed, review]" if f.safety.value == "review" else " [fixed]"
            lines.append(_finding_line(f, False) + status)
    return lines


def check_lines(outcomes: Sequence[FileOutcome]) -> list[str]:
    """``check``'s lines, as ruff's: ``[*]`` before the message of a finding ``apply`` fixes;
    the blockers, marked ``[blocker]``, first."""
    return [_finding_line(f, True) for _, f in _blockers_first(outcomes)]


def error_lines(outcomes: Sequence[FileOutcome]) -> list[str]:
    return [f"{o.error_text()} [error]" for o in outcomes if o.error is not None]


def summary_line(outcomes: Sequence[FileOutcome], dry_run: bool, target: str = "") -> str:
    """``apply``'s last line: the target, what was done and left (``counts.count``, as every
    output counts), and the verdict."""
    counts = count(outcomes)
    verb = "would change" if dry_run else "changed"
    parts = [
        f"{plural(counts.files, 'file')} checked",
        f"{counts.changed} {verb}",
        f"{plural(counts.fixed, 'fix', 'fixes')} ({counts.review} to review)",
        f"{plural(counts.left, 'finding')} left",
    ]
    if counts.notes:
        parts.append(plural(counts.notes, "note"))
    if counts.errors:
        parts.append(plural(counts.errors, "error"))
    return f"{_named(target)}{', '.join(parts)}; {verdict(outcomes, target)}."


def _named(target: str) -> str:
    return f"{target}: " if target else ""


def verdict(outcomes: Sequence[FileOutcome], target: str = "") -> str:
    """Whether the migrated program runs on the accelerator, per entry point, as the evaluator
    shows it (``pipeline.verdicts``): the entry points counted by verdict, each "does not" and
    "cannot tell" with its line; then the blockers left, and the one to read first. No verdict
    where nothing was judged (no file, every file failed, no PyTorch code)."""
    from trncodemod.pipeline.verdicts import judged

    found = judged(outcomes, target)
    parts = [f"no verdict: {found.nothing}" if found.nothing else entry_counts(found.entries)]
    if found.failed and not found.nothing.startswith("every"):
        count = len(found.failed)
        parts.append(
            f"{count} file{'s' * (count != 1)} failed and {'were' if count != 1 else 'was'} not judged"
        )
    blockers = [f for o in outcomes for f in o.findings if blocks(f)]
    if blockers:
        first = blockers[0]
        parts.append(f"{_blockers(len(blockers))}; read first: {first.location} {first.code}")
    return "; ".join(parts)


def entry_counts(entries: Sequence[EntryVerdict]) -> str:
    """ "3 entry points: 2 run on the accelerator, 1 cannot tell: train_gan.py:35 (...)"."""
    judged = [e for e in entries if e.value != NO_STEP]
    idle = len(entries) - len(judged)
    without = f" ({idle} more without a training step)" if idle else ""
    if not judged:
        return f"no verdict: no training step reached from {idle} entry point{'s' * (idle != 1)}"
    runs = [e for e in judged if e.value == RUNS]
    does_not = [e for e in judged if e.value == DOES_NOT]
    unknown = [e for e in judged if e.value == CANNOT_TELL]
    parts = []
    if runs:
        parts.append(f"{len(runs)} run{'s' * (len(runs) == 1)} on the accelerator")
    if does_not:
        verb = "does not" if len(does_not) == 1 else "do not"
        parts.append(f"{len(does_not)} {verb}: {_places(does_not)}")
    if unknown:
        parts.append(
            f"{len(unknown)} cannot tell: {_places(unknown)} (`trncodemod verify` runs it)"
        )
    count = len(judged)
    return f"{count} entry point{'s' * (count != 1)}{without}: {', '.join(parts)}"


def _places(entries: Sequence[EntryVerdict], shown: int = 3) -> str:
    places = [e.where or e.entry for e in entries]
    more = f" and {len(places) - shown} more" if len(places) > shown else ""
    return ", ".join(places[:shown]) + more


def verdict_lines(outcomes: Sequence[FileOutcome], target: str = "") -> list[str]:
    """One line per entry point that does not run or cannot be told, with why."""
    from trncodemod.pipeline.verdicts import judged

    return [
        f"{e.where or e.entry}: {e.entry} {e.value}: {one_line(e.reason)}"
        for e in judged(outcomes, target).entries
        if e.value in (DOES_NOT, CANNOT_TELL)
    ]


def _blockers(count: int) -> str:
    return f"{count} blocker{'s' * (count != 1)} (will not run on the accelerator)"


def check_summary(outcomes: Sequence[FileOutcome], target: str = "") -> str:
    """``check``'s last line: the target, the findings (fixable, left and notes, as every output
    counts them: ``counts.count``), the files that failed, and the verdict."""
    counts = count(outcomes)
    errors = f", {plural(counts.errors, 'error')}" if counts.errors else ""
    if not counts.findings:
        return f"{_named(target)}No findings{errors}; {verdict(outcomes, target)}."
    text = f"{_named(target)}Found {plural(counts.findings, 'finding')}"
    text += f" ({counts.fixed} fixable with `trncodemod apply`, {counts.left} left"
    text += f", {plural(counts.notes, 'note')})" if counts.notes else ")"
    return f"{text}{errors}; {verdict(outcomes, target)}."


def statistics(outcomes: Sequence[FileOutcome]) -> list[dict]:
    """One row per rule: how often it was found, how many of those ``apply`` fixes, how many are
    blockers left; rules with blockers first."""
    found: Counter[str] = Counter()
    fixable: Counter[str] = Counter()
    blockers: Counter[str] = Counter()
    names: dict[str, str] = {}
    severities: dict[str, str] = {}
    for f in (f for o in outcomes for f in o.findings):
        found[f.code] += 1
        fixable[f.code] += f.fixed
        blockers[f.code] += blocks(f)
        names[f.code] = f.name
        severities[f.code] = f.severity.value
    return [
        {
            "code": code,
            "name": names[code],
            "count": count,
            "fixable": fixable[code],
            "blockers": blockers[code],
            "severity": severities[code],
        }
        for code, count in sorted(
            found.items(), key=lambda item: (-blockers[item[0]], -item[1], item[0])
        )
    ]


def statistics_lines(rows: Sequence[dict]) -> list[str]:
    """As ruff's ``--statistics``: count, code, ``[*]`` when ``apply`` fixes every one, name."""
    width = max((len(str(row["count"])) for row in rows), default=1)
    return [
        f"{row['count']:>{width}}  {row['code']}  "
        f"{FIXABLE_MARK if row['fixable'] == row['count'] else ' ' * len(FIXABLE_MARK)} "
        f"{row['name']}"
        + (
            f" ({row['fixable']} of {row['count']} fixable)"
            if 0 < row["fixable"] < row["count"]
            else ""
        )
        + (f" {BLOCKER_MARK}" if row.get("blockers") else "")
        for row in rows
    ]


def json_report(outcomes: Sequence[FileOutcome], mode: str = "apply", target: str = "") -> str:
    from trncodemod.pipeline.verdicts import judged

    document = {
        "version": 1,
        "mode": mode,
        "files": [
            {
                "path": o.display,
                "changed": o.changed,
                "error": o.error_text() if o.error else None,
                "profile": o.profile,
            }
            for o in outcomes
        ],
        "findings": [f.to_json() for o in outcomes for f in o.findings],
        "summary": count(outcomes).to_json(),
        "verdict": judged(outcomes, target).to_json(),
    }
    return json.dumps(document, indent=2, sort_keys=True)


# GitHub workflow commands: data escapes %, CR and LF; properties also ':' and ','.
_DATA_ESCAPES = {"%": "%25", "\r": "%0D", "\n": "%0A"}
_PROPERTY_ESCAPES = {**_DATA_ESCAPES, ":": "%3A", ",": "%2C"}
_GITHUB_COMMAND = {
    Severity.BLOCKER: "error",
    Severity.ERROR: "error",
    Severity.WARNING: "warning",
    Severity.INFO: "notice",
}


def _escape(text: str, table: dict[str, str]) -> str:
    return "".join(table.get(char, char) for char in text)


def github_annotation(f: Finding) -> str:
    """``::error file=…,line=…,col=…,title=TRN001::message``; severity picks error, warning or
    notice."""
    props = ",".join(
        f"{key}={_escape(str(value), _PROPERTY_ESCAPES)}"
        for key, value in (("file", f.path), ("line", f.line), ("col", f.column), ("title", f.code))
    )
    message = f"{f.name}: {f.message}"
    if f.fixed:
        message += " (fixable with `trncodemod apply`)"
    if f.cell is not None:
        message = f"cell {f.cell}: {message}"
    return f"::{_GITHUB_COMMAND[f.severity]} {props}::{_escape(message, _DATA_ESCAPES)}"


def github_lines(outcomes: Sequence[FileOutcome]) -> list[str]:
    lines = []
    for o in outcomes:
        if o.error is not None:
            props = f"file={_escape(o.display, _PROPERTY_ESCAPES)}"
            if o.error_line is not None:
                props += f",line={o.error_line}"
                if o.error_column is not None:
                    props += f",col={o.error_column}"
            lines.append(f"::error {props},title=trncodemod::{_escape(o.error, _DATA_ESCAPES)}")
        lines.extend(github_annotation(f) for f in o.findings)
    return lines
