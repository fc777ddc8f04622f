"""The blocker verdict of the repository benchmark (issue 22): every blocker the tool reports on
the repositories of ``repos.toml``, against the verdicts kept in ``review/blockers.toml``.

    python benchmarks/blocker_review.py [--run] [--only NAME ...] [--add-missing] [--no-readme]

Reads ``benchmarks/.cache/results/<name>/check.json`` (written by ``repos.py``; ``--run`` writes
it here with ``trncodemod check`` alone, a third of ``repos.py``'s time, when only the blockers
are wanted). A blocker's id is the one ``repos.py`` gives it (repository, rule, file, line text),
so a verdict follows its blocker while lines move. Prints the blockers without a verdict and the
verdicts whose blocker is gone; ``--add-missing`` appends empty entries for the first; and
rewrites the table between the ``blockers`` markers of ``benchmarks/README.md``: per repository
the blockers true and false, the distinct causes, and the findings per file.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter

from repos import CACHE, MIRRORS, README, blocker_key, line_text, load_repos, materialise, run_tool

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from pathlib import Path

HERE = Path(__file__).resolve().parent
VERDICTS = HERE / "review" / "blockers.toml"
TABLE_START, TABLE_END = "<!-- blockers:start -->", "<!-- blockers:end -->"


def blockers_of(name: str) -> tuple[list[dict], int, int] | None:
    """The blockers of one repository's check, its findings and files; None before a run."""
    path = CACHE / "results" / name / "check.json"
    if not path.is_file():
        return None
    report = json.loads(path.read_text("utf-8"))
    source = CACHE / "repos" / name
    found = []
    for finding in report["findings"]:
        if finding["severity"] == "blocker":
            text = line_text(source, finding["path"], finding["line"])
            found.append({"id": blocker_key(name, finding, text), "repo": name, **finding})
    return found, len(report["findings"]), report["summary"]["files"]


def table(rows: list[dict]) -> str:
    head = (
        "| repo | blockers | true | false | not reviewed | causes (true / false) | "
        "findings/file |\n|---|---|---|---|---|---|---|\n"
    )
    lines = []
    for row in rows:
        causes = "; ".join(row["causes"]) or "–"
        lines.append(
            f"| {row['name']} | {row['blockers']} | {row['true']} | {row['false']} | "
            f"{row['missing']} | {causes} | {row['per_file']} |"
        )
    total = {k: sum(r[k] for r in rows) for k in ("blockers", "true", "false", "missing")}
    findings = sum(r["findings"] for r in rows)
    files = sum(r["files"] for r in rows)
    distinct = len({c for r in rows for c in r["cause_keys"]})
    lines.append(
        f"| **total ({len(rows)})** | {total['blockers']} | {total['true']} | {total['false']} | "
        f"{total['missing']} | {distinct} distinct | {round(findings / files, 2) if files else 0} |"
    )
    return head + "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*")
    parser.add_argument("--run", action="store_true", help="run `trncodemod check` first")
    parser.add_argument("--add-missing", action="store_true")
    parser.add_argument("--no-readme", action="store_true")
    args = parser.parse_args()
    repos = [r for r in load_repos() if not args.only or r.name in args.only]
    if args.run:
        for repo in repos:
            source = CACHE / "repos" / repo.name
            materialise(repo, MIRRORS, source)
            check, _ = run_tool(["check", "--format", "json"], source)
            out = CACHE / "results" / repo.name
            out.mkdir(parents=True, exist_ok=True)
            (out / "check.json").write_bytes(check.stdout.encode("utf-8", "surrogateescape"))
            print(f"checked {repo.name}", file=sys.stderr)
    with VERDICTS.open("rb") as handle:
        verdicts = {v["id"]: v for v in tomllib.load(handle).get("blocker", [])}
    rows, seen, missing = [], set(), []
    for repo in repos:
        result = blockers_of(repo.name)
        if result is None:
            print(f"{repo.name}: no check.json (run repos.py or --run)", file=sys.stderr)
            continue
        found, findings, files = result
        counts: Counter[str] = Counter()
        causes: dict[str, str] = {}
        for blocker in found:
            seen.add(blocker["id"])
            verdict = verdicts.get(blocker["id"])
            if verdict is None or verdict.get("verdict") not in ("true", "false"):
                counts["missing"] += 1
                missing.append(blocker)
                continue
            counts[verdict["verdict"]] += 1
            causes.setdefault(verdict["cause"], verdict["verdict"])
        rows.append(
            {
                "name": repo.name,
                "blockers": len(found),
                "true": counts["true"],
                "false": counts["false"],
                "missing": counts["missing"],
                "causes": [f"{c} ({v})" for c, v in causes.items()],
                "cause_keys": list(causes),
                "findings": findings,
                "files": files,
                "per_file": round(findings / files, 2) if files else 0.0,
            }
        )
    for blocker in missing:
        print(
            f"no verdict: {blocker['id']} {blocker['repo']} {blocker['path']}:{blocker['line']} "
            f"{blocker['code']} {blocker['message'][:120]}"
        )
    names = {row["name"] for row in rows}
    for key, verdict in verdicts.items():
        if key not in seen and verdict["where"].split(" ", 1)[0] in names:
            print(f"stale verdict: {key} {verdict['where']}:{verdict.get('line')}")
    if args.add_missing and missing:
        with VERDICTS.open("a", encoding="utf-8") as handle:
            for blocker in missing:
                handle.write(
                    f'\n[[blocker]]\nid = "{blocker["id"]}"\n'
                    f'where = "{blocker["repo"]} {blocker["path"]}"\nline = {blocker["line"]}\n'
                    f'rule = "{blocker["code"]}"\nverdict = ""\ncause = ""\nreason = ""\n'
                )
    text = table(rows)
    print(text)
    if not args.no_readme and not args.only:
        readme = README.read_text("utf-8")
        start, end = readme.index(TABLE_START) + len(TABLE_START), readme.index(TABLE_END)
        README.write_text(readme[:start] + "\n" + text + "\n" + readme[end:], "utf-8")


if __name__ == "__main__":
    main()
