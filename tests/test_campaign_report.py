"""`trncodemod campaign report DIR`: one self-contained HTML page whose table, chart and
embedded data agree with the results, its Markdown twin, and one merged SARIF log. Checked with
html.parser always, and in headless Chromium where it is installed."""

from __future__ import annotations

import json
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner
from jsonschema import Draft7Validator

from trncodemod.campaign.report import CHART_RULES
from trncodemod.cli import main

VOID = {"meta", "br", "input", "rect", "img", "hr", "link", "path", "line", "circle"}
SARIF_SCHEMA = json.loads(
    (Path(__file__).parent / "data" / "sarif-2.1.0-subset.schema.json").read_text("utf-8")
)


class Page(HTMLParser):
    """The parts of the page the tests look at; every closing tag must close the open element."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.rows: list[dict] = []  # the fleet table's body rows: attributes and cell texts
        self.rules: list[str] = []  # data-rule of each chart row
        self.rects: list[str] = []  # class of each chart rect
        self.external: list[str] = []  # src/href pointing off the page
        self.scripts: dict[str, str] = {}  # script id (or "") -> its text
        self.sections: list[str] = []
        self._cell: list[str] | None = None
        self._script: str | None = None

    def handle_starttag(self, tag: str, attrs: list) -> None:
        attributes = dict(attrs)
        for key in ("src", "href"):
            if key in attributes and not attributes[key].startswith("#"):
                self.external.append(attributes[key])
        if tag == "link":
            self.external.append(str(attributes))
        if tag == "tr" and "tbody" in self.stack and "table" in self.stack:
            self.rows.append({"attrs": attributes, "cells": []})
        if tag == "td" and self.rows and "tbody" in self.stack:
            self._cell = []
        if tag == "g" and "data-rule" in attributes:
            self.rules.append(attributes["data-rule"])
        if tag == "rect" and "svg" in self.stack:
            self.rects.append(attributes.get("class", ""))
        if tag == "section":
            self.sections.append(attributes["id"])
        if tag == "script":
            self._script = attributes.get("id", "")
            self.scripts[self._script] = ""
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            return
        assert self.stack and self.stack[-1] == tag, f"</{tag}> closes <{self.stack[-1:]}>"
        self.stack.pop()
        if tag == "td" and self._cell is not None:
            self.rows[-1]["cells"].append("".join(self._cell).strip())
            self._cell = None
        if tag == "script":
            self._script = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)
        if self._script is not None:
            self.scripts[self._script] += data


@pytest.fixture(scope="module")
def report(campaign_fleet) -> tuple[Path, Page, list[dict]]:
    _, out, _, _ = campaign_fleet
    result = CliRunner().invoke(main, ["campaign", "report", str(out)])
    assert result.exit_code == 0, result.output
    page = Page()
    page.feed((out / "report.html").read_text("utf-8"))
    page.close()
    results = sorted(
        (json.loads(p.read_text()) for p in out.glob("*/result.json")), key=lambda r: r["name"]
    )
    return out, page, results


def test_the_page_is_well_formed_and_fetches_nothing(report) -> None:
    out, page, _ = report
    assert page.stack == [], f"elements left open: {page.stack}"
    assert page.external == [], "no network assets: CSS, script and SVG are inline"
    assert "<style>" in (out / "report.html").read_text()


def test_the_fleet_table_has_a_row_per_repository_with_its_figures(report) -> None:
    _, page, results = report
    assert [row["cells"][0] for row in page.rows] == [r["name"] for r in results]
    by_name = {row["cells"][0]: row for row in page.rows}
    for result in results:
        row = by_name[result["name"]]
        assert row["attrs"]["data-status"] == result["status"]
        counts = result.get("counts", {})
        assert row["cells"][2:7] == [
            str(counts.get(k, 0)) for k in ("changed", "fixed", "review", "blockers", "remaining")
        ]
    assert "failed" in by_name["gone"]["attrs"]["class"]
    assert "blocked" in by_name["r01"]["attrs"]["class"]


def test_the_embedded_data_is_the_table_and_the_rule_totals(report) -> None:
    _, page, results = report
    data = json.loads(page.scripts["fleet-data"])
    assert [row["name"] for row in data["rows"]] == [r["name"] for r in results]
    codes = {code for r in results for code in r.get("rules", {})}
    assert {rule["code"] for rule in data["rules"]} == codes
    blockers = sum(r.get("counts", {}).get("blockers", 0) for r in results)
    assert sum(rule["blockers"] for rule in data["rules"]) == blockers > 0


def test_the_chart_has_a_bar_per_rule_and_blockers_in_their_own_colour(report) -> None:
    _, page, results = report
    codes = {code for r in results for code in r.get("rules", {})}
    assert len(page.rules) == min(len(codes), CHART_RULES)
    assert page.rules[0] == "TRN026", "the rule with the most blockers comes first"
    assert page.rects.count("bar-findings") == len(page.rules) + 1  # + the legend
    blocking = {code for r in results for code, n in r.get("rules", {}).items() if n["blockers"]}
    assert page.rects.count("bar-blockers") == len(blocking) + 1


def test_each_repository_has_a_section_with_its_description_and_highlighted_patch(report) -> None:
    out, page, results = report
    assert page.sections == [f"repo-{r['name']}" for r in results]
    text = (out / "report.html").read_text()
    section = text[text.index('id="repo-r00"') : text.index('id="repo-r01"')]
    assert "<h1>Migrate to AWS Trainium (xla-2.9)</h1>" in section, "the description, rendered"
    assert 'class="highlight"' in section and 'class="gi"' in section, "added lines marked"


def test_the_markdown_twin_has_the_same_rows_and_each_patch(report) -> None:
    out, page, results = report
    text = (out / "report.md").read_text()
    for result in results:
        assert f"| [{result['name']}](#{result['name']}) | {result['status']} |" in text
    assert text.count("```diff") == sum(
        (out / r["name"] / "migration.patch").exists()
        and (out / r["name"] / "migration.patch").stat().st_size > 0
        for r in results
    )
    # What blocks and what failed are named above the table, as the run's summary names them.
    head = text[: text.index("## Fleet")]
    assert "Blockers left (the program will not run on the accelerator): r01 (1), r04 (1)." in head
    assert "Failed: badconfig (crashed), gone (clone-failed)." in head


def test_the_merged_sarif_describes_each_rule_that_fired_once(report) -> None:
    out, _, results = report
    run = json.loads((out / "report.sarif").read_text())["runs"][0]
    fired = {code for r in results for code in r.get("rules", {})}
    rules = run["tool"]["driver"]["rules"]
    assert sorted(rule["id"] for rule in rules) == sorted(fired)
    assert all(rules[r["ruleIndex"]]["id"] == r["ruleId"] for r in run["results"])


def test_the_merged_sarif_holds_every_repository_findings_under_its_name(report) -> None:
    out, _, results = report
    log = json.loads((out / "report.sarif").read_text())
    errors = sorted(Draft7Validator(SARIF_SCHEMA).iter_errors(log), key=str)
    assert not errors, errors[0].message if errors else ""
    run = log["runs"][0]
    expected = sum(
        len(json.loads((out / r["name"] / "findings.json").read_text())["findings"])
        for r in results
        if (out / r["name"] / "findings.json").exists()
    )
    assert len(run["results"]) == expected
    bases = {
        result["locations"][0]["physicalLocation"]["artifactLocation"]["uriBaseId"]
        for result in run["results"]
    }
    assert bases <= set(run["originalUriBaseIds"]) and "r00" in bases
    provenance = {
        p["mappedTo"]["uriBaseId"]: p["revisionId"] for p in run["versionControlProvenance"]
    }
    assert provenance["r00"] == next(r for r in results if r["name"] == "r00")["inputs"]["commit"]


def _chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.skipif(
    _chromium() is None, reason="no headless browser (Debian: apt-get install chromium)"
)
def test_in_a_browser_the_table_filters_and_the_chart_renders(report, tmp_path: Path) -> None:
    out, _, results = report
    url = (out / "report.html").as_uri() + "#status=blocked&sort=name&order=desc"
    flags = ["--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={tmp_path / 'p'}"]
    dom = subprocess.run(
        [_chromium(), *flags, "--dump-dom", url], capture_output=True, text=True, timeout=120
    ).stdout
    page = Page()
    page.feed(dom)
    assert 'data-ready="1"' in dom, "the page's script ran to its end"
    names = [row["cells"][0] for row in page.rows]
    assert names == sorted(names, reverse=True), "sorted by the name column, descending"
    shown = [row["cells"][0] for row in page.rows if "hidden" not in row["attrs"]]
    blocked = [r["name"] for r in results if r.get("counts", {}).get("blockers")]
    assert sorted(shown) == sorted(blocked)
    assert f"{len(blocked)} of {len(results)} repositories shown" in dom
    assert page.rects.count("bar-blockers") >= 2
    shot = tmp_path / "report.png"
    subprocess.run(
        [_chromium(), *flags, f"--screenshot={shot}", "--window-size=1200,900", url],
        capture_output=True,
        timeout=120,
    )
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


HOSTILE = "<img src=http://example.invalid/x onerror=alert(1)>"


def _hostile_out(tmp_path: Path) -> Path:
    """Results edited by hand: markup in every field, lists where strings were, a name that
    leads out of DIR, and a repository folder named like a report."""
    out = tmp_path / "out"
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "migration.patch").write_text("SECRET OUTSIDE OUT\n")
    result = {
        "name": "../x",
        "status": HOSTILE,
        "reason": f"clone of {HOSTILE} at ref <b>main</b> failed",
        "url": HOSTILE,
        "branch": HOSTILE,
        "branch_commit": [HOSTILE],
        "inputs": {"commit": [HOSTILE]},
        "rules": {HOSTILE: {"findings": 1, "blockers": 1}},
        "counts": {"changed": [HOSTILE]},
        "verify": {"verdict": HOSTILE},
        "timings": {"total": [1]},
    }
    for name in ("evil", "report.html"):
        (out / name).mkdir(parents=True)
        (out / name / "result.json").write_text(json.dumps(result))
    (out / "evil" / "description.md").write_text(
        f"# t\n\n- `a`![x](http://example.invalid/i.png)`.py`\n\n{HOSTILE}\n\n```\n{HOSTILE}\n"
    )
    (out / "evil" / "migration.patch").write_text(f"+{HOSTILE}\n+```\n+{HOSTILE}\n")
    return out


def test_a_hand_edited_result_is_text_everywhere_and_the_page_fetches_nothing(
    tmp_path: Path,
) -> None:
    out = _hostile_out(tmp_path)
    shutil.rmtree(out / "report.html")  # a folder there is refused (test below)
    result = CliRunner().invoke(main, ["campaign", "report", str(out)])
    assert result.exit_code == 0, result.output
    text = (out / "report.html").read_text()
    page = Page()
    page.feed(text)
    page.close()
    # A link is text to click; nothing is loaded: no image, no source, no markup of the result.
    assert not [url for url in page.external if "src" in url or not url.startswith("http")]
    assert "<img" not in text and "<b>main" not in text
    assert "SECRET" not in text, "read outside DIR"
    assert page.sections == ["repo-evil"]
    data = json.loads(page.scripts["fleet-data"])
    assert data["rows"][0]["name"] == "evil" and data["rules"][0]["code"] == HOSTILE
    markdown = (out / "report.md").read_text()
    assert "SECRET" not in markdown
    # Outside the fenced description and patch, no markup survives: every `<` is escaped.
    outside = [part for index, part in enumerate(markdown.split("````")) if index % 2 == 0]
    assert all("<img" not in part.replace("\\<img", "") for part in outside)
    assert "![x](" not in "".join(outside)


def test_a_repository_folder_named_like_a_report_is_a_clear_error(tmp_path: Path) -> None:
    out = _hostile_out(tmp_path)
    result = CliRunner().invoke(main, ["campaign", "report", str(out)])
    assert result.exit_code == 1
    assert "report.html is a folder" in result.output
    assert "Traceback" not in result.output


def test_a_spec_cannot_name_a_repository_like_a_report(tmp_path: Path) -> None:
    from trncodemod.campaign.spec import SpecError, load_spec

    spec = tmp_path / "fleet.toml"
    spec.write_text('[[repos]]\nname = "report.md"\nurl = "https://example.invalid/r"\n')
    with pytest.raises(SpecError, match="name of a report"):
        load_spec(spec)


def test_a_result_json_that_is_a_link_is_not_read(tmp_path: Path) -> None:
    out = tmp_path / "out"
    (out / "r").mkdir(parents=True)
    secret = tmp_path / "secret.json"
    secret.write_text(json.dumps({"name": "r", "status": "SECRET-OUTSIDE-OUT"}))
    (out / "r" / "result.json").symlink_to(secret)
    result = CliRunner().invoke(main, ["campaign", "report", str(out)])
    assert result.exit_code == 0, result.output
    assert "SECRET" not in (out / "report.html").read_text()
