"""Interactive review (``apply -i``): accept or skip each hunk, as Bowler's prompt does.

Answers: ``y`` apply this hunk, ``n`` skip it, ``a`` apply it and the rest of this file,
``d`` skip it and the rest of this file, ``q`` skip it and everything after, ``?`` help.
Answers are read line by line, so piped input works; the end of input means ``q``.
Skipped hunks are never written: the file is rebuilt from the accepted hunks alone.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from unidiff import Hunk, PatchedFile, PatchSet

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


def _rules_for(outcome: FileOutcome, start: int, length: int, cell: int | None = None) -> str:
    end = start + max(length, 1)
    codes = sorted(
        {
            f"{f.code} {f.name}"
            for f in outcome.findings
            if f.fixed and f.cell == cell and start <= f.line < end
        }
    )
    return ", ".join(codes) or "(imports or context for other hunks of this file)"


def _choose(
    offers: list[str], ask: Callable[[str], str | None], show: Callable[[str], None]
) -> tuple[list[bool], bool]:
    """Whether each offered hunk is accepted, and whether the user quit."""
    chosen: list[bool] = []
    mode: str | None = None  # "a" or "d" for the rest of the file
    quit_all = False
    for offer in offers:
        if mode is not None or quit_all:
            chosen.append(mode == "a")
            continue
        show(offer)
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
    return chosen, quit_all


def _shown(hunk: Hunk) -> str:
    """A hunk as people read it: patches are handled as latin-1 so that any bytes survive, but
    source is nearly always UTF-8 (``café``, not ``cafÃ©``)."""
    return str(hunk).encode("latin-1").decode("utf-8", "replace")


def _apply(old: bytes, patched: PatchedFile, hunks: list[Hunk], keep: list[bool]) -> bytes:
    """``old`` with the kept ``hunks`` of ``patched`` applied (latin-1 keeps any bytes as is)."""
    patched[:] = [hunk for hunk, kept in zip(hunks, keep, strict=True) if kept]
    old_lines = [line.decode("latin-1") for line in split_lines(old)]
    return "".join(apply_patched_file(old_lines, patched)).encode("latin-1")


def review_file(
    outcome: FileOutcome, ask: Callable[[str], str | None], show: Callable[[str], None]
) -> Decision:
    """Offer each hunk of ``outcome``'s diff; rebuild the file from the accepted ones."""
    assert outcome.old is not None and outcome.new is not None
    if outcome.path.suffix == ".ipynb":
        return _review_cells(outcome, ask, show)
    (patched,) = PatchSet(outcome.diff.decode("latin-1"))
    hunks = list(patched)
    offers = [
        f"\n{outcome.display} hunk {index}/{len(hunks)} "
        f"({_rules_for(outcome, hunk.source_start, hunk.source_length)})\n{_shown(hunk)}"
        for index, hunk in enumerate(hunks, 1)
    ]
    chosen, quit_all = _choose(offers, ask, show)
    if not any(chosen):
        return Decision(None, 0, len(hunks), quit_all)
    return Decision(_apply(outcome.old, patched, hunks, chosen), sum(chosen), len(hunks), quit_all)


def _cell_patches(outcome: FileOutcome) -> list[tuple[int, bytes, PatchedFile]]:
    """Per changed cell of a notebook: its number, old source, and the diff of its code. People
    review code, not the notebook's JSON (which is what the patch for ``git apply`` holds)."""
    from trncodemod.notebooks import cell_sources

    patches = []
    pairs = zip(cell_sources(outcome.old), cell_sources(outcome.new), strict=True)  # type: ignore[arg-type]
    for number, (before, after) in enumerate(pairs, 1):
        if before != after:
            old, new = (before + "\n").encode(), (after + "\n").encode()
            (patched,) = PatchSet(build_file_diff("cell", old, new).decode("latin-1"))
            patches.append((number, old, patched))
    return patches


def _review_cells(
    outcome: FileOutcome, ask: Callable[[str], str | None], show: Callable[[str], None]
) -> Decision:
    from trncodemod.notebooks import with_cell_sources

    patches = _cell_patches(outcome)
    total = sum(len(patched) for _, _, patched in patches)
    offers = []
    for number, _, patched in patches:
        for hunk in patched:
            rules = _rules_for(outcome, hunk.source_start, hunk.source_length, number)
            label = f"{outcome.display}[cell {number}]"
            offers.append(f"\n{label} hunk {len(offers) + 1}/{total} ({rules})\n{_shown(hunk)}")
    chosen, quit_all = _choose(offers, ask, show)
    if not any(chosen):
        return Decision(None, 0, total, quit_all)
    sources: dict[int, str] = {}
    answers = iter(chosen)
    for number, old, patched in patches:
        hunks = list(patched)
        keep = [next(answers) for _ in hunks]
        if any(keep):
            # less the newline added to the cell for the diff
            sources[number] = _apply(old, patched, hunks, keep).decode("utf-8")[:-1]
    new = with_cell_sources(outcome.old, sources)  # type: ignore[arg-type]
    return Decision(new, sum(chosen), total, quit_all)


def _hunk_count(outcome: FileOutcome) -> int:
    if outcome.path.suffix == ".ipynb":
        return sum(len(patched) for _, _, patched in _cell_patches(outcome))
    return len(PatchSet(outcome.diff.decode("latin-1"))[0])


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
                offered += _hunk_count(outcome)
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
