"""The engine's fixed point: a pass runs again only on a tree it has not seen, a pass that first
finds work after another pass's rewrite keeps its findings, and a pass that never settles is a
reported bug, not a hang. Toy passes stand in for the real ones so each behaviour is isolated."""

from pathlib import Path

import libcst as cst
import pytest

from trncodemod.commands.golden import GoldenCase
from trncodemod.config import Settings
from trncodemod.findings import Rule
from trncodemod.passes import Pass
from trncodemod.pipeline import migrate
from trncodemod.pipeline.migrate import MigrationError, migrate_text


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
        self.report(original_node, Renamed, "renamed again", True)
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


class ReadsValue(_Toy):
    """In front of the rewrite; its needle is on a line the rewrite does not touch."""

    name, rules, needles = "reads-value", (Counted,), ("value",)


class SeesRenames(ReadsValue):
    name = "sees-renames"
    sees = frozenset({"renames-start"})


def test_a_pass_is_not_rerun_where_a_rewrite_touched_none_of_its_needles(monkeypatch) -> None:
    _use(monkeypatch, ReadsValue, RenamesStart)
    migrate_text("start = 1\nvalue = 2\n", "t.py", Settings())
    assert RUNS["reads-value"] == 1


def test_a_pass_reruns_after_a_rewrite_by_a_pass_it_sees(monkeypatch) -> None:
    _use(monkeypatch, SeesRenames, RenamesStart)
    migrate_text("start = 1\nvalue = 2\n", "t.py", Settings())
    assert RUNS["sees-renames"] == 2


ROOT = Path(__file__).resolve().parent.parent
# The examples, and the case where a save becomes `xm.save` only once a later pass inserted the
# step marker (checkpoints `sees` step-marker). tests/test_golden.py holds every case's output.
WHOLE_SCRIPTS = [*sorted(ROOT.glob("examples/*.py")), ROOT / "golden/item-hoist/control_flow.in.py"]


@pytest.mark.parametrize("path", WHOLE_SCRIPTS, ids=lambda p: p.name)
def test_skipping_untouched_passes_changes_no_output_or_finding(path: Path, monkeypatch) -> None:
    text = path.read_text("utf-8")
    settings = GoldenCase(path).settings() if path.name.endswith(".in.py") else Settings()
    skipping = migrate_text(text, str(path), settings)
    monkeypatch.setattr(migrate, "_touches", lambda *_: True)
    rerunning = migrate_text(text, str(path), settings)
    assert (skipping.text, skipping.findings) == (rerunning.text, rerunning.findings)


# Under the default settings: the XLA seed (TRN331) comes only once a later pass has made the
# file import torch_xla, which the seed's pass looks for although no line it reads changed
# (``Pass.imports_seen``); an import another pass adds is otherwise not a reason to run again.
DEFAULT_SETTINGS_SCRIPTS = [
    ROOT / "golden/scale-out/epoch_loop_in_callee.in.py",
    ROOT / "golden/step-marker/accelerate_loader_passed_on.in.py",
    ROOT / "golden/device/accel_opt_in_flag.in.py",
]


@pytest.mark.parametrize(
    "path", DEFAULT_SETTINGS_SCRIPTS, ids=lambda p: f"{p.parent.name}-{p.stem}"
)
def test_an_added_import_reruns_the_passes_it_concerns(path: Path, monkeypatch) -> None:
    text = path.read_text("utf-8")
    skipping = migrate_text(text, str(path), Settings())
    monkeypatch.setattr(migrate, "_touches", lambda *_: True)
    rerunning = migrate_text(text, str(path), Settings())
    assert (skipping.text, skipping.findings) == (rerunning.text, rerunning.findings)


def test_the_xla_seed_follows_the_torch_xla_import_another_pass_adds() -> None:
    # The step marker's cut adds `import torch_xla`; the XLA seed (TRN331), which looks for it,
    # must run again on the rewritten tree. The model is on a device, so the step is cut (a step
    # the program leaves on the CPU gets no cut, and so no import).
    path = ROOT / "golden/scale-out/epoch_loop_in_callee.in.py"
    text = path.read_text("utf-8").replace(
        "model = torch.nn.Linear(4, 1)", 'model = torch.nn.Linear(4, 1).to("cuda")'
    )
    assert '.to("cuda")' in text
    migrated = migrate_text(text, str(path), Settings())
    assert "import torch_xla" in migrated.text
    assert "TRN331" in {finding.code for finding in migrated.findings}


def test_an_import_is_a_reason_to_run_again_only_where_its_name_is_read() -> None:
    old = "import torch\nx = torch.ones(1)\ny = xm.f()\n"
    added = old.replace("import torch\n", "import torch\nimport torch_xla\n")
    assert not migrate._touches(("nothing",), old, added)
    assert migrate._touches(("nothing",), old, added, frozenset({"torch_xla"}))
    aliased = old.replace("import torch\n", "import torch\nimport torch_xla.core.xla_model as xm\n")
    assert migrate._touches(("nothing",), old, aliased)  # `xm.f()` did not change, and reads it
    parenthesised = old + "from a import (\n    b,\n)\n"
    assert migrate._touches(("nothing",), old, parenthesised)
