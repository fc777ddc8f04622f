"""``trncodemod verify SCRIPT --against ORIGINAL --bisect``: which change of the migration makes
the runs differ.

The migration's edits are grouped into the changes ``apply -i`` offers (``review.plan_changes``:
a fix with the lines it needs, an object removed with its uses), labelled with the rules the
tool reports on ORIGINAL; an edit the tool did not make (a person's) is grouped the same way.
The search applies the first k changes (with the imports and helpers they use) to ORIGINAL and
runs the result as the migrated side, halving the range each time: ``ceil(log2(n))`` runs for n
changes. The first change whose addition makes the run differ from ORIGINAL's is responsible;
when it has several edits (they depend on each other) and some are not the tool's, each of
those is put back to what the tool writes there, one run each: the one that makes the run the
same again is named. A variant that cannot run (it would leave a name undefined, or it fails) ends the search with
what was found so far, said so.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from trncodemod.commands.review import (
    Change,
    _lines,
    _Unit,
    introduced_problems,
    plan_changes,
    rebuild,
)

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
    foreign: set[int] = field(default_factory=set)  # edits the tool does not make


def tool_migration(original: str, display: str, target: str | None, start: Path) -> tuple:
    """What the tool makes of ORIGINAL: its text and findings (their rule codes name the
    changes); ORIGINAL and no findings when the tool cannot migrate it."""
    from trncodemod.config import load_settings
    from trncodemod.pipeline.migrate import MigrationError, migrate_text

    settings = load_settings(start).with_overrides(target=target)
    try:
        migration = migrate_text(original, display, settings)
    except MigrationError:
        return original, ()
    return migration.text, migration.findings


def _key(unit: _Unit) -> tuple:
    return unit.i1, unit.i2, tuple(unit.added)


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


def _swapped(old: str, units: list[_Unit], accepted: set[int], swap: dict[int, list[str]]) -> str:
    """``rebuild`` with some edits replaced by other lines."""
    old_lines = _lines(old)
    out: list[str] = []
    cursor = 0
    for index, unit in enumerate(units):
        out.extend(old_lines[cursor : unit.i1])
        if index in swap:
            out.extend(swap[index])
        else:
            out.extend(unit.added if index in accepted else old_lines[unit.i1 : unit.i2])
        cursor = unit.i2
    out.extend(old_lines[cursor:])
    return "".join(out)


def bisect(old: str, new: str, findings: tuple, probe: Probe, tool: str | None = None) -> Bisection:
    """``tool``: the tool's own migration of ``old``; an edit of ``new`` it does not make is a
    person's (said so), and when ``new`` has none of the tool's edits, no rule names a change.

    Within the responsible change, the edits of it are not searched by prefix: they depend on
    each other (that is why they are one change). A person's edit in it is put back to what the
    tool writes for those lines (or ORIGINAL's, where the tool writes nothing), one at a time;
    the one that makes the run the same again is named."""
    tool_units = plan_changes(old, tool, ())[0] if tool is not None else []
    tool_edits = {_key(u): u for u in tool_units}
    if tool is not None and not set(tool_edits) & {_key(u) for u in plan_changes(old, new, ())[0]}:
        findings = ()
    units, changes = plan_changes(old, new, findings)
    result = Bisection(len(changes), units)
    if tool is not None:
        result.foreign = {i for i, u in enumerate(units) if _key(u) not in tool_edits}
    notes: list[str] = []

    def run(text: str, problem: str | None) -> bool | None:
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

    found, why = _search(len(changes), lambda k: run(*_variant(old, new, units, first(k))))
    if found is None:
        result.note = why + (f" ({notes[-1]})" if notes else "")
        return result
    culprit = changes[found - 1]
    result.culprit, result.units = culprit, list(culprit.units)
    foreign = [i for i in sorted(culprit.units) if i in result.foreign]
    if len(culprit.units) > 1 and foreign:
        for index in foreign:
            unit = units[index]
            tools = [u for u in tool_units if (u.i1, u.i2) == (unit.i1, unit.i2)]
            instead = [line for u in tools for line in u.added] if tools else unit.removed
            text = _swapped(old, units, first(found), {index: instead})
            if run(text, introduced_problems(old, text)) is False:
                result.units = [index]
                break
        else:
            result.note = "no single edit of the change is responsible on its own"
    return result


def culprit_lines(result: Bisection) -> list[str]:
    """The culprit's edits as ``-``/``+`` lines with their line numbers in ORIGINAL."""
    lines: list[str] = []
    for index in result.units:
        unit = result.units_of[index]
        whose = " (an edit the tool does not make)" if index in result.foreign else ""
        lines.append(f"    original line {unit.i1 + 1}, migrated line {unit.j1 + 1}{whose}:")
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
