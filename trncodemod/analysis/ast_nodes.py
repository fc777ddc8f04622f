"""Every node of a module's ``ast``, listed once.

The first stage reads one tree a dozen times (imports, bindings, calls, loaders, the training
profile, each pass's scan), each an ``ast.walk`` of the whole module: a fifth of a library
module's run. ``nodes`` lists the walk once for the newest trees asked about; ``own_nodes``
walks one scope's own code."""

from __future__ import annotations

import ast
from collections.abc import Iterator

# The newest trees asked about, with their nodes: the engine reads one file's trees at a time.
_KEPT: list[tuple[ast.AST, list[ast.AST]]] = []
_KEEP = 4


def nodes(tree: ast.AST) -> list[ast.AST]:
    """What ``list(ast.walk(tree))`` gives: the same nodes, in the same order. Shared: callers
    must not change it (nor the tree)."""
    for kept, found in _KEPT:
        if kept is tree:
            return found
    found = list(ast.walk(tree))
    _KEPT.insert(0, (tree, found))
    del _KEPT[_KEEP:]
    return found


_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


def own_nodes(root: ast.AST) -> Iterator[ast.AST]:
    """The nodes of ``root``'s body that run in its own scope (no nested function or class)."""
    stack = list(ast.iter_child_nodes(root)) if not isinstance(root, ast.Module) else [*root.body]
    while stack:
        node = stack.pop()
        if isinstance(node, _SCOPES):
            continue
        yield node
        stack.extend(ast.iter_child_nodes(node))
