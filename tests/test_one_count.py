"""One count everywhere: for the same tree, `check` (text, JSON, SARIF), `apply --dry-run`
(text and JSON), the pull-request description and a campaign (result.json, its findings, its
SARIF and the fleet table of report.md) give the same numbers of files, errors, findings, fixes,
findings left, notes and blockers. Run over every golden program case, each a repository of a
campaign run once."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from fleet import make_repository

from trncodemod.cli import main

PROGRAM = Path(__file__).resolve().parent.parent / "golden" / "program"
CASES = sorted(p.name for p in PROGRAM.iterdir() if (p / "in").is_dir())
KEYS = ("files", "changed", "errors", "findings", "fixed", "review", "left", "notes", "blockers")
VERDICTS = ("runs", "does not", "cannot tell", "no step")


def _cli(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def _number(pattern: str, text: str, default: int | None = None) -> int:
    found = re.search(pattern, text)
    if found is None:
        assert default is not None, f"{pattern!r} not in {text!r}"
        return default
    return int(found.group(1))


def _blockers(text: str) -> int:
    """The blockers a summary line names: none when it says "no blocker"."""
    return _number(r"\b(\d+) blockers?\b", text, default=0)


def _entry_points(text: str) -> dict[str, int]:
    """The entry points a summary counts by verdict ("3 entry points (1 more without a training
    step): 2 run on the accelerator, 1 cannot tell: ..."); none where it gives no verdict."""
    idle = re.search(r"no training step reached from (\d+) entry points?", text)
    if idle:
        return {"runs": 0, "does not": 0, "cannot tell": 0, "no step": int(idle.group(1))}
    if "no verdict" in text:
        return dict.fromkeys(VERDICTS, 0)
    return {
        "runs": _number(r"\b(\d+) runs? on the accelerator", text, default=0),
        "does not": _number(r"\b(\d+) (?:does|do) not:", text, default=0),
        "cannot tell": _number(r"\b(\d+) cannot tell:", text, default=0),
        "no step": _number(r"\((\d+) more without a training step\)", text, default=0),
    }


def _verdict_counts(counts: dict[str, int]) -> dict[str, int]:
    """The JSON, SARIF and campaign form: a count per verdict that occurs."""
    assert set(counts) <= set(VERDICTS), counts
    return {value: counts.get(value, 0) for value in VERDICTS}


@pytest.fixture(scope="module")
def fleet(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every golden program case as a repository, through one campaign and its report."""
    root = tmp_path_factory.mktemp("one-count")
    entries = []
    for case in CASES:
        files = {
            p.relative_to(PROGRAM / case / "in").as_posix(): p.read_text("utf-8")
            for p in sorted((PROGRAM / case / "in").rglob("*"))
            if p.is_file()
        }
        make_repository(root / "repos" / case, files)
        entries.append(f'[[repos]]\nname = "{case}"\nurl = "repos/{case}"\n')
    (root / "spec.toml").write_text("\n".join(entries))
    out = root / "out"
    code, _, stderr = _cli(
        "campaign", "run", str(root / "spec.toml"), "--out", str(out), "--engine", "local",
        "--cpus", "2", "--exit-zero",
    )  # fmt: skip
    assert code == 0, stderr
    assert _cli("campaign", "report", str(out))[0] == 0
    return root


def _check_text(stdout: str) -> dict[str, int]:
    summary = stdout.splitlines()[-1]
    findings = _number(r"Found (\d+) findings?", summary, default=0)
    return {
        "findings": findings,
        "fixed": _number(r"\((\d+) fixable", summary, default=0),
        "left": _number(r", (\d+) left", summary, default=0),
        "notes": _number(r", (\d+) notes?\)", summary, default=0),
        "errors": _number(r", (\d+) errors?;", summary, default=0),
        "blockers": _blockers(summary.split(";", 1)[1]),
        # Finding lines (`path:line:column: CODE ...`, `nb.ipynb[cell 3]:line:column: ...`), not
        # the verdict's lines about entry points.
        "listed": len(re.findall(r"^\S+(?:\[cell \d+\])?:\d+:\d+: \w+\d+ ", stdout, re.MULTILINE)),
        "marked": stdout.count(" [blocker] "),
    }


def _apply_text(stderr: str) -> dict[str, int]:
    summary = stderr.splitlines()[-1]
    return {
        "files": _number(r"(\d+) files? checked", summary),
        "changed": _number(r"(\d+) would change", summary),
        "fixed": _number(r"(\d+) fix(?:es)? \(", summary),
        "review": _number(r"\((\d+) to review\)", summary),
        "left": _number(r"(\d+) findings? left", summary),
        "notes": _number(r"(\d+) notes?\b", summary, default=0),
        "errors": _number(r"(\d+) errors?\b", summary, default=0),
        "blockers": _blockers(summary.split(";", 1)[1]),
    }


def _json(summary: dict) -> dict[str, int]:
    return {("left" if key == "remaining" else key): value for key, value in summary.items()}


def _sarif(log: dict) -> dict[str, int]:
    (run,) = log["runs"]
    results = run["results"]
    blockers = [
        r
        for r in results
        if r["properties"]["severity"] == "blocker" and not r["properties"]["fixed"]
    ]
    return {
        "findings": len(results),
        "fixed": sum(r["properties"]["fixed"] for r in results),
        "blockers": len(blockers),
        "errors": len(run["invocations"][0]["toolExecutionNotifications"]),
        "rules": len(run["tool"]["driver"]["rules"]),
        "fired": len({r["ruleId"] for r in results}),
    }


def _description(text: str) -> dict[str, int]:
    line = next(line for line in text.splitlines() if re.match(r"\d+ files?: ", line))
    return {
        "files": _number(r"^(\d+) files?:", line),
        "changed": _number(r": (\d+) changed", line),
        "errors": _number(r"(\d+) errors?;", line),
        "findings": _number(r"(\d+) findings?:", line),
        "fixed": _number(r"(\d+) fix(?:es)? \(", line),
        "review": _number(r"\((\d+) to review\)", line),
        "left": _number(r"(\d+) left", line),
        "notes": _number(r"(\d+) notes?;", line),
        "blockers": _number(r"(\d+) blockers?\.", line),
        "listed": text.split("## Changes to review")[0].count("\n- [ ] "),
    }


def _fleet_row(report: str, case: str) -> dict[str, int]:
    row = next(line for line in report.splitlines() if line.startswith(f"| [{case}]("))
    cells = [cell.strip() for cell in row.strip("|").split("|")]
    # repository, status, files changed, fixes, review-class fixes, blockers, findings left, …
    changed, fixed, review, blockers, left = (int(cell) for cell in cells[2:7])
    return {
        "changed": changed,
        "fixed": fixed,
        "review": review,
        "blockers": blockers,
        "left": left,
    }


def _agree(numbers: dict[str, dict[str, int]]) -> None:
    """Every output that gives a number gives the same one."""
    for key in KEYS:
        given = {name: found[key] for name, found in numbers.items() if key in found}
        assert len(set(given.values())) == 1, f"{key}: {given}"


@pytest.mark.parametrize("case", CASES)
def test_every_output_gives_the_same_numbers(
    case: str, fleet: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tree = tmp_path / "tree"
    shutil.copytree(PROGRAM / case / "in", tree)
    monkeypatch.chdir(tree)
    options = ("--no-cache", "--jobs", "1")
    _, text, _ = _cli("check", *options, ".")
    _, check_json, _ = _cli("check", *options, "--format", "json", ".")
    _, sarif, _ = _cli("check", *options, "--format", "sarif", ".")
    _, _, apply_text = _cli("apply", *options, "--dry-run", ".")
    _, _, apply_json = _cli("apply", *options, "--dry-run", "--format", "json", ".")
    out = fleet / "out" / case
    result = json.loads((out / "result.json").read_text("utf-8"))
    assert result["status"] in ("migrated", "no-change"), result

    check = _check_text(text)
    document = json.loads(check_json)
    description = _description((out / "description.md").read_text("utf-8"))
    numbers = {
        "check": check,
        "check --format json": _json(document["summary"]),
        "check --format sarif": _sarif(json.loads(sarif)),
        "apply --dry-run": _apply_text(apply_text),
        "apply --dry-run --format json": _json(json.loads(apply_json)["summary"]),
        "pr description": description,
        "campaign result.json": _json(result["counts"]),
        "campaign findings.json": _json(json.loads((out / "findings.json").read_text())["summary"]),
        "campaign findings.sarif": _sarif(json.loads((out / "findings.sarif").read_text())),
        "campaign report.md": _fleet_row((fleet / "out" / "report.md").read_text(), case),
    }
    _agree(numbers)
    # The entry points, counted by verdict, agree too.
    description_text = (out / "description.md").read_text("utf-8")
    verdicts = {
        "check": _entry_points(text.splitlines()[-1]),
        "apply --dry-run": _entry_points(apply_text.splitlines()[-1]),
        "pr description": _entry_points(description_text.split("## Verdict", 1)[1]),
        "check --format json": _verdict_counts(document["verdict"]["counts"]),
        "apply --dry-run --format json": _verdict_counts(
            json.loads(apply_json)["verdict"]["counts"]
        ),
        "check --format sarif": _verdict_counts(
            json.loads(sarif)["runs"][0]["properties"]["verdict"]["counts"]
        ),
        "campaign result.json": _verdict_counts(result["verdict"]),
        "campaign findings.json": _verdict_counts(
            json.loads((out / "findings.json").read_text())["verdict"]["counts"]
        ),
    }
    assert len({tuple(v.values()) for v in verdicts.values()}) == 1, verdicts
    assert sum(verdicts["check"].values()) == len(document["verdict"]["entry_points"])
    summary = document["summary"]
    # What is counted is what is listed.
    assert check["listed"] == summary["findings"] == len(document["findings"])
    assert check["marked"] == summary["blockers"] == len(result["blocking"])
    assert description["listed"] == summary["blockers"]
    assert summary["findings"] == summary["fixed"] + summary["remaining"] + summary["notes"]
    assert sum(n["findings"] for n in result["rules"].values()) == summary["findings"]
    # SARIF carries the rules that fired, no more.
    assert numbers["check --format sarif"]["rules"] == numbers["check --format sarif"]["fired"]
