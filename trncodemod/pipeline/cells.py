"""Notebook cells after the passes ran on the joined module: what makes a cell valid and
runnable in order, which a plain module does not need.

- **A cell a pass emptied** (``torch.backends.cudnn.benchmark = True``, ``scaler =
  GradScaler()``, ``assert torch.cuda.is_available()`` alone in their cell) keeps its code,
  commented out under a line naming the rules that removed it: the reader sees what was there
  and why it went, and can take it back by uncommenting; the cell still runs (a cell of
  comments is valid and does nothing). A ``pass`` would have hidden what was removed.
- **An import the tool added** goes in the first code cell that uses a name it binds: the
  passes place it where a module's imports go (with ``import torch``, say), which in a notebook
  can be a later cell than the first one the rewrite changed, a ``NameError`` when the cells
  run in order.

Everything here reads the cells as Python (IPython lines masked: ``trncodemod.pipeline.ipython``).
"""

from __future__ import annotations

import ast


def _parsed(source: str | None) -> ast.Module | None:
    try:
        return ast.parse(source or "")
    except SyntaxError:
        return None


def has_statements(source: str | None) -> bool:
    tree = _parsed(source)
    return tree is None or bool(tree.body)


def commented_out(source: str, codes: list[str], target: str) -> str:
    """``source`` as comments, under a line saying which rules removed it for ``target``."""
    why = ", ".join(codes) if codes else "a rewrite"
    lines = source.rstrip("\n").split("\n")
    return "\n".join(
        [f"# trncodemod: {why} removed this cell's code for {target}; it was:"]
        + [f"# {line}" if line.strip() else "#" for line in lines]
    )


def _imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    return [node for node in tree.body if isinstance(node, ast.Import | ast.ImportFrom)]


def _bound(node: ast.Import | ast.ImportFrom) -> set[str]:
    return {alias.asname or alias.name.split(".")[0] for alias in node.names}


def _used(tree: ast.Module) -> set[str]:
    return {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}


def _insertion_line(tree: ast.Module) -> int:
    """The 0-based line after the cell's leading imports (IPython lines, masked as ``pass``,
    count among them), else of its first statement: above every use in the cell."""
    at = None
    for node in tree.body:
        if isinstance(node, ast.Import | ast.ImportFrom | ast.Pass):
            at = node.end_lineno
            continue
        return at if at is not None else node.lineno - 1
    return at if at is not None else 0


def imports_where_first_used(new: dict[int, str], old: dict[int, str | None]) -> dict[int, str]:
    """``new`` (cell number → masked source after the passes) with each one-line import the
    passes added, and that a cell before its own uses, moved to the top of that first cell."""
    had = set()
    for source in old.values():
        if (tree := _parsed(source)) is not None:
            had |= {ast.unparse(node) for node in _imports(tree)}
    numbers = list(new)
    trees = {n: _parsed(new[n]) for n in numbers}
    moves: list[tuple[int, int, int]] = []  # (from cell, its 0-based line, to cell)
    for position, number in enumerate(numbers):
        tree = trees[number]
        if tree is None:
            continue
        for node in _imports(tree):
            if ast.unparse(node) in had or node.lineno != node.end_lineno:
                continue
            names = _bound(node)
            first = next(
                (n for n in numbers[:position] if trees[n] is not None and names & _used(trees[n])),
                None,
            )
            if first is not None:
                moves.append((number, node.lineno - 1, first))
    if not moves:
        return new
    lines = {n: new[n].split("\n") for n in numbers}
    taken: dict[int, list[str]] = {}
    for number, line, to in sorted(moves, key=lambda move: -move[1]):
        taken.setdefault(to, []).insert(0, lines[number].pop(line))
    for to, imports in taken.items():
        at = _insertion_line(trees[to])
        lines[to][at:at] = imports
    return {n: "\n".join(lines[n]) for n in numbers}
