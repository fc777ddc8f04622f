"""Jupyter notebooks: the code cells are migrated as one program, each cell written back.

IPython syntax is not Python: line magics (``%matplotlib inline``), shell escapes
(``!pip install ...``, ``files = !ls``) and help (``x?``) are masked before parsing and restored
byte for byte afterwards (``trncodemod.pipeline.ipython``); a cell magic (``%%bash``) makes the
whole cell foreign and it is left alone, except those whose body is Python (``%%time``). A cell a
pass empties keeps its code commented out, and an added import goes in the first cell that
uses it (``trncodemod.pipeline.cells``). Outputs, metadata and markdown cells are never
touched. The notebook is written back by
replacing the JSON text of the changed cells' sources only, so its layout (indentation, key
order, escapes, final newline) is kept and a one-line fix is a one-hunk patch, even in a
notebook of 50 MB of outputs stored on one line; findings name the cell they are in.
"""

from __future__ import annotations

import difflib
import json
import re
from dataclasses import replace
from typing import TYPE_CHECKING

from trncodemod.config import Settings
from trncodemod.findings import Finding
from trncodemod.pipeline.cells import commented_out, has_statements, imports_where_first_used
from trncodemod.pipeline.ipython import Masked, mask, unmask
from trncodemod.pipeline.migrate import MigrationError, migrate_text
from trncodemod.pipeline.notebook_program import CELL_LINE, cell_of, join_cells
from trncodemod.pipeline.source import SourceError

if TYPE_CHECKING:
    import nbformat


def read_notebook(raw: bytes) -> nbformat.NotebookNode:
    import nbformat  # with jsonschema, a tenth of a second: only for notebooks

    try:
        notebook = nbformat.reads(raw.decode("utf-8"), as_version=nbformat.NO_CONVERT)
    except UnicodeDecodeError as err:
        raise SourceError(
            f"notebook is not UTF-8: byte {raw[err.start]:#04x} at {err.start}"
        ) from None
    except (json.JSONDecodeError, nbformat.reader.NotJSONError) as err:
        raise SourceError(f"not a notebook: invalid JSON ({err})") from None
    except Exception as err:  # nbformat raises several kinds for a malformed document
        raise SourceError(f"not a notebook: {type(err).__name__}: {err}") from None
    cells = notebook.get("cells") if isinstance(notebook, dict) else None
    if not isinstance(cells, list) or not all(
        isinstance(cell, dict) and isinstance(cell.get("source", ""), str) for cell in cells
    ):
        raise SourceError("not a notebook: `cells` is not a list of cells")
    for cell in cells:
        # The schema requires `source`, but some tools leave it out of an empty cell.
        cell.setdefault("source", "")
    return notebook


def _split(text: str, numbers: list[int]) -> dict[int, str] | None:
    """Cell sources back from the joined module; None when a marker was lost or moved."""
    lines = text.split("\n")
    marks = [i for i, line in enumerate(lines) if CELL_LINE.match(line)]
    if [int(CELL_LINE.match(lines[i]).group(1)) for i in marks] != numbers[1:]:
        return None
    bounds = [-1, *marks, len(lines) - 1]  # the text ends with a newline: its last item is ""
    return {
        number: "\n".join(lines[bounds[k] + 1 : bounds[k + 1]]) for k, number in enumerate(numbers)
    }


def migrate_notebook(
    raw: bytes, path: str, settings: Settings
) -> tuple[bytes | None, tuple[Finding, ...], tuple[str, ...]]:
    """The rewritten notebook (None if unchanged), its findings, and the passes that ran.

    The code cells run as one program, so they are migrated as one module (a name imported in
    cell 1 resolves in cell 5), with a marker line between cells to split the result back.
    """
    notebook = read_notebook(raw)
    numbered = {id(cell): number for number, cell in enumerate(notebook.cells, 1)}
    cells: list[tuple[nbformat.NotebookNode, Masked]] = []
    for cell in notebook.cells:
        if cell.get("cell_type") == "code":
            masked = mask(cell.source)
            if masked.text is not None:  # a cell in another language (`%%bash`) is left alone
                cells.append((cell, masked))
    if not cells:
        return None, (), ()
    numbers = [numbered[id(cell)] for cell, _ in cells]
    joined, starts = join_cells([(numbered[id(c)], m.text) for c, m in cells])
    try:
        migration = migrate_text(joined, path, settings)
    except MigrationError as err:
        if err.line is None:
            raise
        number, line = cell_of(err.line, starts)
        raise MigrationError(f"cell {number}: {err.reason}", line, err.column) from None
    sources = _split(migration.text, numbers)
    if sources is None:
        raise MigrationError("internal error: a pass moved a cell boundary; nothing written")
    findings = []
    for finding in migration.findings:
        number, line = cell_of(finding.line, starts)
        findings.append(replace(finding, line=line, cell=number))
    sources = imports_where_first_used(
        sources, {n: m.text for n, (_, m) in zip(numbers, cells, strict=True)}
    )
    changed = False
    for cell, masked in cells:
        number = numbered[id(cell)]
        if not has_statements(sources[number]) and has_statements(masked.text):
            fixes = sorted({f.code for f in findings if f.cell == number and f.fixed})
            new_source = commented_out(cell.source, fixes, settings.target)
        else:
            new_source = unmask(sources[number], masked, cell.source)
        # Keep the cell's own leading and trailing newlines: an import added at its end brings
        # a blank line, and the module's first line is a blank one after some passes.
        leading = len(cell.source) - len(cell.source.lstrip("\n"))
        trailing = len(cell.source) - len(cell.source.rstrip("\n"))
        new_source = "\n" * leading + new_source.strip("\n") + "\n" * trailing
        if new_source != cell.source:
            cell.source = new_source
            changed = True
    if not changed:
        return None, tuple(findings), migration.passes_run
    return _write(notebook, raw), tuple(findings), migration.passes_run


def _write(notebook: nbformat.NotebookNode, raw: bytes) -> bytes:
    """``raw`` with the source of every cell that differs from ``notebook``'s replaced in place;
    nbformat re-serialises the whole document only when the text cannot be edited so."""
    text = raw.decode("utf-8")
    try:
        spans = _source_spans(text)
        if spans is None or len(spans) != len(notebook.cells):
            raise ValueError("cells not found")
        parts, at = [], 0
        for span, cell in zip(spans, notebook.cells, strict=True):
            if span is None:  # no `source` in the text: the cell is empty, unless now filled
                if cell.source:
                    raise ValueError("a source to add to a cell")
                continue
            start, end = span
            old = json.loads(text[start:end])
            if _joined(old) == cell.source:
                continue
            piece = _render_source(text, start, end, old, cell.source)
            if _joined(json.loads(piece)) != cell.source:
                raise ValueError("a rendered source does not read back")
            parts += [text[at:start], piece]
            at = end
    except (ValueError, IndexError):
        return _reserialise(notebook, raw)
    return ("".join(parts) + text[at:]).encode("utf-8")


def _joined(source: str | list[str]) -> str:
    return "".join(source) if isinstance(source, list) else source


def _reserialise(notebook: nbformat.NotebookNode, raw: bytes) -> bytes:
    """The notebook as nbformat writes it, with the original's indentation and final newline."""
    import nbformat

    indent = re.search(r"\n( *)\S", raw[:4096].decode("utf-8", "replace"))
    text = nbformat.writes(notebook, indent=len(indent.group(1)) if indent else None)
    if raw.endswith(b"\n") and not text.endswith("\n"):
        text += "\n"
    return text.encode("utf-8")


_DECODER = json.JSONDecoder()
_SPACE = re.compile(r"[ \t\n\r]*")


def _source_spans(text: str) -> list[tuple[int, int] | None] | None:
    """Where the JSON value of each cell's ``source`` lies in ``text``, cell by cell (None for a
    cell with none); other values are stepped over without being kept."""
    at = _SPACE.match(text, 0).end()
    for key, start in _members(text, at):
        if key == "cells":
            return [_cell_span(text, cell) for cell in _items(text, start)]
    return None


def _members(text: str, at: int):
    """(key, where its value starts) for each member of the object at ``at``."""
    if text[at] != "{":
        raise ValueError("not an object")
    at = _SPACE.match(text, at + 1).end()
    if text[at] == "}":
        return
    while True:
        if text[at] != '"':
            raise ValueError("expected a key")
        key, at = json.decoder.scanstring(text, at + 1)
        at = _SPACE.match(text, at).end()
        if text[at] != ":":
            raise ValueError("expected :")
        at = _SPACE.match(text, at + 1).end()
        yield key, at
        _, at = _DECODER.raw_decode(text, at)
        at = _SPACE.match(text, at).end()
        if text[at] == "}":
            return
        if text[at] != ",":
            raise ValueError("expected ,")
        at = _SPACE.match(text, at + 1).end()


def _items(text: str, at: int):
    """Where each item of the array at ``at`` starts."""
    if text[at] != "[":
        raise ValueError("not an array")
    at = _SPACE.match(text, at + 1).end()
    if text[at] == "]":
        return
    while True:
        yield at
        _, at = _DECODER.raw_decode(text, at)
        at = _SPACE.match(text, at).end()
        if text[at] == "]":
            return
        if text[at] != ",":
            raise ValueError("expected ,")
        at = _SPACE.match(text, at + 1).end()


def _cell_span(text: str, at: int) -> tuple[int, int] | None:
    for key, start in _members(text, at):
        if key == "source":
            return start, _DECODER.raw_decode(text, start)[1]
    return None


def _render_source(text: str, start: int, end: int, old: str | list[str], new: str) -> str:
    """``new`` written as the old value was: one string, or a list of lines laid out as the old
    list was (its opening, separators and closing whitespace), with the same escaping."""
    ascii_only = text[start:end].isascii() and not _joined(old).isascii()
    if isinstance(old, str):
        return json.dumps(new, ensure_ascii=ascii_only)
    lines = new.splitlines(keepends=True)
    items = [json.dumps(line, ensure_ascii=ascii_only) for line in lines]
    inner = text[start + 1 : end - 1]
    if len(old) >= 1:
        first = _DECODER.raw_decode(text, _SPACE.match(text, start + 1).end())[1]
        opening = text[start + 1 : _SPACE.match(text, start + 1).end()]
        closing = inner[len(inner.rstrip(" \t\n\r")) :]
        if len(old) >= 2:
            second = _SPACE.match(text, text.index(",", first) + 1).end()
            separator = text[first:second]
        else:
            separator = "," + opening
    else:  # `[]`: lay the lines out as nbformat does, one an indented line
        line_start = text.rfind("\n", 0, start) + 1
        indent = len(text[line_start:start]) - len(text[line_start:start].lstrip(" "))
        unit = re.search(r"\n( +)\S", text)
        step = len(unit.group(1)) if unit else 1
        opening = "\n" + " " * (indent + step) if unit else ""
        closing = "\n" + " " * indent if unit else ""
        separator = "," + (opening or " ")
    if not items:
        return "[]"
    return "[" + opening + separator.join(items) + closing + "]"


def cell_sources(raw: bytes) -> list[str]:
    """The source of every cell, in order (cell N is item N - 1)."""
    return [cell.source for cell in read_notebook(raw).cells]


def with_cell_sources(raw: bytes, sources: dict[int, str]) -> bytes:
    """The notebook ``raw`` with the sources of the cells numbered in ``sources`` replaced."""
    notebook = read_notebook(raw)
    for number, source in sources.items():
        notebook.cells[number - 1].source = source
    return _write(notebook, raw)


def cell_diffs(old: bytes, new: bytes, path: str) -> str:
    """The change to a notebook as one unified diff per changed code cell, for people: the patch
    itself is the diff of the notebook's JSON (that is what ``git apply`` needs)."""
    parts: list[str] = []
    pairs = zip(cell_sources(old), cell_sources(new), strict=False)
    for number, (before, after) in enumerate(pairs, 1):
        if before == after:
            continue
        label = f"{path}[cell {number}]"
        parts.extend(
            difflib.unified_diff(
                (before + "\n").splitlines(keepends=True),
                (after + "\n").splitlines(keepends=True),
                f"a/{label}",
                f"b/{label}",
            )
        )
    return "".join(parts)
