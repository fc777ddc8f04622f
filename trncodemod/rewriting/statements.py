"""Removing small statements from a tree while it is being transformed.

A pass drops small statements with ``drop_small_statements`` (in ``leave_SimpleStatementLine`` /
``leave_SimpleStatementSuite``). LibCST then discards a statement line that lost all its
statements (with the comment and blank lines above it), and renders a block or one-line suite
left without statements as ``pass``, so every block stays valid. An ``if`` with no ``else``
whose block loses every statement goes with them when its test only reads (``if
torch.cuda.is_available(): torch.cuda.manual_seed(s)``): ``if ...: pass`` is dead code a reviewer
would ask to drop (issue 23).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TypeVar

import libcst as cst

from trncodemod.analysis.loops import dotted
from trncodemod.analysis.nodes import walk

Line = TypeVar("Line", cst.SimpleStatementLine, cst.SimpleStatementSuite)
# Calls a test may make and still only read: availability and capability checks, introspection.
_READS = frozenset(
    {"is_available", "is_bf16_supported", "isinstance", "hasattr", "getattr", "len", "get"}
    # A device string's tests: `if args.device.startswith("cuda"): torch.cuda.synchronize()`.
    | {"startswith", "endswith", "lower", "upper"}
)


def drop_small_statements(
    original: Line, updated: Line, drop: Collection[cst.BaseSmallStatement]
) -> Line:
    """``updated`` without the small statements whose original node is in ``drop``."""
    if not any(small in drop for small in original.body):
        return updated
    body = [new for old, new in zip(original.body, updated.body, strict=True) if old not in drop]
    if body:
        # The last statement of a line carries no semicolon.
        body[-1] = body[-1].with_changes(semicolon=cst.MaybeSentinel.DEFAULT)
    return updated.with_changes(body=body)


def is_dropped(statement: cst.BaseStatement, drop: Collection[cst.BaseSmallStatement]) -> bool:
    """Whether ``statement`` (an original node) disappears when ``drop`` is dropped."""
    return isinstance(statement, cst.SimpleStatementLine) and all(
        small in drop for small in statement.body
    )


def _only_reads(test: cst.BaseExpression) -> bool:
    for node in walk(test):
        if isinstance(node, cst.NamedExpr | cst.Await | cst.Yield | cst.Lambda):
            return False
        if isinstance(node, cst.Call):
            name = dotted(node.func) or ""
            if name.rsplit(".", 1)[-1] not in _READS:
                return False
    return True


def empties(statement: cst.If, drop: Collection[cst.BaseSmallStatement]) -> bool:
    """Whether ``statement`` (an original node) has no ``else``, a test that only reads, and a
    block whose every statement is dropped: then it goes too."""
    if statement.orelse is not None or not _only_reads(statement.test):
        return False
    body = statement.body
    lines = body.body if isinstance(body, cst.IndentedBlock) else [body]
    return bool(lines) and all(
        is_dropped(line, drop)
        if isinstance(line, cst.SimpleStatementLine)
        else (isinstance(line, cst.SimpleStatementSuite) and all(s in drop for s in line.body))
        for line in lines
    )


class DropsStatements(cst.CSTTransformer):
    """Mixin for a pass that removes small statements: it adds their original nodes to
    ``self._drop`` while it walks, and the lines are rebuilt on the way out."""

    _drop: set[cst.BaseSmallStatement]

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> cst.SimpleStatementLine:
        return drop_small_statements(original_node, updated_node, self._drop)

    def leave_SimpleStatementSuite(
        self, original_node: cst.SimpleStatementSuite, updated_node: cst.SimpleStatementSuite
    ) -> cst.SimpleStatementSuite:
        return drop_small_statements(original_node, updated_node, self._drop)

    def leave_If(
        self, original_node: cst.If, updated_node: cst.If
    ) -> cst.BaseStatement | cst.RemovalSentinel:
        if empties(original_node, self._drop):
            return cst.RemovalSentinel.REMOVE
        return updated_node
