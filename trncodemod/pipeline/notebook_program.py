"""A notebook as the program its kernel runs: its code cells in order, as one module whose top
level runs top to bottom, a marker statement between two cells (IPython lines masked:
``trncodemod.pipeline.ipython``; a cell in another language, ``%%bash``, left out). The passes
migrate this module (``trncodemod.pipeline.notebooks``) and the evaluator judges it
(``trncodemod.pipeline.verdicts``): a line of it is a line of a cell, named as the findings
name it (``train.ipynb[cell 3]:7``). Read from the notebook's JSON alone, without nbformat or
libcst: judging a notebook costs a parse of its code."""

from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass

from trncodemod.pipeline.ipython import mask

# Between two cells of the joined module: a statement, not a comment, so that a pass removing a
# cell's only statement (and the comments above it with it) cannot take the boundary away.
# None goes before the first cell, whose `from __future__` imports must open the module.
CELL = "pass  # trncodemod-cell {}"
CELL_LINE = re.compile(r"^pass  # trncodemod-cell (\d+)$")


def join_cells(cells: list[tuple[int, str]]) -> tuple[str, dict[int, int]]:
    """All code cells as one module, a marker line between two; where each cell starts."""
    parts: list[str] = []
    starts: dict[int, int] = {}
    line = 1
    for index, (number, source) in enumerate(cells):
        if index:
            parts.append(CELL.format(number))
            line += 1
        starts[number] = line
        parts.append(source)
        line += 1 + source.count("\n")
    return "\n".join(parts) + "\n", starts


def cell_of(line: int, starts: dict[int, int]) -> tuple[int, int]:
    """The cell a line of the joined module is in, and its line there."""
    number = max((n for n, start in starts.items() if start <= line), default=min(starts))
    return number, max(line - starts[number] + 1, 1)


@dataclass(frozen=True)
class NotebookProgram:
    text: str  # the code cells joined, as Python
    starts: dict[int, int]  # cell number -> the line of the text it starts at
    cells: dict[int, str]  # cell number -> its code as Python

    def place(self, line: int, given: NotebookProgram | None = None) -> str:
        """``[cell N]:L`` for a line of the text; with ``given`` (the notebook as given, this
        one migrated), L is the line of the cell as given, as the findings name it."""
        number, at = cell_of(line, self.starts)
        if given is not None and number in given.cells:
            at = line_map(given.cells[number], self.cells[number]).get(at, at)
        return f"[cell {number}]:{at}"


def notebook_program(raw: bytes) -> NotebookProgram | None:
    """The code cells of the notebook ``raw`` as one module; None where ``raw`` is not a
    notebook, or holds no Python cell."""
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None
    cells = data.get("cells") if isinstance(data, dict) else None
    if not isinstance(cells, list):
        return None
    code: list[tuple[int, str]] = []
    for number, cell in enumerate(cells, 1):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        source = "".join(source) if isinstance(source, list) else source
        if not isinstance(source, str):
            return None
        masked = mask(source)
        if masked.text is not None:
            code.append((number, masked.text))
    if not code:
        return None
    text, starts = join_cells(code)
    return NotebookProgram(text, starts, dict(code))


def line_map(before: str, after: str) -> dict[int, int]:
    """Each changed line of ``after`` (a migrated text) -> the line of ``before`` it stands at."""
    found: dict[int, int] = {}
    matcher = difflib.SequenceMatcher(None, before.splitlines(), after.splitlines(), autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        for offset, line in enumerate(range(j1, j2)):
            at = i1 + offset if tag == "equal" else i1 + min(offset, max(i2 - i1 - 1, 0))
            if at != line:
                found[line + 1] = at + 1
    return found
