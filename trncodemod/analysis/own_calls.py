"""What a module's top-level code does through the functions of its own it calls by name: a
script whose top level runs `train(ep)`, whose loop calls `backward()` (an entry point), a
`test_*` function that asserts in a `check_weights(...)` helper (a test)."""

from __future__ import annotations

import ast
from collections.abc import Callable


def functions_that(tree: ast.Module, does: Callable[[ast.AST], bool]) -> set[str]:
    """The module's top-level functions that hold a node ``does`` holds true of, or call one of
    its own top-level functions that does, at any depth."""
    functions = [s for s in tree.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))]
    found = {f.name for f in functions if any(does(node) for node in ast.walk(f))}
    while grown := {f.name for f in functions if f.name not in found and calls(f, found)}:
        found |= grown
    return found


def calls(node: ast.AST, functions: set[str]) -> bool:
    """``node`` calls one of ``functions`` by its name."""
    return any(
        isinstance(child, ast.Call)
        and isinstance(child.func, ast.Name)
        and child.func.id in functions
        for child in ast.walk(node)
    )
