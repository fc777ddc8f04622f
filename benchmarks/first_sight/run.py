"""The first-sight benchmark (issue 35): the tool over public training code nobody on the
project has seen, reviewed hunk by hunk, blocker by blocker and entry point by entry point.

    python benchmarks/first_sight/run.py benchmarks/first_sight/batch-<date>-<letter>.toml
        [--only NAME ...] [--mirrors DIR] [-j 1] [--no-measure] [--add-missing] [--table]
        [--readme]

A batch file names the tool's commit, the date and the repositories (``[[repo]]``: name, github,
commit, paths, category, as in ``benchmarks/repos.toml``), and optionally the ``label`` of its row
in the series table (the batch's name by default; a re-run after fixes says so there). For each repository this runs
``benchmarks/repos.py``'s ``measure`` (``check`` and ``apply --dry-run`` with ``--no-cache``,
``git apply`` of the patch, every changed file parsed, a second run that must change nothing,
internal errors counted) under the git-ignored ``benchmarks/.cache/first_sight/<batch>/``, with
the repository's README and shell files beside its code, since launch lines name entry points.
It then adds ``entry_points.json``: every entry point of the tool's program model
(``trncodemod.analysis.program``), the modules it reaches, and what the tool's output claims for
it: "runs" (no blocker left in any module it reaches: the summary's "will run on the
accelerator: no blocker left") or "blocked" (the first blocker in reach).

The reviewer's verdicts are kept in ``benchmarks/first_sight/<batch>/``: ``hunks.toml``
(``[[hunk]]``: id, where, rules, verdict correct/unneeded/wrong, reason), ``blockers.toml``
(``[[blocker]]``: id, where, line, rule, verdict true/false, reason) and ``entry_points.toml``
(``[[entry]]``: id, claimed, truth runs/does-not/cannot-tell, line, reason). Only ids, places,
verdicts and reasons are committed; the code they name stays in the cache, and the review sheet
``<cache>/sheets/<name>.md`` shows it. A verdict whose stored place or rules no longer match
the hunk its id names is refused (``hunk_ids.refusal``), as in ``hunk_review.py``.

``--rekey`` recomputes the kept hunks' ids (``repos.rehunk``, no run of the tool) and rewrites
``hunks.toml`` with each verdict found by a former id moved to its hunk's id and place; one whose
hunk has moved is left as it is and reported, to be read again.
``--add-missing`` appends an empty entry for each hunk, blocker and entry point without one;
``--table`` prints the batch's per-repository counts and its row of the series table;
``--readme`` writes both into ``benchmarks/first_sight/README.md`` (the row marked with the
batch's name in the series table, and the section between the batch's markers).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path, PurePosixPath

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import hunk_review  # noqa: E402
import repos  # noqa: E402
from hunk_ids import number  # noqa: E402

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

README = HERE / "README.md"
SERIES_END = "<!-- series:end -->"
# The files a user's checkout has beside its code that name entry points (launch lines), and
# the configuration files a launch line names (the evaluator reads them).
SUFFIXES = (".py", ".ipynb", ".sh", ".bash", ".md", ".rst", ".txt", "Makefile")
SUFFIXES += (".json", ".yaml", ".yml")
TRUTHS = ("runs", "does-not", "cannot-tell", "no-step")
# The claims an entry point gets: the tool's verdict (issue 34) where its output carries one,
# else "runs" (the summary's "will run") or "blocked" (a blocker left in reach), or "not judged".
CLAIMS = {"blocked": "does not"}
CLAIM_KINDS = ("runs", "does not", "cannot tell", "no step", "not judged")
_ERROR = re.compile(r"[^\s\"]+: internal error in pass [\w-]+")


def load_batch(path: Path) -> tuple[dict, list[repos.Repo]]:
    with path.open("rb") as handle:
        data = tomllib.load(handle)
    batch = {k: v for k, v in data.items() if k != "repo"}
    return batch, [repos.Repo(**entry) for entry in data["repo"]]


def entry_points(source: Path, check: dict) -> list[dict]:
    """Each entry point of the program the tool reads in ``source``, with the modules it
    reaches, its steps, and the claim the tool's output makes for it."""
    # The tool's own program model, as `check` builds it (never imports torch).
    from trncodemod.analysis.program import build_program
    from trncodemod.pipeline.program import _launches, _summary

    summaries = {}
    for path in sorted(p for p in source.rglob("*.py") if p.is_file()):
        summary = _summary(path.read_bytes(), None)
        if summary is not None:
            summaries[path.relative_to(source).as_posix()] = summary
    folders = {PurePosixPath(d).parent: source / PurePosixPath(d).parent for d in summaries}
    launched, scripts = _launches(folders, set(summaries))
    program = build_program(summaries, [p for p, _ in launched], scripts, launched)
    left = [f for f in check["findings"] if f["severity"] == "blocker" and not f["fixed"]]
    verdict = check.get("verdict")
    if verdict is not None:
        return _judged(verdict, program, check, left)
    rows = []
    for entry in sorted(program.entry_points):
        reached = sorted({path for path, _ in program.reached.get(entry, {})} | {entry})
        steps = [f"{p}:{name}:{line}" for p, name, line, _ in program.steps_of(entry)]
        launch = list(program.view(entry).launch_lines)
        rows.append(_entry(entry, reached, steps, launch, left))
    # A notebook is its own program: every one the tool read is an entry point.
    for path in sorted({f["path"] for f in check["files"]} - set(summaries)):
        if path.endswith(".ipynb"):
            rows.append(_entry(path, [path], [], [], left))
    return rows


def _judged(verdict: dict, program, check: dict, left: list[dict]) -> list[dict]:
    """The tool's own verdict per entry point (issue 34: runs, does not, cannot tell, or no
    step), where its output carries one. A notebook or a failed file gets none from the tool:
    it is "blocked" when a blocker is left in it, else "not judged" (what the summary says)."""
    rows = []
    judged = set()
    for e in verdict.get("entry_points") or []:
        path = e["entry"]
        judged.add(path)
        reached = sorted({p for p, _ in program.reached.get(path, {})} | {path})
        steps = [f"{p}:{name}:{line}" for p, name, line, _ in program.steps_of(path)]
        launch = list(program.view(path).launch_lines) if path in program.entry_points else []
        row = _entry(path, reached, steps, launch, [])
        row["claimed"] = e["verdict"]
        row["first_blocker"] = e.get("where") or ""
        row["why"] = e.get("why") or ""
        rows.append(row)
    failed = set(verdict.get("failed") or [])
    notebooks = {f["path"] for f in check["files"] if f["path"].endswith(".ipynb")}
    for path in sorted((notebooks | (failed & set(program.entry_points))) - judged):
        row = _entry(path, [path], [], [], left)
        if row["claimed"] == "runs":
            row["claimed"] = "not judged"
            row["why"] = "failed" if path in failed else verdict.get("not_judged") or ""
        rows.append(row)
    return rows


def _entry(path: str, reached: list[str], steps: list[str], launch: list[str], left) -> dict:
    """An entry point and its claim: "blocked" by the first blocker left in a module it
    reaches, else "runs" (the summary's "will run on the accelerator")."""
    in_reach = [f for f in left if f["path"] in reached]
    first = in_reach[0] if in_reach else None
    return {
        "path": path,
        "launch_lines": launch,
        "reaches": reached,
        "steps": steps,
        "claimed": "blocked" if first else "runs",
        "first_blocker": f"{first['path']}:{first['line']} {first['code']}" if first else "",
    }


def measure(repo: repos.Repo, cache: Path, mirrors: Path, jobs: int) -> dict:
    summary = repos.measure(repo, mirrors, jobs, cache, SUFFIXES)
    out = cache / "results" / repo.name
    check = json.loads((out / "check.json").read_text())
    summary["entry_points"] = entry_points(cache / "repos" / repo.name, check)
    summary["tool_summary"] = check["summary"]
    (out / "summary.json").write_text(json.dumps(summary, indent=1))
    return summary


def verdict_files(batch_file: Path) -> Path:
    return batch_file.with_suffix("")


def load_verdicts(folder: Path) -> tuple[list[dict], list[dict], list[dict]]:
    return (
        hunk_review.load_toml(folder / "hunks.toml", "hunk"),
        hunk_review.load_toml(folder / "blockers.toml", "blocker"),
        hunk_review.load_toml(folder / "entry_points.toml", "entry"),
    )


def items(summaries: list[dict], cache: Path) -> tuple[list[dict], list[dict], list[dict]]:
    """Every hunk, blocker and entry point of the batch, each with its repository; ids are
    made unique across the batch by the repository's name."""
    hunks, blockers, entries = [], [], []
    for s in summaries:
        for hunk in json.loads((cache / "results" / s["name"] / "hunks.json").read_text()):
            hunks.append({**hunk, "repo": s["name"]})
        numbered = number([b["id"] for b in s["blockers"]])
        for key, b in zip(numbered, s["blockers"], strict=True):
            blockers.append({**b, "id": key, "repo": s["name"]})
        for e in s["entry_points"]:
            entries.append({**e, "id": f"{s['name']} {e['path']}", "repo": s["name"]})
    return hunks, blockers, entries


def sheet(
    summary: dict,
    hunks: list[dict],
    blockers: list[dict],
    entries: list[dict],
    cache: Path,
    hv: dict,
    bv: dict,
    ev: dict,
) -> str:
    parts = [f"# {summary['name']} ({summary['github']} {summary['commit'][:12]})\n"]
    parts.append(
        f"files {summary['files']}, hunks {summary['hunks']}, blockers {len(summary['blockers'])},"
        f" internal errors {len(summary['internal_errors'])}, patch applies "
        f"{summary['patch_applies'] or 'yes'}, unparsed {summary['unparsed']}, idempotent "
        f"{summary['idempotent']}\n"
    )
    parts.append("## Entry points\n")
    for e in entries:
        v = ev.get(e["id"], {})
        parts.append(
            f"* `{e['path']}` claimed **{e['claimed']}** {e['first_blocker']} {e.get('why', '')}"
            f" | truth: "
            f"{v.get('truth') or 'MISSING'}\n  reaches {', '.join(e['reaches'])}\n"
            f"  steps {', '.join(e['steps']) or '-'}\n  launch {'; '.join(e['launch_lines']) or '-'}"
        )
    parts.append("\n## Blockers\n")
    for b in blockers:
        parts.append(
            hunk_review.blocker_section(b, bv.get(b["id"], {}).get("verdict") or "MISSING")
        )
    parts.append("\n## Hunks\n")
    for h in hunks:
        verdict = hv.get(h["id"], {}).get("verdict") or "MISSING"
        parts.append(hunk_review.hunk_section({**h, "drawn": "all"}, verdict, cache))
    return "\n".join(parts)


def tally(summaries, hunks, blockers, entries, hv, bv, ev) -> dict[str, Counter]:
    per: dict[str, Counter] = {s["name"]: Counter() for s in summaries}
    for h in hunks:
        per[h["repo"]]["hunks"] += 1
        per[h["repo"]][hv.get(h["id"], {}).get("verdict") or "hunk not reviewed"] += 1
    for b in blockers:
        per[b["repo"]]["blockers"] += 1
        per[b["repo"]]["blocker " + (bv.get(b["id"], {}).get("verdict") or "not reviewed")] += 1
    for e in entries:
        c = per[e["repo"]]
        c["entries"] += 1
        claim = CLAIMS.get(e["claimed"], e["claimed"])
        c["claimed " + claim] += 1
        truth = ev.get(e["id"], {}).get("truth") or "not reviewed"
        c["truth " + truth] += 1
        if truth == "not reviewed":
            continue
        if claim == "runs" and truth == "does-not":
            c["false runs"] += 1
        elif claim == "runs" and truth == "cannot-tell":
            c["unproven runs"] += 1
        elif claim in ("does not", "no step") and truth != claim.replace(" ", "-"):
            c["false other"] += 1
        elif claim == "runs" and truth == "no-step":
            c["false other"] += 1  # "runs" where nothing trains (an attack's optimizer on inputs)
    for s in summaries:
        c = per[s["name"]]
        c["internal errors"] += len(distinct_errors(s["internal_errors"]))
        reviewed = c["truth not reviewed"] == 0
        all_true = c["blocker false"] == 0 and c["false runs"] + c["false other"] == 0 and reviewed
        done = c["hunk not reviewed"] == 0 and c["blocker not reviewed"] == 0
        c["mergeable"] = int(done and c["wrong"] == 0 and all_true)
    return per


def distinct_errors(lines: list[str]) -> set[str]:
    """One internal error per file and pass: ``measure`` collects the same error from each of
    the three runs' output (the text line and the JSON ``"error"`` field)."""
    return {m.group(0) for line in lines if (m := _ERROR.search(line))} or set(lines)


def pct(part: int, whole: int) -> str:
    return f"{part} ({100 * part / whole:.1f} %)" if whole else f"{part}"


def report(batch: dict, per: dict[str, Counter]) -> tuple[str, str]:
    """The per-repository table and the batch's row of the series table."""
    total = sum(per.values(), Counter())
    reviewed = total["correct"] + total["unneeded"] + total["wrong"]
    lines = [
        "| repo | hunks | reviewed | correct | unneeded | wrong | blockers true/false/not "
        "reviewed | entry points | claimed runs/does not/cannot tell/no step/not judged "
        "| true runs/does not/cannot tell/no step | false runs | other false claims "
        "| internal errors | merge unedited |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, c in [*per.items(), ("**total**", total)]:
        r = c["correct"] + c["unneeded"] + c["wrong"]
        merge = "yes" if c["mergeable"] else "no"
        if c is total:
            merge = f"{total['mergeable']} of {len(per)}"
        claimed = "/".join(str(c["claimed " + k]) for k in CLAIM_KINDS)
        true = "/".join(str(c["truth " + k]) for k in TRUTHS)
        lines.append(
            f"| {name} | {c['hunks']} | {r} | {pct(c['correct'], r)} | {pct(c['unneeded'], r)} "
            f"| {pct(c['wrong'], r)} | {c['blocker true']}/{c['blocker false']}/"
            f"{c['blocker not reviewed']} | {c['entries']} | {claimed} | {true} "
            f"| {c['false runs']} | {c['false other']} | {c['internal errors']} | {merge} |"
        )
    claims = ", ".join(f"{total['claimed ' + k]} {k}" for k in CLAIM_KINDS if total["claimed " + k])
    truths = ", ".join(
        f"{total['truth ' + k]} {k.replace('-', ' ')}" for k in TRUTHS if total["truth " + k]
    )
    series = (
        f"| {batch.get('label', batch.get('name', ''))} | {batch.get('date', '')} "
        f"| {batch.get('tool_commit', '')[:7]}"
        f" | {len(per)} | {reviewed} of {total['hunks']}: {pct(total['correct'], reviewed)} / "
        f"{pct(total['unneeded'], reviewed)} / {pct(total['wrong'], reviewed)} "
        f"| {total['blocker true']} / {total['blocker false']} | {total['entries']}: claimed "
        f"{claims}; true {truths} | {total['false runs']} "
        f"| {pct(total['claimed cannot tell'], total['entries'])} "
        f"| {total['mergeable']} of {len(per)} | <!-- {batch.get('name', '')} -->"
    )
    return "\n".join(lines) + "\n", series


def write_readme(name: str, table: str, row: str) -> None:
    """The batch's row in the series table (replaced, or added before its end marker) and its
    per-repository table between its own markers."""
    text = README.read_text()
    marker = f"<!-- {name} -->"
    lines = text.splitlines()
    kept = [line for line in lines if not line.endswith(marker)]
    at = kept.index(SERIES_END) if SERIES_END in kept else len(kept)
    text = "\n".join([*kept[:at], row, *kept[at:]]) + "\n"
    start, end = f"<!-- {name}:start -->", f"<!-- {name}:end -->"
    README.write_text(repos.replace_between(text, start, end, table))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("batch", type=Path)
    parser.add_argument("--only", nargs="*")
    parser.add_argument("--mirrors", type=Path, default=repos.MIRRORS)
    parser.add_argument("-j", "--jobs", type=int, default=1)
    parser.add_argument("--no-measure", action="store_true", help="use the kept results")
    parser.add_argument("--add-missing", action="store_true")
    parser.add_argument("--rekey", action="store_true", help="move verdicts to today's hunk ids")
    parser.add_argument("--table", action="store_true")
    parser.add_argument("--readme", action="store_true")
    args = parser.parse_args()
    batch, batch_repos = load_batch(args.batch)
    batch["name"] = args.batch.stem
    cache = repos.CACHE / "first_sight" / args.batch.stem
    chosen = [r for r in batch_repos if not args.only or r.name in args.only]
    for repo in [] if args.no_measure else chosen:
        s = measure(repo, cache, args.mirrors, args.jobs)
        print(
            f"{s['name']:28s} files {s['files']:3d}  hunks {s['hunks']:3d}  blockers "
            f"{len(s['blockers']):2d}  entry points {len(s['entry_points'])}  errors "
            f"{len(s['internal_errors'])}  applies {s['patch_applies'] or 'yes'}  parses "
            f"{not s['unparsed']}  idempotent {s['idempotent']}",
            flush=True,
        )
    summaries = repos.load_summaries(batch_repos, cache)
    for s in summaries if args.rekey else ():
        repos.rehunk(s["name"], cache)
    hunks, blockers, entries = items(summaries, cache)
    folder = verdict_files(args.batch)
    hv_raw, bv_raw, ev_raw = load_verdicts(folder)
    hv = hunk_review.check_verdicts("hunk", hv_raw, hunk_review.HUNK_VERDICTS, hunks)
    if args.rekey:
        hv_raw = hunk_review.rekey(hv_raw, hv, hunks)
        hunk_review.dump(folder / "hunks.toml", "hunk", hv_raw)
    bv = hunk_review.check_verdicts(
        "blocker",
        bv_raw,
        hunk_review.BLOCKER_VERDICTS,
        [hunk_review.blocker_item(b) for b in blockers],
        hunk_review.blocker_entry,
    )
    ev = {}
    for e in ev_raw:
        if e.get("truth") and e["truth"] not in TRUTHS:
            sys.exit(f"entry {e['id']}: truth {e['truth']!r} is not one of {TRUTHS}")
        ev[e["id"]] = e
    (cache / "sheets").mkdir(parents=True, exist_ok=True)
    for s in summaries:
        mine = [x for x in hunks if x["repo"] == s["name"]]
        mb = [x for x in blockers if x["repo"] == s["name"]]
        me = [x for x in entries if x["repo"] == s["name"]]
        (cache / "sheets" / f"{s['name']}.md").write_text(sheet(s, mine, mb, me, cache, hv, bv, ev))
    if args.add_missing:
        folder.mkdir(exist_ok=True)
        q = hunk_review.quote
        hunk_review.add_missing(
            folder / "hunks.toml",
            "hunk",
            [
                f'id = "{h["id"]}"\nwhere = {q(h["where"])}\nrules = "{"+".join(h["rules"])}"\n'
                f'verdict = ""\nreason = ""\n'
                for h in hunks
                if h["id"] not in {e["id"] for e in hv_raw}
            ],
        )
        hunk_review.add_missing(
            folder / "blockers.toml",
            "blocker",
            [
                f'id = "{b["id"]}"\nwhere = {q(b["repo"] + " " + b["path"])}\nline = {b["line"]}\n'
                f'rule = "{b["code"]}"\nverdict = ""\nreason = ""\n'
                for b in blockers
                if b["id"] not in {e["id"] for e in bv_raw}
            ],
        )
        hunk_review.add_missing(
            folder / "entry_points.toml",
            "entry",
            [
                f"id = {q(e['id'])}\nclaimed = {q(e['claimed'] + ' ' + e['first_blocker'])}\n"
                f'truth = ""\nline = ""\nreason = ""\n'
                for e in entries
                if e["id"] not in ev
            ],
        )
    table, row = report(batch, tally(summaries, hunks, blockers, entries, hv, bv, ev))
    if args.table:
        print(table + "\nSeries row:\n\n" + row)
    if args.readme:
        write_readme(batch["name"], table, row)


if __name__ == "__main__":
    main()
