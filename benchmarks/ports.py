"""Benchmark of human ports: what people changed to port a script to Trainium, against the tool.

    python benchmarks/ports.py [--set benchmark|first-sight|first-sight-j] [--only NAME ...]
                               [--mirrors DIR]
                               [--no-readme] [--cached] [--target TARGET]

The ports (a public "before" and its Trainium "after", at pinned commits) are in
``benchmarks/ports.toml``. Each side is read from a bare git mirror
(``<mirrors>/<owner>+<name>/repo``) into the git-ignored ``benchmarks/.cache/ports/<name>/``
(never committed). Then ``trncodemod apply --dry-run --format json`` runs on the "before" as its
user would: with the ``target`` the "after" was written for (``ports.toml`` cites the evidence;
``--target`` overrides it for every port, into another cache folder), with ``--scale-out`` for
ports marked ``scale_out`` and ``--scale-lr`` for those marked ``scale_lr``; and per port the folder holds ``human.diff`` (before → after), ``tool.diff``, ``findings.json``
and ``side_by_side.md`` (the three together, for the review).

``benchmarks/review/ports.toml`` classifies every human migration edit as made (the tool makes
it), reported (a finding tells the user to make it) or missed, with the rules that do it and a
reason. This script checks every "made" and "reported" claim against the run (a claim the run no
longer supports is printed and makes the exit status 1), prints the table category × made /
reported / missed, and rewrites the table between the ``ports`` markers of
``benchmarks/README.md``.

``--set first-sight`` runs the same machinery on the first-sight ports (issue 35): pairs the
project had not used when they were added, ``benchmarks/first_sight/ports.toml``, reviewed in
``benchmarks/first_sight/ports_review.toml``, tabled in ``benchmarks/first_sight/README.md``.
``--set first-sight-j`` is a later batch of such pairs (``first_sight/ports-j.toml``, reviewed in
``first_sight/ports-j_review.toml``, tabled in the same README under its own markers).
"""

from __future__ import annotations

import argparse
import difflib
import json
import shutil
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

HERE = Path(__file__).resolve().parent
CACHE = HERE / ".cache" / "ports"
MIRRORS = Path("/work/.mirror")
README = HERE / "README.md"
REVIEW = HERE / "review" / "ports.toml"
TABLE_START, TABLE_END = "<!-- ports:start -->", "<!-- ports:end -->"


@dataclass(frozen=True)
class PortSet:
    """A list of ports, its review, and the README whose marked table shows them."""

    ports: Path
    review: Path
    readme: Path
    markers: tuple[str, str]


SETS = {
    "benchmark": PortSet(HERE / "ports.toml", REVIEW, README, (TABLE_START, TABLE_END)),
    "first-sight": PortSet(
        HERE / "first_sight" / "ports.toml",
        HERE / "first_sight" / "ports_review.toml",
        HERE / "first_sight" / "README.md",
        ("<!-- first-sight-ports:start -->", "<!-- first-sight-ports:end -->"),
    ),
    "first-sight-j": PortSet(
        HERE / "first_sight" / "ports-j.toml",
        HERE / "first_sight" / "ports-j_review.toml",
        HERE / "first_sight" / "README.md",
        ("<!-- first-sight-ports-j:start -->", "<!-- first-sight-ports-j:end -->"),
    ),
}
STATUSES = ("made", "reported", "missed")
DEFAULT_TARGET = "xla-2.9"
# The categories of issue 25's measurement, in its order.
CATEGORIES = {
    "launcher": "process group / launcher / DDP",
    "sampler": "sampler / world size / LR",
    "optimizer-step": "optimizer step",
    "loader": "MpDeviceLoader",
    "framework": "HF Trainer / framework",
    "flags": "env & compiler flags",
    "precision": "AMP / bf16, float64",
    "device": "device / graph cut / checkpoint / padding / host sync",
}


@dataclass
class Side:
    github: str
    commit: str
    path: str
    patch: bool = False

    def read(self, mirrors: Path) -> str:
        mirror = mirrors / self.github.replace("/", "+") / "repo"
        if not (mirror / "HEAD").is_file():
            sys.exit(f"no mirror at {mirror}; fetch github:{self.github} first, or pass --mirrors")
        return git_show(mirror, self.commit, self.path)


@dataclass
class Port:
    name: str
    summary: str
    before: Side
    after: Side
    aligned: bool
    target: str = DEFAULT_TARGET
    scale_out: bool = False
    scale_lr: bool = False
    support: list[str] = field(default_factory=list)


@dataclass
class Edit:
    port: str
    id: str
    category: str
    human: str
    status: str
    reason: str
    rules: list[str] = field(default_factory=list)


def git_show(mirror: Path, commit: str, path: str) -> str:
    shown = subprocess.run(
        ["git", "--git-dir", str(mirror), "show", f"{commit}:{path}"], capture_output=True
    )
    if shown.returncode:
        sys.exit(f"{mirror}: {commit}:{path}: {shown.stderr.decode()[-500:]}")
    return shown.stdout.decode("utf-8", "surrogateescape")


def load_ports(path: Path = HERE / "ports.toml") -> list[Port]:
    with path.open("rb") as handle:
        entries = tomllib.load(handle)["port"]
    return [
        Port(**{**e, "before": Side(**e["before"]), "after": Side(**e["after"])}) for e in entries
    ]


def load_review(path: Path = REVIEW) -> list[Edit]:
    with path.open("rb") as handle:
        edits = [Edit(**entry) for entry in tomllib.load(handle).get("edit", [])]
    for edit in edits:
        if edit.status not in STATUSES or edit.category not in CATEGORIES:
            sys.exit(f"review: {edit.port}/{edit.id}: bad status or category")
        if edit.status != "missed" and not edit.rules:
            sys.exit(f"review: {edit.port}/{edit.id}: {edit.status} names no rule")
    return edits


def tool_has_scale_out() -> bool:
    helped = subprocess.run(
        [sys.executable, "-m", "trncodemod", "apply", "--help"], capture_output=True, text=True
    )
    return "--scale-out" in helped.stdout


def cache_dir(port: Port, target: str | None) -> Path:
    """Where a port's run lives: one folder per port for its own target, and one per overriding
    target, so a run for another target does not replace the one the review is about."""
    return CACHE / (port.name if target in (None, port.target) else f"{port.name}@{target}")


def tool_args(port: Port, scale_out: bool, target: str | None = None) -> list[str]:
    """The ``trncodemod apply`` options the port runs with: its own target unless ``target``
    overrides it, and the scale-out options its "after" calls for."""
    args = ["apply", "--dry-run", "--format", "json", "--no-cache", "--target"]
    args.append(target or port.target)
    if scale_out and port.scale_out:
        args.append("--scale-out")
        if port.scale_lr:
            args.append("--scale-lr")
    return args


def run_port(port: Port, mirrors: Path, scale_out: bool, target: str | None = None) -> dict:
    """Materialise ``port``, run the tool on its "before", write the side-by-side files."""
    out = cache_dir(port, target)
    shutil.rmtree(out, ignore_errors=True)
    before_dir = out / "before"
    before_dir.mkdir(parents=True)
    name = Path(port.before.path).name
    before = port.before.read(mirrors)
    (before_dir / name).write_text(before, "utf-8", errors="surrogateescape")
    mirror = mirrors / port.before.github.replace("/", "+") / "repo"
    for support in port.support:  # modules the script imports, so the program model sees them
        text = git_show(mirror, port.before.commit, support)
        (before_dir / Path(support).name).write_text(text, "utf-8", errors="surrogateescape")
    after = port.after.read(mirrors)
    (out / ("after.patch" if port.after.patch else "after.py")).write_text(
        after, "utf-8", errors="surrogateescape"
    )
    if port.after.patch:
        human = after
    else:
        human = "".join(
            difflib.unified_diff(
                before.splitlines(keepends=True),
                after.splitlines(keepends=True),
                f"before/{port.before.path}",
                f"after/{port.after.path}",
            )
        )
    (out / "human.diff").write_text(human, "utf-8", errors="surrogateescape")

    args = tool_args(port, scale_out, target)
    # The support modules are given too, as a user runs the tool on the project: the program
    # model then sees the classes and helpers the script imports. Only the script is reviewed.
    given = [name, *(Path(s).name for s in port.support)]
    ran = subprocess.run(
        [sys.executable, "-m", "trncodemod", *args, *given], cwd=before_dir, capture_output=True
    )
    stdout = file_patch(ran.stdout.decode("utf-8", "surrogateescape"), name)
    stderr = ran.stderr.decode("utf-8", "surrogateescape")
    if ran.returncode not in (0, 1) or "{" not in stderr:
        sys.exit(f"{port.name}: trncodemod exit {ran.returncode}: {stderr[-1500:]}")
    report = json.loads(stderr[stderr.index("{") :])
    # The script's findings, and those on its support modules: a port's edit may be in a module
    # the script imports (a Trainer subclass in trainer_qa.py), and the tool reports it there.
    findings = [f for f in report.get("findings", []) if f["path"] in given]
    (out / "tool.diff").write_text(stdout, "utf-8", errors="surrogateescape")
    (out / "findings.json").write_text(json.dumps(findings, indent=1))
    lines = [f"# {port.name}: {port.summary}", "", f"tool: `trncodemod {' '.join(args)}`", ""]
    lines += ["## Human diff", "", "```diff", human, "```", "", "## Tool diff", "", "```diff"]
    lines += [stdout, "```", "", "## Findings", ""]
    for f in findings:
        done = "fixed" if f["fixed"] else f["severity"]
        where = "" if f["path"] == name else f"{f['path']}:"
        lines.append(f"- {where}L{f['line']} {f['code']} ({done}): {f['message']}")
    (out / "side_by_side.md").write_text("\n".join(lines) + "\n", "utf-8", errors="surrogateescape")
    return {"name": port.name, "findings": findings, "args": args}


def file_patch(patch: str, name: str) -> str:
    """The part of a multi-file ``patch`` that changes ``name``."""
    kept: list[str] = []
    keep = False
    for line in patch.splitlines(keepends=True):
        if line.startswith("--- "):
            keep = line.rstrip("\n").split(maxsplit=1)[1] in (f"a/{name}", name)
        if keep:
            kept.append(line)
    return "".join(kept)


def stale_claims(edits: list[Edit], runs: dict[str, dict]) -> list[str]:
    """Review claims that this run does not support: a made edit whose rules fixed nothing, a
    reported edit whose rules reported nothing."""
    stale = []
    for edit in edits:
        if edit.status == "missed" or edit.port not in runs:
            continue
        findings = runs[edit.port]["findings"]
        want_fixed = edit.status == "made"
        codes = {f["code"] for f in findings if bool(f["fixed"]) == want_fixed}
        if not codes & set(edit.rules):
            stale.append(f"{edit.port}/{edit.id}: {edit.status} by {edit.rules}, run has not")
    return stale


def table(edits: list[Edit]) -> str:
    counts: Counter[tuple[str, str]] = Counter((e.category, e.status) for e in edits)
    total = len(edits)
    rows = ["| category | made | reported | missed | edits |", "|---|---:|---:|---:|---:|"]
    for key, label in CATEGORIES.items():
        row = [counts[key, s] for s in STATUSES]
        rows.append(f"| {label} | " + " | ".join(map(str, row)) + f" | {sum(row)} |")
    sums = [sum(counts[k, s] for k in CATEGORIES) for s in STATUSES]
    rows.append("| **all** | " + " | ".join(f"**{n}**" for n in sums) + f" | **{total}** |")
    share = [f"{100 * n / total:.0f} %" if total else "–" for n in sums]
    rows.append("| share | " + " | ".join(share) + " | |")
    return "\n".join(rows)


def port_table(ports: list[Port], edits: list[Edit]) -> str:
    """One row per port: the target and options it runs with (``ports.toml``) and its edits."""
    counts: Counter[tuple[str, str]] = Counter((e.port, e.status) for e in edits)
    rows = [
        "| port | target | options | made | reported | missed |",
        "|---|---|---|---:|---:|---:|",
    ]
    for port in ports:
        options = [
            o for o, on in (("--scale-out", port.scale_out), ("--scale-lr", port.scale_lr)) if on
        ]
        row = " | ".join(str(counts[port.name, s]) for s in STATUSES)
        rows.append(f"| {port.name} | {port.target} | {' '.join(options) or '–'} | {row} |")
    return "\n".join(rows)


def write_readme(text: str, where: PortSet = SETS["benchmark"]) -> None:
    start, end = where.markers
    readme = where.readme.read_text()
    if start not in readme:
        sys.exit(f"{where.readme}: no {start} marker")
    head, rest = readme.split(start, 1)
    tail = rest.split(end, 1)[1]
    where.readme.write_text(f"{head}{start}\n{text}\n{end}{tail}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--set", choices=SETS, default="benchmark", help="which ports (default: the benchmark)"
    )
    parser.add_argument("--only", nargs="*", default=None, help="port names")
    parser.add_argument("--mirrors", type=Path, default=MIRRORS)
    parser.add_argument("--no-readme", action="store_true", help="print, do not edit README")
    parser.add_argument(
        "--target",
        default=None,
        help="run every port for this target (default: each port's own, from ports.toml; the "
        "review and the README table are for those)",
    )
    parser.add_argument(
        "--cached", action="store_true", help="reuse the last run's findings (review edits only)"
    )
    args = parser.parse_args(argv)
    chosen = SETS[args.set]
    ports = [p for p in load_ports(chosen.ports) if args.only is None or p.name in args.only]
    edits = load_review(chosen.review)
    known = {p.name for p in load_ports(chosen.ports)}
    for edit in edits:
        if edit.port not in known:
            sys.exit(f"review: {edit.port}/{edit.id}: no such port")
    scale_out = tool_has_scale_out()
    runs = {}
    for port in ports:
        cached = cache_dir(port, args.target) / "findings.json"
        if args.cached and cached.is_file():
            runs[port.name] = {"name": port.name, "findings": json.loads(cached.read_text())}
        else:
            runs[port.name] = run_port(port, args.mirrors, scale_out, args.target)
        own = [e for e in edits if e.port == port.name]
        made = sum(e.status == "made" for e in own)
        fixed = sum(bool(f["fixed"]) for f in runs[port.name]["findings"])
        print(
            f"{port.name}: {len(own)} human edits ({made} made); tool: {fixed} fixes, "
            f"{len(runs[port.name]['findings']) - fixed} findings"
        )
    stale = stale_claims(edits, runs)
    for line in stale:
        print(f"stale review: {line}", file=sys.stderr)
    reviewed = [e for e in edits if e.port in runs]
    text = table(reviewed) + "\n\n" + port_table(ports, reviewed)
    print(text)
    if not args.no_readme and args.only is None and args.target is None:
        write_readme(text, chosen)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
