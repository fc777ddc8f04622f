"""Golden cases that span files (issue 22): a folder per case, `in/` the repository as given,
`out/` the files the migration changes as they must come out, `findings` what is reported
(after one finding per cause, with each finding's related places). Checked: the outputs, the
findings, that a second run over the outputs changes nothing, and that the patch applies with
`git apply`. Each case that fires has a twin that must not (`<case>` and `<case>-twin`)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from trncodemod.config import Settings
from trncodemod.output.causes import one_per_cause
from trncodemod.pipeline.engine import migrate_files
from trncodemod.pipeline.verdicts import judged, proven

PROGRAM = Path(__file__).resolve().parent.parent / "golden" / "program"
CASES = sorted(p for p in PROGRAM.iterdir() if (p / "in").is_dir())


def _migrate(tree: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(tree)
    files = sorted(p.relative_to(tree) for p in tree.rglob("*") if p.suffix in (".py", ".ipynb"))
    return one_per_cause(proven(list(migrate_files(files, Settings(), jobs=1)), "xla-2.9"))


def _findings(outcomes) -> list[str]:
    lines = []
    for outcome in outcomes:
        if outcome.error is not None:  # a file the tool could not read: its error is expected
            lines.append(f"{outcome.error_text()} [error]")
            continue
        for f in outcome.findings:
            mark = " [fixed]" if f.fixed else f" [{f.severity.value}]"
            lines.append(f"{f.location}: {f.code}{mark} {f.message}")
            lines.extend(f"    related: {place}" for place in f.related)
    return lines


def _verdicts(outcomes) -> list[str]:
    """The verdict of each entry point of the migrated program (issue 34)."""
    found = judged(outcomes, "xla-2.9")
    if found.nothing:
        return [f"no verdict: {found.nothing}"]
    return [f"{e.entry}: {e.value} at {e.where or '-'}: {e.reason}" for e in found.entries]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_program_golden_case(
    case: Path, update_golden: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tree = tmp_path / "tree"
    shutil.copytree(case / "in", tree)
    outcomes = _migrate(tree, monkeypatch)
    changed = {o.display: o.new for o in outcomes if o.new is not None}
    found = _findings(outcomes)
    verdicts = _verdicts(outcomes)
    if update_golden:
        (case / "verdict").write_text("".join(line + "\n" for line in verdicts))
        shutil.rmtree(case / "out", ignore_errors=True)
        for display, new in changed.items():
            (case / "out" / display).parent.mkdir(parents=True, exist_ok=True)
            (case / "out" / display).write_bytes(new)
        (case / "findings").write_text("".join(line + "\n" for line in found))
    expected_out = case / "out"
    expected = {
        p.relative_to(expected_out).as_posix(): p.read_bytes()
        for p in (sorted(expected_out.rglob("*")) if expected_out.is_dir() else [])
        if p.suffix in (".py", ".ipynb")
    }
    assert changed == expected
    assert found == (case / "findings").read_text().splitlines()
    assert verdicts == (case / "verdict").read_text().splitlines()

    # The patch applies to the tree as given and yields the outputs.
    patch = b"".join(o.diff for o in outcomes)
    if patch:
        (tmp_path / "migration.patch").write_bytes(patch)
        for args in (["--check"], []):
            result = subprocess.run(
                ["git", "apply", *args, str(tmp_path / "migration.patch")],
                cwd=tree,
                capture_output=True,
                text=True,
            )
            assert result.returncode == 0, result.stderr
        for display, new in changed.items():
            assert (tree / display).read_bytes() == new
    # A second run over the outputs changes nothing.
    assert not [o.display for o in _migrate(tree, monkeypatch) if o.new is not None]


def test_every_program_case_has_a_twin_that_must_not_fire() -> None:
    names = {c.name for c in CASES}
    assert names, "no program golden cases"
    for name in names:
        if not name.endswith("-twin"):
            assert f"{name}-twin" in names, f"{name} has no must-not-fire twin"
