"""The numbers every output gives for a run: files, errors, findings, fixes, what is left and
the blockers among it.

``check``, ``apply``, JSON, SARIF, ``pr``'s description and a campaign's result all ask
``count`` over the same outcomes (one finding per cause: ``causes.one_per_cause``), so they
cannot disagree. Every finding is fixed, left for a person, or a note::

    findings == fixed + left + notes,   blockers <= left,   review <= fixed
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass

from trncodemod.findings import Safety, Severity
from trncodemod.pipeline.engine import FileOutcome, blocks


@dataclass(frozen=True)
class Counts:
    """A new number (entry points, and how many of them run on the accelerator) is a field
    here, filled in ``count`` from the outcomes (``FileOutcome.profile`` says which files are
    entry scripts); every output then gives it, and ``tests/test_one_count.py`` holds it equal
    once its parsers read it."""

    files: int = 0
    changed: int = 0  # files the migration rewrites (would rewrite, before ``apply``)
    errors: int = 0  # files that could not be read, parsed, migrated or written
    findings: int = 0
    fixed: int = 0  # findings ``apply`` fixes
    review: int = 0  # of those, fixes a person should check
    left: int = 0  # unfixed, more than a note: work for a person
    notes: int = 0  # unfixed notes: nothing to do
    blockers: int = 0  # of what is left: the migrated program will not run on the accelerator

    def to_json(self) -> dict[str, int]:
        """The JSON report's ``summary`` (``left`` is ``remaining`` there, as since version 1)."""
        data = asdict(self)
        data["remaining"] = data.pop("left")
        return data


def count(outcomes: Iterable[FileOutcome]) -> Counts:
    """The run's numbers; give it the outcomes as shown (after ``one_per_cause``)."""
    numbers = dict.fromkeys(Counts.__dataclass_fields__, 0)
    for outcome in outcomes:
        numbers["files"] += 1
        numbers["changed"] += outcome.changed
        numbers["errors"] += outcome.error is not None
        for f in outcome.findings:
            numbers["findings"] += 1
            numbers["fixed"] += f.fixed
            numbers["review"] += f.fixed and f.safety is Safety.REVIEW
            numbers["left"] += f.counts_against_exit
            numbers["notes"] += not f.fixed and f.severity is Severity.INFO
            numbers["blockers"] += blocks(f)
    return Counts(**numbers)


def plural(number: int, noun: str, many: str = "") -> str:
    """``1 finding``, ``2 findings``; ``many`` where the plural is not ``noun + s``."""
    return f"{number} {noun if number == 1 else many or noun + 's'}"
