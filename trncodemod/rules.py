"""The rule catalogue: every rule of every pass, and which codes a run selects."""

from __future__ import annotations

from collections.abc import Iterable

from trncodemod.findings import Rule
from trncodemod.passes import Pass
from trncodemod.plugins import PluginChanges
from trncodemod.transforms import PASSES
from trncodemod.unused_suppressions import SuppressionAudit

# Every rule's owner: the passes, and the checks the engine makes itself after them.
CATALOGUE: tuple[type[Pass], ...] = (*PASSES, SuppressionAudit, PluginChanges)


class SelectionError(ValueError):
    pass


def all_passes() -> tuple[type[Pass], ...]:
    return PASSES


def all_rules() -> list[type[Rule]]:
    return sorted((rule for p in CATALOGUE for rule in p.rules), key=lambda r: r.code)


def rule_by_code(code: str) -> type[Rule] | None:
    code = code.upper()
    return next(
        (rule for rule in all_rules() if rule.code == code or rule.name == code.lower()), None
    )


def pass_of(rule: type[Rule]) -> type[Pass]:
    return next(p for p in CATALOGUE if rule in p.rules)


def _expand(prefixes: Iterable[str], codes: list[str], option: str) -> set[str]:
    chosen: set[str] = set()
    for prefix in prefixes:
        prefix = prefix.strip().upper()
        if prefix == "ALL":
            chosen.update(codes)
            continue
        matched = {code for code in codes if code.startswith(prefix)}
        if not matched:
            raise SelectionError(f"{option}: no rule code starts with {prefix!r}")
        chosen |= matched
    return chosen


def enabled_codes(select: Iterable[str], ignore: Iterable[str]) -> frozenset[str]:
    """Prefix selection as in ruff: ``--select TRN1 --ignore TRN105``."""
    codes = [rule.code for rule in all_rules()]
    return frozenset(_expand(select, codes, "select") - _expand(ignore, codes, "ignore"))
