"""Every golden case: expected output and findings, a second run changes nothing, and the patch
applies with `git apply` to the input and yields the expected output."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from trncodemod.commands.golden import GoldenCase, find_cases, run_case, update_case
from trncodemod.output.patch import build_file_diff
from trncodemod.rules import all_passes

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
CASES = find_cases(GOLDEN)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_golden_case(case: GoldenCase, update_golden: bool, tmp_path: Path) -> None:
    run = run_case(case)
    if update_golden:
        update_case(case, run)
    assert run.output.decode("utf-8", "replace") == case.expected_output().decode(
        "utf-8", "replace"
    )
    assert run.findings == case.expected_findings()

    second = run_case(case, run.output)
    assert second.output == run.output, "a second run changed the output"
    assert not [f for f in second.findings if f.endswith("[fixed]")], "a second run fixed more"

    original = case.input.read_bytes()
    if run.output != original:
        (tmp_path / "case.py").write_bytes(original)
        (tmp_path / "case.patch").write_bytes(build_file_diff("case.py", original, run.output))
        for args in (["--check"], []):
            result = subprocess.run(
                ["git", "apply", *args, "case.patch"], cwd=tmp_path, capture_output=True, text=True
            )
            assert result.returncode == 0, result.stderr
        assert (tmp_path / "case.py").read_bytes() == run.output


@pytest.mark.parametrize("pass_cls", all_passes(), ids=lambda p: p.name)
def test_every_pass_has_golden_cases_that_fire_and_that_do_not(pass_cls) -> None:
    cases = [c for c in CASES if c.input.parent.name == pass_cls.name]
    # A report-only pass (no fixable rule) never changes code: its cases fire with findings.
    report_only = not any(rule.fixable for rule in pass_cls.rules)
    changing = [c for c in cases if c.output.exists() or (report_only and c.findings_file.exists())]
    untouched = [c for c in cases if c not in changing]
    assert len(cases) >= 8, f"{pass_cls.name}: {len(cases)} golden cases, want at least 8"
    assert changing and untouched, f"{pass_cls.name}: needs cases that fire and cases that must not"


def test_git_is_available_for_patch_checks() -> None:
    assert shutil.which("git"), "golden patch checks need git on PATH"
