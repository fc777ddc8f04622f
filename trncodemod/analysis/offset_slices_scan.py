"""The ast side of ``offset_slices``, for the program model (which never loads LibCST): the
functions of a module that slice a parameter at another parameter's offset, and the calls a
`range` loop makes with its offset, so that a step's `get_batch(train_data, i)` finds the
slice in another module ([measured-offset-slices])."""

from __future__ import annotations

import ast

_AST_MOVES = frozenset({"to", "cuda"})


def slicing_functions(tree: ast.Module) -> dict[str, tuple[int, int, int]]:
    """Top-level functions that slice a parameter at an offset another parameter gives, and
    do not move the slice (`get_batch(source, i)`: `source[:, i:i + n]`): name -> (the
    source's position, the offset's position, the slice's line)."""
    found: dict[str, tuple[int, int, int]] = {}
    for function in tree.body:
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        names = [a.arg for a in (*function.args.posonlyargs, *function.args.args)]
        moves = [
            node.func.value
            for node in ast.walk(function)
            if isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in _AST_MOVES
        ]
        # Moved where taken (`source[i:j].to(d)`), or through the name bound to it.
        moved = {id(value) for value in moves}
        receivers = {value.id for value in moves if isinstance(value, ast.Name)}
        for node in ast.walk(function):
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                target = node.targets[0]
                if isinstance(target, ast.Name) and target.id in receivers:
                    moved.add(id(node.value))
        for node in ast.walk(function):
            if not (
                isinstance(node, ast.Subscript)
                and isinstance(node.value, ast.Name)
                and node.value.id in names
                and id(node) not in moved
            ):
                continue
            parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            for part in parts:
                if not isinstance(part, ast.Slice) or part.lower is None:
                    continue
                read = {n.id for n in ast.walk(part.lower) if isinstance(n, ast.Name)}
                offsets = [p for p in names if p in read and p != node.value.id]
                if offsets:
                    position = names.index(node.value.id), names.index(offsets[0])
                    found.setdefault(function.name, (*position, node.lineno))
    return found


def offset_calls(tree: ast.Module) -> tuple[tuple[str, int, int], ...]:
    """Calls of a name that a ``for`` over ``range(...)`` (or ``enumerate(range(...))``) makes
    with its offset as a positional argument (`get_batch(train_data, i, args)`): (the name, the
    offset's position, the line)."""
    found = []
    for loop in ast.walk(tree):
        offsets = loop_offsets(loop)
        if not offsets:
            continue
        for node in ast.walk(loop):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                for position, arg in enumerate(node.args):
                    if isinstance(arg, ast.Name) and arg.id in offsets:
                        found.append((node.func.id, position, node.lineno))
    return tuple(sorted(set(found)))


def loop_offsets(loop: ast.AST) -> set[str]:
    """``i`` of ``for i in range(...)`` and ``for b, i in enumerate(range(...))``, and the
    names the loop's own body adds to (``i += seq_len``; ``offset_slices.range_offsets``)."""
    if not isinstance(loop, ast.For | ast.While):
        return set()
    found = {
        statement.target.id
        for statement in loop.body
        if isinstance(statement, ast.AugAssign)
        and isinstance(statement.op, ast.Add)
        and isinstance(statement.target, ast.Name)
    }
    if not isinstance(loop, ast.For) or not isinstance(loop.iter, ast.Call):
        return found
    call, target = loop.iter, loop.target
    if isinstance(call.func, ast.Name) and call.func.id == "enumerate" and call.args:
        if not isinstance(target, ast.Tuple) or len(target.elts) != 2:
            return found
        call, target = call.args[0], target.elts[1]
    if (
        isinstance(call, ast.Call)
        and isinstance(call.func, ast.Name)
        and call.func.id == "range"
        and isinstance(target, ast.Name)
    ):
        found.add(target.id)
    return found
