"""SARIF 2.1.0 logs (``check --format sarif``), for code-scanning services and SARIF viewers.

One run: the tool with the metadata of each rule that fired (id, name, descriptions and help
from the rule's documentation, default level; not all 160 rules, whose help alone is about 1 MB),
one result per finding with its location, and, on findings that
``apply`` fixes, the fix: the file's rewrite as replacements built from the same line diff as the
patch. The fixes of one file are not separable (a rewrite and the import it needs), so every fixed
result of a file carries the whole file's change and says so.

Columns count Unicode code points (``columnKind: unicodeCodePoints``), as Python strings do;
lines and columns are 1-based, character offsets 0-based.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from urllib.parse import quote

from trncodemod import __version__
from trncodemod.findings import Finding, Rule, Severity
from trncodemod.output.line_diff import LineMatcher
from trncodemod.output.rule_docs import rule_sources
from trncodemod.pipeline.engine import FileOutcome
from trncodemod.pipeline.source import SourceError, decode_source
from trncodemod.rules import all_rules, pass_of

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
LEVELS = {
    Severity.BLOCKER: "error",
    Severity.ERROR: "error",
    Severity.WARNING: "warning",
    Severity.INFO: "note",
}
_SECTION = re.compile(r"^## What it does\s*\n(?P<body>.*?)(?=^## |\Z)", re.MULTILINE | re.DOTALL)


def _uri(path: str) -> str:
    """A relative URI reference of ``path``: its bytes percent-encoded, those of a name that is
    not UTF-8 (surrogates here) included; a backslash is part of a POSIX name (``%5C``)."""
    return quote(path.encode("utf-8", "surrogateescape"), safe="/")


def _rule_descriptor(rule: type[Rule]) -> dict:
    doc = rule.doc()
    match = _SECTION.search(doc)
    what = " ".join(match.group("body").split()) if match else rule.summary
    owner = pass_of(rule)
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": what},
        "help": {"text": doc, "markdown": doc},
        "defaultConfiguration": {"level": LEVELS[rule.severity]},
        "properties": {
            "tags": [owner.name, rule.safety.value if rule.fixable else "report-only"],
            "pass": owner.name,
            "fixable": rule.fixable,
            "safety": rule.safety.value,
            "severity": rule.severity.value,
            "sources": [source.where for source in rule_sources(rule)],
        },
    }


def _position(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of a 0-based character offset."""
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, column


def _lines(text: str) -> list[str]:
    # Split on "\n" only, as the patch does (patch.split_lines).
    parts = text.split("\n")
    last = parts.pop()
    return [part + "\n" for part in parts] + ([last] if last else [])


def replacements(old: str, new: str) -> list[dict]:
    """SARIF replacements that turn ``old`` into ``new``; every ``deletedRegion`` refers to
    ``old`` (SARIF 2.1.0 §3.57.3), so they may be applied from the last to the first."""
    old_lines, new_lines = _lines(old), _lines(new)
    starts = [0]
    for line in old_lines:
        starts.append(starts[-1] + len(line))
    result = []
    matcher = LineMatcher(old_lines, new_lines)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        offset, end = starts[i1], starts[i2]
        start_line, start_column = _position(old, offset)
        end_line, end_column = _position(old, end)
        replacement: dict = {
            "deletedRegion": {
                "startLine": start_line,
                "startColumn": start_column,
                "endLine": end_line,
                "endColumn": end_column,
                "charOffset": offset,
                "charLength": end - offset,
            }
        }
        if j2 > j1:
            replacement["insertedContent"] = {"text": "".join(new_lines[j1:j2])}
        result.append(replacement)
    return result


def _file_fix(outcome: FileOutcome) -> dict | None:
    if outcome.new is None or outcome.old is None:
        return None
    try:
        old = decode_source(outcome.old).text
        new = decode_source(outcome.new).text
    except SourceError:
        return None
    fixed = sum(f.fixed for f in outcome.findings)
    return {
        "description": {
            "text": f"trncodemod apply: the rewrite of {outcome.display} "
            f"({fixed} fix{'es' * (fixed != 1)}, applied together)"
        },
        "artifactChanges": [
            {
                "artifactLocation": {"uri": _uri(outcome.display)},
                "replacements": replacements(old, new),
            }
        ],
    }


def _location(path: str, line: int, column: int | None) -> dict:
    region: dict = {"startLine": line}
    if column is not None:
        region["startColumn"] = column
    return {"physicalLocation": {"artifactLocation": {"uri": _uri(path)}, "region": region}}


def _result(f: Finding, index: dict[str, int], fix: dict | None) -> dict:
    message = f.message if f.cell is None else f"cell {f.cell}: {f.message}"
    result: dict = {
        "ruleId": f.code,
        "level": LEVELS[f.severity],
        "message": {"text": message},
        "locations": [_location(f.path, f.line, f.column)],
        # SARIF has no level above error: "severity" keeps a blocker apart from an error.
        "properties": {"fixed": f.fixed, "safety": f.safety.value, "severity": f.severity.value},
    }
    if f.code in index:
        result["ruleIndex"] = index[f.code]
    if f.cell is not None:
        result["properties"]["cell"] = f.cell
    if f.related:
        # The other places of the same cause (the uses of a device decided here).
        related = []
        for number, place in enumerate(f.related, 1):
            path, line, column = place.rsplit(":", 2)
            related.append({"id": number, **_location(path, int(line), int(column))})
        result["relatedLocations"] = related
    if f.fixed and fix is not None:
        result["fixes"] = [fix]
    return result


def _fired(codes: set[str]) -> list[type[Rule]]:
    """The rules of ``codes``, in the rule table's order (a plugin's code has no descriptor)."""
    return [rule for rule in all_rules() if rule.code in codes]


def sarif_log(outcomes: Sequence[FileOutcome], target: str = "") -> dict:
    from trncodemod.pipeline.verdicts import judged

    rules = _fired({f.code for o in outcomes if o.error is None for f in o.findings})
    index = {rule.code: number for number, rule in enumerate(rules)}
    results = []
    notifications = []
    for outcome in outcomes:
        if outcome.error is not None:
            notification: dict = {"level": "error", "message": {"text": outcome.error}}
            if outcome.error_line is not None:
                notification["locations"] = [
                    _location(outcome.display, outcome.error_line, outcome.error_column)
                ]
            else:
                notification["locations"] = [
                    {"physicalLocation": {"artifactLocation": {"uri": _uri(outcome.display)}}}
                ]
            notifications.append(notification)
            continue
        fix = _file_fix(outcome) if any(f.fixed for f in outcome.findings) else None
        results.extend(_result(f, index, fix) for f in outcome.findings)
    return {
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "trncodemod",
                        "version": __version__,
                        "rules": [_rule_descriptor(rule) for rule in rules],
                    }
                },
                "invocations": [
                    {
                        "executionSuccessful": not notifications,
                        "toolExecutionNotifications": notifications,
                    }
                ],
                "columnKind": "unicodeCodePoints",
                "results": results,
                # The verdict per entry point (issue 34), as `--format json` carries it.
                "properties": {"verdict": judged(outcomes, target).to_json()},
            }
        ],
    }


def sarif_report(outcomes: Sequence[FileOutcome], target: str = "") -> str:
    text = json.dumps(sarif_log(outcomes, target), indent=2, ensure_ascii=False)
    # A file name that is not UTF-8 is in the text as surrogates, which no UTF-8 stream can
    # write: each becomes its JSON escape (\udce9), inside the string it is in.
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _based(node: object, base: str) -> None:
    """Every artifact location under ``node`` made relative to the ``base`` URI base id."""
    if isinstance(node, dict):
        if "artifactLocation" in node:
            node["artifactLocation"]["uriBaseId"] = base
        for value in node.values():
            _based(value, base)
    elif isinstance(node, list):
        for value in node:
            _based(value, base)


def merge_sarif_logs(logs: Sequence[tuple[str, dict]]) -> dict:
    """One SARIF log for many repositories: one run, each rule that fired once, every result kept
    with its paths under the repository's URI base id (its name), and each repository's URL and
    commit in ``versionControlProvenance``, mapped to that base id (SARIF 2.1.0 §3.23.7)."""
    merged = sarif_log([])
    run = merged["runs"][0]
    codes = {r["ruleId"] for _, log in logs for source in log["runs"] for r in source["results"]}
    rules = _fired(codes)
    run["tool"]["driver"]["rules"] = [_rule_descriptor(rule) for rule in rules]
    index = {rule.code: number for number, rule in enumerate(rules)}
    run["originalUriBaseIds"] = {}
    run["versionControlProvenance"] = []
    notifications = run["invocations"][0]["toolExecutionNotifications"]
    for name, log in logs:
        for source in log["runs"]:
            _based(source["results"], name)
            for result in source["results"]:  # indexed into the merged run's rules
                result.pop("ruleIndex", None)
                if result["ruleId"] in index:
                    result["ruleIndex"] = index[result["ruleId"]]
            run["results"].extend(source["results"])
            for invocation in source.get("invocations", []):
                _based(invocation, name)
                notifications.extend(invocation.get("toolExecutionNotifications", []))
            for provenance in source.get("versionControlProvenance", []):
                run["versionControlProvenance"].append(
                    {**provenance, "mappedTo": {"uriBaseId": name}}
                )
        run["originalUriBaseIds"][name] = {"description": {"text": f"the repository {name}"}}
    run["invocations"][0]["executionSuccessful"] = not notifications
    return merged
