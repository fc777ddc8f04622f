"""Which imports of a tree LibCST's ``GatherUnusedImportsVisitor`` would call unused, where the
tree's text settles it without a scope analysis.

LibCST's ``RemoveImportsVisitor`` removes a scheduled import only where that visitor says nothing
uses it, which costs a copy of the tree, its scope analysis and qualified names, and three walks:
a quarter of a training script's run where a pass removes an import (denoising-diffusion-pytorch's
1,000-line module: 4.4 of 17.8 s). An import is unused by that visitor's reckoning when no
reference, export (``__all__``) or string annotation names what it binds; each of those spells
the first part of the bound name in the code outside the import statements (other than after
an attribute's dot). So where that part
appears nowhere else in the code, the answer is "unused" without a scope; where it does, the
answer needs the scopes (``undecided``), and the caller asks LibCST.
"""

from __future__ import annotations

import re
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
        if head is None or self._spelled(head):
            self.undecided = True
            return False
        return True

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
