"""Output formats of `check`: JSON (with its schema), SARIF 2.1.0, GitHub annotations, statistics.

The SARIF schema in tests/data/sarif-2.1.0-subset.schema.json is a hand-written subset of the
official SARIF 2.1.0 JSON schema (no package on PyPI ships the schema file, and the tests have no
network): it lists every object and property trncodemod writes, with the official constraints on
them, and forbids properties the official schema does not define for those objects.
"""

import json
import os
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from jsonschema import Draft7Validator, Draft202012Validator

from trncodemod import cli as cli_module
from trncodemod.cli import main
from trncodemod.findings import Finding, Safety, Severity
from trncodemod.output.report import github_annotation, one_line, statistics, statistics_lines
from trncodemod.output.sarif import merge_sarif_logs, replacements, sarif_log
from trncodemod.pipeline.engine import FileOutcome
from trncodemod.rules import all_rules

DATA = Path(__file__).parent / "data"
REPORT_SCHEMA = json.loads((DATA / "report.schema.json").read_text("utf-8"))
SARIF_SCHEMA = json.loads((DATA / "sarif-2.1.0-subset.schema.json").read_text("utf-8"))

SCRIPT = """import torch

model = torch.nn.Linear(4, 2).cuda()  # café
x = torch.randn(3, 4).cuda()
if torch.cuda.is_available():
    print("gpu")
"""


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "train.py").write_text(SCRIPT)
    (tmp_path / "broken.py").write_text("import torch\ndef f(:\n")
    return tmp_path


def _validate(validator_cls: type, schema: dict, document: dict) -> None:
    validator_cls.check_schema(schema)
    errors = sorted(validator_cls(schema).iter_errors(document), key=str)
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors[:5])


# -- JSON ---------------------------------------------------------------------------------------


def test_check_json_validates_against_its_schema_and_round_trips(tree: Path) -> None:
    code, out, _ = run("check", "--format", "json", ".")
    assert code == 2, "broken.py is an error"
    document = json.loads(out)
    _validate(Draft202012Validator, REPORT_SCHEMA, document)
    assert json.dumps(document, indent=2, sort_keys=True) + "\n" == out
    assert document["mode"] == "check"
    assert [f["code"] for f in document["findings"]] == ["TRN001", "TRN001", "TRN007"]
    assert [f["fixed"] for f in document["findings"]] == [True, True, False]
    broken = next(f for f in document["files"] if f["path"] == "broken.py")
    assert broken["error"].startswith("broken.py:2:")


def test_apply_json_on_stderr_validates_against_the_same_schema(tree: Path) -> None:
    (tree / "broken.py").unlink()
    _, out, err = run("apply", "--format", "json", ".")
    document = json.loads(err)
    _validate(Draft202012Validator, REPORT_SCHEMA, document)
    assert document["mode"] == "apply" and out == ""


def test_a_schema_violation_is_caught() -> None:
    """The schema is strict enough to fail: an unknown key or a 0-based line is refused."""
    document = {
        "version": 1,
        "mode": "check",
        "files": [],
        "findings": [],
        "summary": {
            "files": 0,
            "changed": 0,
            "errors": 0,
            "findings": 0,
            "fixed": 0,
            "review": 0,
            "remaining": 0,
            "notes": 0,
            "blockers": 0,
        },
    }
    _validate(Draft202012Validator, REPORT_SCHEMA, document)
    validator = Draft202012Validator(REPORT_SCHEMA)
    assert not validator.is_valid({**document, "extra": 1})
    finding = {
        "path": "t.py",
        "line": 0,
        "column": 1,
        "code": "TRN001",
        "name": "cuda-method",
        "message": "m",
        "severity": "error",
        "safety": "safe",
        "fixed": True,
        "cell": None,
    }
    assert not validator.is_valid({**document, "findings": [finding]})
    assert validator.is_valid({**document, "findings": [{**finding, "line": 1}]})


# -- SARIF --------------------------------------------------------------------------------------


def _sarif(tree: Path) -> dict:
    code, out, _ = run("check", "--format", "sarif", ".")
    assert code == 2
    return json.loads(out)


def test_sarif_validates_against_the_sarif_2_1_0_schema(tree: Path) -> None:
    _validate(Draft7Validator, SARIF_SCHEMA, _sarif(tree))


def test_sarif_describes_each_rule_that_fired_from_its_documentation(tree: Path) -> None:
    driver = _sarif(tree)["runs"][0]["tool"]["driver"]
    assert driver["name"] == "trncodemod"
    # Only the rules of the results: the help of all 160 made a log of 167 results 1 MB.
    assert [rule["id"] for rule in driver["rules"]] == ["TRN001", "TRN007"]
    cuda = next(rule for rule in driver["rules"] if rule["id"] == "TRN001")
    assert cuda["name"] == "cuda-method"
    assert cuda["shortDescription"]["text"] == "`.cuda()` → `.to(<target device>)`"
    assert cuda["fullDescription"]["text"].startswith("Rewrites `x.cuda()`")
    assert "## Why" in cuda["help"]["markdown"]
    assert cuda["defaultConfiguration"]["level"] == "error"


def _outcome_with(path: str, *codes: str) -> FileOutcome:
    rules = {rule.code: rule for rule in all_rules()}
    found = tuple(
        Finding.from_rule(rules[code], path, line, 1, "m", False)
        for line, code in enumerate(codes, 1)
    )
    return FileOutcome(Path(path), path, old=b"", findings=found)


def test_a_sarif_log_grows_with_its_results_not_with_the_rule_table() -> None:
    """A log carries the help of the rules that fired only: one finding is a few KB (with all
    160 rules' help, every log was 0.8 MB before its first result)."""
    one = json.dumps(sarif_log([_outcome_with("t.py", "TRN001")]), indent=2)
    assert len(one) < 12_000
    many = sarif_log([_outcome_with("t.py", *["TRN001", "TRN007"] * 80)])
    assert [rule["id"] for rule in many["runs"][0]["tool"]["driver"]["rules"]] == [
        "TRN001",
        "TRN007",
    ]
    assert len(json.dumps(many, indent=2)) < 150_000


def test_merged_sarif_logs_index_each_result_into_the_rules_that_fired() -> None:
    first = sarif_log([_outcome_with("a.py", "TRN007")])
    second = sarif_log([_outcome_with("b.py", "TRN001", "TRN007")])
    run_ = merge_sarif_logs([("a", first), ("b", second)])["runs"][0]
    rules = run_["tool"]["driver"]["rules"]
    assert [rule["id"] for rule in rules] == ["TRN001", "TRN007"]
    assert [rules[r["ruleIndex"]]["id"] for r in run_["results"]] == ["TRN007", "TRN001", "TRN007"]
    _validate(Draft7Validator, SARIF_SCHEMA, merge_sarif_logs([("a", first)]))


def test_sarif_results_point_at_the_same_places_as_the_text_output(tree: Path) -> None:
    log = _sarif(tree)
    run_ = log["runs"][0]
    places = [
        (
            r["ruleId"],
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            r["locations"][0]["physicalLocation"]["region"]["startLine"],
            r["locations"][0]["physicalLocation"]["region"]["startColumn"],
            r["level"],
        )
        for r in run_["results"]
    ]
    assert places == [
        ("TRN001", "train.py", 3, 9, "error"),
        ("TRN001", "train.py", 4, 5, "error"),
        ("TRN007", "train.py", 5, 4, "warning"),
    ]
    rules = run_["tool"]["driver"]["rules"]
    assert all(rules[r["ruleIndex"]]["id"] == r["ruleId"] for r in run_["results"])
    (notification,) = run_["invocations"][0]["toolExecutionNotifications"]
    assert notification["locations"][0]["physicalLocation"]["region"]["startLine"] == 2
    assert run_["invocations"][0]["executionSuccessful"] is False


def _apply_replacements(text: str, change: dict) -> str:
    for replacement in sorted(
        change["replacements"], key=lambda r: r["deletedRegion"]["charOffset"], reverse=True
    ):
        region = replacement["deletedRegion"]
        start, length = region["charOffset"], region["charLength"]
        inserted = replacement.get("insertedContent", {}).get("text", "")
        text = text[:start] + inserted + text[start + length :]
    return text


def test_sarif_fix_of_a_fixed_finding_rewrites_the_file_as_apply_does(tree: Path) -> None:
    results = _sarif(tree)["runs"][0]["results"]
    fixed = [r for r in results if r["properties"]["fixed"]]
    assert fixed and all(len(r["fixes"]) == 1 for r in fixed)
    assert all("fixes" not in r for r in results if not r["properties"]["fixed"])
    (change,) = fixed[0]["fixes"][0]["artifactChanges"]
    assert change["artifactLocation"]["uri"] == "train.py"
    patched = _apply_replacements(SCRIPT, change)
    run("apply", "train.py")
    assert patched == (tree / "train.py").read_text()


def test_sarif_replacement_regions_give_the_same_place_as_lines_and_as_offsets() -> None:
    old = "a\nb\nc"
    new = "a\nB\nc\nd\n"
    changes = replacements(old, new)
    assert _apply_replacements(old, {"replacements": changes}) == new
    for change in changes:
        region = change["deletedRegion"]
        lines = old.split("\n")
        offset = sum(len(line) + 1 for line in lines[: region["startLine"] - 1])
        assert offset + region["startColumn"] - 1 == region["charOffset"]


# -- GitHub and statistics ----------------------------------------------------------------------


def _finding(**changes: object) -> Finding:
    base = dict(
        path="src/train.py",
        line=3,
        column=9,
        code="TRN001",
        message=".cuda() → .to(torch_xla.device())",
        name="cuda-method",
        severity=Severity.ERROR,
        safety=Safety.SAFE,
        fixed=False,
    )
    return Finding(**{**base, **changes})  # type: ignore[arg-type]


def test_github_format_prints_one_workflow_annotation_per_finding(tree: Path) -> None:
    code, out, err = run("check", "--format", "github", ".")
    lines = out.splitlines()
    assert code == 2 and err == ""
    assert lines[0].startswith("::error file=broken.py,line=2,col=")
    assert lines[1] == (
        "::error file=train.py,line=3,col=9,title=TRN001::cuda-method: .cuda() → "
        ".to(torch_xla.device()) (fixable with `trncodemod apply`)"
    )
    assert lines[3].startswith("::warning file=train.py,line=5,col=4,title=TRN007::")


def test_github_annotation_escapes_what_would_break_the_command() -> None:
    line = github_annotation(
        _finding(path="a,b:c.py", message="50% done\nnext", severity=Severity.INFO)
    )
    assert line == (
        "::notice file=a%2Cb%3Ac.py,line=3,col=9,title=TRN001::cuda-method: 50%25 done%0Anext"
    )


def test_statistics_marks_a_rule_as_fixable_only_when_apply_fixes_every_finding() -> None:
    outcome = FileOutcome(
        Path("t.py"),
        "t.py",
        findings=(
            _finding(fixed=True),
            _finding(line=4, fixed=False),
            _finding(line=5, code="TRN002", name="cuda-device-string", fixed=True),
        ),
    )
    rows = statistics([outcome])
    assert [(r["code"], r["count"], r["fixable"], r["blockers"]) for r in rows] == [
        ("TRN001", 2, 1, 0),
        ("TRN002", 1, 1, 0),
    ]
    assert statistics_lines(rows) == [
        "2  TRN001      cuda-method (1 of 2 fixable)",
        "1  TRN002  [*] cuda-device-string",
    ]


def test_statistics_as_json(tree: Path) -> None:
    _, out, _ = run("check", "--statistics", "--format", "json", ".")
    assert [(r["code"], r["name"], r["count"], r["fixable"]) for r in json.loads(out)] == [
        ("TRN001", "cuda-method", 2, 2),
        ("TRN007", "cuda-availability-check", 1, 0),
    ]


# -- Blockers (severity "blocker": the migrated program will not run on the accelerator) -------


@pytest.fixture
def blocker_run(tree: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A run whose second file holds one blocker left, whatever the passes say today."""
    (tree / "broken.py").unlink()
    (tree / "z.py").write_text("import torch\n")
    blocker = _finding(
        path="z.py",
        line=1,
        column=1,
        code="TRN998",
        name="trains-on-cpu",
        message="the model never reaches the device:\n`model = Net(\n    4,\n)`",
        severity=Severity.BLOCKER,
    )
    real = cli_module.migrate_files

    def with_blocker(files, *args, **kwargs):  # type: ignore[no-untyped-def]
        for outcome in real(files, *args, **kwargs):
            if outcome.display == "z.py":
                outcome = replace(outcome, findings=(*outcome.findings, blocker))
            yield outcome

    monkeypatch.setattr(cli_module, "migrate_files", with_blocker)
    return tree


def test_check_text_lists_blockers_first_on_one_line_and_counts_them(blocker_run: Path) -> None:
    code, out, _ = run("check", "--no-cache", ".")
    lines = out.splitlines()
    assert (
        lines[0]
        == "z.py:1:1: TRN998 [blocker] the model never reaches the device: `model = Net( 4, )`"
    )
    assert lines[1].startswith("train.py:")
    assert "1 blocker (will not run on the accelerator)" in lines[-1]
    assert code == 1


def test_a_blocker_fails_the_run_even_with_exit_zero(blocker_run: Path) -> None:
    assert run("check", "--no-cache", "--exit-zero", ".")[0] == 1
    code, _, err = run("apply", "--no-cache", "--exit-zero", ".")
    assert code == 1
    assert err.splitlines()[0].startswith("z.py:1:1: TRN998 [blocker]")
    assert err.splitlines()[-1].startswith("xla-2.9: 2 files checked, ")
    assert err.splitlines()[-1].endswith(
        "; 1 blocker (will not run on the accelerator); read first: z.py:1:1 TRN998."
    )


def test_json_sarif_and_statistics_carry_the_blocker(blocker_run: Path) -> None:
    report = json.loads(run("check", "--no-cache", "--format", "json", ".")[1])
    _validate(Draft202012Validator, REPORT_SCHEMA, report)
    assert report["summary"]["blockers"] == 1
    assert [f["severity"] for f in report["findings"] if f["code"] == "TRN998"] == ["blocker"]
    sarif = json.loads(run("check", "--no-cache", "--format", "sarif", ".")[1])
    (result,) = [r for r in sarif["runs"][0]["results"] if r["ruleId"] == "TRN998"]
    assert result["level"] == "error" and result["properties"]["severity"] == "blocker"
    stats = run("check", "--no-cache", "--statistics", ".")[1].splitlines()
    assert stats[0].startswith("1  TRN998") and stats[0].endswith("[blocker]")


def test_github_annotation_of_a_blocker_is_an_error(blocker_run: Path) -> None:
    out = run("check", "--no-cache", "--format", "github", ".")[1]
    assert any(line.startswith("::error file=z.py") for line in out.splitlines())


def test_one_line_shortens_a_long_code_excerpt_and_keeps_short_ones() -> None:
    long_code = "x = " + " + ".join(["value"] * 30)
    text = one_line(f"`{long_code}` syncs; use `xm.mark_step()`")
    assert "\n" not in text and "…`" in text and "`xm.mark_step()`" in text
    assert len(text.split("`")[1]) == 80


@pytest.mark.skipif(os.name != "posix", reason="a file name of any bytes is POSIX's")
def test_sarif_of_file_names_that_are_not_utf8_or_hold_a_backslash_percent_encodes_their_bytes(
    tmp_path: Path, monkeypatch
) -> None:
    code = b"import torch\nm = torch.nn.Linear(2, 2).cuda()\n"
    for name in (b"caf\xe9.py", b"back\\slash.py"):
        with open(os.path.join(os.fsencode(tmp_path), name), "wb") as handle:
            handle.write(code)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["check", "--no-cache", "--format", "sarif", "."])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    log = json.loads(result.stdout)
    uris = {
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        for r in log["runs"][0]["results"]
    }
    assert uris == {"caf%E9.py", "back%5Cslash.py"}


@pytest.mark.skipif(os.name != "posix", reason="a file name of any bytes is POSIX's")
@pytest.mark.parametrize("fmt", ["text", "github", "json", "sarif"])
def test_a_file_name_that_is_not_utf8_is_printed_escaped_under_a_strict_utf8_locale(
    tmp_path: Path, fmt: str
) -> None:
    import subprocess
    import sys

    with open(os.path.join(os.fsencode(tmp_path), b"caf\xe9.py"), "wb") as handle:
        handle.write(b"import torch\nm = torch.nn.Linear(2, 2).cuda()\n")
    env = {**os.environ, "PYTHONIOENCODING": "utf-8:strict"}
    result = subprocess.run(
        [sys.executable, "-m", "trncodemod", "check", "--no-cache", "--format", fmt, "."],
        cwd=tmp_path,
        env=env,
        capture_output=True,
    )
    assert result.returncode == 1, result.stderr.decode(errors="replace")
    assert b"Traceback" not in result.stderr
    assert b"caf\\udce9.py" in result.stdout or b"caf%E9.py" in result.stdout
