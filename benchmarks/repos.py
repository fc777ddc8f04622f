"""Benchmark of real repositories: trncodemod over public training code at pinned commits.

    python benchmarks/repos.py [--only NAME ...] [--mirrors DIR] [-j 1] [--no-readme]

The repositories, commits and paths are in ``benchmarks/repos.toml``. Each is materialised from a
bare git mirror (``<mirrors>/<owner>+<name>/repo``) with ``git archive`` into the git-ignored
``benchmarks/.cache/repos/<name>/`` (never committed), and then, from inside that folder:

1. ``trncodemod check --format json --no-cache .``: findings, blockers, CPU seconds;
2. ``trncodemod apply --dry-run --format json --no-cache .``: the patch (stdout), which is applied
   with ``git apply`` to a copy (``benchmarks/.cache/applied/<name>/``);
3. every changed file of the copy must parse (``ast.parse``), and a second
   ``apply --dry-run`` over the copy must change nothing (idempotence).

Per repository it writes ``benchmarks/.cache/results/<name>/``: ``check.json``, ``patch.diff``,
``second.diff``, ``hunks.json`` (each change as a zero-context hunk, with the rules it is
attributed to and a content hash) and ``summary.json``; and it rewrites the table between the
``repos`` markers of ``benchmarks/README.md``. ``benchmarks/hunk_review.py`` reads the results.
"""

from __future__ import annotations

import argparse
import ast
import difflib
import hashlib
import json
import resource
import shutil
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import hunk_ids

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

HERE = Path(__file__).resolve().parent
CACHE = HERE / ".cache"
MIRRORS = Path("/work/.mirror")
README = HERE / "README.md"
TABLE_START, TABLE_END = "<!-- repos:start -->", "<!-- repos:end -->"
# A fixed finding belongs to the hunk that holds its line, or to the nearest one this close: a
# step marker or a seed call is inserted after the line the finding names.
ATTRIBUTION_SLACK = 3
SUPPORT = "support"  # a hunk no fix is anchored in: imports and helpers the fixes need


@dataclass
class Repo:
    name: str
    github: str
    commit: str
    paths: list[str]
    category: list[str]

    def mirror(self, mirrors: Path) -> Path:
        return mirrors / self.github.replace("/", "+") / "repo"


@dataclass
class Hunk:
    path: str
    old_start: int  # 1-based; for a pure insertion, the line after which it goes
    removed: list[str]
    added: list[str]
    rules: list[str] = field(default_factory=list)
    new_start: int = 0  # 1-based line of the first added line in the new file
    scope: str = hunk_ids.MODULE
    # The nearest lines of code of the original file before and after it (``hunk_ids.around``)
    around: tuple[str, str] = ("", "")

    def key(self, repo: str) -> str:
        """The id verdicts written before scopes were kept use (content only)."""
        text = "\n".join([repo, self.path, *("-" + s for s in self.removed)])
        text += "\n" + "\n".join("+" + s for s in self.added)
        return hashlib.sha1(text.encode()).hexdigest()[:12]


def load_repos(path: Path = HERE / "repos.toml") -> list[Repo]:
    with path.open("rb") as handle:
        return [Repo(**entry) for entry in tomllib.load(handle)["repo"]]


def materialise(
    repo: Repo, mirrors: Path, into: Path, suffixes: tuple[str, ...] = (".py", ".ipynb")
) -> None:
    """``repo``'s files under its paths whose names end in ``suffixes``, at its commit, in
    ``into`` (recreated unless already at that commit)."""
    mirror = repo.mirror(mirrors)
    if not (mirror / "HEAD").is_file():
        sys.exit(
            f"{repo.name}: no mirror at {mirror}; fetch github:{repo.github} first "
            f"(the session's `fetch` tool), or pass --mirrors DIR holding <owner>+<name>/repo"
        )
    stamp = into / ".commit"
    wanted = f"{repo.commit} {' '.join(repo.paths)} {' '.join(suffixes)}"
    if stamp.is_file() and stamp.read_text() == wanted:
        return
    shutil.rmtree(into, ignore_errors=True)
    into.mkdir(parents=True)
    # Only the Python files (and launch files where asked): a mirror may lack the blobs of
    # large data files under the paths.
    listing = subprocess.run(
        ["git", "--git-dir", str(mirror), "ls-tree", "-r", "-z", "--name-only", repo.commit]
        + ["--", *repo.paths],
        capture_output=True,
        check=False,
    )
    files = [
        p
        for p in listing.stdout.decode().split("\0")
        if p.endswith(suffixes) or p.lower().endswith(suffixes)
    ]
    if listing.returncode != 0 or not files:
        sys.exit(f"{repo.name}: no Python files at {repo.commit} under {repo.paths}")
    archive = subprocess.run(
        ["git", "--git-dir", str(mirror), "archive", repo.commit, "--", *files],
        capture_output=True,
        check=False,
    )
    if archive.returncode != 0:
        sys.exit(f"{repo.name}: git archive failed: {archive.stderr.decode()[-1000:]}")
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    stamp.write_text(wanted)


def run_tool(args: list[str], cwd: Path) -> tuple[subprocess.CompletedProcess, float]:
    """The tool's result and the CPU seconds (user + system) it and its workers used."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    result = subprocess.run(
        [sys.executable, "-m", "trncodemod", *args, "--no-cache", "."],
        cwd=cwd,
        capture_output=True,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    # Bytes, decoded by hand: text mode would turn a CRLF file's "\r\n" into "\n" and break
    # the patch.
    result.stdout = result.stdout.decode("utf-8", "surrogateescape")
    result.stderr = result.stderr.decode("utf-8", "surrogateescape")
    seconds = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if result.returncode not in (0, 1):
        print(f"  exit {result.returncode}: {result.stderr[-1500:]}", file=sys.stderr)
    return result, seconds


def internal_errors(*texts: str) -> list[str]:
    return [line for text in texts for line in text.splitlines() if "internal error" in line]


def apply_patch(patch: str, source: Path, into: Path) -> str | None:
    """A copy of ``source`` with ``patch`` applied in ``into``; why not, or None."""
    shutil.rmtree(into, ignore_errors=True)
    shutil.copytree(source, into)
    if not patch:
        return None
    result = subprocess.run(
        ["git", "apply", "--whitespace=nowarn", "-"],
        cwd=into,
        input=patch.encode("utf-8", "surrogateescape"),
        capture_output=True,
    )
    why = result.stderr.decode("utf-8", "replace").strip() or "git apply failed"
    return why if result.returncode else None


def changed_files(patch: str) -> list[str]:
    return [line[6:] for line in patch.splitlines() if line.startswith("+++ b/")]


def file_hunks(path: str, before: str, after: str) -> list[Hunk]:
    """The change from ``before`` to ``after`` as hunks with no context lines."""
    old, new = before.splitlines(), after.splitlines()
    matcher = difflib.SequenceMatcher(a=old, b=new, autojunk=False)
    hunks = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "equal":
            start = i1 + 1 if i2 > i1 else i1
            context = hunk_ids.around(old, i1, i2, path.endswith(".ipynb"))
            hunks.append(
                Hunk(path, start, old[i1:i2], new[j1:j2], new_start=j1 + 1, around=context)
            )
    before_spans, after_spans = hunk_ids.scopes(before, path), hunk_ids.scopes(after, path)
    for hunk in hunks:
        hunk.scope = hunk_ids.hunk_scope(hunk, before_spans, after_spans)
    return hunks


def attribute(hunks: list[Hunk], fixed: list[dict]) -> None:
    """Give each fixed finding to the hunk that holds its line, else to the nearest one."""
    for finding in fixed:
        line, best, distance = finding["line"], None, ATTRIBUTION_SLACK + 1
        for hunk in hunks:
            if hunk.path != finding["path"]:
                continue
            first, last = hunk.old_start, hunk.old_start + max(len(hunk.removed), 1) - 1
            gap = 0 if first <= line <= last else min(abs(line - first), abs(line - last))
            if gap < distance:
                best, distance = hunk, gap
        if best is not None and finding["code"] not in best.rules:
            best.rules.append(finding["code"])
    for hunk in hunks:
        hunk.rules = sorted(hunk.rules) or [SUPPORT]


def line_text(root: Path, path: str, line: int) -> str:
    try:
        lines = (root / path).read_text("utf-8", errors="replace").splitlines()
    except OSError:
        return ""
    return lines[line - 1].strip() if 0 < line <= len(lines) else ""


def cell_line_text(root: Path, finding: dict) -> str:
    """The line a finding in a notebook names (`[cell N]:L`), from the cell's code."""
    try:
        cells = json.loads((root / finding["path"]).read_text("utf-8")).get("cells", [])
        source = cells[finding["cell"] - 1].get("source", "")
    except (OSError, ValueError, IndexError, AttributeError):
        return ""
    lines = ("".join(source) if isinstance(source, list) else str(source)).splitlines()
    line = finding["line"]
    return lines[line - 1].strip() if 0 < line <= len(lines) else ""


def blocker_key(repo: str, finding: dict, text: str) -> str:
    raw = "\n".join([repo, finding["code"], finding["path"], text])
    return hashlib.sha1(raw.encode()).hexdigest()[:12]


def parses(path: Path) -> str | None:
    """Why a changed file does not parse, or None; a notebook's code cells each on their own
    (IPython magics and shell lines left out, and cells under a cell magic)."""
    raw = path.read_bytes()
    if path.suffix != ".ipynb":
        try:
            ast.parse(raw)
        except SyntaxError as err:
            return f"{err.lineno}: {err.msg}"
        return None
    try:
        cells = json.loads(raw)["cells"]
    except (ValueError, KeyError) as err:
        return f"not a notebook: {err}"
    for number, cell in enumerate(cells, 1):
        if cell.get("cell_type") != "code":
            continue
        source = cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
        if source.lstrip().startswith("%%"):
            continue  # a cell magic (%%bash, %%writefile): the cell is not Python
        code = "\n".join(
            "" if line.lstrip().startswith(("%", "!")) else line for line in source.splitlines()
        )
        try:
            ast.parse(code)
        except SyntaxError as err:
            return f"cell {number} line {err.lineno}: {err.msg}"
    return None


def hunk_rows(repo: str, hunks: list[Hunk]) -> list[dict]:
    """Each hunk as ``hunks.json`` keeps it: its id (``hunk_ids``: with its function, rules
    and the lines around it), the ids older verdicts were written under (``prior_id`` without
    the lines around, ``legacy_id`` content only), and its place."""

    def ids(context: bool) -> list[str]:
        return hunk_ids.number(
            [
                hunk_ids.hunk_id(
                    repo,
                    h.path,
                    h.scope,
                    h.rules,
                    h.removed,
                    h.added,
                    h.around if context else None,
                )
                for h in hunks
            ]
        )

    legacy = hunk_ids.number([h.key(repo) for h in hunks])
    return [
        {
            "id": key,
            "prior_id": prior,
            "legacy_id": old,
            "where": hunk_ids.where(repo, h.path, h.old_start, h.scope),
            **h.__dict__,
        }
        for key, prior, old, h in zip(ids(True), ids(False), legacy, hunks, strict=True)
    ]


def rehunk(name: str, cache: Path = CACHE) -> None:
    """Rewrite ``hunks.json`` of the kept results under today's ids, without running the tool
    again: each hunk's lines around it are read from the original file."""
    path = cache / "results" / name / "hunks.json"
    fields = set(Hunk.__dataclass_fields__) - {"around"}
    hunks = [
        Hunk(**{k: v for k, v in row.items() if k in fields})
        for row in json.loads(path.read_text())
    ]
    for hunk in hunks:
        text = (cache / "repos" / name / hunk.path).read_text("utf-8", errors="surrogateescape")
        first = hunk.old_start - 1 if hunk.removed else hunk.old_start
        last = first + len(hunk.removed)
        hunk.around = hunk_ids.around(text.splitlines(), first, last, hunk.path.endswith(".ipynb"))
    path.write_text(json.dumps(hunk_rows(name, hunks), indent=1))


def measure(
    repo: Repo, mirrors: Path, jobs: int, cache: Path = CACHE, suffixes=(".py", ".ipynb")
) -> dict:
    """Run the tool over ``repo`` as materialised under ``cache`` (its ``repos/``,
    ``applied/`` and ``results/`` folders) and keep what it did."""
    source = cache / "repos" / repo.name
    applied = cache / "applied" / repo.name
    out = cache / "results" / repo.name
    materialise(repo, mirrors, source, suffixes)
    out.mkdir(parents=True, exist_ok=True)
    j = ["-j", str(jobs)]

    check, check_cpu = run_tool(["check", "--format", "json", *j], source)
    (out / "check.json").write_bytes(check.stdout.encode("utf-8", "surrogateescape"))
    report = json.loads(check.stdout)
    dry, dry_cpu = run_tool(["apply", "--dry-run", "--format", "json", *j], source)
    (out / "patch.diff").write_bytes(dry.stdout.encode("utf-8", "surrogateescape"))
    dry_report = json.loads(dry.stderr[dry.stderr.index("{") :]) if "{" in dry.stderr else {}

    why_not = apply_patch(dry.stdout, source, applied)
    changed = changed_files(dry.stdout)
    unparsed = []
    for path in changed if why_not is None else ():
        why = parses(applied / path)
        if why:
            unparsed.append(f"{path}:{why}")
    second, second_cpu = run_tool(["apply", "--dry-run", *j], applied)
    (out / "second.diff").write_bytes(second.stdout.encode("utf-8", "surrogateescape"))

    hunks: list[Hunk] = []
    fixed = [f for f in dry_report.get("findings", []) if f["fixed"]]
    for path in changed:
        before = (source / path).read_text("utf-8", errors="surrogateescape")
        after = (applied / path).read_text("utf-8", errors="surrogateescape")
        hunks += file_hunks(path, before, after)
    attribute(hunks, fixed)
    (out / "hunks.json").write_text(json.dumps(hunk_rows(repo.name, hunks), indent=1))

    findings = report["findings"]
    blockers = []
    for finding in findings:
        if finding["severity"] == "blocker":
            text = line_text(source, finding["path"], finding["line"])
            # The id keeps the line of the file (a notebook's JSON) it always had; the sheet
            # shows the line of the cell the finding names.
            shown = cell_line_text(source, finding) if finding.get("cell") else text
            blockers.append({"id": blocker_key(repo.name, finding, text), "text": shown, **finding})
    files = report["summary"]["files"]
    summary = {
        "name": repo.name,
        "github": repo.github,
        "commit": repo.commit,
        "category": repo.category,
        "files": files,
        "internal_errors": internal_errors(check.stderr, dry.stderr, second.stderr),
        "file_errors": [f["path"] + ": " + f["error"] for f in report["files"] if f["error"]],
        "patch_applies": why_not,
        "unparsed": unparsed,
        "idempotent": not second.stdout.strip(),
        "second_changes": changed_files(second.stdout),
        "findings": len(findings),
        "findings_per_file": round(len(findings) / files, 2) if files else 0.0,
        "blockers": blockers,
        "blockers_by_rule": dict(Counter(b["code"] for b in blockers)),
        "hunks": len(hunks),
        "hunks_by_rule": dict(Counter(r for h in hunks for r in h.rules)),
        "changed_files": len(changed),
        "cpu_seconds": {
            "check": round(check_cpu, 2),
            "dry_run": round(dry_cpu, 2),
            "second": round(second_cpu, 2),
        },
    }
    (out / "summary.json").write_text(json.dumps(summary, indent=1))
    return summary


def load_summaries(repos: list[Repo], cache: Path = CACHE) -> list[dict]:
    rows = []
    for repo in repos:
        path = cache / "results" / repo.name / "summary.json"
        if path.is_file():
            rows.append(json.loads(path.read_text()))
    return rows


def counts(mapping: dict[str, int], top: int = 4) -> str:
    items = sorted(mapping.items(), key=lambda kv: (-kv[1], kv[0]))
    text = ", ".join(f"{code} {n}" for code, n in items[:top])
    return text + (f", +{len(items) - top} rules" if len(items) > top else "") or "–"


def table(rows: list[dict]) -> str:
    head = (
        "| repo | kind | files | internal errors | parses | idempotent | blockers (left after apply) "
        "| blockers by rule "
        "| findings/file | hunks | hunks by rule (top 4) | CPU s (check) |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|---|\n"
    )
    body = []
    for r in rows:
        parses = "yes" if not r["unparsed"] and not r["patch_applies"] else "**no**"
        body.append(
            f"| [{r['name']}](https://github.com/{r['github']}/tree/{r['commit'][:12]}) "
            f"| {', '.join(r['category'])} | {r['files']} | {len(r['internal_errors'])} "
            f"| {parses} | {'yes' if r['idempotent'] else '**no**'} "
            f"| {len(r['blockers'])} ({sum(not b['fixed'] for b in r['blockers'])}) "
            f"| {counts(r['blockers_by_rule'])} | {r['findings_per_file']} | {r['hunks']} "
            f"| {counts(r['hunks_by_rule'])} | {r['cpu_seconds']['check']} |"
        )
    total = {
        "files": sum(r["files"] for r in rows),
        "errors": sum(len(r["internal_errors"]) for r in rows),
        "parses": sum(1 for r in rows if not r["unparsed"] and not r["patch_applies"]),
        "idem": sum(1 for r in rows if r["idempotent"]),
        "blockers": sum(len(r["blockers"]) for r in rows),
        "left": sum(not b["fixed"] for r in rows for b in r["blockers"]),
        "findings": sum(r["findings"] for r in rows),
        "hunks": sum(r["hunks"] for r in rows),
        "cpu": sum(r["cpu_seconds"]["check"] for r in rows),
    }
    per_file = total["findings"] / total["files"] if total["files"] else 0
    body.append(
        f"| **total ({len(rows)})** | | {total['files']} | {total['errors']} "
        f"| {total['parses']}/{len(rows)} | {total['idem']}/{len(rows)} "
        f"| {total['blockers']} ({total['left']}) | "
        f"| {per_file:.2f} | {total['hunks']} | | {total['cpu']:.1f} |"
    )
    return head + "\n".join(body) + "\n"


def replace_between(text: str, start: str, end: str, content: str) -> str:
    if start not in text:
        return text.rstrip("\n") + f"\n\n{start}\n{content}{end}\n"
    head, rest = text.split(start, 1)
    return f"{head}{start}\n{content}{end}{rest.split(end, 1)[1]}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", help="names from repos.toml (default: all)")
    parser.add_argument("--mirrors", type=Path, default=MIRRORS)
    parser.add_argument("-j", "--jobs", type=int, default=1)
    parser.add_argument("--no-readme", action="store_true", help="leave benchmarks/README.md")
    parser.add_argument(
        "--table-only", action="store_true", help="rewrite the README table from the kept results"
    )
    parser.add_argument(
        "--rehunk", action="store_true", help="recompute the kept hunks' ids; run nothing"
    )
    args = parser.parse_args()
    repos = load_repos()
    unknown = set(args.only or ()) - {r.name for r in repos}
    if unknown:
        sys.exit(f"not in repos.toml: {', '.join(sorted(unknown))}")
    if args.rehunk:
        for repo in repos:
            if (CACHE / "results" / repo.name / "hunks.json").is_file():
                rehunk(repo.name)
        return
    for repo in [] if args.table_only else repos:
        if args.only and repo.name not in args.only:
            continue
        s = measure(repo, args.mirrors, args.jobs)
        print(
            f"{s['name']:28s} files {s['files']:3d}  blockers {len(s['blockers']):2d}  "
            f"hunks {s['hunks']:3d}  errors {len(s['internal_errors'])}  "
            f"parses {not s['unparsed']}  idempotent {s['idempotent']}  "
            f"cpu {s['cpu_seconds']['check']:.1f} s",
            flush=True,
        )
    if not args.no_readme:
        text = README.read_text() if README.is_file() else "# Benchmarks\n"
        README.write_text(
            replace_between(text, TABLE_START, TABLE_END, table(load_summaries(repos)))
        )


if __name__ == "__main__":
    main()
