"""The verdict of a run, per entry point (``analysis.verdict``), from the migrated texts: the
evaluator runs each entry point of the program the outcomes hold after the passes ran (the
verdict is about the port, not the original), with the launch lines beside the modules. A
notebook is an entry point of its own: its code cells in order, one module whose top level runs
(``trncodemod.pipeline.notebook_program``); its places name the cell, as its findings do.

No verdict where nothing was judged: no file, only files that failed, no PyTorch code."""

from __future__ import annotations

import contextlib
import functools
import hashlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import PurePosixPath

from trncodemod.analysis.device_facts import facts_for
from trncodemod.analysis.entry_points import entry_points, imports_torch
from trncodemod.analysis.evaluate import Evaluator
from trncodemod.analysis.verdict import (
    CANNOT_TELL,
    DOES_NOT,
    NO_STEP,
    RUNS,
    EntryPointOffAccelerator,
    EntryVerdict,
    evaluate_trace,
    with_blockers,
)
from trncodemod.findings import Finding, Severity
from trncodemod.pipeline.cache import ResultCache
from trncodemod.pipeline.engine import FileOutcome, blocks
from trncodemod.pipeline.notebook_program import line_map, notebook_program
from trncodemod.pipeline.source import SourceError, decode_source
from trncodemod.pipeline.suppressions import find_suppressions


@dataclass(frozen=True)
class Judged:
    entries: tuple[EntryVerdict, ...] = ()
    nothing: str = ""  # why there is no verdict at all ("" when entry points were judged)
    failed: tuple[str, ...] = field(default=())  # files that failed: no verdict for them

    def to_json(self) -> dict:
        counts: dict[str, int] = {}
        for entry in self.entries:
            counts[entry.value] = counts.get(entry.value, 0) + 1
        return {
            "entry_points": [e.to_json() for e in self.entries],
            "counts": counts,
            "not_judged": self.nothing or None,
            "failed": list(self.failed),
        }


@dataclass(frozen=True)
class _Evaluated:
    """The evaluator's own verdicts, before blockers count: per entry point, the verdict and
    the given modules its run ran code of."""

    runs: tuple[tuple[EntryVerdict, frozenset[str]], ...] = ()
    nothing: str = ""
    failed: tuple[str, ...] = ()
    # Per run (in the order of ``runs``): the lines off its launch path, per module (a branch
    # a decided condition never takes, not reached another way), as (first, last, why) runs of
    # lines; None where the run stopped early and so cannot show a line is never reached.
    off_path: tuple[dict[str, list[tuple[int, int, str]]] | None, ...] = ()
    # The repository's configuration files the runs read, each with the digest of its text
    # ("" where it was missing): the verdicts hold only while they are the same.
    configs: tuple[tuple[str, str], ...] = ()

    def to_json(self) -> dict:
        return {
            "runs": [[{**e.to_json(), "on_cpu": e.on_cpu}, sorted(m)] for e, m in self.runs],
            "nothing": self.nothing,
            "failed": list(self.failed),
            "off_path": list(self.off_path),
            "configs": [list(c) for c in self.configs],
        }

    @classmethod
    def from_json(cls, data: dict) -> _Evaluated:
        runs = tuple(
            (
                EntryVerdict(e["entry"], e["verdict"], e["where"], e["why"], bool(e["on_cpu"])),
                frozenset(m),
            )
            for e, m in data["runs"]
        )
        off_path = tuple(
            None
            if off is None
            else {
                p: [(int(a), int(b), str(why)) for a, b, why in spans] for p, spans in off.items()
            }
            for off in data["off_path"]
        )
        configs = tuple((str(p), str(d)) for p, d in data["configs"])
        return cls(runs, data["nothing"], tuple(data["failed"]), off_path, configs)


_MEMO: dict[tuple, _Evaluated] = {}
# Blockers whose claim is where training runs: the evaluator proves or refutes them.
# TRN144's (DDP's `device_ids` kept) too: the evaluator follows where DDP moves the inputs.
PLACEMENT_BLOCKERS = frozenset({"TRN022", "TRN026", "TRN047", "TRN804", "TRN144"})
UNFOLLOWED_DEVICE = "TRN026"  # the training device computed in a way a module alone cannot follow
# Blockers that claim a line stops the run where it runs (a placement, a launcher sized by the
# CUDA count, DDP's `device_ids`, an NCCL process group, `ReduceOp.AVG`, a CUDA-only call, a
# generator on the device, torch FSDP, a torch.cuda call that raises without CUDA, a CUDA tensor
# type called (TRN317; torch.cuda.DoubleTensor's TRN204), a division by the CUDA device count,
# a CUDA extension built at import, a library that needs CUDA imported at import, a device move
# assigned to `.data`, an import of a torch name the target's torch lacks, a call of a function
# it removed, a check of torch's version that fails on it, a SyncBatchNorm conversion, a DataParallel model fed a CPU batch, or an inference
# mode the tool could not turn into no_grad): none where the evaluator shows the line is off the
# launch path.
LAUNCH_PATH_BLOCKERS = PLACEMENT_BLOCKERS | {
    "TRN025", "TRN144", "TRN143", "TRN148", "TRN803", "TRN008", "TRN152", "TRN315", "TRN316",
    "TRN317", "TRN204", "TRN050", "TRN051", "TRN174", "TRN173", "TRN057", "TRN052", "TRN149",
    "TRN054", "TRN154", "TRN064", "TRN068",
}  # fmt: skip


def judged(outcomes: Sequence[FileOutcome], target: str = "") -> Judged:
    """The verdict of the run of ``outcomes`` for ``target`` (a target name; default xla)."""
    evaluated = _evaluated(outcomes, target)
    if evaluated.nothing:
        return Judged(nothing=evaluated.nothing, failed=evaluated.failed)
    blockers = _blockers(outcomes)
    doubts = _doubts(outcomes)
    backend = "neuron" if target == "neuron" else "xla"
    offs = evaluated.off_path or (None,) * len(evaluated.runs)
    entries = tuple(
        _doubted(with_blockers(raw, modules, blockers, facts_for(backend)), modules, doubts, off)
        for (raw, modules), off in zip(evaluated.runs, offs, strict=True)
    )
    return Judged(entries, failed=evaluated.failed)


# Findings that leave a run's outcome open where their line runs: `x.data[0]` read as torch 0.3
# read it (a number then, a 0-dim tensor since torch 0.4), used as it is (TRN065).
DOUBTING_FINDINGS = frozenset({"TRN065"})


def _doubts(outcomes: Sequence[FileOutcome]) -> dict[str, list[tuple[int, int | str, str]]]:
    """Per module, (line, place, message) of each finding in ``DOUBTING_FINDINGS``."""
    found: dict[str, list[tuple[int, int | str, str]]] = {}
    for outcome in outcomes:
        for f in outcome.findings:
            if f.code in DOUBTING_FINDINGS:
                place = f.line if f.cell is None else f"{outcome.display}[cell {f.cell}]:{f.line}"
                found.setdefault(outcome.display, []).append((f.line, place, f.message))
    return found


def _doubted(
    found: EntryVerdict,
    modules: frozenset[str],
    doubts: dict[str, list[tuple[int, int | str, str]]],
    off: dict[str, list[tuple[int, int, str]]] | None,
) -> EntryVerdict:
    """A "runs" whose run reaches a doubting finding's line (one the evaluator does not show is
    off the launch path) is "cannot tell" there: the step may stop or misbehave on the target's
    torch for a reason the evaluator does not follow."""
    if found.value != RUNS:
        return found
    for path in sorted(modules):
        for line, place, message in doubts.get(path, ()):
            spans = (off or {}).get(path, ())
            if any(a <= line <= b for a, b, _why in spans):
                continue
            where = place if isinstance(place, str) else f"{path}:{place}"
            return replace(
                found,
                value=CANNOT_TELL,
                where=where,
                reason=f"TRN065: {message}; `trncodemod verify` runs it",
            )
    return found


def _blockers(outcomes: Sequence[FileOutcome]) -> dict[str, list[tuple[int | str, str, str]]]:
    found: dict[str, list[tuple[int | str, str, str]]] = {}
    for outcome in outcomes:
        for f in outcome.findings:
            if blocks(f):
                # In a notebook, the line alone does not say where: the place names the cell.
                line = f.line if f.cell is None else f"{outcome.display}[cell {f.cell}]:{f.line}"
                found.setdefault(outcome.display, []).append((line, f.code, f.message))
    return found


def proven(
    outcomes: Sequence[FileOutcome],
    target: str = "",
    cache: ResultCache | None = None,
    enabled: frozenset[str] | None = None,
) -> list[FileOutcome]:
    """Blockers are claims the evaluator proves (issue 34): a blocker about where training runs
    (TRN022, TRN026, TRN047, TRN804, TRN144) in a module that entry points run stays one unless the evaluator
    shows every one of them running on the accelerator; then it is a warning that says so (a
    device handed down through calls from where it is set, a flag off on every known launch),
    and TRN026, which says the device cannot be followed, is dropped.
    Before that, a blocker on a line the evaluator shows is off the launch path is a warning
    that says so (``_off_launch_path``)."""
    evaluated = _evaluated(outcomes, target, cache)
    if evaluated.nothing:
        return list(outcomes)
    # First the blockers off the launch path, so an entry point left with none gets TRN027.
    # The launch lines' runs, once for both: a blocker off the documented run's path that
    # another launch reaches stays one; a branch warning names the launches taking it.
    wanted = _demoted(outcomes, evaluated) | {
        o.display for o in outcomes if any(f.code in BRANCH_WARNINGS for f in o.findings)
    }
    reach = _reached_by_launches(outcomes, evaluated, target, wanted) if wanted else ({}, [])
    outcomes = _off_launch_path(outcomes, evaluated, reach)
    outcomes = _taking_launches(outcomes, reach)
    if enabled is None or EntryPointOffAccelerator.code in enabled:
        outcomes = _off_accelerator(outcomes, evaluated)
    outcomes = _left_on_cpu(outcomes, evaluated, target)
    found = []
    for outcome in outcomes:
        # The entry points that run this module and train (one that trains nothing, a sampling
        # script beside the trainer, makes no claim about where training runs).
        reaching = [
            raw
            for raw, modules in evaluated.runs
            if outcome.display in modules and raw.value != NO_STEP
        ]
        shown = reaching and all(raw.value == RUNS for raw in reaching)
        if not shown or not any(
            blocks(f) and f.code in PLACEMENT_BLOCKERS for f in outcome.findings
        ):
            found.append(outcome)
            continue
        names = ", ".join(raw.entry for raw in reaching[:3])
        findings = tuple(
            replace(
                f,
                severity=Severity.WARNING,
                message=f"{f.message} — not a blocker: the evaluator shows every entry point "
                f"that runs this module on the accelerator ({names})",
            )
            if blocks(f) and f.code in PLACEMENT_BLOCKERS
            else f
            for f in outcome.findings
            # "Computed in a way the tool cannot follow" (TRN026) is untrue where the program's
            # run followed it to the accelerator: no finding, not a warning that says both.
            if not (blocks(f) and f.code == UNFOLLOWED_DEVICE)
        )
        found.append(replace(outcome, findings=findings))
    return found


# Rewrites the target's torch needs wherever the program trains (`torch._six`, a private name
# the target's torch removed): a module with one keeps every rewrite, since a module is left
# as given whole or not at all.
_NEEDED_ON_CPU = frozenset({"TRN048", "TRN060"})
_ON_CPU = (
    " — not applied: every entry point that runs this module trains on the CPU, where the "
    "framework that owns its loop is kept ({}); no run of it touches the XLA device"
)


# Notes about a run on NeuronCores: one NeuronCore of many (TRN162), the compile cache (TRN343).
_ON_NEURONCORES = frozenset({"TRN162", "TRN343"})
_PLACING_NOTHING = (
    " — not applied: every entry point that runs this module trains on the CPU ({}), since "
    "nothing in the program places the model or its batches on a device (TRN804); no run of it "
    "touches the XLA device"
)


def _placing_nothing(outcomes: Sequence[FileOutcome]) -> frozenset[str]:
    """The modules whose step is reported to train on the CPU because nothing in the program
    places anything on a device (TRN804, not fixed: the tool could not move it)."""
    return frozenset(
        o.display
        for o in outcomes
        if any(f.code == "TRN804" and not f.fixed and blocks(f) for f in o.findings)
    )


def _path_of(where: str) -> str:
    """The module of a verdict's place ("path:line", "notebook.ipynb[cell 2]:7")."""
    return re.sub(r"(\[cell \d+\])?(:\d+)?$", "", where)


def _left_on_cpu(
    outcomes: Sequence[FileOutcome], evaluated: _Evaluated, target: str
) -> list[FileOutcome]:
    """A module every entry point that runs it trains on the CPU is left as given: because the
    framework that owns its loop is decided to train there (``EntryVerdict.on_cpu``: a
    Lightning 1.x `Trainer` given no GPU, `accelerator="cpu"`), or because nothing in the
    program places the model or its batches on any device and the tool could not move them
    (a TRN804 blocker in the module of the entry point's cause: a compiler flag or a cast there
    serves no run). Its XLA rewrites serve no run, so each
    is reported as not applied (TRN027 at the framework says why), as a module every run stops
    in on the device is (the off-device pass). A module an entry point that runs on XLA, or one
    the evaluator cannot tell about, also runs keeps its rewrites, as does one with a rewrite
    the target's torch needs on the CPU too (``_NEEDED_ON_CPU``). The verdicts stay those of
    the run judged: the runs that reach the module are unchanged by leaving it as given."""
    placing_nothing = _placing_nothing(outcomes)

    def on_cpu(raw: EntryVerdict) -> bool:
        # The evaluator may not decide where the step's input is (a model taken from a list of
        # models, a loader it does not read): nothing anywhere places anything, so wherever it
        # is, it is on the CPU.
        return raw.on_cpu or (
            raw.value in (DOES_NOT, CANNOT_TELL) and _path_of(raw.where) in placing_nothing
        )

    left = []
    for outcome in outcomes:
        reaching = [raw for raw, modules in evaluated.runs if outcome.display in modules]
        if (
            (outcome.changed or any(f.code in _ON_NEURONCORES for f in outcome.findings))
            and reaching
            and all(on_cpu(raw) for raw in reaching)
            and not any(f.fixed and f.code in _NEEDED_ON_CPU for f in outcome.findings)
        ):
            left.append(outcome)
    if not left:
        return list(outcomes)
    by_path = {o.display: o for o in left}
    found = []
    for outcome in outcomes:
        if outcome.display not in by_path:
            found.append(outcome)
            continue
        reaching = [raw for raw, modules in evaluated.runs if outcome.display in modules]
        places = ", ".join(dict.fromkeys(raw.where for raw in reaching[:3])) + (
            f" and {len(reaching) - 3} more" if len(reaching) > 3 else ""
        )
        note = (_ON_CPU if any(raw.on_cpu for raw in reaching) else _PLACING_NOTHING).format(places)
        findings = tuple(
            replace(f, message=f.message + note, fixed=False) if f.fixed else f
            for f in outcome.findings
            # Advice on running on NeuronCores (more of them, the compile cache) is for a run
            # that reaches one: none does.
            if f.code not in _ON_NEURONCORES
        )
        found.append(replace(outcome, new=None, diff=b"", findings=findings))
    # The outputs judge the outcomes handed over: the same runs, whose verdicts were given.
    _MEMO[_memo_key(found, target)] = evaluated
    return found


# Per module, the lines (as given) each launch line reaches; and the launch lines.
_Reach = tuple[dict[str, dict[int, list[str]]], list[tuple[str, str]]]


def _off_launch_path(
    outcomes: Sequence[FileOutcome], evaluated: _Evaluated, reach: _Reach
) -> list[FileOutcome]:
    """A blocker whose claim is about the program's run (where it trains, a wrapper or launcher
    that stops it) is true only where the line runs: on a line every entry point that runs its
    module reaches only in a branch a decided condition never takes, it is a warning that says
    so. An undecided branch, or a run that stopped early, keeps the blocker; so does a line
    that another of the repository's launch lines reaches (the documented run takes a flag's
    default, `--algo acktr` takes the branch): the blocker names that launch."""
    outcomes = list(outcomes)
    if not _demoted(outcomes, evaluated):
        return outcomes
    reached, launches = reach
    found = []
    for outcome in outcomes:
        offs = [
            off
            for (_raw, modules), off in zip(evaluated.runs, evaluated.off_path, strict=True)
            if outcome.display in modules
        ]

        def off_path(finding: Finding, offs=offs, path=outcome.display) -> str:
            if not offs or any(off is None for off in offs):
                return ""
            whys = [
                next((why for a, b, why in off.get(path, ()) if a <= finding.line <= b), "")  # type: ignore[union-attr]
                for off in offs
            ]
            return whys[0] if all(whys) else ""

        taking = reached.get(outcome.display, {})
        settled = [
            # A blocker the port fixed (`backend="openxla"` added) counts too: on a line off the
            # launch path it was no blocker to fix.
            (f, off_path(f))
            if f.severity is Severity.BLOCKER and f.code in LAUNCH_PATH_BLOCKERS
            else (f, "")
            for f in outcome.findings
        ]
        if not any(why for _, why in settled):
            found.append(outcome)
            continue
        findings = tuple(
            (
                replace(f, message=f"{f.message} — {_taken_on(taking[f.line], launches)}")
                if taking.get(f.line)
                else replace(
                    f,
                    severity=Severity.WARNING,
                    message=f"{f.message} — not a blocker: off the launch path, {why}",
                )
            )
            if why
            else f
            for f, why in settled
        )
        found.append(replace(outcome, findings=findings))
    return found


def _demoted(outcomes: Sequence[FileOutcome], evaluated: _Evaluated) -> set[str]:
    """The modules holding a launch-path blocker on a line the documented runs leave off."""
    found = set()
    for outcome in outcomes:
        lines = [
            f.line
            for f in outcome.findings
            if f.severity is Severity.BLOCKER and f.code in LAUNCH_PATH_BLOCKERS
        ]
        if not lines:
            continue
        for (_raw, modules), off in zip(evaluated.runs, evaluated.off_path, strict=True):
            if off and outcome.display in modules and outcome.display in off:
                spans = off[outcome.display]
                if any(a <= line <= b for line in lines for a, b, _why in spans):
                    found.add(outcome.display)
    return found


# Warnings about a line that runs only where a branch is taken (an import of a library that needs
# CUDA under `if rnn_type == 'QRNN':`): each names the launch lines that take it.
BRANCH_WARNINGS = frozenset({"TRN051"})


def _taking_launches(outcomes: Sequence[FileOutcome], reach: _Reach) -> list[FileOutcome]:
    """A warning in ``BRANCH_WARNINGS`` names the launch lines that reach its line."""
    reached, launches = reach
    if not launches:
        return list(outcomes)
    found = []
    for outcome in outcomes:
        lines = reached.get(outcome.display, {})
        findings = tuple(
            replace(f, message=f"{f.message} — {_taken_on(lines[f.line], launches)}")
            if f.code in BRANCH_WARNINGS and not blocks(f) and lines.get(f.line)
            else f
            for f in outcome.findings
        )
        found.append(
            replace(outcome, findings=findings) if findings != outcome.findings else outcome
        )
    return found


def _reached_by_launches(
    outcomes: Sequence[FileOutcome], evaluated: _Evaluated, target: str, wanted: set[str]
) -> _Reach:
    """Per module of ``wanted``, the lines (as given) each of the repository's launch lines
    reaches, and those launch lines. The program evaluator, which gives a flag the launch lines
    disagree on its default where one of them leaves it so (the documented run), runs each
    entry point that reaches the module once per launch line of it, that line alone: a launch
    reaches the line where that run does."""
    entries = {
        raw.entry
        for raw, modules in evaluated.runs
        if not wanted.isdisjoint(modules) and ":" not in raw.entry
    }
    launches = [(p, line) for p, line in _launch_lines(outcomes) if p in entries]
    if not launches:
        return {}, []
    texts: dict[str, str] = {}
    originals: dict[str, dict[int, int]] = {}
    for outcome in outcomes:
        raw_text = outcome.new if outcome.new is not None else outcome.old
        if outcome.error is not None or raw_text is None or not outcome.display.endswith(".py"):
            continue
        try:
            texts[outcome.display] = decode_source(raw_text).text
        except SourceError:
            continue
        if outcome.new is not None and outcome.old is not None:
            originals[outcome.display] = _line_map(outcome.old, outcome.new)
    facts = facts_for("neuron" if target == "neuron" else "xla")
    reached: dict[str, dict[int, list[str]]] = {}  # module -> line as given -> launch lines
    for path, line in launches:
        trace = Evaluator(texts, facts, {path: [line]}, _config_reader(outcomes)).run(path)
        if trace.stopped:
            continue
        off = trace.off_launch_path()
        for module in wanted & trace.modules:
            given = originals.get(module, {})
            for ran in trace.ran.get(module, set()) - off.get(module, {}).keys():
                reached.setdefault(module, {}).setdefault(given.get(ran, ran), []).append(line)
    return reached, launches


def _taken_on(lines: list[str], launches: list[tuple[str, str]]) -> str:
    lines = list(dict.fromkeys(lines))
    shown = "; ".join(lines[:3]) + (f"; and {len(lines) - 3} more" if len(lines) > 3 else "")
    return f"taken on {len(lines)} of {len(launches)} launch lines: {shown}"


def _off_accelerator(outcomes: Sequence[FileOutcome], evaluated: _Evaluated) -> list[FileOutcome]:
    """An entry point the evaluator shows does not train on the accelerator, with no blocker in
    any module its run reaches, gets one at its cause (TRN027): the verdict's "does not" counts
    in every output and in the exit code, once per cause; not where a comment suppresses it."""
    by_path = {o.display: index for index, o in enumerate(outcomes)}
    blocked = {o.display for o in outcomes if any(blocks(f) for f in o.findings)}
    added: dict[str, list[Finding]] = {}
    seen: set[str] = set()
    for raw, modules in evaluated.runs:
        if raw.value != DOES_NOT or not modules.isdisjoint(blocked) or raw.where in seen:
            continue
        place = _WHERE.fullmatch(raw.where)
        outcome = outcomes[by_path[place.group(1)]] if place and place.group(1) in by_path else None
        if outcome is None or outcome.error or outcome.old is None:
            continue
        path, line = place.group(1), int(place.group(3))
        cell = int(place.group(2)) if place.group(2) else None
        if _suppressed(outcome.old, cell, line):
            continue
        seen.add(raw.where)
        message = f"{raw.entry} does not train on the accelerator: {raw.reason}"
        finding = Finding.from_rule(EntryPointOffAccelerator, path, line, 1, message, False)
        added.setdefault(path, []).append(replace(finding, cell=cell))
    if not added:
        return list(outcomes)
    return [
        replace(o, findings=tuple(sorted((*o.findings, *added[o.display]), key=_place)))
        if o.display in added
        else o
        for o in outcomes
    ]


# A place in a verdict: `train.py:12`, or `train.ipynb[cell 3]:7` in a notebook.
_WHERE = re.compile(r"(.+?)(?:\[cell (\d+)\])?:(\d+)")


def _suppressed(old: bytes, cell: int | None, line: int) -> bool:
    """Whether a comment suppresses TRN027 at ``line`` (of ``cell``, in a notebook)."""
    code = EntryPointOffAccelerator.code
    if cell is not None:
        program = notebook_program(old)
        if program is None or cell not in program.starts:
            return False
        return find_suppressions(program.text).covers(program.starts[cell] + line - 1, code)
    with contextlib.suppress(SourceError):
        return find_suppressions(decode_source(old).text).covers(line, code)
    return False


def _place(finding: Finding) -> tuple[int, int, int]:
    return finding.cell or 0, finding.line, finding.column


def _evaluated(
    outcomes: Sequence[FileOutcome], target: str, cache: ResultCache | None = None
) -> _Evaluated:
    """The evaluator's verdicts, once per run (memoised), and across runs by content in the
    result cache: the texts, the files' places, the launch lines beside them and the target."""
    texts = [o.new if o.new is not None else o.old for o in outcomes]
    key = _memo_key(outcomes, target)
    found = _MEMO.get(key)
    if found is not None and not _configs_changed(found, outcomes):
        return found
    found = None
    stored = None
    if cache is not None:
        digest = hashlib.sha256(target.encode())
        for outcome, text in zip(outcomes, texts, strict=True):
            for part in (outcome.display, outcome.error or "", outcome.path.absolute().as_posix()):
                digest.update(part.encode() + b"\0")
            digest.update(hashlib.sha256(text or b"").digest())
        for _path, line in _launch_lines(outcomes):
            digest.update(line.encode() + b"\0")
        stored = digest.digest()
        data = cache.get_verdict(stored)
        if data is not None:
            with contextlib.suppress(KeyError, TypeError, ValueError):
                found = _Evaluated.from_json(data)
        if found is not None and _configs_changed(found, outcomes):
            found = None  # a configuration file the runs read has changed since: judge again
    if found is None:
        found = _evaluate(outcomes, target)
        if cache is not None and stored is not None:
            cache.put_verdict(stored, found.to_json())
    _MEMO.clear()
    _MEMO[key] = found
    return found


def _memo_key(outcomes: Sequence[FileOutcome], target: str) -> tuple:
    # The files beside them (launch lines) are read once per run: the absolute paths too.
    return target, tuple(
        (str(o.path.absolute()), o.display, o.error, hash(o.new if o.new is not None else o.old))
        for o in outcomes
    )


def _configs_changed(found: _Evaluated, outcomes: Sequence[FileOutcome]) -> bool:
    if not found.configs:
        return False
    read = _config_reader(outcomes)
    return any(_digest(read(path)) != digest for path, digest in found.configs)


def _digest(text: str | None) -> str:
    return "" if text is None else hashlib.sha256(text.encode()).hexdigest()


def _config_reader(outcomes: Sequence[FileOutcome]) -> Callable[[str], str | None]:
    """A reader of the repository's configuration files by their path in it (the paths the
    findings use); see ``program.config_reader``."""
    from trncodemod.pipeline.program import config_reader

    return config_reader((o.path, o.display) for o in outcomes if o.error is None)


def _launch_lines(outcomes: Sequence[FileOutcome]) -> list[tuple[str, str]]:
    from trncodemod.pipeline.program import _launches

    folders = {
        PurePosixPath(o.display).parent: o.path.parent
        for o in outcomes
        if o.error is None and o.display.endswith(".py")
    }
    displays = {o.display for o in outcomes if o.error is None and o.display.endswith(".py")}
    return _launches(folders, displays)[0] if folders else []


def _evaluate(outcomes: Sequence[FileOutcome], target: str) -> _Evaluated:
    failed = tuple(o.display for o in outcomes if o.error is not None)
    texts: dict[str, str] = {}
    folders = {}
    notebooks: list[str] = []
    # Per module: a line of the migrated text -> its place in the file as given (":12", or
    # "[cell 3]:7" in a notebook), as the findings name it.
    places: dict[str, Callable[[int], str]] = {}
    for outcome in outcomes:
        raw = outcome.new if outcome.new is not None else outcome.old
        if outcome.error is not None or raw is None:
            continue
        if outcome.display.endswith(".ipynb"):
            program = notebook_program(raw)
            if program is None:
                continue
            texts[outcome.display] = program.text
            notebooks.append(outcome.display)
            changed = outcome.new is not None and outcome.old is not None
            given = notebook_program(outcome.old) if changed else None
            places[outcome.display] = lambda line, p=program, g=given: p.place(line, g)
            continue
        if not outcome.display.endswith(".py"):
            continue
        try:
            texts[outcome.display] = decode_source(raw).text
        except SourceError:
            continue
        folders[PurePosixPath(outcome.display).parent] = outcome.path.parent
        if outcome.new is not None and outcome.old is not None:
            lines = _line_map(outcome.old, outcome.new)
            places[outcome.display] = lambda line, m=lines: f":{m.get(line, line)}"
    if not outcomes:
        return _Evaluated(nothing="no file was checked")
    if not texts:
        why = (
            "every file failed" if len(failed) == len(outcomes) else "no Python module or notebook"
        )
        return _Evaluated(nothing=why, failed=failed)
    if not any(imports_torch(text) for text in texts.values()):
        return _Evaluated(nothing="no PyTorch code", failed=failed)
    from trncodemod.pipeline.program import _launches

    launched, scripts = _launches(folders, set(texts))
    lines: dict[str, list[str]] = {}
    for path, line in launched:
        lines.setdefault(path, []).append(line)
    backend = "neuron" if target == "neuron" else "xla"
    facts = facts_for(backend)
    # A module that failed, by its path: what stopped the tool there, and where.
    unreadable = {
        o.display: f"{o.error} ({o.display}:{o.error_line})" if o.error_line else o.error
        for o in outcomes
        if o.error is not None and o.display.endswith(".py")
    }
    evaluator = Evaluator(texts, facts, lines, _config_reader(outcomes), unreadable)
    entries = []
    off_path = []
    starts = entry_points(texts, {p for p, _ in launched}, scripts)
    if not starts and len(texts) == 1 and not notebooks:
        starts = [(next(iter(texts)), "")]  # a lone script: run as `python script.py`
    # A notebook runs its cells in order, top to bottom: an entry point of its own.
    starts += [(path, "") for path in sorted(notebooks)]
    for path, function in starts:
        trace = evaluator.run(path, function)
        name = f"{path}:{function}" if function else path
        found = _in_original_lines(evaluate_trace(name, trace, facts), places)
        entries.append((found, frozenset(trace.modules)))
        off_path.append(None if trace.stopped else _in_original(trace.off_launch_path(), places))
    if not entries:
        return _Evaluated(
            nothing="no entry point (no `__main__` guard, launch line or script)", failed=failed
        )
    configs = tuple((p, _digest(t)) for p, t in sorted(evaluator.configs_read.items()))
    return _Evaluated(tuple(entries), failed=failed, off_path=tuple(off_path), configs=configs)


def _in_original(
    off: dict[str, dict[int, str]], places: dict[str, Callable[[int], str]]
) -> dict[str, list[tuple[int, int, str]]]:
    """Lines of the migrated texts as lines of the files as given (where the findings are), as
    runs of consecutive lines with the same reason. A notebook's lines are left out: its
    findings stand in cells, so its blockers are never settled as off the launch path."""
    found: dict[str, list[tuple[int, int, str]]] = {}
    for path, lines in off.items():
        place = places.get(path, lambda line: f":{line}")
        given: dict[int, str] = {}
        for line, why in lines.items():
            spelled = place(line)
            if not spelled.startswith(":"):
                break  # a notebook's place names its cell
            given[int(spelled[1:])] = why
        else:
            runs: list[tuple[int, int, str]] = []
            for line in sorted(given):
                why = given[line]
                if runs and runs[-1][1] == line - 1 and runs[-1][2] == why:
                    runs[-1] = (runs[-1][0], line, why)
                else:
                    runs.append((line, line, why))
            found[path] = [(a, b, _original_places(why, places)) for a, b, why in runs]
    return found


def _line_map(old: bytes, new: bytes) -> dict[int, int]:
    """Each changed line of the migrated text -> the line of the original it stands at (the
    verdict names lines as the findings do: in the file as given)."""
    return line_map(old.decode("utf-8", "replace"), new.decode("utf-8", "replace"))


def _in_original_lines(found: EntryVerdict, maps: dict[str, Callable[[int], str]]) -> EntryVerdict:
    if not maps:
        return found
    return replace(
        found,
        where=_original_places(found.where, maps),
        reason=_original_places(found.reason, maps),
    )


def _original_places(text: str, maps: dict[str, Callable[[int], str]]) -> str:
    """``text`` with each "path:line" of a migrated text as the line of the file as given."""
    if not maps:
        return text

    def place(match: re.Match) -> str:
        path, line = match.group(1), int(match.group(2))
        return f"{path}{maps[path](line)}"

    return _place_pattern(tuple(sorted(maps, key=len, reverse=True))).sub(place, text)


@functools.cache
def _place_pattern(paths: tuple[str, ...]) -> re.Pattern:
    return re.compile(r"(?<![\w/.-])(" + "|".join(re.escape(p) for p in paths) + r"):(\d+)")
