"""A hunk and blocker review that can be repeated: what is drawn, what a reviewer said, what is stale.

    python benchmarks/hunk_review.py [--sample 200] [--seed 23] [--add-missing] [--no-readme]

Reads what ``benchmarks/repos.py`` left in ``benchmarks/.cache/results/`` and:

* draws every hunk of the risky rules (``RISKY``: flipped conditions, device values, float64,
  padding and buckets, removals) and a seeded sample of the others: the ``--sample`` hunks
  whose hash of seed and hunk id is lowest, so a hunk stays drawn while the outputs around it
  change;
* writes the review sheets ``benchmarks/review/hunks.md`` and ``benchmarks/review/blockers.md``
  (each hunk or blocker with its id, place and code; git-ignored, since they quote the
  repositories' code);
* reads the verdicts kept beside them, ``benchmarks/review/verdicts.toml`` (``[[hunk]]``: id,
  where, rules, verdict ``correct``/``unneeded``/``wrong``, reason, optional
  ``blame``, the rules at fault when a hunk holds several) and
  ``benchmarks/review/blockers.toml`` (``[[blocker]]``: id, where, rule, verdict ``true``/``false``,
  cause, reason), and reports the drawn hunks and the blockers whose verdict is missing, and the
  stale verdicts, which are never counted: those whose id no longer occurs (the tool's output
  changed there), and those whose stored ``where`` or ``rules`` no longer match the hunk the id
  names (``hunk_ids.refusal``: a verdict written for one hunk never passes to another);
* with ``--add-missing``, appends an entry with an empty verdict for each missing one;
* with ``--rekey``, rewrites each verdict found by its hunk's ``legacy_id`` (and still at its
  stored line, with its rules) under the hunk's id and ``where`` of today, so it keeps its hunk
  when lines move later;
* rewrites the review tables between the ``review`` markers of ``benchmarks/README.md``.

Ids are content hashes: a hunk's of its repository, file, enclosing function, rules, removed and
added lines (``hunk_ids``; not its line numbers, so an edit elsewhere in the file keeps it); a
blocker's of its repository, rule, file and the text of its line. A verdict written before
functions were recorded is found by the hunk's ``legacy_id`` (content only) and must still be at
its stored line.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from hunk_ids import refusal  # noqa: E402
from repos import CACHE, HERE, README, SUPPORT, load_repos, load_summaries, replace_between  # noqa: E402

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

REVIEW = HERE / "review"
VERDICTS = REVIEW / "verdicts.toml"
BLOCKERS = REVIEW / "blockers.toml"
HUNK_VERDICTS = ("correct", "unneeded", "wrong")
BLOCKER_VERDICTS = ("true", "false")
START, END = "<!-- review:start -->", "<!-- review:end -->"
CONTEXT = 3

# The rewrites that can change what a program computes or where it runs (from `trncodemod
# rules`): device values and flipped device conditions, float64 narrowed, padding and batch
# shapes, and removals (DDP `device_ids`, `set_device`, CUDA calls and flags, GradScaler, fused).
RISKY = {
    "TRN001": "device value",
    "TRN002": "device value",
    "TRN003": "condition / fallback removed",
    "TRN004": "device value",
    "TRN005": "device value",
    "TRN021": "condition / fallback removed",
    "TRN022": "device value",
    "TRN023": "condition flipped",
    "TRN024": "device value",
    "TRN111": "removal",
    "TRN126": "a tensor where a number was (meter)",
    "TRN144": "removal (DDP device_ids)",
    "TRN146": "removal (set_device)",
    "TRN201": "float64",
    "TRN202": "float64",
    "TRN203": "float64",
    "TRN204": "float64",
    "TRN205": "float64",
    "TRN211": "padding / buckets",
    "TRN213": "padding / buckets",
    "TRN214": "padding / buckets",
    "TRN215": "padding / buckets",
    "TRN302": "autocast region moved",
    "TRN305": "removal (GradScaler)",
    "TRN312": "removal (CUDA call)",
    "TRN313": "removal (CUDA flag)",
}


def load_toml(path: Path, table: str) -> list[dict]:
    if not path.is_file():
        return []
    with path.open("rb") as handle:
        return tomllib.load(handle).get(table, [])


def drawn_hunks(
    summaries: list[dict], sample: int, seed: int, cache: Path = CACHE
) -> tuple[list[dict], list[dict]]:
    """Every hunk, and those drawn: the risky ones and the sample of the rest, each with its
    repository and why drawn."""
    risky, others = [], []
    for summary in summaries:
        hunks = json.loads((cache / "results" / summary["name"] / "hunks.json").read_text())
        for hunk in hunks:
            hunk["repo"] = summary["name"]
            kinds = sorted({RISKY[r] for r in hunk["rules"] if r in RISKY})
            hunk["drawn"] = "risky: " + ", ".join(kinds) if kinds else "sample"
            (risky if kinds else others).append(hunk)
    order = sorted(others, key=lambda h: hashlib.sha1(f"{seed}:{h['id']}".encode()).hexdigest())
    for hunk in order[sample:]:
        hunk["drawn"] = "not drawn"
    return risky + order, risky + order[:sample]


def where(hunk: dict) -> str:
    return hunk.get("where") or f"{hunk['repo']} {hunk['path']}:{hunk['old_start']}"


def excerpt(hunk: dict, cache: Path = CACHE) -> str:
    """The hunk as a diff with a few lines of the original around it."""
    source = cache / "repos" / hunk["repo"] / hunk["path"]
    lines = source.read_text("utf-8", errors="replace").splitlines()
    first = hunk["old_start"] - 1 if hunk["removed"] else hunk["old_start"]
    last = first + len(hunk["removed"])
    out = [f"  {s}" for s in lines[max(first - CONTEXT, 0) : first]]
    out += [f"- {s}" for s in hunk["removed"]] + [f"+ {s}" for s in hunk["added"]]
    out += [f"  {s}" for s in lines[last : last + CONTEXT]]
    return "\n".join(out)


def hunk_section(hunk: dict, verdict: str, cache: Path = CACHE) -> str:
    return (
        f"## {hunk['id']}  {where(hunk)}  {'+'.join(hunk['rules'])}  [{hunk['drawn']}]"
        f"  verdict: {verdict}\n\n```diff\n{excerpt(hunk, cache)}\n```\n"
    )


def blocker_section(b: dict, verdict: str) -> str:
    return (
        f"## {b['id']}  {b['repo']} {b['path']}{_cell(b)}:{b['line']}  {b['code']}"
        f"{'  (fixed by apply)' if b['fixed'] else ''}  verdict: {verdict}"
        f"\n\n`{b['text']}`\n\n{b['message']}\n"
    )


def _cell(b: dict) -> str:
    return f"[cell {b['cell']}]" if b.get("cell") else ""


def write_sheet(name: str, title: str, items: list[dict], verdicts: dict, section) -> None:
    """A review sheet: each item with the verdict it has (MISSING when none)."""
    REVIEW.mkdir(exist_ok=True)
    parts = [f"# {title} (generated by benchmarks/hunk_review.py)\n"]
    for item in items:
        parts.append(section(item, verdicts.get(item["id"], {}).get("verdict") or "MISSING"))
    (REVIEW / name).write_text("\n".join(parts))


def quote(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)  # a JSON string is a TOML basic string


def add_missing(path: Path, table: str, entries: list[str]) -> None:
    if not entries:
        return
    text = path.read_text() if path.is_file() else ""
    path.write_text(text + "".join(f"\n[[{table}]]\n{e}" for e in entries))


def check_verdicts(
    kind: str, verdicts: list[dict], allowed: tuple, items: list[dict], view=lambda e: e
) -> dict:
    """The verdicts that still belong to their item (a hunk row, or ``blocker_item``), by the
    item's id. A verdict whose id names no item, or an item at another place or with other
    rules than it stores (as ``view`` shows the entry), is reported stale and never counted."""
    by_id: dict[str, dict] = {}
    for item in items:
        by_id.setdefault(item["id"], item)
    for former in ("prior_id", "legacy_id"):
        for item in items:
            if item.get(former):
                by_id.setdefault(item[former], item)
    kept: dict[str, dict] = {}
    gone, moved = [], []
    for entry in verdicts:
        verdict = entry.get("verdict", "")
        if verdict and verdict not in allowed:
            sys.exit(f"{kind} {entry.get('id')}: verdict {verdict!r} is not one of {allowed}")
        item = by_id.get(entry["id"])
        why = "gone" if item is None else refusal(view(entry), item)
        if why == "gone":
            gone.append(entry["id"])
        elif why:
            moved.append(f"{entry['id']} ({why})")
        else:
            kept[item["id"]] = entry
    if gone:
        print(f"{len(gone)} stale {kind} verdicts (the output changed): {', '.join(gone)}")
    if moved:
        print(
            f"{len(moved)} stale {kind} verdicts (refused: the id now names a hunk at another "
            f"place or with other rules): {'; '.join(moved)}"
        )
    return kept


def rekey(verdicts: list[dict], kept: dict[str, dict], hunks: list[dict]) -> list[dict]:
    """``verdicts`` with each one kept by a hunk's legacy id moved to that hunk's id and place."""
    by_id = {h["id"]: h for h in hunks}
    moved = {id(entry): by_id[key] for key, entry in kept.items()}
    out = []
    for entry in verdicts:
        hunk = moved.get(id(entry))
        out.append(entry if hunk is None else {**entry, "id": hunk["id"], "where": hunk["where"]})
    return out


def dump(path: Path, table: str, entries: list[dict]) -> None:
    """``entries`` as ``[[table]]`` blocks, their keys in the order they have."""
    blocks = [
        f"[[{table}]]\n" + "".join(f"{k} = {quote(str(v))}\n" for k, v in entry.items())
        for entry in entries
    ]
    path.write_text("\n".join(blocks))


def blocker_item(b: dict) -> dict:
    """A blocker as ``check_verdicts`` compares it: its place with its line, and its rule."""
    return {"id": b["id"], "where": f"{b['repo']} {b['path']}:{b['line']}", "rules": [b["code"]]}


def blocker_entry(entry: dict) -> dict:
    """A stored blocker verdict in the shape ``hunk_ids.refusal`` reads."""
    return {
        **entry,
        "where": f"{entry.get('where', '')}:{entry.get('line', '')}",
        "rules": entry.get("rule", ""),
    }


def review_tables(
    summaries: list[dict], hunks: list[dict], blockers: list[dict], hv: dict, bv: dict
) -> str:
    rows = [
        "| repo | blockers true | blockers false | not reviewed | distinct causes "
        "| findings/file | hunks reviewed | correct | unneeded | wrong |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    per_repo = defaultdict(Counter)
    for hunk in hunks:
        verdict = hv.get(hunk["id"], {}).get("verdict")
        if verdict:
            per_repo[hunk["repo"]][verdict] += 1
    total = Counter()
    causes_all = set()
    for s in summaries:
        mine = [x for x in blockers if x["repo"] == s["name"]]
        b = Counter(bv.get(x["id"], {}).get("verdict") or "missing" for x in mine)
        causes = {bv[x["id"]].get("cause") or x["code"] for x in mine if x["id"] in bv}
        causes_all |= causes
        h = per_repo[s["name"]]
        reviewed = sum(h.values())
        rows.append(
            f"| {s['name']} | {b['true']} | {b['false']} | {b['missing']} | {len(causes)} "
            f"| {s['findings_per_file']} | {reviewed} | {h['correct']} | {h['unneeded']} "
            f"| {h['wrong']} |"
        )
        total.update(
            {
                "true": b["true"],
                "false": b["false"],
                "missing": b["missing"],
                "reviewed": reviewed,
                **h,
                "findings": s["findings"],
                "files": s["files"],
            }
        )
    per_file = total["findings"] / total["files"] if total["files"] else 0
    rows.append(
        f"| **total** | {total['true']} | {total['false']} | {total['missing']} "
        f"| {len(causes_all)} | {per_file:.2f} | {total['reviewed']} | {total['correct']} "
        f"| {total['unneeded']} | {total['wrong']} |"
    )
    by_rule = defaultdict(Counter)
    for hunk in hunks:
        entry = hv.get(hunk["id"], {})
        verdict = entry.get("verdict") or "not reviewed"
        # A wrong or unneeded verdict names the rules at fault in `blame`; the others in the
        # hunk did their part right.
        blamed = set(entry.get("blame", "").split("+")) - {""} or set(hunk["rules"])
        for rule in sorted(set(hunk["rules"]) | (blamed - {SUPPORT})):
            fault = verdict in ("wrong", "unneeded") and rule not in blamed
            by_rule[rule]["correct" if fault else verdict] += 1
    rule_rows = [
        "",
        "Hunks reviewed, by rule (a hunk with several rules counts under each; a wrong or"
        " unneeded one only under the rules it blames):",
        "",
        "| rule | hunks | correct | unneeded | wrong | not reviewed |",
        "|---|---|---|---|---|---|",
    ]
    for rule in sorted(by_rule):
        c = by_rule[rule]
        rule_rows.append(
            f"| {rule} | {sum(c.values())} | {c['correct']} | {c['unneeded']} | {c['wrong']} "
            f"| {c['not reviewed']} |"
        )
    return "\n".join(rows + rule_rows + verdict_lists(hunks, hv, bv)) + "\n"


def verdict_lists(hunks: list[dict], hv: dict, bv: dict) -> list[str]:
    """The wrong and unneeded hunks and the false blockers, each with its place and reason."""
    out = []
    for verdict in ("wrong", "unneeded"):
        listed = [h for h in hunks if hv.get(h["id"], {}).get("verdict") == verdict]
        out += ["", f"{verdict.capitalize()} hunks ({len(listed)}):", ""]
        out += [
            f"* `{h['id']}` {where(h)} {'+'.join(h['rules'])}: {hv[h['id']]['reason']}"
            for h in listed
        ]
    false = [v for v in bv.values() if v.get("verdict") == "false"]
    out += ["", f"False blockers ({len(false)}), by cause:", ""]
    for cause in sorted({v.get("cause", "") for v in false}):
        places = [v for v in false if v.get("cause", "") == cause]
        out.append(f"* {cause} ({len(places)}): {places[0].get('reason', '')}")
        out += [f"  * {v['where']}:{v['line']} {v['rule']}" for v in places]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=200)
    parser.add_argument("--seed", type=int, default=23)
    parser.add_argument("--add-missing", action="store_true")
    parser.add_argument("--rekey", action="store_true", help="move legacy-id verdicts to new ids")
    parser.add_argument("--no-readme", action="store_true")
    args = parser.parse_args()
    summaries = load_summaries(load_repos())
    if not summaries:
        sys.exit("no results: run benchmarks/repos.py first")
    every, drawn = drawn_hunks(summaries, args.sample, args.seed)
    blockers = [{"repo": s["name"], **b} for s in summaries for b in s["blockers"]]
    # The same rule on the same line text twice in a file: told apart by order, as hunks are.
    seen: Counter[str] = Counter()
    for b in blockers:
        seen[b["id"]] += 1
        if seen[b["id"]] > 1:
            b["id"] = f"{b['id']}-{seen[b['id']]}"
    raw = load_toml(VERDICTS, "hunk")
    hv = check_verdicts("hunk", raw, HUNK_VERDICTS, every)
    if args.rekey:
        dump(VERDICTS, "hunk", rekey(raw, hv, every))
    # Shown and counted: the drawn hunks, and any other that has a verdict.
    drawn_ids = {h["id"] for h in drawn}
    hunks = drawn + [
        h for h in every if hv.get(h["id"], {}).get("verdict") and h["id"] not in drawn_ids
    ]
    bv = check_verdicts(
        "blocker",
        load_toml(BLOCKERS, "blocker"),
        BLOCKER_VERDICTS,
        [blocker_item(b) for b in blockers],
        blocker_entry,
    )
    write_sheet("hunks.md", "Hunks drawn for review", hunks, hv, hunk_section)
    write_sheet("blockers.md", "Blockers", blockers, bv, blocker_section)
    missing_h = [h for h in drawn if not hv.get(h["id"], {}).get("verdict")]
    missing_b = [b for b in blockers if not bv.get(b["id"], {}).get("verdict")]
    print(
        f"{len(drawn)} hunks drawn ({sum(h['drawn'] != 'sample' for h in drawn)} risky) of "
        f"{len(every)}, "
        f"{len(missing_h)} without a verdict; {len(blockers)} blockers, "
        f"{len(missing_b)} without a verdict"
    )
    if args.add_missing:
        add_missing(
            VERDICTS,
            "hunk",
            [
                f'id = "{h["id"]}"\nwhere = {quote(where(h))}\n'
                f'rules = "{"+".join(h["rules"])}"\nverdict = ""\nreason = ""\n'
                for h in missing_h
                if h["id"] not in hv
            ],
        )
        add_missing(
            BLOCKERS,
            "blocker",
            [
                f'id = "{b["id"]}"\nwhere = {quote(b["repo"] + " " + b["path"])}\n'
                f'line = {b["line"]}\nrule = "{b["code"]}"\nverdict = ""\ncause = ""\n'
                f'reason = ""\n'
                for b in missing_b
                if b["id"] not in bv
            ],
        )
    if not args.no_readme:
        text = README.read_text() if README.is_file() else "# Benchmarks\n"
        tables = review_tables(summaries, hunks, blockers, hv, bv)
        README.write_text(replace_between(text, START, END, tables))


if __name__ == "__main__":
    main()
