"""Benchmark: every notebook of a folder migrated as a user's `apply` would (issue 37).

    python benchmarks/notebooks.py DIR [--json]

For each ``*.ipynb`` under DIR (a public repository's checkout; its notebooks are never
committed here), `migrate_file` with the default settings, then counts:

- **errors**, and among them **internal errors** (a pass or the notebook splitter failed: the
  tool's fault, never the notebook's);
- **cells that do not parse**: every code cell of the written notebook, IPython lines masked
  here by this script's own rule (not the tool's), must be Python wherever the original cell was;
- **late imports**: a name an import the tool added binds, used in a code cell before the cell
  that imports it (a `NameError` when the notebook runs in order);
- **not idempotent**: a second migration of the written notebook changes it again.

The checks are independent of the code under test, so the same script measures an older
trncodemod (`PYTHONPATH=<its checkout> python benchmarks/notebooks.py DIR`).
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import sys
import tempfile
from pathlib import Path

# A line IPython rewrites before Python sees it, at the start of a statement: shell (`!ls`),
# magics (`%time f()`), an assignment from either (`x = !ls`), help (`obj?`, `??obj`).
_IPYTHON = re.compile(r"^[ \t]*(?:[!%?]|[\w.\[\], \t]+=[ \t]*[!%]|%{0,2}[\w.*]+[ \t]*\?\??[ \t]*$)")
_PYTHON_CELL_MAGICS = ("%%time", "%%timeit", "%%capture")


def masked(source: str) -> str | None:
    """The cell as Python, IPython lines made `pass`; None for a cell in another language."""
    lines = source.split("\n")
    first = source.lstrip()
    if first.startswith("%%"):
        if not first.startswith(_PYTHON_CELL_MAGICS):
            return None
        index = next(i for i, line in enumerate(lines) if line.strip())
        lines[index] = "pass"
    for index, line in enumerate(lines):
        if _IPYTHON.match(line):
            lines[index] = line[: len(line) - len(line.lstrip())] + "pass"
    return "\n".join(lines)


def _parses(source: str) -> bool:
    text = masked(source)
    if text is None:
        return True
    try:
        ast.parse(text)
    except SyntaxError:
        return False
    return True


def _code_cells(raw: bytes) -> list[str]:
    cells = json.loads(raw)["cells"]
    return [
        "".join(c["source"]) if isinstance(c.get("source"), list) else c.get("source", "")
        for c in cells
        if c.get("cell_type") == "code"
    ]


def _imported_names(source: str) -> set[str]:
    text = masked(source)
    if text is None:
        return set()
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return set()
    names = set()
    for node in tree.body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            for alias in node.names:
                names.add(alias.asname or alias.name.split(".")[0])
    return names


def _used_names(source: str) -> set[str]:
    text = masked(source)
    try:
        tree = ast.parse(text or "")
    except SyntaxError:
        return set()
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}


def late_imports(old: list[str], new: list[str]) -> list[str]:
    """Names the tool's added imports bind that a cell uses before the cell importing them."""
    had = set().union(*map(_imported_names, old)) if old else set()
    late = []
    seen: set[str] = set()
    for index, source in enumerate(new):
        added = _imported_names(source) - had - seen
        for name in added:
            first = next((i for i, s in enumerate(new) if name in _used_names(s)), index)
            if first < index:
                late.append(f"{name}: used in code cell {first + 1}, imported in {index + 1}")
        seen |= added
    return late


def measure(folder: Path) -> dict:
    from trncodemod.config import Settings
    from trncodemod.pipeline.engine import migrate_file

    figures = {
        "notebooks": 0,
        "code cells": 0,
        "changed": 0,
        "errors": 0,
        "internal errors": 0,
        "cells that do not parse": 0,
        "late imports": 0,
        "not idempotent": 0,
    }
    problems: list[str] = []
    for path in sorted(folder.rglob("*.ipynb")):
        if ".ipynb_checkpoints" in path.parts:
            continue
        name = path.relative_to(folder).as_posix()
        raw = path.read_bytes()
        old = _code_cells(raw)
        figures["notebooks"] += 1
        figures["code cells"] += len(old)
        outcome = migrate_file(path, name, Settings())
        if outcome.error is not None:
            figures["errors"] += 1
            internal = "internal error" in outcome.error
            figures["internal errors"] += internal
            problems.append(f"{'INTERNAL ' if internal else ''}error: {outcome.error_text()}")
            continue
        if outcome.new is None:
            continue
        figures["changed"] += 1
        new = _code_cells(outcome.new)
        for number, (before, after) in enumerate(zip(old, new, strict=True), 1):
            if _parses(before) and not _parses(after):
                figures["cells that do not parse"] += 1
                problems.append(f"does not parse: {name} code cell {number}")
        for late in late_imports(old, new):
            figures["late imports"] += 1
            problems.append(f"late import: {name}: {late}")
        with tempfile.TemporaryDirectory() as scratch:
            again = Path(scratch) / path.name
            again.write_bytes(outcome.new)
            second = migrate_file(again, name, Settings())
            if second.new is not None or second.error is not None:
                figures["not idempotent"] += 1
                problems.append(f"not idempotent: {name} {second.error or ''}")
    return {"figures": figures, "problems": problems}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = measure(args.folder)
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        for problem in result["problems"]:
            print(problem)
        print(" | ".join(f"{k}: {v}" for k, v in result["figures"].items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
