"""The first stage of the ``float64`` pass (``Float64ToFloat32.candidate``), on Python's ``ast``:
whether a file has a place where torch.float64 may act, or where a tensor constructor may take a
NumPy value. It may say yes too often, never no where the pass acts (tests/test_first_stage.py).
"""

from __future__ import annotations

import ast

from trncodemod.analysis.ast_nodes import nodes

F64_PARTS = frozenset({"float64", "double"})
SINK_PARTS = frozenset({"tensor", "as_tensor", "asarray"})


def has_site(tree: ast.Module, f64: bool, sinks: bool) -> bool:
    """Whether the tree has a place where torch.float64 may act (``f64``: a call argument, a
    default, an assignment's value that is a name or attribute spelled like it) or where a
    tensor constructor may take a NumPy value (``sinks``). A plain name counts where it is
    spelled so or an import binds it to such a name (`from torch import float64 as f8`)."""
    names: set[str] = set()  # plain names at such places, resolved against the imports below
    imported: set[str] = set()  # names bound by an import to a `float64`/`tensor`... name
    parts = (F64_PARTS if f64 else frozenset()) | (SINK_PARTS if sinks else frozenset())

    def f64_like(value: ast.expr | None) -> bool:
        kind = type(value)
        if kind is ast.Attribute:
            return value.attr in F64_PARTS  # type: ignore[union-attr]
        if kind is ast.Name:
            names.add(value.id)  # type: ignore[union-attr]
        return False

    for node in nodes(tree):
        kind = type(node)
        if kind is ast.Call:
            if f64 and (
                any(f64_like(a.value if type(a) is ast.Starred else a) for a in node.args)  # type: ignore[attr-defined]
                or any(f64_like(k.value) for k in node.keywords)  # type: ignore[attr-defined]
            ):
                return True
            if sinks and sink_may_convert(node, names):  # type: ignore[arg-type]
                return True
        elif f64 and kind in (ast.Assign, ast.AnnAssign):
            if f64_like(node.value):  # type: ignore[attr-defined]
                return True
        elif f64 and kind is ast.arguments:
            defaults = [*node.defaults, *node.kw_defaults]  # type: ignore[attr-defined]
            if any(f64_like(d) for d in defaults if d is not None):
                return True
        elif kind is ast.Import or kind is ast.ImportFrom:
            for alias in node.names:  # type: ignore[attr-defined]
                if alias.name.rsplit(".", 1)[-1] in parts:
                    imported.add(alias.asname or alias.name.split(".", 1)[0])
    return not names.isdisjoint(imported | parts)


def sink_may_convert(call: ast.Call, names: set[str]) -> bool:
    """``Float64ToFloat32._convert_array`` may act on ``call`` as torch.tensor/as_tensor/asarray: one positional
    argument, first, no `dtype=` and no unpacking, and the argument a name, subscript, call or
    `.T` (what ``Float64ToFloat32._array_dtype`` may find a NumPy value in). A plain-name callee is added to
    ``names`` (it may be an import alias) instead of deciding here."""
    func = call.func
    if type(func) is ast.Attribute:
        if func.attr not in SINK_PARTS:  # type: ignore[attr-defined]
            return False
    elif type(func) is not ast.Name:
        return False
    if len(call.args) != 1 or type(call.args[0]) is ast.Starred:
        return False
    if any(k.arg is None or k.arg == "dtype" for k in call.keywords):
        return False
    value = call.args[0]
    kind = type(value)
    if not (
        kind in (ast.Name, ast.Subscript, ast.Call) or (kind is ast.Attribute and value.attr == "T")  # type: ignore[attr-defined]
    ):
        return False
    if type(func) is ast.Name:
        names.add(func.id)  # type: ignore[attr-defined]
        return False
    return True
