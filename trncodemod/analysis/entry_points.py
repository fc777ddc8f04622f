"""The entry points of a program for the verdict (issue 34): a ``__main__`` guard, a script
named on a launch line, a console script's function, a module whose own top level trains, a
script outside any package whose top level calls into a module that trains. Found without
parsing where a line pattern answers."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Mapping

from trncodemod.analysis.own_calls import calls, functions_that
from trncodemod.analysis.testcode import holds_tests, is_test_module, test_by_path
from trncodemod.analysis.training import dotted, import_specs


def entry_points(
    texts: Mapping[str, str], launched: Iterable[str] = (), console: Iterable[tuple[str, str]] = ()
) -> list[tuple[str, str]]:
    """The entry points among the given modules: (path, function or "" for the module's top
    level): a ``__main__`` guard, a script named on a launch line, a console script's function,
    a module whose own top level trains (a script without a guard). Test modules are none."""
    from trncodemod.analysis.program import _Index

    found: dict[tuple[str, str], None] = {}
    launched = set(launched)
    tests = {p for p, t in texts.items() if _test_code(p, t, p in launched)}
    # Modules that run a training step: a script whose top level calls into one trains.
    trainers = {p for p, t in texts.items() if "backward(" in t and p not in tests}
    index = _Index(texts) if trainers else None
    for path in sorted(texts):
        if path in tests or not path.endswith(".py"):
            continue
        text = texts[path]
        if path in launched or _MAIN_GUARD.search(text):
            found[(path, "")] = None
        elif "backward(" in text or (trainers and _script(path, texts) and _TOP_CALL.search(text)):
            try:
                tree = ast.parse(text)
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                continue
            if _top_level_step(tree) or _drives_training(tree, path, trainers, index):
                found[(path, "")] = None
    modules = {p[:-3].replace("/", "."): p for p in texts if p.endswith(".py")}
    for module, function in console:
        for name, path in modules.items():
            if name == module or name.endswith("." + module):
                found[(path, function)] = None
    return list(found)


def _test_code(path: str, text: str, launched: bool) -> bool:
    """Whether the module is test code (``testcode.is_test_module``): its path decides, or, named
    like a test, what it holds and does (TCN's `word_cnn_test.py` is a trainer)."""
    from trncodemod.analysis.program import runs_training, summarize

    by_path = test_by_path(path)
    if by_path is not None:
        return by_path
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return True  # not known: the name decides
    if holds_tests(tree, import_specs(tree)[0]):
        return True
    summary = None if launched else summarize(text)  # only where the tests leave it open
    return is_test_module(path, False, launched or summary is not None and runs_training(summary))


_MAIN_GUARD = re.compile(
    r"""^if\s*\(?\s*(__name__\s*==\s*['"]__main__['"]|['"]__main__['"]\s*==\s*__name__)""",
    re.MULTILINE,
)


# A call at a module's top level (`engine.train(...)`, `results = train(...)`).
_TOP_CALL = re.compile(r"^(?:[\w.]+(?:\s*,\s*[\w.]+)*\s*=\s*)?[\w.]+\(", re.MULTILINE)


def _script(path: str, texts: Mapping[str, str]) -> bool:
    """A module outside any package (no `__init__.py` beside it): a script, not a library."""
    folder = path.rpartition("/")[0]
    return (f"{folder}/__init__.py" if folder else "__init__.py") not in texts


def _drives_training(tree: ast.Module, path: str, trainers: set[str], index) -> bool:
    """A script without a guard whose own top level calls a function of a given module that
    trains (going_modular's `train.py`: `engine.train(model=model, ...)`)."""
    imports, _ = import_specs(tree)
    for statement in tree.body:
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        for node in ast.walk(statement):
            if not isinstance(node, ast.Call):
                continue
            head = (dotted(node.func) or "").split(".", 1)[0]
            binding = imports.get(head)
            if binding is None:
                continue
            spec, _, name = binding.partition(":")
            for candidate in (f"{spec}.{name}" if name else spec, spec):
                module = index.module(path, candidate) if candidate.strip(".") else None
                if module is not None and module != path and module in trainers:
                    return True
    return False


def _top_level_step(tree: ast.Module) -> bool:
    """The module's top level runs a training step: it calls ``backward()``, or a function of
    its own that does, itself or through others of its own (TCN's `add_test.py`, no guard:
    `for ep in range(1, epochs + 1): train(ep)`)."""
    steps = functions_that(tree, _is_backward)
    return any(
        calls(statement, steps) or any(_is_backward(node) for node in ast.walk(statement))
        for statement in tree.body
        if not isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
    )


def _is_backward(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "backward"
    )


def imports_torch(text: str) -> bool:
    return "torch" in text and bool(import_specs_safe(text))


def import_specs_safe(text: str) -> bool:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    names, _ = import_specs(tree)
    return any(
        spec.lstrip(".").split(":", 1)[0].split(".", 1)[0]
        in ("torch", "torch_xla", "lightning", "pytorch_lightning", "transformers", "accelerate")
        for spec in names.values()
    )
