"""The first stage (``Pass.candidate``) never skips a pass that would act.

Every golden input and example runs through every pass with the stage off; each run the stage
would have skipped must neither report (a call of ``report`` at all, selected or suppressed or
not) nor change the code, so the stage cannot change a result. The real-code version of this
check, with the results compared end to end, is ``benchmarks/first_stage.py --compare``.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest

from trncodemod.analysis.facts import facts_of_text
from trncodemod.commands.golden import find_cases
from trncodemod.config import Settings
from trncodemod.passes import Pass
from trncodemod.pipeline import migrate

ROOT = Path(__file__).resolve().parent.parent
TARGETS = ("xla-2.9", "neuron", "xla-2.1")


def _inputs() -> list[tuple[str, str]]:
    """(name, text) of every golden input and example, each text once."""
    paths = [case.input for case in find_cases(ROOT / "golden")]
    paths += sorted(ROOT.glob("examples/*.py"))
    found: dict[str, str] = {}
    for path in paths:
        found.setdefault(path.read_text("utf-8"), path.relative_to(ROOT).as_posix())
    return [(name, text) for text, name in found.items()]


def _record_runs(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, bool, bool, bool]]:
    """(pass, skipped by the stage, acted, changed the code without a fixed finding) for every
    pass run, with the stage off."""
    runs: list[tuple[str, bool, bool, bool]] = []
    transform_with, report = Pass.transform_with, Pass.report

    def reporting(self, node, rule, message, fixed):  # type: ignore[no-untyped-def]
        self._acted = True
        return report(self, node, rule, message, fixed)

    def recording(self, wrapper):  # type: ignore[no-untyped-def]
        self._acted = False
        tree = transform_with(self, wrapper)
        code = wrapper.module.code
        facts = facts_of_text(code, self.run.profile)
        skipped = facts is not None and not type(self).candidate(facts, self.target)
        changed = tree is not wrapper.module and tree.code != code
        silent = changed and not any(raw.fixed for raw in self.findings)
        runs.append((self.name, skipped, self._acted or changed, silent))
        return tree

    monkeypatch.setattr(migrate, "FIRST_STAGE", False)
    monkeypatch.setattr(Pass, "report", reporting)
    monkeypatch.setattr(Pass, "transform_with", recording)
    return runs


def _migrate(text: str, target: str) -> None:
    # A file the tool declines still ran every pass it got to.
    with contextlib.suppress(migrate.MigrationError):
        migrate.migrate_text(text, "case.py", Settings(target=target))


@pytest.mark.parametrize("share", range(len(TARGETS)))
def test_no_pass_the_stage_skips_would_have_acted(monkeypatch, share: int) -> None:
    # Each input runs on one target, in turn, to keep CI short; the benchmark runs every input
    # on every target (`benchmarks/first_stage.py --golden`).
    inputs = _inputs()[share :: len(TARGETS)]
    runs = _record_runs(monkeypatch)
    wrong = []
    for index, (key, text) in enumerate(inputs):
        before = len(runs)
        _migrate(text, TARGETS[(share + index) % len(TARGETS)])
        for name, skip, acted, silent in runs[before:]:
            if skip and acted:
                wrong.append(f"{name} on {key}: skipped by the stage, but it acts there")
            if silent:
                # The engine renders the code only after a run with a fixed finding.
                wrong.append(f"{name} on {key}: changed the code without a fixed finding")
    assert not wrong, "\n".join(wrong[:20])
    # The stage must be doing its job, not answering yes to everything.
    assert sum(run[1] for run in runs) > len(runs) // 4


def test_a_file_no_pass_is_a_candidate_for_is_never_parsed_by_libcst(monkeypatch) -> None:
    def refuse(*_args, **_kwargs):  # type: ignore[no-untyped-def]
        raise AssertionError("LibCST parsed a file no pass is a candidate for")

    monkeypatch.setattr(migrate, "_parse", refuse)
    text = "import torch\n\n\ndef scale(x: torch.Tensor) -> torch.Tensor:\n    return x * 2\n"
    migration = migrate.migrate_text(text, "scale.py", Settings())
    assert migration.text == text
    assert migration.findings == ()


def test_a_file_python_cannot_parse_still_gets_libcsts_error() -> None:
    with pytest.raises(migrate.MigrationError, match="syntax error"):
        migrate.migrate_text("import torch\nx = torch.ones(2).cuda(\n", "bad.py", Settings())
