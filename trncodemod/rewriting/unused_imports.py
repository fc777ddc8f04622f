"""Which imports of a tree LibCST's ``GatherUnusedImportsVisitor`` would call unused, where the
tree's text settles it without a scope analysis.

LibCST's ``RemoveImportsVisitor`` removes a scheduled import only where that visitor says nothing
uses it, which costs a copy of the tree, its scope analysis and qualified names, and three walks:
a quarter of a training script's run where a pass removes an import (denoising-diffusion-pytorch's
1,000-line module: 4.4 of 17.8 s). An import is unused by that visitor's reckoning when no
reference, export (``__all__``) or string annotation names what it binds; each of those spells
the first part of the bound name in the code outside the import statements (other than after
an attribute's dot). So where that part
appears nowhere else in the code, the answer is "unused" without a scope. Where it does, the
code's ``ast`` often settles it the other way: an import of the module's global scope that is the
only binding of its name anywhere in the module, read (an ``ast.Name`` load) on a line below the
import, is used by LibCST's reckoning too (a read in a nested scope sees every binding of the
global scope; a read in the global scope, each binding made before it). Elsewhere the answer
needs the scopes (``undecided``), and the caller asks LibCST.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from collections.abc import Iterator

import libcst as cst

from trncodemod.analysis.nodes import children

Import = cst.Import | cst.ImportFrom


class UnusedByText:
    """What ``GatherUnusedImportsVisitor.unused_imports`` holds of ``tree`` (as the mapping
    ``RemoveImportsVisitor._unused_imports``, alias -> its import), for the aliases asked about:
    ``alias in this`` is LibCST's answer where the text settles it; where it does not, the
    answer is "used" and ``undecided`` is set."""

    def __init__(self, tree: cst.Module) -> None:
        self.tree = tree
        self.undecided = False
        self._parents: dict[cst.ImportAlias, Import] | None = None
        self._texts: tuple[str, str] | None = None
        self._reads: _Reads | None = None

    def __contains__(self, alias: object) -> bool:
        if self._parents is None:
            self._parents = {
                alias: node
                for node in _imports(self.tree)
                if _gathered(node)
                for alias in node.names  # type: ignore[union-attr]
            }
        if alias not in self._parents:
            return False  # not an import the visitor gathers: never unused
        assert isinstance(alias, cst.ImportAlias)
        bound = alias.asname.name if alias.asname is not None else alias.name
        head = _head(bound)
        if head is None:
            self.undecided = True
            return False
        if not self._spelled(head):
            return True
        if self._reads is None:
            self._reads = _Reads(self._texts[0] if self._texts is not None else self.tree.code)
        if not self._reads.read_below_its_import(head):
            self.undecided = True
        return False

    def _spelled(self, word: str) -> bool:
        """Whether ``word`` is spelled as a whole word in the code outside the import
        statements (the whole code spells it more often than the import statements do), other
        than as an attribute's name right after its dot (`x.word`), which is never a reference
        to a name, nor an export or a string annotation (their names are whole dotted names)."""
        if self._texts is None:
            tree = self.tree
            imports = "\n".join(tree.code_for_node(node) for node in _imports(tree))
            self._texts = (tree.code, imports)
        pattern = re.compile(rf"(?<![\w.]){re.escape(word)}(?!\w)")
        whole, imports = self._texts
        return len(pattern.findall(whole)) > len(pattern.findall(imports))


class _Reads:
    """What the ``ast`` of a module's code says of its names: how often each is bound anywhere,
    the last line of each import statement of the global scope that binds it, and the lines it
    is read on."""

    def __init__(self, code: str) -> None:
        self.bound: Counter[str] = Counter()
        self.imported_at: dict[str, int] = {}
        self.read_on: dict[str, list[int]] = {}
        try:
            module = ast.parse(code)
        except (SyntaxError, ValueError):  # syntax newer than this Python's: undecided
            self.parsed = False
            return
        self.parsed = True
        for node in ast.walk(module):
            for name in _binds(node):
                self.bound[name] += 1
            if type(node) is ast.Name and type(node.ctx) is ast.Load:
                self.read_on.setdefault(node.id, []).append(node.lineno)
        for statement in _global_statements(module.body):
            if isinstance(statement, ast.Import | ast.ImportFrom):
                for alias in statement.names:
                    name = alias.asname or alias.name.partition(".")[0]
                    self.imported_at[name] = statement.end_lineno or statement.lineno

    def read_below_its_import(self, name: str) -> bool:
        """Whether ``name`` is bound once in the module, by an import of the global scope, and
        read on a line below that import."""
        if not self.parsed or self.bound[name] != 1 or name not in self.imported_at:
            return False
        line = self.imported_at[name]
        return any(read > line for read in self.read_on.get(name, ()))


def _binds(node: ast.AST) -> Iterator[str]:
    """The names ``node`` binds (or declares global or nonlocal, or deletes)."""
    kind = type(node)
    if kind is ast.Name:
        if type(node.ctx) is not ast.Load:  # type: ignore[attr-defined]
            yield node.id  # type: ignore[attr-defined]
    elif kind is ast.arg:
        yield node.arg  # type: ignore[attr-defined]
    elif kind in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
        yield node.name  # type: ignore[attr-defined]
    elif kind in (ast.Import, ast.ImportFrom):
        for alias in node.names:  # type: ignore[attr-defined]
            yield alias.asname or alias.name.partition(".")[0]
    elif kind in (ast.Global, ast.Nonlocal):
        yield from node.names  # type: ignore[attr-defined]
    elif kind in (ast.ExceptHandler, ast.MatchAs, ast.MatchStar):
        if node.name is not None:  # type: ignore[attr-defined]
            yield node.name  # type: ignore[attr-defined]
    elif kind is ast.MatchMapping and node.rest is not None:  # type: ignore[attr-defined]
        yield node.rest  # type: ignore[attr-defined]


def _global_statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """The statements of the global scope: ``body`` and the blocks of its compound statements,
    not the bodies of functions or classes."""
    for statement in body:
        yield statement
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            for child in getattr(statement, field, ()):
                if isinstance(child, ast.stmt):
                    yield from _global_statements([child])
                else:  # an except handler or a match case: its body
                    yield from _global_statements(child.body)


def _head(name: cst.BaseExpression) -> str | None:
    """The first part of a bound name (`a` of `a.b.c`); None for anything else."""
    while isinstance(name, cst.Attribute):
        name = name.value
    return name.value if isinstance(name, cst.Name) else None


def _gathered(node: Import) -> bool:
    """Whether ``GatherUnusedImportsVisitor`` gathers the aliases of ``node`` (its
    ``visit_Import`` and ``visit_ImportFrom``, with the default ignored module)."""
    if isinstance(node, cst.Import):
        return True
    module = node.module
    return (
        not isinstance(node.names, cst.ImportStar)
        and module is not None
        and not (isinstance(module, cst.Name) and module.value == "__future__")
    )


def _imports(tree: cst.Module) -> Iterator[Import]:
    """Every import statement of ``tree``, nested ones too (expressions are not walked)."""
    stack: list[cst.CSTNode] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, Import):
            yield node
        elif not isinstance(node, cst.BaseExpression):
            stack.extend(reversed(children(node)))
