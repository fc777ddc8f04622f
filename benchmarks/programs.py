"""Real training programs, migrated by trncodemod and run on XLA:CPU (issue 24 item 5).

    python benchmarks/programs.py --python /work/xla/venv/bin/python [--only NAME ...] [--no-readme]

For each program of ``benchmarks/programs.toml``:

1. extract: its ``paths`` at its commit from the bare git mirror into the git-ignored
   ``benchmarks/.cache/programs/<name>/`` (``benchmarks/repos.py``'s ``materialise``; the
   programs' code is never committed);
2. shim: write the data it reads (``SHIMS`` below, ours: random data of the shape and format the
   program expects, so nothing is downloaded and nothing in its code changes);
3. migrate: ``trncodemod apply --target xla-2.9`` over the folder;
4. run: ``trncodemod verify --format json`` on the script, from the script's folder, with the
   program's arguments (its smallest model and batch) and the interpreter that has torch-xla;
5. compare: ``trncodemod verify --against`` the entry script as its repository has it (run on
   the CPU, CUDA mapped) for the same steps and seeds; the largest relative loss difference;
6. table: steps measured, graph executions and device-to-host transfers per step, uncached
   compiles after the warm-up, CPU fallback ops other than a logged scalar's read, the verdicts;
   written to ``benchmarks/.cache/programs/results.json`` and between the ``programs`` markers of
   ``benchmarks/README.md``.

A program "meets the hand-port figures" when verify passes and, where one iteration is
one optimizer step (``one_step_loop``), it ran exactly one graph per step.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import shlex
import shutil
import struct
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from repos import MIRRORS, Repo, materialise  # noqa: E402

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

CACHE = HERE / ".cache" / "programs"
README = HERE / "README.md"
TABLE_START, TABLE_END = "<!-- programs:start -->", "<!-- programs:end -->"
TARGET = "xla-2.9"


@dataclass
class Program:
    name: str
    github: str
    commit: str
    paths: list[str]
    script: str
    args: list[str]
    data: str
    steps: int
    warmup: int
    log_interval: int
    one_step_loop: bool
    quick: bool = False
    pythonpath: list[str] = field(default_factory=list)
    # The original's arguments for `verify --against` where the migration needs one the original
    # does not take (nanoGPT's `--device=xla`); None: `args` for both.
    original_args: list[str] | None = None
    # What the migration's findings ask a person to do in the code, done after `apply`:
    # [file, the text to find (once), its replacement] (nanoGPT: TRN251's retie).
    person_edits: list[list[str]] = field(default_factory=list)

    @property
    def folder(self) -> Path:
        return CACHE / self.name

    @property
    def original(self) -> Path:
        """The entry script as its repository has it (``verify --against`` runs it)."""
        return CACHE / ".originals" / self.name / Path(self.script).name

    def repo(self) -> Repo:
        return Repo(self.name, self.github, self.commit, self.paths, [])


def load_programs(path: Path = HERE / "programs.toml") -> list[Program]:
    with path.open("rb") as handle:
        return [Program(**entry) for entry in tomllib.load(handle)["program"]]


# -- data shims (ours) ---------------------------------------------------------------------------
def _mnist(program: Program) -> None:
    """torchvision's MNIST reads ``<root>/MNIST/raw/*-ubyte`` (idx files) when they exist and
    downloads nothing then; the programs use ``root='../data'`` from their folder."""
    raw = (program.folder / Path(program.script).parent / "../data/MNIST/raw").resolve()
    raw.mkdir(parents=True, exist_ok=True)
    for seed, (prefix, count) in enumerate((("train", 256), ("t10k", 32)), start=1):
        pixels = bytes((i * 7919 + seed * 104729) % 251 for i in range(count * 28 * 28))
        labels = bytes((i * 31 + seed) % 10 for i in range(count))
        (raw / f"{prefix}-images-idx3-ubyte").write_bytes(
            struct.pack(">IIII", 0x803, count, 28, 28) + pixels
        )
        (raw / f"{prefix}-labels-idx1-ubyte").write_bytes(struct.pack(">II", 0x801, count) + labels)


_WORDS = [f"w{i}" for i in range(200)]


def _text(lines: int, seed: int) -> str:
    out = []
    for i in range(lines):
        n = 5 + (i * 7 + seed) % 9
        out.append(" ".join(_WORDS[(i * 13 + j * 29 + seed) % len(_WORDS)] for j in range(n)))
    return "\n".join(out) + "\n"


def _wikitext(program: Program) -> None:
    """word_language_model reads ``./data/wikitext-2/{train,valid,test}.txt`` (whitespace-split
    words, one sentence a line); the mirror lacks the real files' blobs."""
    data = program.folder / Path(program.script).parent / "data" / "wikitext-2"
    data.mkdir(parents=True, exist_ok=True)
    for seed, name in enumerate(("train", "valid", "test")):
        (data / f"{name}.txt").write_text(_text(120 if name == "train" else 30, seed))


def _nanogpt(program: Program) -> None:
    """nanoGPT's train.py memory-maps ``data/<dataset>/{train,val}.bin`` (uint16 tokens) and reads
    ``meta.pkl`` for the vocabulary size when it exists."""
    data = program.folder / "data" / "random"
    data.mkdir(parents=True, exist_ok=True)
    for seed, name in enumerate(("train", "val")):
        tokens = [(i * 7919 + seed * 31) % 64 for i in range(4096)]
        (data / f"{name}.bin").write_bytes(struct.pack(f"<{len(tokens)}H", *tokens))
    with (data / "meta.pkl").open("wb") as handle:
        pickle.dump({"vocab_size": 64}, handle)


SHIMS = {
    "mnist": _mnist,
    "wikitext": _wikitext,
    "nanogpt": _nanogpt,
    "none": lambda program: None,
}


# -- the run -------------------------------------------------------------------------------------
def save_original(program: Program, mirrors: Path) -> None:
    """The entry script at the program's commit, for ``verify --against``."""
    text = subprocess.run(
        ["git", "--git-dir", str(program.repo().mirror(mirrors)), "show"]
        + [f"{program.commit}:{program.script}"],
        capture_output=True,
        check=True,
    ).stdout
    program.original.parent.mkdir(parents=True, exist_ok=True)
    program.original.write_bytes(text)


def prepare(program: Program, mirrors: Path) -> None:
    """Extract (fresh, so the migration starts from the program's own code), shim, migrate."""
    shutil.rmtree(program.folder, ignore_errors=True)
    materialise(program.repo(), mirrors, program.folder)
    save_original(program, mirrors)
    SHIMS[program.data](program)
    # The interval the tool gives hoisted reads is the one the program is run with.
    config = program.folder / ".trncodemod.toml"
    config.write_text(f"[tool.trncodemod]\nlog-interval = {program.log_interval}\n", "utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "trncodemod", "apply", "--no-cache", "--config", str(config)]
        + ["--target", TARGET, "."],
        cwd=program.folder,
        capture_output=True,
        text=True,
    )
    (program.folder / ".apply.txt").write_text(result.stdout + result.stderr)
    if result.returncode not in (0, 1):
        raise RuntimeError(f"{program.name}: apply exited {result.returncode}:\n{result.stderr}")
    for path, find, replacement in program.person_edits:
        edited = program.folder / path
        text = edited.read_text("utf-8")
        if text.count(find) != 1:
            raise RuntimeError(f"{program.name}: the person's edit of {path} no longer applies")
        edited.write_text(text.replace(find, replacement), "utf-8")


def _verify(program: Program, python: str, timeout: int, options: list[str]) -> dict:
    """``trncodemod verify --format json OPTIONS`` on the program, from its script's folder."""
    script = program.folder / program.script
    env = dict(os.environ)
    if program.pythonpath:
        extra = [str((program.folder / p).resolve()) for p in program.pythonpath]
        env["PYTHONPATH"] = os.pathsep.join([*extra, env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    command = [sys.executable, "-m", "trncodemod", "verify", "--format", "json"]
    command += ["--python", python, "--timeout", str(timeout), *options]
    command += [str(script), "--", *program.args]
    result = subprocess.run(command, cwd=script.parent, capture_output=True, text=True, env=env)
    try:
        report = json.loads(result.stdout)
    except json.JSONDecodeError:
        return {"error": (result.stdout + result.stderr)[-3000:], "exit": result.returncode}
    report["exit"] = result.returncode
    return report


def verify(program: Program, python: str, timeout: int) -> dict:
    """The migrated program on XLA:CPU, judged by `trncodemod verify`'s criteria."""
    options = ["--steps", str(program.steps), "--warmup", str(program.warmup)]
    return _verify(
        program, python, timeout, [*options, "--log-interval", str(program.log_interval)]
    )


def against(program: Program, python: str, timeout: int) -> dict:
    """``verify --against``: the original entry script on the CPU and the migration on XLA:CPU,
    the same steps and seeds; the losses step by step."""
    options = ["--against", str(program.original), "--steps", str(program.steps)]
    if program.original_args is not None:
        options += ["--original-args", shlex.join(program.original_args)]
    return _verify(program, python, timeout, options)


def loss_difference(report: dict) -> tuple[str, float | None]:
    """The verdict of ``verify --against`` and the largest relative loss difference."""
    if "verdict" not in report:
        return "could not run", None
    pairs: dict[int, list[float]] = {}
    for side in ("original", "migrated"):
        for loss in report.get(side, {}).get("losses", []):
            pairs.setdefault(loss["step"], []).append(loss["value"])
    gaps = [
        abs(a - b) / max(abs(a), abs(b), 1e-12)
        for a, b in (v for v in pairs.values() if len(v) == 2)
    ]
    return report["verdict"], max(gaps, default=None)


def row(program: Program, report: dict, compared: dict | None = None) -> dict:
    """One table row from verify's JSON (and verify --against's)."""
    if "metrics" not in report:
        return {"program": program.name, "commit": program.commit[:8], "error": report["error"]}
    metrics = report["metrics"]
    steps = metrics.get("per_step", [])
    n = max(len(steps), 1)
    executions = [s["executions"] for s in steps]
    fallbacks = [c["detail"] for c in report["criteria"] if c["name"] == "no CPU fallback ops"]
    unexpected = sorted(set(metrics.get("fallback_ops", [])) - {"aten::_local_scalar_dense"})
    return {
        "program": program.name,
        "github": program.github,
        "commit": program.commit[:8],
        "steps": len(steps),
        "executions_per_step": round(sum(executions) / n, 2),
        "max_executions": max(executions, default=0),
        "transfers_per_step": round(sum(s["d2h"] - s["save_d2h"] for s in steps) / n, 2),
        "compiles_after_warmup": sum(s["uncached_compiles"] for s in steps),
        "fallbacks": unexpected,
        "fallback_detail": fallbacks[0] if fallbacks else "",
        "passed": bool(report.get("passed")),
        "one_step_loop": program.one_step_loop,
        "meets_figures": bool(report.get("passed"))
        and (not program.one_step_loop or (executions and set(executions) == {1})),
        "failed": [c["name"] for c in report["criteria"] if not c["passed"] and c["blocking"]],
        "error": (metrics.get("error") or "")[-1500:],
        **_against_columns(compared),
    }


def _against_columns(compared: dict | None) -> dict:
    if compared is None:
        return {}
    verdict, gap = loss_difference(compared)
    problems = compared.get("problems") or {}
    return {
        "against": verdict,
        "max_loss_difference": gap,
        "against_problem": next(iter(problems.values()), compared.get("error", ""))[-800:]
        if verdict == "could not run"
        else "",
    }


def table(rows: list[dict]) -> str:
    lines = [
        "| program | commit | steps | executions/step | transfers/step | compiles after warm-up "
        "| fallbacks | verify | --against (max relative loss difference) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        if "steps" not in r:
            lines.append(f"| {r['program']} | `{r['commit']}` | run failed | | | | | fail | |")
            continue
        verdict = "pass" if r["passed"] else "fail: " + ", ".join(r["failed"])
        compared = r.get("against", "not run")
        if r.get("max_loss_difference") is not None:
            compared += f" ({r['max_loss_difference']:.1e})"
        lines.append(
            f"| {r['program']} ({r['github']}) | `{r['commit']}` | {r['steps']} "
            f"| {r['executions_per_step']} (max {r['max_executions']}) | {r['transfers_per_step']} "
            f"| {r['compiles_after_warmup']} | {', '.join(r['fallbacks']) or '0'} | {verdict} "
            f"| {compared} |"
        )
    return "\n".join(lines)


def write_readme(text: str) -> None:
    readme = README.read_text("utf-8")
    if TABLE_START not in readme:
        return
    head, rest = readme.split(TABLE_START, 1)
    _, tail = rest.split(TABLE_END, 1)
    README.write_text(f"{head}{TABLE_START}\n{text}\n{TABLE_END}{tail}", "utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--python", required=True, help="interpreter with torch and torch-xla")
    parser.add_argument("--only", nargs="*", default=[], help="program names")
    parser.add_argument("--quick", action="store_true", help="only the programs marked quick")
    parser.add_argument("--mirrors", type=Path, default=MIRRORS)
    parser.add_argument("--timeout", type=int, default=900, help="seconds per run")
    parser.add_argument("--no-readme", action="store_true")
    parser.add_argument(
        "--no-against", action="store_true", help="skip `verify --against` (it runs twice more)"
    )
    parser.add_argument(
        "--table-only", action="store_true", help="rebuild the table from the runs' reports"
    )
    parser.add_argument(
        "--against-only",
        action="store_true",
        help="reuse a program's migration and verify report from an earlier run; only compare",
    )
    options = parser.parse_args(argv)
    programs = [
        p
        for p in load_programs()
        if (not options.only or p.name in options.only) and (not options.quick or p.quick)
    ]
    CACHE.mkdir(parents=True, exist_ok=True)
    results = CACHE / "results.json"
    if options.table_only:
        programs = []  # only the rows, again, from the reports runs left
        known = {}
        for program in load_programs():
            verified, compared = program.folder / ".verify.json", program.folder / ".against.json"
            if verified.is_file():
                other = json.loads(compared.read_text()) if compared.is_file() else None
                known[program.name] = row(program, json.loads(verified.read_text()), other)
        results.write_text(json.dumps(known, indent=2))
    known = json.loads(results.read_text()) if results.is_file() else {}
    for program in programs:
        verified = program.folder / ".verify.json"
        if options.against_only and verified.is_file():
            report = json.loads(verified.read_text())  # the migration and run already made
            save_original(program, options.mirrors)
        else:
            print(f"{program.name}: migrate", flush=True)
            prepare(program, options.mirrors)
            print(f"{program.name}: verify", flush=True)
            report = verify(program, options.python, options.timeout)
            verified.write_text(json.dumps(report, indent=2))
        compared = None
        if not options.no_against:
            print(f"{program.name}: verify --against", flush=True)
            compared = against(program, options.python, options.timeout)
            (program.folder / ".against.json").write_text(json.dumps(compared, indent=2))
        known = json.loads(results.read_text()) if results.is_file() else {}  # runs in parallel
        known[program.name] = row(program, report, compared)
        print(json.dumps(known[program.name]), flush=True)
        results.write_text(json.dumps(known, indent=2))
    order = [p.name for p in load_programs()]
    rows = [known[name] for name in order if name in known]
    text = table(rows)
    print(text)
    if not options.no_readme and (options.table_only or not (options.only or options.quick)):
        write_readme(text)
    return 0 if all(r.get("passed") for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
