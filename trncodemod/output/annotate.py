"""``apply --annotate``: a ``# TODO(trncodemod): CODE message`` comment above each finding that is
left for a person, in the same patch as the rewrites.

The comment goes on its own line above the statement that holds the finding (the whole statement
when it spans several lines, the header of an ``if`` / ``for`` / ``with`` / ``def``), with that
statement's indentation. It is added once: a TODO for the same code already in the comment lines
right above the statement counts, so a second run adds nothing. Suppressed findings are never
reported, so they are never annotated.

Findings carry lines of the file as it was read; the TODOs go into the rewritten text, and a line
that a rewrite changed is followed by the same line diff as the patch.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import replace

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from trncodemod.findings import Finding
from trncodemod.output.line_diff import LineMatcher
from trncodemod.output.patch import PatchError, build_file_diff
from trncodemod.passes import PlainVisitor
from trncodemod.pipeline.engine import FileOutcome
from trncodemod.pipeline.source import SourceError, decode_source

TODO = "# TODO(trncodemod): "
_EXISTING = re.compile(r"^\s*#\s*TODO\(trncodemod\):\s*(?P<code>TRN\d+)\b")


def _lines(text: str) -> list[str]:
    parts = text.split("\n")
    last = parts.pop()
    return [part + "\n" for part in parts] + ([last] if last else [])


def _old_to_new(old: str, new: str) -> Callable[[int], int]:
    """Map a 1-based line of ``old`` to the line of ``new`` it became (the first line of the
    rewrite that replaced it)."""
    if old == new:
        return lambda line: line
    matcher = LineMatcher(_lines(old), _lines(new))
    blocks = matcher.get_opcodes()

    def to_new(line: int) -> int:
        index = line - 1
        for tag, i1, i2, j1, j2 in blocks:
            if i1 <= index < i2:
                if tag == "equal":
                    return j1 + (index - i1) + 1
                return min(j1 + (index - i1), max(j2 - 1, j1)) + 1
        return line

    return to_new


class _Statements(PlainVisitor):
    """Every statement's own lines: a simple statement's all; a compound statement's header."""

    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self) -> None:
        self.spans: list[tuple[int, int, int]] = []  # (first, last, depth)
        self.depth = 0

    def _record(self, node: cst.CSTNode, last: int | None = None) -> None:
        span = self.get_metadata(PositionProvider, node)
        self.spans.append((span.start.line, span.end.line if last is None else last, self.depth))

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        self._record(node)

    def visit_BaseCompoundStatement(self, node: cst.BaseCompoundStatement) -> None:
        body = node.body
        if isinstance(body, cst.IndentedBlock) and body.body:
            first = self.get_metadata(PositionProvider, body.body[0]).start.line
            header_end = max(self.get_metadata(PositionProvider, node).start.line, first - 1)
            self._record(node, header_end)
        else:
            self._record(node)
        self.depth += 1

    def leave_BaseCompoundStatement(self, original_node: cst.BaseCompoundStatement) -> None:
        self.depth -= 1

    # Matchers on a base class need the concrete visitors to dispatch.
    visit_If = visit_For = visit_While = visit_With = visit_Try = visit_TryStar = (
        visit_FunctionDef
    ) = visit_ClassDef = visit_Match = visit_BaseCompoundStatement
    leave_If = leave_For = leave_While = leave_With = leave_Try = leave_TryStar = (
        leave_FunctionDef
    ) = leave_ClassDef = leave_Match = leave_BaseCompoundStatement

    def statement_at(self, line: int) -> int | None:
        """First line of the innermost statement whose own lines hold ``line``."""
        holding = [span for span in self.spans if span[0] <= line <= span[1]]
        if not holding:
            return None
        return max(holding, key=lambda span: (span[2], span[0]))[0]


def _message(finding: Finding, encoding: str) -> str:
    # One line, and characters the file's encoding cannot hold written as escapes.
    text = " ".join(finding.message.split()).replace("→", "->")
    return text.encode(encoding, "backslashreplace").decode(encoding)


def annotate_text(
    text: str,
    findings: Iterable[Finding],
    to_new: Callable[[int], int] | None = None,
    encoding: str = "utf-8",
) -> str:
    """``text`` with a TODO above the statement of each finding (lines of the text as read,
    mapped by ``to_new``); ``text`` as is when it does not parse."""
    to_new = to_new or (lambda line: line)
    todo = [f for f in findings if f.counts_against_exit and f.cell is None]
    if not todo:
        return text
    try:
        wrapper = MetadataWrapper(cst.parse_module(text), unsafe_skip_copy=True)
    except cst.ParserSyntaxError:
        return text
    statements = _Statements()
    wrapper.visit(statements)
    lines = _lines(text)
    newline = "\r\n" if "\r\n" in text else "\n"
    wanted: dict[int, list[tuple[str, str]]] = {}
    for finding in sorted(todo, key=lambda f: (f.line, f.column, f.code)):
        line = statements.statement_at(to_new(finding.line))
        if line is None or line > len(lines):
            continue
        notes = wanted.setdefault(line, [])
        if all(code != finding.code for code, _ in notes):
            notes.append((finding.code, _message(finding, encoding)))
    for line in sorted(wanted, reverse=True):
        index = line - 1
        existing = set()
        above = index - 1
        while above >= 0 and lines[above].lstrip().startswith("#"):
            match = _EXISTING.match(lines[above])
            if match:
                existing.add(match.group("code"))
            above -= 1
        statement = lines[index]
        indent = statement[: len(statement) - len(statement.lstrip(" \t\f"))]
        comments = [
            f"{indent}{TODO}{code} {message}{newline}"
            for code, message in wanted[line]
            if code not in existing
        ]
        lines[index:index] = comments
    return "".join(lines)


def annotate_outcome(outcome: FileOutcome) -> FileOutcome:
    """The outcome with TODOs added to its rewrite (a file without one gets one); the patch is
    rebuilt to match. Notebooks and files that failed are returned as they are."""
    if outcome.error is not None or outcome.old is None or outcome.path.suffix == ".ipynb":
        return outcome
    if not any(f.counts_against_exit for f in outcome.findings):
        return outcome
    try:
        source = decode_source(outcome.old)
        migrated = decode_source(outcome.new).text if outcome.new is not None else source.text
        annotated = annotate_text(
            migrated, outcome.findings, _old_to_new(source.text, migrated), source.encoding
        )
        if annotated == migrated:
            return outcome
        new = source.encode(annotated)
        diff = build_file_diff(outcome.display, outcome.old, new)
    except (SourceError, PatchError) as err:
        return replace(outcome, new=None, diff=b"", error=f"cannot annotate: {err}")
    return replace(outcome, new=new, diff=diff)
