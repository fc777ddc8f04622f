"""A CUDA flag set on the object a helper returns, and read in other modules (issue 34).

The argparse helper shape: `get_args()` in `arguments.py` ends with `args.cuda = not
args.no_cuda and torch.cuda.is_available()` and `return args`; the entry script does `args =
get_args()` and `torch.device("cuda:0" if args.cuda else "cpu")`. `torch.cuda.is_available()`
is False under torch_xla ([measured-cuda-calls]), so the flag is False on Trainium and the
program trains on the CPU. Within one file the device pass drops the check (TRN021); here the
flag is set in one module and read in others, so whether dropping it is right depends on every
read: certain only where each one chooses a device (or does what is harmless made true: a move,
a cuDNN setting, a CUDA seed the tool removes), not where the flag also turns on something only
CUDA runs (a `torch.cuda.Stream`, a CUDA-only library or kernel).

Read from each module's ``ast`` (plain data, cached with the module's summary):
``flag_fields`` finds the flags a top-level function sets from an availability check on the
name it returns; ``flag_reads`` finds, in every scope that binds a name to a call's result,
the reads of that name's fields and what each read turns on. The program model
(``analysis.program``) matches the two across modules.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator

from trncodemod.analysis.training import dotted

_AVAILABILITY = ("cuda.is_available", "accelerator.is_available")
# Calls that are harmless made true on the target: the tool removes or rewrites each.
_HARMLESS_CALLS = frozenset(
    {"print", "torch.cuda.manual_seed", "torch.cuda.manual_seed_all", "torch.manual_seed"}
)
_MOVES = frozenset({"cuda", "to"})

# (field, line, column of the availability check, why the flag is not only a device choice
# in the function itself: "" where it is).
FlagField = tuple[str, int, int, str]
# (the read as spelled, `args.cuda`, or `args.*` where the whole object is handed on; line,
# column, why the read is not a device choice: "" where it is).
FlagRead = tuple[str, int, int, str]
HANDED_ON = "*"


def flag_fields(tree: ast.Module) -> dict[str, tuple[FlagField, ...]]:
    """Top-level functions -> the flags they set from an availability check on the name they
    return (`args.cuda = not args.no_cuda and torch.cuda.is_available()`)."""
    found: dict[str, tuple[FlagField, ...]] = {}
    for function in tree.body:
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        returned = {
            r.value.id
            for r in ast.walk(function)
            if isinstance(r, ast.Return) and isinstance(r.value, ast.Name)
        }
        fields: list[FlagField] = []
        for assign in ast.walk(function):
            if not (isinstance(assign, ast.Assign) and len(assign.targets) == 1):
                continue
            target = assign.targets[0]
            if not (
                isinstance(target, ast.Attribute)
                and isinstance(target.value, ast.Name)
                and target.value.id in returned
            ):
                continue
            check = _availability_check(assign.value)
            if check is None:
                continue
            reads = _reads(function.body, {target.value.id})
            why = next((w for f, _, _, w in reads if f in (target.attr, HANDED_ON) and w), "")
            fields.append((target.attr, check.lineno, check.col_offset + 1, why))
        if fields:
            found[function.name] = tuple(fields)
    return found


def flag_reads(tree: ast.Module, imported: Iterable[str]) -> dict[str, tuple[FlagRead, ...]]:
    """Imported callees as this module spells them (`get_args`, `arguments.get_args`) -> the
    reads (`args.cuda`) of a name bound to their result in the same scope, each with what it
    turns on. Method calls (`model.train()`) are not reads of a flag."""
    imported = set(imported)
    found: dict[str, list[FlagRead]] = {}
    for body in _scopes(tree):
        bound: dict[str, str] = {}
        for statement in _statements(body):
            if (
                isinstance(statement, ast.Assign)
                and len(statement.targets) == 1
                and isinstance(statement.targets[0], ast.Name)
                and isinstance(statement.value, ast.Call)
            ):
                callee = dotted(statement.value.func)
                if callee is not None and callee.split(".", 1)[0] in imported:
                    bound[statement.targets[0].id] = callee
        for name, callee in bound.items():
            reads = _reads(body, {name})
            if reads:
                found.setdefault(callee, []).extend((f"{name}.{f}", *rest) for f, *rest in reads)
    return {callee: tuple(reads) for callee, reads in found.items()}


def _availability_check(value: ast.expr) -> ast.Call | None:
    """The availability check in a boolean made only of names, `not`, `and`/`or` and checks."""
    check = None
    for node in ast.walk(value):
        if isinstance(node, ast.Call):
            if node.args or not (dotted(node.func) or "").endswith(_AVAILABILITY):
                return None
            check = node
        elif not isinstance(
            node,
            (ast.BoolOp, ast.UnaryOp, ast.Not, ast.And, ast.Or, ast.Name, ast.Attribute, ast.Load),
        ):
            return None
    return check


def _scopes(tree: ast.Module) -> Iterator[list[ast.stmt]]:
    yield tree.body
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node.body


def _statements(body: Iterable[ast.stmt]) -> Iterator[ast.stmt]:
    """The statements of one scope, in nested blocks too, not in nested functions/classes."""
    for statement in body:
        yield statement
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        for block in ("body", "orelse", "finalbody"):
            yield from _statements(getattr(statement, block, ()))
        for handler in getattr(statement, "handlers", ()):
            yield from _statements(handler.body)


def _reads(body: list[ast.stmt], names: set[str]) -> list[FlagRead]:
    """Reads of ``name.field`` in one scope, each with why it is not a device choice; the
    name handed on whole (`train(args)`, `self.args = args`) reads every field (``HANDED_ON``)
    where the tool does not follow it."""
    parents: dict[ast.AST, ast.AST] = {}
    reads: list[ast.Attribute] = []
    handed: list[FlagRead] = []
    for statement in _statements(body):
        for node in _own_nodes(statement):
            for child in ast.iter_child_nodes(node):
                parents[child] = node
            if (
                isinstance(node, ast.Attribute)
                and not (isinstance(parents.get(node), ast.Call) and parents[node].func is node)
                and isinstance(node.ctx, ast.Load)
                and isinstance(node.value, ast.Name)
                and node.value.id in names
            ):
                reads.append(node)
            elif (
                isinstance(node, ast.Name)
                and isinstance(node.ctx, ast.Load)
                and node.id in names
                and not isinstance(parents.get(node), ast.Attribute | ast.Return)
            ):
                code = _short(
                    ast.unparse(statement if isinstance(statement, ast.Expr | ast.Assign) else node)
                )
                why = f"`{node.id}` is handed on whole at line {node.lineno} (`{code}`), where the tool does not follow it"
                handed.append((HANDED_ON, node.lineno, node.col_offset + 1, why))
    found = [(r.attr, r.lineno, r.col_offset + 1, _why_not_a_choice(r, parents)) for r in reads]
    return found + handed


def _own_nodes(statement: ast.stmt) -> Iterator[ast.AST]:
    """The nodes of a statement, not of the statements nested in it."""
    stack: list[ast.AST] = [statement]
    while stack:
        node = stack.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if not isinstance(child, ast.stmt):
                stack.append(child)


def _why_not_a_choice(read: ast.Attribute, parents: dict[ast.AST, ast.AST]) -> str:
    """ "" where made true the read only chooses a device or runs what is harmless on the
    target; else what it would run, with its line."""
    node: ast.AST = read
    positive = True
    while isinstance(parents.get(node), (ast.BoolOp, ast.UnaryOp)):
        parent = parents[node]
        if isinstance(parent, ast.UnaryOp):
            if not isinstance(parent.op, ast.Not):
                break
            positive = not positive
        node = parent
    parent = parents.get(node)
    if isinstance(parent, ast.IfExp) and parent.test is node:
        for side in (parent.body, parent.orelse):
            if not _device_value(side):
                return (
                    f"it chooses `{_short(ast.unparse(side))}` (line {side.lineno}), not a device"
                )
        return ""
    if isinstance(parent, ast.If) and parent.test is node:
        for statement in parent.body if positive else parent.orelse:
            why = _not_harmless(statement)
            if why:
                return why
        return ""
    code = ast.unparse(parent if isinstance(parent, ast.stmt | ast.expr) else node)
    return f"it is read at line {read.lineno} (`{_short(code)}`) in a way the tool does not follow"


def _device_value(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return True
    return (
        isinstance(node, ast.Call)
        and (dotted(node.func) or "").rsplit(".", 1)[-1] in ("device", "xla_device")
        and all(isinstance(a, ast.Constant) for a in node.args)
    )


def _not_harmless(statement: ast.stmt) -> str:
    """ "" where ``statement`` is harmless made to run on the target: a move, a device choice,
    a cuDNN setting or CUDA seed (removed by the tool), a print; else what it runs."""
    if isinstance(statement, ast.Pass):
        return ""
    if isinstance(statement, ast.If):
        for inner in [*statement.body, *statement.orelse]:
            why = _not_harmless(inner)
            if why:
                return why
        return ""
    if isinstance(statement, ast.Expr) and _harmless_call(statement.value):
        return ""
    if isinstance(statement, ast.Assign | ast.AnnAssign):
        targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
        if all((dotted(t) or "").startswith("torch.backends.") for t in targets):
            return ""
        value = statement.value
        if value is not None and (_device_value(value) or _harmless_call(value)):
            return ""
    code = _short(ast.unparse(statement))
    cuda = any(
        isinstance(n, ast.Call) and (dotted(n.func) or "").startswith("torch.cuda.")
        for n in ast.walk(statement)
    )
    if cuda or isinstance(statement, ast.Import | ast.ImportFrom):
        return f"it turns on `{code}` (line {statement.lineno}), which needs CUDA"
    return f"it turns on `{code}` (line {statement.lineno}), not only a device"


def _harmless_call(node: ast.expr) -> bool:
    if not isinstance(node, ast.Call):
        return False
    name = dotted(node.func) or ""
    if name in _HARMLESS_CALLS or name.startswith("torch.backends."):
        return True
    return isinstance(node.func, ast.Attribute) and node.func.attr in _MOVES


def _short(code: str) -> str:
    code = " ".join(code.split())
    return code if len(code) <= 60 else code[:59] + "…"
