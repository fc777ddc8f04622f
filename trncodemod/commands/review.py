"""Interactive review (``apply -i``): accept or skip each *change*, as Bowler's prompt does.

A change is every edit that must go in together: a fix, the lines its rule added around it, and
every edit that depends on it (an object removed and each of its uses). The imports and helper
functions the tool adds are written when a change that uses them is accepted, and never alone.
What is written is checked: it parses, and it leaves no name undefined that the original defined
(a change the grouping missed would otherwise write code that cannot run); a file that fails the
check is left as it was, and said so.

Answers: ``y`` apply this change, ``n`` skip it, ``a`` apply it and the rest of this file,
``d`` skip it and the rest of this file, ``q`` skip it and everything after, ``?`` help.
Answers are read line by line, so piped input works; the end of input means ``q``.
"""

from __future__ import annotations

import ast
import builtins
import keyword
import re
import symtable
import textwrap
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace

from unidiff import Hunk, PatchedFile, PatchSet

from trncodemod.findings import Finding
from trncodemod.output.line_diff import LineMatcher
from trncodemod.output.patch import apply_patched_file, build_file_diff, split_lines
from trncodemod.pipeline.engine import FileOutcome

HELP = """y - apply this change
n - do not apply this change
a - apply this change and all later changes in the file
d - do not apply this change or any later change in the file
q - quit; do not apply this change or any other remaining one
? - print help"""


@dataclass(frozen=True)
class Decision:
    new: bytes | None  # None when nothing was accepted (or the result failed the check)
    accepted: int
    offered: int
    quit: bool
    findings: tuple[Finding, ...] = ()  # ``fixed`` only where the fix was written
    refused: str | None = None  # why the accepted changes were not written


# -- Names ------------------------------------------------------------------------------------

_NAME = re.compile(r"(?<![\w.])[A-Za-z_]\w*")
_STRING_OR_COMMENT = re.compile(r"#[^\n]*|'(?:\\.|[^'\\\n])*'|\"(?:\\.|[^\"\\\n])*\"")


def _names(lines: Iterable[str]) -> frozenset[str]:
    """Names a fragment mentions (not attributes, keywords, strings or comments); a fragment
    need not parse, so this over-approximates, which only ever joins more edits together."""
    text = _STRING_OR_COMMENT.sub(" ", "".join(lines))
    return frozenset(n for n in _NAME.findall(text) if not keyword.iskeyword(n))


def _bound(lines: Sequence[str]) -> tuple[frozenset[str], bool]:
    """Names the fragment binds, and whether it is only imports and definitions."""
    try:
        tree = ast.parse(textwrap.dedent("".join(lines)))
    except SyntaxError:
        return frozenset(), False
    names: set[str] = set()
    for statement in tree.body:  # what the fragment binds where it stands, not inside its defs
        if isinstance(statement, ast.Import | ast.ImportFrom):
            names.update((a.asname or a.name).split(".")[0] for a in statement.names)
        elif isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(statement.name)
        else:
            names.update(
                node.id
                for node in ast.walk(statement)
                if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)
            )
    support = bool(tree.body) and all(
        isinstance(
            s, ast.Import | ast.ImportFrom | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
        )
        for s in tree.body
    )
    return frozenset(names), support


def undefined_names(text: str) -> set[str]:
    """Names read somewhere that no scope of the file binds and that are not builtins; empty
    when the file cannot be analysed (a star import binds what it likes)."""
    try:
        top = symtable.symtable(text, "<file>", "exec")
    except (SyntaxError, ValueError):
        return set()
    if "*" in text and re.search(r"^\s*from\s+\S+\s+import\s+\*", text, re.MULTILINE):
        return set()
    module_bound = {
        s.get_name()
        for s in top.get_symbols()
        if s.is_assigned() or s.is_imported() or s.is_namespace() or s.is_parameter()
    }
    read_globally: set[str] = set()
    declared_global: set[str] = set()
    tables = [top]
    while tables:
        table = tables.pop()
        tables.extend(table.get_children())
        for symbol in table.get_symbols():
            name = symbol.get_name()
            if table is top:
                if symbol.is_referenced() and name not in module_bound:
                    read_globally.add(name)
            elif symbol.is_declared_global() and symbol.is_assigned():
                declared_global.add(name)
            elif symbol.is_global() and symbol.is_referenced():
                read_globally.add(name)
    known = module_bound | declared_global | set(dir(builtins)) | {"__file__", "__name__"}
    return read_globally - known


def introduced_problems(old: str, new: str) -> str | None:
    """Why ``new`` cannot be written in place of ``old``, or None."""
    try:
        ast.parse(old)
    except SyntaxError:  # nothing to compare with (a notebook's odd cell): the passes decide
        return None
    try:
        ast.parse(new)
    except SyntaxError as err:
        return f"it would not parse (line {err.lineno}: {err.msg})"
    missing = sorted(undefined_names(new) - undefined_names(old))
    if missing:
        return "it would leave " + ", ".join(f"`{name}`" for name in missing) + " undefined"
    return None


# -- Changes ----------------------------------------------------------------------------------


@dataclass
class _Unit:
    """One contiguous edit: old lines [i1, i2) become new lines [j1, j2)."""

    i1: int
    i2: int
    j1: int
    j2: int
    removed: list[str]
    added: list[str]
    findings: list[Finding] = field(default_factory=list)
    binds: frozenset[str] = frozenset()
    support: bool = False  # imports and helper definitions the tool added, nothing else

    @property
    def mentions(self) -> frozenset[str]:
        return _names(self.added) | _names(self.removed)


@dataclass
class Change:
    """Edits accepted or rejected together, with the support lines they need."""

    units: list[int]
    needs: list[int]
    codes: list[str]


def _units(old_lines: list[str], new_lines: list[str]) -> list[_Unit]:
    units = []
    for tag, i1, i2, j1, j2 in LineMatcher(old_lines, new_lines).get_opcodes():  # type: ignore[arg-type]
        if tag == "equal":
            continue
        for a, b in _statement_chunks(new_lines, j1, j2) if i1 == i2 else [(j1, j2)]:
            units.append(_Unit(i1, i2, a, b, old_lines[i1:i2], new_lines[a:b]))
    return units


def _statement_chunks(new_lines: list[str], j1: int, j2: int) -> list[tuple[int, int]]:
    """An inserted block at module level, one top-level statement (and the blank lines after
    it) at a time: the imports, a helper and a flag the tool adds in one place are separate."""
    block = new_lines[j1:j2]
    if not block or block[0][:1] in (" ", "\t"):
        return [(j1, j2)]
    try:
        tree = ast.parse("".join(block))
    except SyntaxError:
        return [(j1, j2)]
    starts = [
        min([s.lineno, *(d.lineno for d in getattr(s, "decorator_list", []))]) - 1
        for s in tree.body
    ]
    if not starts:
        return [(j1, j2)]
    # Blank lines before the first statement go with it (a helper the tool adds after the
    # imports starts with two), not in an edit of their own that no finding names.
    starts = [0, *sorted(set(starts))[1:]]
    ends = [*starts[1:], len(block)]
    return [(j1 + a, j1 + b) for a, b in zip(starts, ends, strict=True) if b > a]


def _find(parent: list[int], i: int) -> int:
    while parent[i] != i:
        parent[i] = parent[parent[i]]
        i = parent[i]
    return i


def plan_changes(
    old: str, new: str, findings: Sequence[Finding]
) -> tuple[list[_Unit], list[Change]]:
    """Group the edits from ``old`` to ``new`` into changes, in the order they appear."""
    old_lines, new_lines = _lines(old), _lines(new)
    units = _units(old_lines, new_lines)
    old_names, new_names = _names(old_lines), _names(new_lines)
    gone = old_names - new_names  # names whose every mention the tool removed
    old_bound = _bound_anywhere(old)
    fixed = [f for f in findings if f.fixed and f.cell is None]
    for unit in units:
        unit.binds, unit.support = _bound(unit.added)
        unit.binds -= old_bound  # only names the tool introduces
        unit.support = unit.support and unit.i1 == unit.i2 and bool(unit.binds)
        unit.findings = [f for f in fixed if unit.i1 < f.line <= unit.i2]
    peers = [i for i, u in enumerate(units) if not u.support]
    parent = list(range(len(units)))

    def join(a: int, b: int) -> None:
        parent[_find(parent, a)] = _find(parent, b)

    # An edit with no finding on its lines belongs to the nearest edit above that shares a
    # local name with it (`total = float(total)` after `total += loss.detach()`), else to the
    # nearest finding above it (a step marker inserted after `optimizer.step()`).
    module_names = _imported(old) | new_names - old_names
    for i in peers:
        unit = units[i]
        if unit.findings:
            continue
        local = unit.mentions - module_names
        above = [j for j in peers if j < i and units[j].findings and units[j].mentions & local]
        if above:
            join(i, above[-1])
            continue
        # Else the finding whose message quotes what the edit writes (`torch_xla.sync()`,
        # NEURON_CC_FLAGS), the nearest above it first; else the nearest finding above.
        added = "".join(unit.added)
        ranked = sorted(
            fixed,
            key=lambda f: (-_affinity(f, added), f.line > unit.i1, abs(f.line - unit.i1)),
        )
        if ranked and (_affinity(ranked[0], added) or ranked[0].line <= unit.i1):
            unit.findings = [ranked[0]]
    # A finding spread over several edits, an object removed with its uses, and a name one edit
    # binds and another uses (even one the file binds elsewhere: `device` hoisted in one method,
    # bound in another): one change each.
    for i in peers:
        for j in peers:
            if j <= i:
                continue
            a, b = units[i], units[j]
            if (
                {id(f) for f in a.findings} & {id(f) for f in b.findings}
                or (_names(a.removed) & _names(b.removed) & gone)
                or (_unbinds(a) & _names(b.removed))
                or (_unbinds(b) & _names(a.removed))
                or (_bound(a.added)[0] & _names(b.added))
                or (_bound(b.added)[0] & _names(a.added))
            ):
                join(i, j)
    # Fixed findings no edit carries (the fix is on other lines) go with the nearest edit below
    # that writes what their message quotes, else the nearest edit below.
    carried = {id(f) for u in units for f in u.findings}
    for f in fixed:
        if id(f) not in carried and peers:
            below = [i for i in peers if units[i].i1 >= f.line - 1] or peers[-1:]
            quoting = [i for i in below if _affinity(f, "".join(units[i].added))]
            units[(quoting or below)[0]].findings.append(f)
    groups: dict[int, list[int]] = {}
    for i in peers:
        groups.setdefault(_find(parent, i), []).append(i)
    changes = []
    for members in groups.values():
        needs = _support_for(units, members)
        codes = sorted({f"{f.code} {f.name}" for i in members for f in units[i].findings})
        changes.append(Change(members, needs, codes))
    # Support lines no change needs (the tool adds none of those, but a plugin might).
    needed = {i for c in changes for i in c.needs}
    for i, unit in enumerate(units):
        if unit.support and i not in needed:
            changes.append(Change([i], [], []))
    changes.sort(key=lambda c: min(c.units))
    return units, changes


def _unbinds(unit: _Unit) -> frozenset[str]:
    """Names the edit stops binding (`scaler = GradScaler()` removed): its uses go with it."""
    return _bound(unit.removed)[0] - _bound(unit.added)[0]


_QUOTED = re.compile(r"`([^`]+)`|\"([^\"]+)\"|\b([A-Za-z]\w*_\w+)\b")


def _affinity(finding: Finding, added: str) -> int:
    """How many of the code excerpts and identifiers ``finding``'s message quotes ``added``
    holds: a step-marker finding quotes the `torch_xla.sync()` its edit inserts."""
    quoted = {next(g for g in m.groups() if g) for m in _QUOTED.finditer(finding.message)}
    return sum(len(q) > 3 and q in added for q in quoted)


def _support_for(units: list[_Unit], members: list[int]) -> list[int]:
    """The support units (imports, helpers) that ``members`` use, and what those use in turn."""
    needs: set[int] = set()
    uses = set().union(*(_names(units[i].added) for i in members))
    while True:
        more = {i for i, u in enumerate(units) if u.support and i not in needs and u.binds & uses}
        if not more:
            return sorted(needs)
        needs |= more
        uses |= set().union(*(_names(units[i].added) for i in more))


def _bound_anywhere(text: str) -> frozenset[str]:
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return frozenset()
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
    return frozenset(names)


def _imported(text: str) -> frozenset[str]:
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return frozenset()
    names = set()
    for node in tree.body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
    return frozenset(names)


def _lines(text: str) -> list[str]:
    parts = text.split("\n")
    last = parts.pop()
    return [part + "\n" for part in parts] + ([last] if last else [])


def rebuild(old: str, new: str, units: list[_Unit], accepted: set[int]) -> str:
    """``old`` with the accepted units of its change to ``new`` applied."""
    old_lines = _lines(old)
    out: list[str] = []
    cursor = 0
    for index, unit in enumerate(units):  # in order; inserted chunks share their i1 == i2
        out.extend(old_lines[cursor : unit.i1])
        out.extend(unit.added if index in accepted else old_lines[unit.i1 : unit.i2])
        cursor = unit.i2
    out.extend(old_lines[cursor:])
    return "".join(out)


# -- Asking -----------------------------------------------------------------------------------


def _choose(
    offers: list[str], ask: Callable[[str], str | None], show: Callable[[str], None]
) -> tuple[list[bool], bool]:
    """Whether each offer is accepted, and whether the user quit."""
    chosen: list[bool] = []
    mode: str | None = None  # "a" or "d" for the rest of the file
    quit_all = False
    for offer in offers:
        if mode is not None or quit_all:
            chosen.append(mode == "a")
            continue
        show(offer)
        while True:
            answer = ask("Apply this change [y,n,a,d,q,?]? ")
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


def _shown(diff: bytes) -> str:
    """A diff as people read it: skip the file headers; source is nearly always UTF-8."""
    text = diff.decode("utf-8", "replace")
    return "".join(text.splitlines(keepends=True)[2:])


def _offer(
    outcome: FileOutcome, units, change: Change, number: int, total: int, old: str, new: str
) -> str:
    body = rebuild(old, new, units, set(change.units) | set(change.needs))
    diff = build_file_diff(
        outcome.display, old.encode("utf-8", "replace"), body.encode("utf-8", "replace")
    )
    rules = ", ".join(change.codes) or "an edit no finding names"
    edits = len(change.units)
    together = f"{edits} edits, applied or skipped together" if edits > 1 else "1 edit"
    if change.needs:
        names = sorted(set().union(*(units[i].binds for i in change.needs)))
        together += "; with what it needs: " + ", ".join(f"`{n}`" for n in names)
    return f"\n{outcome.display} change {number}/{total} ({rules}): {together}\n{_shown(diff)}"


def _decoded(data: bytes) -> str:
    from trncodemod.pipeline.source import decode_source

    return decode_source(data).text


def review_file(
    outcome: FileOutcome, ask: Callable[[str], str | None], show: Callable[[str], None]
) -> Decision:
    """Offer each change of ``outcome``; rebuild the file from the accepted ones and check it."""
    assert outcome.old is not None and outcome.new is not None
    if outcome.path.suffix == ".ipynb":
        return _review_cells(outcome, ask, show)
    from trncodemod.pipeline.source import decode_source

    source = decode_source(outcome.old)
    old, new = source.text, _decoded(outcome.new)
    units, changes = plan_changes(old, new, outcome.findings)
    offers = [
        _offer(outcome, units, change, n, len(changes), old, new)
        for n, change in enumerate(changes, 1)
    ]
    chosen, quit_all = _choose(offers, ask, show)
    accepted: set[int] = set()
    for change, keep in zip(changes, chosen, strict=True):
        if keep:
            accepted |= set(change.units) | set(change.needs)
    findings = _written_findings(outcome.findings, units, accepted)
    if not accepted:
        return Decision(None, 0, len(changes), quit_all, findings)
    text = rebuild(old, new, units, accepted)
    problem = introduced_problems(old, text)
    if problem is not None:
        unfixed = _written_findings(outcome.findings, units, set())
        return Decision(None, 0, len(changes), quit_all, unfixed, refused=problem)
    data = outcome.new if text == new else source.encode(text)
    return Decision(data, sum(chosen), len(changes), quit_all, findings)


def _written_findings(
    findings: Sequence[Finding], units: list[_Unit], accepted: set[int]
) -> tuple[Finding, ...]:
    """``findings`` with ``fixed`` kept only where every edit of the fix was written."""
    carriers: dict[int, list[int]] = {}
    for index, unit in enumerate(units):
        for f in unit.findings:
            carriers.setdefault(id(f), []).append(index)
    return tuple(
        f
        if not f.fixed or f.cell is not None
        else replace(f, fixed=all(i in accepted for i in carriers.get(id(f), [-1])))
        for f in findings
    )


# -- Notebooks --------------------------------------------------------------------------------


def _rules_for(outcome: FileOutcome, start: int, length: int, cell: int | None = None) -> str:
    end = start + max(length, 1)
    codes = sorted(
        {
            f"{f.code} {f.name}"
            for f in outcome.findings
            if f.fixed and f.cell == cell and start <= f.line < end
        }
    )
    return ", ".join(codes) or "(imports or context for other hunks of this cell)"


def _shown_hunk(hunk: Hunk) -> str:
    return str(hunk).encode("latin-1").decode("utf-8", "replace")


def _apply(old: bytes, patched: PatchedFile, hunks: list[Hunk], keep: list[bool]) -> bytes:
    """``old`` with the kept ``hunks`` of ``patched`` applied (latin-1 keeps any bytes as is)."""
    patched[:] = [hunk for hunk, kept in zip(hunks, keep, strict=True) if kept]
    old_lines = [line.decode("latin-1") for line in split_lines(old)]
    return "".join(apply_patched_file(old_lines, patched)).encode("latin-1")


def _cell_patches(outcome: FileOutcome) -> list[tuple[int, bytes, PatchedFile]]:
    """Per changed cell of a notebook: its number, old source, and the diff of its code. People
    review code, not the notebook's JSON (which is what the patch for ``git apply`` holds)."""
    from trncodemod.pipeline.notebooks import cell_sources

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
    """A notebook, hunk by hunk of each changed cell; the code of all its cells is checked as
    one program before anything is written."""
    from trncodemod.pipeline.notebooks import cell_sources, with_cell_sources

    patches = _cell_patches(outcome)
    total = sum(len(patched) for _, _, patched in patches)
    offers = []
    for number, _, patched in patches:
        for hunk in patched:
            rules = _rules_for(outcome, hunk.source_start, hunk.source_length, number)
            label = f"{outcome.display}[cell {number}]"
            offers.append(
                f"\n{label} hunk {len(offers) + 1}/{total} ({rules})\n{_shown_hunk(hunk)}"
            )
    chosen, quit_all = _choose(offers, ask, show)
    if not any(chosen):
        return Decision(None, 0, total, quit_all, _unfixed(outcome.findings))
    sources: dict[int, str] = {}
    answers = iter(chosen)
    for number, old, patched in patches:
        hunks = list(patched)
        keep = [next(answers) for _ in hunks]
        if any(keep):
            # less the newline added to the cell for the diff
            sources[number] = _apply(old, patched, hunks, keep).decode("utf-8")[:-1]
    new = with_cell_sources(outcome.old, sources)  # type: ignore[arg-type]
    problem = introduced_problems(
        _program(cell_sources(outcome.old)),  # type: ignore[arg-type]
        _program(cell_sources(new)),
    )
    if problem is not None:
        return Decision(None, 0, total, quit_all, _unfixed(outcome.findings), problem)
    return Decision(new, sum(chosen), total, quit_all, outcome.findings)


def _program(cells: list[str]) -> str:
    # IPython magics and shell escapes are not Python: cell magics drop their cell, line magics
    # their line, for the name check.
    return "\n".join(
        "" if line.lstrip().startswith(("%", "!")) else line
        for cell in cells
        if not cell.lstrip().startswith("%%")
        for line in cell.splitlines()
    )


def _unfixed(findings: Sequence[Finding]) -> tuple[Finding, ...]:
    return tuple(replace(f, fixed=False) if f.fixed else f for f in findings)


# -- A run ------------------------------------------------------------------------------------


def _offered(outcome: FileOutcome) -> int:
    if outcome.path.suffix == ".ipynb":
        return sum(len(patched) for _, _, patched in _cell_patches(outcome))
    return len(plan_changes(_decoded(outcome.old), _decoded(outcome.new), outcome.findings)[1])  # type: ignore[arg-type]


def review(
    outcomes: list[FileOutcome], ask: Callable[[str], str | None], show: Callable[[str], None]
) -> tuple[list[FileOutcome], str]:
    """Outcomes with only the accepted changes applied (their findings ``fixed`` only where the
    fix was written), and a one-line summary."""
    reviewed: list[FileOutcome] = []
    accepted = offered = files = 0
    stop = False
    for outcome in outcomes:
        if not outcome.changed or stop:
            if outcome.changed:
                offered += _offered(outcome)
                reviewed.append(_with_new(outcome, None, b"", _unfixed(outcome.findings)))
            else:
                reviewed.append(outcome)
            continue
        decision = review_file(outcome, ask, show)
        offered += decision.offered
        stop = decision.quit
        if decision.refused is not None:
            show(f"{outcome.display}: not written: {decision.refused}; the file is left as it was")
        if decision.new is None:
            reviewed.append(_with_new(outcome, None, b"", decision.findings))
            continue
        accepted += decision.accepted
        files += 1
        diff = build_file_diff(outcome.display, outcome.old, decision.new)  # type: ignore[arg-type]
        reviewed.append(_with_new(outcome, decision.new, diff, decision.findings))
    unit = "change" if offered == 1 else "changes"
    return reviewed, f"Applied {accepted} of {offered} {unit} in {files} file(s)."


def _with_new(
    outcome: FileOutcome, new: bytes | None, diff: bytes, findings: tuple[Finding, ...]
) -> FileOutcome:
    return replace(outcome, new=new, diff=diff, findings=findings)
