"""Test code or a program: which modules are tests, never entry points, whose blockers are
warnings (a test's CPU reference run is deliberate).

A name does not say it alone: TCN's seven trainers are `add_test.py`, `word_cnn_test.py`, ...,
scripts with their own training loop that their READMEs launch (`python word_cnn_test.py --data
.data/penn`). A module in a tests folder, and `conftest.py`, is test code. A module named like a
test (`test_*.py`, `*_test.py`, what pytest collects) is test code unless it holds no tests
(``holds_tests``) and is a program: a launch line names it, or its own run trains.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Mapping
from typing import TypeGuard

from trncodemod.analysis.own_calls import calls, functions_that
from trncodemod.analysis.training import dotted, is_main_guard

_TEST_NAME = re.compile(r"(^test_.*|.*_test)\.py$")
_TEST_FOLDERS = frozenset({"test", "tests", "testing"})
# A folder named for tests (`test_utils/`, `unit_tests/`): what it holds serves a test suite,
# such as accelerate's `test_utils/scripts/test_performance.py`, a training run that asserts.
_TEST_FOLDER_NAME = re.compile(r"^test_|_tests?$")
_TEST_LIBRARIES = frozenset({"pytest", "unittest"})


def test_by_path(path: str) -> bool | None:
    """True where the path alone makes a module test code (a tests folder or one named for
    tests, `conftest.py`);
    False where it is not named like a test; None where what the module holds decides
    (`test_*.py`, `*_test.py`)."""
    parts = path.split("/")
    if parts[-1] == "conftest.py" or not _TEST_FOLDERS.isdisjoint(parts[:-1]):
        return True
    if any(_TEST_FOLDER_NAME.search(folder) for folder in parts[:-1]):
        return True
    return None if _TEST_NAME.match(parts[-1]) else False


def is_test_module(path: str, holds_tests: bool | None = None, runs: bool = False) -> bool:
    """Whether the module at ``path`` is test code, not a program that trains. ``holds_tests``:
    ``holds_tests`` of the module (None: not known, the name decides); ``runs``: a launch line
    names it or its own run trains."""
    by_path = test_by_path(path)
    if by_path is not None:
        return by_path
    return holds_tests is not False or not runs


def holds_tests(tree: ast.Module, imports: Mapping[str, str]) -> bool:
    """The module holds tests: it imports pytest or unittest, defines a `test_*` function that
    asserts (itself or through a function of its own: accelerate's `check_weights`) or that it never calls itself but to run it from its ``__main__`` block (pytest
    calls it; a trainer's `test_epoch(model, loader)` computes and is called by its own loop),
    or a test class (a `TestCase` subclass, a `Test*` class with such methods)."""
    for binding in imports.values():
        if not binding.startswith(".") and binding.split(":")[0].split(".")[0] in _TEST_LIBRARIES:
            return True
    candidates: list[ast.FunctionDef | ast.AsyncFunctionDef] = []
    for statement in tree.body:
        if isinstance(statement, ast.ClassDef):
            bases = [dotted(base) or "" for base in statement.bases]
            if any(base.rsplit(".", 1)[-1].endswith("TestCase") for base in bases):
                return True
            if statement.name.startswith("Test"):
                candidates += [m for m in statement.body if _named_like_a_test(m)]
        elif _named_like_a_test(statement):
            candidates.append(statement)
    if not candidates:
        return False
    asserting = functions_that(tree, _checks)
    if any(function.name in asserting or _asserts(function, asserting) for function in candidates):
        return True
    runs = {id(call.func) for call in _runs_of_tests(tree)}
    named = {
        _name(node)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Name, ast.Attribute)) and id(node) not in runs
    }
    return any(function.name not in named for function in candidates)


def _asserts(function: ast.FunctionDef | ast.AsyncFunctionDef, asserting: set[str]) -> bool:
    """``function`` checks (a method: the module's functions are in ``asserting``), itself or
    through a function of the module's own."""
    return calls(function, asserting) or any(_checks(node) for node in ast.walk(function))


def _checks(node: ast.AST) -> bool:
    """An `assert` statement or an `assert*` call (`torch.testing.assert_close`,
    `self.assertEqual`): a test checks, an evaluation computes."""
    if isinstance(node, ast.Assert):
        return True
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, (ast.Name, ast.Attribute))
        and _name(node.func).startswith("assert")
    )


def _runs_of_tests(tree: ast.Module) -> Iterable[ast.Call]:
    """`test_x()` as a statement of its own in the ``__main__`` block, no arguments: the module
    runs its tests when run as a script (not a trainer's `test_epoch(model, loader)`)."""
    for guard in tree.body:
        if is_main_guard(guard):
            for statement in guard.body:  # type: ignore[attr-defined]
                call = statement.value if isinstance(statement, ast.Expr) else None
                if isinstance(call, ast.Call) and not (call.args or call.keywords):
                    yield call


def _name(node: ast.Name | ast.Attribute) -> str:
    return node.id if isinstance(node, ast.Name) else node.attr


def _named_like_a_test(node: ast.stmt) -> TypeGuard[ast.FunctionDef | ast.AsyncFunctionDef]:
    return isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith(
        "test_"
    )
