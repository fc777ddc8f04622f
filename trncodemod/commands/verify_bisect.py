"""``trncodemod verify SCRIPT --against ORIGINAL --bisect``: which change of the migration makes
the runs differ.

The migration's edits are grouped into the changes ``apply -i`` offers (``review.plan_changes``:
a fix with the lines it needs, an object removed with its uses), labelled with the rules the
tool reports on ORIGINAL; an edit the tool did not make (a person's) is grouped the same way.
The search applies the first k changes (with the imports and helpers they use) to ORIGINAL and
runs the result as the migrated side, halving the range each time: ``ceil(log2(n))`` runs for n
changes. The first change whose addition makes the run differ from ORIGINAL's is responsible;
when it has several edits, the same search runs over its edits, as long as each variant runs.
A variant that cannot run (it would leave a name undefined, or it fails) ends the search with
what was found so far, said so.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from trncodemod.commands.review import Change, _Unit, introduced_problems, plan_changes, rebuild

# A run of a variant's text: its difference from the original run, or why it could not run.
Probe = Callable[[str], tuple[bool | None, str]]


@dataclass
class Bisection:
    changes: int  # how many changes the migration has
    units_of: list[_Unit] = field(default_factory=list)  # the migration's edits
    runs: int = 0
    culprit: Change | None = None
    units: list[int] = field(default_factory=list)  # the culprit's edits, narrowed if possible
    note: str = ""  # why the search stopped early, if it did


def findings_for(original: str, display: str, target: str | None, start: Path) -> tuple:
    """The findings the tool reports on ORIGINAL (their rule codes name the changes)."""
    from trncodemod.config import load_settings
    from trncodemod.pipeline.migrate import MigrationError, migrate_text

    settings = load_settings(start).with_overrides(target=target)
    try:
        return migrate_text(original, display, settings).findings
    except MigrationError:
        return ()


def _variant(old: str, new: str, units: list[_Unit], accepted: set[int]) -> tuple[str, str | None]:
    text = rebuild(old, new, units, accepted)
    return text, introduced_problems(old, text)


def _search(count: int, differs: Callable[[int], bool | None]) -> tuple[int | None, str]:
    """The smallest k in 1..count with ``differs(k)`` True, knowing ``differs(0)`` is False and
    ``differs(count)`` True; None (and why) when a probe could not tell."""
    low, high = 0, count  # differs(low) is False, differs(high) is True
    while high - low > 1:
        middle = (low + high) // 2
        answer = differs(middle)
        if answer is None:
            return None, f"the first {middle} change(s) alone could not be run"
        if answer:
            high = middle
        else:
            low = middle
    return high, ""


def bisect(old: str, new: str, findings: tuple, probe: Probe) -> Bisection:
    units, changes = plan_changes(old, new, findings)
    result = Bisection(len(changes), units)
    notes: list[str] = []

    def run(accepted: set[int]) -> bool | None:
        text, problem = _variant(old, new, units, accepted)
        if problem is not None:
            notes.append(problem)
            return None
        result.runs += 1
        differs, why = probe(text)
        if differs is None:
            notes.append(why)
        return differs

    def first(k: int) -> set[int]:
        return {i for c in changes[:k] for i in (*c.units, *c.needs)}

    found, why = _search(len(changes), lambda k: run(first(k)))
    if found is None:
        result.note = why + (f" ({notes[-1]})" if notes else "")
        return result
    culprit = changes[found - 1]
    result.culprit, result.units = culprit, list(culprit.units)
    if len(culprit.units) > 1:
        before = first(found - 1) | set(culprit.needs)
        members = sorted(culprit.units)
        narrowed, why = _search(len(members), lambda k: run(before | set(members[:k])))
        if narrowed is not None:
            result.units = [members[narrowed - 1]]
        else:
            result.note = f"not narrowed within the change: {why}" + (
                f" ({notes[-1]})" if notes else ""
            )
    return result


def culprit_lines(result: Bisection) -> list[str]:
    """The culprit's edits as ``-``/``+`` lines with their line numbers in ORIGINAL."""
    lines: list[str] = []
    for unit in (result.units_of[i] for i in result.units):
        lines.append(f"    original line {unit.i1 + 1}, migrated line {unit.j1 + 1}:")
        lines += [f"    - {line.rstrip()}" for line in unit.removed]
        lines += [f"    + {line.rstrip()}" for line in unit.added]
    return lines


def report(result: Bisection) -> list[str]:
    head = f"bisect: {result.changes} change(s), {result.runs} run(s)"
    if result.culprit is None:
        return [f"{head}: no single change found: {result.note}"]
    rules = ", ".join(result.culprit.codes) or "an edit no rule of the tool names"
    edits = len(result.culprit.units)
    narrowed = (
        f"; narrowed to 1 of its {edits} edits" if edits > 1 and len(result.units) == 1 else ""
    )
    lines = [f"{head}: the runs differ from this change on ({rules}){narrowed}:"]
    lines += culprit_lines(result)
    if result.note:
        lines.append(f"  ({result.note})")
    return lines


def summary(result: Bisection) -> dict[str, Any]:
    return {
        "changes": result.changes,
        "runs": result.runs,
        "rules": result.culprit.codes if result.culprit else None,
        "edits": [
            {"original_line": u.i1 + 1, "removed": u.removed, "added": u.added}
            for u in (result.units_of[i] for i in result.units)
        ],
        "note": result.note,
    }
