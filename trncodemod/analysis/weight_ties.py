"""The weights a module class ties in its `__init__` (`self.lm_head.weight = self.wte.weight`),
read from the `ast`: asked by the program model for every class of every module, and by the
tied-weights pass for the classes of its own file (``transforms/tied_weights.py``).

A class's ties are strings: "lm_head.weight=wte.weight" for an assignment of one plain attribute
chain on the instance to another at the top of `__init__`; CONDITIONAL where such an assignment
sits under a condition or in a loop; PRETRAINED for a Hugging Face `PreTrainedModel` subclass
that ties (it declares `_tied_weights_keys` or defines `get_output_embeddings`).
"""

from __future__ import annotations

import ast

CONDITIONAL = "?"
PRETRAINED = "hf"
_HF_TYING = frozenset({"_tied_weights_keys", "get_output_embeddings"})


def _chain(node: ast.expr, root: str) -> str | None:
    """`a.b` for `root.a.b` (plain attributes, two or more), else None."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name) or node.id != root or len(parts) < 2:
        return None
    return ".".join(reversed(parts))


def tie_of(statement: ast.stmt, root: str) -> tuple[str, str] | None:
    """``(target, source)`` where ``statement`` is `root.x.w = root.y.w`."""
    if not isinstance(statement, ast.Assign) or len(statement.targets) != 1:
        return None
    target, source = _chain(statement.targets[0], root), _chain(statement.value, root)
    return (target, source) if target and source else None


def _base_name(node: ast.expr) -> str:
    return node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", "")


def class_ties(cls: ast.ClassDef) -> tuple[str, ...]:
    """The ties of ``cls`` (see the module's docstring); () where it ties nothing."""
    ties: list[str] = []
    defined = {
        n
        for s in cls.body
        for n in (
            [s.name]
            if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef)
            else [t.id for t in getattr(s, "targets", ()) if isinstance(t, ast.Name)]
        )
    }
    if any(_base_name(b).endswith("PreTrainedModel") for b in cls.bases) and defined & _HF_TYING:
        ties.append(PRETRAINED)
    init = next(
        (s for s in cls.body if isinstance(s, ast.FunctionDef) and s.name == "__init__"), None
    )
    if init is None or not init.args.args:
        return tuple(ties)
    root = init.args.args[0].arg
    for statement in init.body:
        tie = tie_of(statement, root)
        if tie is not None:
            ties.append("=".join(tie))
        elif not isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            nested = (
                n for n in ast.walk(statement) if isinstance(n, ast.stmt) and n is not statement
            )
            if any(tie_of(n, root) for n in nested) and CONDITIONAL not in ties:
                ties.append(CONDITIONAL)
    return tuple(ties)
