"""The engine's fixed point: a pass runs again only on a tree it has not seen, a pass that first
finds work after another pass's rewrite keeps its findings, and a pass that never settles is a
reported bug, not a hang. Toy passes stand in for the real ones so each behaviour is isolated."""

import libcst as cst
import pytest

from trncodemod import migrate
from trncodemod.config import Settings
from trncodemod.findings import Rule
from trncodemod.migrate import MigrationError, migrate_text
from trncodemod.passes import Pass


class Seen(Rule):
    code, name, summary, fixable = "TST001", "seen", "reports `ready`", False


class Renamed(Rule):
    code, name, summary = "TST002", "renamed", "renames `start` to `ready`"


class Counted(Rule):
    code, name, summary, fixable = "TST003", "counted", "counts its runs", False


RUNS: dict[str, int] = {}


class _Toy(Pass):
    needles = ("",)

    @classmethod
    def may_match(cls, text: str) -> bool:
        return any(needle in text for needle in cls.needles)

    def visit_Module(self, node: cst.Module) -> None:
        RUNS[self.name] = RUNS.get(self.name, 0) + 1


class ReportsReady(_Toy):
    """Runs first; can only act once the later pass has made `ready`."""

    name, rules, needles = "reports-ready", (Seen,), ("ready",)

    def visit_Name(self, node: cst.Name) -> None:
        if node.value == "ready":
            self.report(node, Seen, "`ready` is here", False)


class RenamesStart(_Toy):
    name, rules, needles = "renames-start", (Renamed,), ("=",)

    def leave_Name(self, original_node: cst.Name, updated_node: cst.Name) -> cst.Name:
        if original_node.value == "start" and self.report(
            original_node, Renamed, "`start` → `ready`", True
        ):
            return updated_node.with_changes(value="ready")
        return updated_node


class CountsRuns(_Toy):
    """Runs after the last rewrite: it has seen the final tree and is not run again."""

    name, rules = "counts-runs", (Counted,)


class NeverSettles(_Toy):
    name, rules = "never-settles", (Renamed,)

    def leave_Name(self, original_node: cst.Name, updated_node: cst.Name) -> cst.Name:
        return updated_node.with_changes(value=updated_node.value + "_")


def _use(monkeypatch, *passes: type[Pass]) -> None:
    codes = frozenset(rule.code for p in passes for rule in p.rules)
    monkeypatch.setattr(migrate, "active_passes", lambda settings: (passes, codes))
    RUNS.clear()


def test_a_pass_reruns_only_on_a_tree_it_has_not_seen(monkeypatch) -> None:
    _use(monkeypatch, ReportsReady, RenamesStart, CountsRuns)
    result = migrate_text("start = 1\n", "t.py", Settings())
    assert result.text == "ready = 1\n"
    # reports-ready did not match the first tree; renames-start confirms its own rewrite once;
    # counts-runs came after the rewrite and saw the final tree the first time.
    assert RUNS == {"reports-ready": 1, "renames-start": 2, "counts-runs": 1}


def test_findings_of_a_pass_that_first_matches_after_a_rewrite_are_kept(monkeypatch) -> None:
    _use(monkeypatch, ReportsReady, RenamesStart)
    result = migrate_text("start = 1\n", "t.py", Settings())
    assert [(f.code, f.line, f.fixed) for f in result.findings] == [
        ("TST001", 1, False),
        ("TST002", 1, True),
    ]


def test_a_pass_that_never_settles_is_a_reported_bug(monkeypatch) -> None:
    _use(monkeypatch, NeverSettles)
    with pytest.raises(MigrationError, match="fixed point"):
        migrate_text("x = 1\n", "t.py", Settings())
