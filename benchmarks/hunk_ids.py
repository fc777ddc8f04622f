"""Ids that stay with their hunk (issue 35, item 5): a reviewed verdict names one hunk, and is
refused the day it sits on another.

A hunk's id hashes its repository, file, enclosing function (``Trainer.train``, ``<module>``,
``cell 3`` in a notebook), the rules it is attributed to, its removed and added lines, and where
it sits among the lines it leaves alone: the nearest line of code of the original file before
it and after it (``around``; blank and comment lines skipped, whitespace collapsed). The same
inserted line in two functions (a graph cut in a training loop and in a validation loop) gets
two ids, and so does a cut that moves from after a host read to before it in one loop. Line
numbers stay out of the id, so an edit elsewhere in the file keeps it.

Ids written before: the ``prior_id`` (the same hash without ``around``) and the ``legacy_id``
(content only, ``repos.Hunk.key``). A verdict found by either is kept only while its stored
line is still the hunk's line: the repositories are pinned, so a hunk of the same content at
another line of the original file has moved, and its verdict must be read again.

A verdict stores the hunk's ``where`` (``repo path:line in scope``) and ``rules`` beside the id.
``refusal`` compares them with the hunk the id names today: a verdict whose function or rules
differ (or, found by a former id, whose line differs) is stale and is never counted. Shared by
``repos.py``, ``hunk_review.py`` and ``first_sight/run.py``.
"""

from __future__ import annotations

import ast
import hashlib
from collections import Counter

MODULE = "<module>"


def scopes(text: str, path: str) -> list[tuple[int, int, str]]:
    """(first line, last line, qualified name) of every function and class of a file; for a
    notebook (its JSON text), one ``cell N`` span per cell."""
    if path.endswith(".ipynb"):
        return _cells(text)
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return []
    found: list[tuple[int, int, str]] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = f"{prefix}{child.name}"
                first = min([child.lineno, *(d.lineno for d in child.decorator_list)])
                found.append((first, child.end_lineno or child.lineno, name))
                visit(child, name + ".")
            else:
                visit(child, prefix)

    visit(tree, "")
    return found


def _cells(text: str) -> list[tuple[int, int, str]]:
    starts = [i + 1 for i, line in enumerate(text.splitlines()) if '"cell_type"' in line]
    ends = [s - 1 for s in starts[1:]] + [len(text.splitlines())]
    return [(s, e, f"cell {n}") for n, (s, e) in enumerate(zip(starts, ends, strict=True), 1)]


def enclosing(spans: list[tuple[int, int, str]], line: int) -> str:
    """The innermost function or class holding ``line`` (1-based), else ``<module>``."""
    inside = [(first, name) for first, last, name in spans if first <= line <= last]
    return max(inside)[1] if inside else MODULE


def hunk_scope(hunk, before_spans: list, after_spans: list) -> str:
    """Where a hunk is: the function holding its added lines in the new file, or, for a pure
    removal, its removed lines in the old one."""
    if hunk.added:
        return enclosing(after_spans, hunk.new_start)
    return enclosing(before_spans, hunk.old_start)


def code_line(line: str, notebook: bool = False) -> str:
    """``line`` as ``around`` compares it: whitespace collapsed; "" for a blank or comment line.
    A notebook's line is a JSON string in a cell's source list: its quotes and newline go."""
    text = line.strip()
    if notebook:
        text = text.removesuffix(",").strip('"').removesuffix("\\n").strip()
    text = " ".join(text.split())
    return "" if text.startswith("#") else text


def around(old: list[str], first: int, last: int, notebook: bool = False) -> tuple[str, str]:
    """The nearest line of code of ``old`` before index ``first`` and from index ``last`` on
    (a hunk replaces ``old[first:last]``; an insertion has ``first == last``), normalised."""

    def nearest(lines) -> str:
        return next((text for line in lines if (text := code_line(line, notebook))), "")

    return nearest(reversed(old[:first])), nearest(old[last:])


def hunk_id(
    repo: str,
    path: str,
    scope: str,
    rules: list[str],
    removed,
    added,
    context: tuple[str, str] | None = None,
) -> str:
    """The hunk's id; without ``context`` (its ``around``), the prior id verdicts written
    before positions were kept use."""
    text = "\n".join([repo, path, scope, "+".join(rules), *("-" + s for s in removed)])
    text += "\n" + "\n".join("+" + s for s in added)
    if context is not None:
        text += "\n@" + "\n@".join(context)
    return hashlib.sha1(text.encode()).hexdigest()[:12]


def where(repo: str, path: str, line: int, scope: str) -> str:
    return f"{repo} {path}:{line} in {scope}"


def number(ids: list[str]) -> list[str]:
    """The same id twice (the same edit twice in one function): told apart by order."""
    seen: Counter[str] = Counter()
    out = []
    for key in ids:
        seen[key] += 1
        out.append(key if seen[key] == 1 else f"{key}-{seen[key]}")
    return out


def _place(text: str) -> tuple[str, str, str]:
    """``repo path:line in scope`` as (``repo path``, line, scope or "")."""
    head, _, scope = text.partition(" in ")
    place, _, line = head.rpartition(":")
    return place, line, scope


def refusal(entry: dict, hunk: dict) -> str | None:
    """Why the verdict ``entry`` does not belong to ``hunk`` (a row of ``hunks.json`` with its
    ``where``), or None when its stored place and rules still match. A verdict that names the
    hunk by a former id (``prior_id``, ``legacy_id``) must also still be at its line."""
    rules = "+".join(hunk["rules"])
    if entry.get("rules", rules) != rules:
        return f"rules {entry.get('rules')} now {rules}"
    stored, line, scope = _place(entry.get("where", ""))
    now, now_line, now_scope = _place(hunk["where"])
    if stored != now:
        return f"place {entry.get('where')} now {hunk['where']}"
    if scope and scope != now_scope:
        return f"function {scope} now {now_scope}"
    # Found by a former id, which leaves out where the hunk sits among its lines: only its
    # line tells that it has not moved (from after a host read to before it, say).
    if entry.get("id") != hunk.get("id", entry.get("id")) and line != now_line:
        return f"line {line} now {now_line} (moved: found by a former id, read it again)"
    return None
