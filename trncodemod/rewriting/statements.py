"""Removing small statements from a tree while it is being transformed.

A pass drops small statements with ``drop_small_statements`` (in ``leave_SimpleStatementLine`` /
``leave_SimpleStatementSuite``). LibCST then discards a statement line that lost all its
statements (with the comment and blank lines above it), and renders a block or one-line suite
left without statements as ``pass``, so every block stays valid.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TypeVar

import libcst as cst

Line = TypeVar("Line", cst.SimpleStatementLine, cst.SimpleStatementSuite)


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
