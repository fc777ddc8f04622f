"""The rule catalogue: every rule of every pass (selection by code: ``trncodemod.selection``)."""

from __future__ import annotations

from trncodemod.findings import Rule
from trncodemod.passes import Pass
from trncodemod.pipeline.plugins import PluginChanges
from trncodemod.pipeline.unused_suppressions import SuppressionAudit
from trncodemod.transforms import PASSES

# Every rule's owner: the passes, and the checks the engine makes itself after them.
CATALOGUE: tuple[type[Pass], ...] = (*PASSES, SuppressionAudit, PluginChanges)


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
