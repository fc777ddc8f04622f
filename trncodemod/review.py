"""Interactive review (``apply -i``): accept or skip each hunk, as Bowler's prompt does.

Answers: ``y`` apply this hunk, ``n`` skip it, ``a`` apply it and the rest of this file,
``d`` skip it and the rest of this file, ``q`` skip it and everything after, ``?`` help.
Answers are read line by line, so piped input works; the end of input means ``q``.
Skipped hunks are never written: the file is rebuilt from the accepted hunks alone.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from unidiff import PatchSet

from trncodemod.engine import FileOutcome
from trncodemod.patch import apply_patched_file, build_file_diff, split_lines

HELP = """y - apply this hunk
n - do not apply this hunk
a - apply this hunk and all later hunks in the file
d - do not apply this hunk or any later hunk in the file
q - quit; do not apply this hunk or any other remaining one
? - print help"""


@dataclass(frozen=True)
class Decision:
    new: bytes | None  # None when no hunk was accepted
    accepted: int
    offered: int
    quit: bool


def _rules_for(outcome: FileOutcome, start: int, length: int) -> list[str]:
    end = start + max(length, 1)
    codes = sorted(
        {f"{f.code} {f.name}" for f in outcome.findings if f.fixed and start <= f.line < end}
    )
    return codes or ["(imports or context for other hunks of this file)"]


def review_file(
    outcome: FileOutcome, ask: Callable[[str], str | None], show: Callable[[str], None]
) -> Decision:
    """Offer each hunk of ``outcome``'s diff; rebuild the file from the accepted ones."""
    assert outcome.old is not None and outcome.new is not None
    (patched,) = PatchSet(outcome.diff.decode("latin-1"))
    hunks = list(patched)
    chosen: list[bool] = []
    mode: str | None = None  # "a" or "d" for the rest of the file
    quit_all = False
    for index, hunk in enumerate(hunks, 1):
        if mode is not None or quit_all:
            chosen.append(mode == "a")
            continue
        rules = ", ".join(_rules_for(outcome, hunk.source_start, hunk.source_length))
        show(f"\n{outcome.display} hunk {index}/{len(hunks)} ({rules})\n{hunk}")
        while True:
            answer = ask("Apply this hunk [y,n,a,d,q,?]? ")
            answer = "q" if answer is None else answer.strip().lower()[:1]
            if answer in ("y", "n", "a", "d", "q"):
                break
            show(HELP)
        if answer == "q":
            quit_all = True
        if answer in ("a", "d"):
            mode = answer
        chosen.append(answer in ("y", "a"))
    accepted = sum(chosen)
    if not accepted:
        return Decision(None, 0, len(hunks), quit_all)
    patched[:] = [hunk for hunk, keep in zip(hunks, chosen, strict=True) if keep]
    old_lines = [line.decode("latin-1") for line in split_lines(outcome.old)]
    new = "".join(apply_patched_file(old_lines, patched)).encode("latin-1")
    return Decision(new, accepted, len(hunks), quit_all)


def review(
    outcomes: list[FileOutcome], ask: Callable[[str], str | None], show: Callable[[str], None]
) -> tuple[list[FileOutcome], str]:
    """Outcomes with only the accepted hunks applied, and a one-line summary."""
    reviewed: list[FileOutcome] = []
    accepted = offered = files = 0
    stop = False
    for outcome in outcomes:
        if not outcome.changed or stop:
            if outcome.changed:
                offered += len(list(PatchSet(outcome.diff.decode("latin-1"))[0]))
            reviewed.append(_without_change(outcome) if outcome.changed else outcome)
            continue
        decision = review_file(outcome, ask, show)
        accepted += decision.accepted
        offered += decision.offered
        stop = decision.quit
        if decision.new is None:
            reviewed.append(_without_change(outcome))
            continue
        files += 1
        diff = build_file_diff(outcome.display, outcome.old, decision.new)  # type: ignore[arg-type]
        reviewed.append(_with_new(outcome, decision.new, diff))
    return reviewed, f"Applied {accepted} of {offered} hunks in {files} file(s)."


def _without_change(outcome: FileOutcome) -> FileOutcome:
    return _with_new(outcome, None, b"")


def _with_new(outcome: FileOutcome, new: bytes | None, diff: bytes) -> FileOutcome:
    return replace(outcome, new=new, diff=diff)
