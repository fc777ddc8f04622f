"""How findings and run results are shown: text for people, JSON for tools.

JSON (``--format json``) is one object, stable across releases within ``"version": 1``::

    {"version": 1,
     "files":    [{"path": str, "changed": bool, "error": str | null}],
     "findings": [{"path", "line", "column", "code", "name", "message",
                   "severity": "error"|"warning"|"info", "safety": "safe"|"review",
                   "fixed": bool}],
     "summary":  {"files", "changed", "errors", "fixed", "remaining"}}
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from trncodemod.engine import FileOutcome, summarize


def finding_lines(outcomes: Sequence[FileOutcome]) -> list[str]:
    lines = []
    for outcome in outcomes:
        if outcome.error is not None:
            lines.append(f"{outcome.error_text()} [error]")
        for f in outcome.findings:
            status = ""
            if f.fixed:
                status = " [fixed, review]" if f.safety.value == "review" else " [fixed]"
            lines.append(f"{f.path}:{f.line}:{f.column}: {f.code} {f.message}{status}")
    return lines


def summary_line(outcomes: Sequence[FileOutcome], dry_run: bool) -> str:
    counts = summarize(outcomes)
    review = sum(f.fixed and f.safety.value == "review" for o in outcomes for f in o.findings)
    verb = "would change" if dry_run else "changed"
    parts = [
        f"{counts['files']} file{'s' * (counts['files'] != 1)} checked",
        f"{counts['changed']} {verb}",
        f"{counts['fixed']} fix{'es' * (counts['fixed'] != 1)} ({review} to review)",
        f"{counts['remaining']} finding{'s' * (counts['remaining'] != 1)} left",
    ]
    if counts["errors"]:
        parts.append(f"{counts['errors']} error{'s' * (counts['errors'] != 1)}")
    return ", ".join(parts) + "."


def json_report(outcomes: Sequence[FileOutcome]) -> str:
    document = {
        "version": 1,
        "files": [
            {"path": o.display, "changed": o.changed, "error": o.error_text() if o.error else None}
            for o in outcomes
        ],
        "findings": [f.to_json() for o in outcomes for f in o.findings],
        "summary": summarize(outcomes),
    }
    return json.dumps(document, indent=2, sort_keys=True)
