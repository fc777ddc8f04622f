"""The first stage's view of the ``buckets`` pass's DataLoader check, on Python's ``ast``: whether a
DataLoader call may lack ``drop_last`` with a batch size other than 1, which the pass reports or
fixes (TRN215, TRN216). ``PadToBuckets.candidate`` asks it; it over-estimates (the loader's role
is not checked) and decides no rewrite. ``LOADER_POSITIONS``, where DataLoader takes its
arguments positionally, is shared with the pass.
"""

from __future__ import annotations

import ast

from trncodemod.analysis.ast_nodes import nodes

# DataLoader(dataset, batch_size, shuffle, sampler, batch_sampler, num_workers, collate_fn,
#            pin_memory, drop_last, ...)
LOADER_POSITIONS = {"batch_size": 1, "batch_sampler": 4, "collate_fn": 6, "drop_last": 8}


def _loader_names(tree: ast.Module) -> set[str]:
    """Names a DataLoader class may be called by: its own, and any alias an import binds."""
    names = {"DataLoader"}
    for node in nodes(tree):
        if type(node) is ast.Import or type(node) is ast.ImportFrom:
            for alias in node.names:
                if alias.asname and alias.name.rsplit(".", 1)[-1] == "DataLoader":
                    names.add(alias.asname)
    return names


def _is_one_or_none(node: ast.expr) -> bool:
    """PadToBuckets' ``_literal(node) in (1, None)``: ``1``, ``True`` or ``None`` written as such."""
    return type(node) is ast.Constant and (
        node.value is None or (type(node.value) in (int, bool) and node.value == 1)
    )


def may_need_drop_last(tree: ast.Module) -> bool:
    """Whether a call of a DataLoader passes what _loader_call needs to report: no
    ``drop_last`` (keyword or ninth positional), and a batch size other than 1 or *args/**kwargs
    (the loader's role is not checked here)."""
    names = _loader_names(tree)
    for node in nodes(tree):
        if type(node) is not ast.Call:
            continue
        func = node.func
        last = (
            func.id if type(func) is ast.Name else func.attr if type(func) is ast.Attribute else ""
        )
        if last not in names:
            continue
        if any(k.arg == "drop_last" for k in node.keywords):
            continue
        positional = [a for a in node.args if type(a) is not ast.Starred]
        if len(positional) > LOADER_POSITIONS["drop_last"]:
            continue
        unreadable = len(positional) < len(node.args) or any(k.arg is None for k in node.keywords)
        if not unreadable:
            size = next((k.value for k in node.keywords if k.arg == "batch_size"), None)
            if size is None and len(positional) > LOADER_POSITIONS["batch_size"]:
                size = positional[LOADER_POSITIONS["batch_size"]]
            if size is None or _is_one_or_none(size):
                continue
        return True
    return False
