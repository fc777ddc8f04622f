"""The verdict of a run, per entry point (``analysis.verdict``), from the migrated texts: the
evaluator runs each entry point of the program the outcomes hold after the passes ran (the
verdict is about the port, not the original), with the launch lines beside the modules.

No verdict where nothing was judged: no file, only files that failed, no PyTorch code."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from trncodemod.analysis.evaluate import Evaluator, entry_points, facts_for, imports_torch
from trncodemod.analysis.verdict import EntryVerdict, judge
from trncodemod.pipeline.engine import FileOutcome, blocks
from trncodemod.pipeline.source import SourceError, decode_source


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


_MEMO: dict[tuple[int, str], tuple[Sequence[FileOutcome], Judged]] = {}


def judged(outcomes: Sequence[FileOutcome], target: str = "") -> Judged:
    """The verdict of the run of ``outcomes`` for ``target`` (a target name; default xla)."""
    key = (id(outcomes), target)
    memo = _MEMO.get(key)
    if memo is not None and memo[0] is outcomes:
        return memo[1]
    found = _judged(outcomes, target)
    _MEMO.clear()
    _MEMO[key] = (outcomes, found)
    return found


def _judged(outcomes: Sequence[FileOutcome], target: str) -> Judged:
    failed = tuple(o.display for o in outcomes if o.error is not None)
    texts: dict[str, str] = {}
    folders = {}
    for outcome in outcomes:
        if outcome.error is not None or not outcome.display.endswith(".py"):
            continue
        raw = outcome.new if outcome.new is not None else outcome.old
        if raw is None:
            continue
        try:
            texts[outcome.display] = decode_source(raw).text
        except SourceError:
            continue
        folders[PurePosixPath(outcome.display).parent] = outcome.path.parent
    if not outcomes:
        return Judged(nothing="no file was checked")
    if not texts:
        why = "every file failed" if failed else "no Python module (notebooks are not judged)"
        return Judged(nothing=why, failed=failed)
    if not any(imports_torch(text) for text in texts.values()):
        return Judged(nothing="no PyTorch code", failed=failed)
    from trncodemod.pipeline.program import _launches

    launched, scripts = _launches(folders, set(texts))
    lines: dict[str, list[str]] = {}
    for path, line in launched:
        lines.setdefault(path, []).append(line)
    backend = "neuron" if target == "neuron" else "xla"
    facts = facts_for(backend)
    evaluator = Evaluator(texts, facts, lines)
    blockers: dict[str, list[tuple[int, str, str]]] = {}
    for outcome in outcomes:
        for f in outcome.findings:
            if blocks(f):
                blockers.setdefault(outcome.display, []).append((f.line, f.code, f.message))
    entries = []
    starts = entry_points(texts, {p for p, _ in launched}, scripts)
    if not starts and len(texts) == 1:
        starts = [(next(iter(texts)), "")]  # a lone script: run as `python script.py`
    for path, function in starts:
        trace = evaluator.run(path, function)
        name = f"{path}:{function}" if function else path
        entries.append(judge(name, trace, facts, blockers))
    if not entries:
        return Judged(
            nothing="no entry point (no `__main__` guard, launch line or script)", failed=failed
        )
    return Judged(tuple(entries), failed=failed)
