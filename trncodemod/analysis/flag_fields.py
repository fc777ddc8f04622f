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
from collections.abc import Iterable, Iterator, Mapping

from trncodemod.analysis.training import dotted

_AVAILABILITY = ("cuda.is_available", "accelerator.is_available")
# Calls that are harmless made true on the target: the tool removes or rewrites each.
_HARMLESS_CALLS = frozenset(
    {"print", "torch.cuda.manual_seed", "torch.cuda.manual_seed_all", "torch.manual_seed"}
)
_MOVES = frozenset({"cuda", "to"})
# Libraries whose calls return no object a helper of the program set a flag on.
_LIBRARIES = frozenset(
    {"torch", "torchvision", "torchaudio", "numpy", "math", "os", "sys", "random", "time", "re"}
    | {"json", "logging", "copy", "itertools", "functools", "collections", "pathlib", "PIL"}
    | {"transformers", "datasets", "accelerate", "tqdm", "wandb", "yaml", "cv2", "einops"}
    | {"torch_xla", "timm", "scipy", "pandas", "sklearn", "typing", "dataclasses", "argparse"}
)

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
        if not is_setter(function.name):
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
            why = next((w for _, f, _, _, w in reads if f in (target.attr, HANDED_ON) and w), "")
            fields.append((target.attr, check.lineno, check.col_offset + 1, why))
        if fields:
            found[function.name] = tuple(fields)
    return found


def flag_reads(tree: ast.Module, imports: Mapping[str, str]) -> dict[str, tuple[FlagRead, ...]]:
    """Imported callees as this module spells them (`get_args`, `arguments.get_args`) -> the
    reads (`args.cuda`) of a name bound to their result in the same scope, each with what it
    turns on. Method calls (`model.train()`) are not reads of a flag; what a library returns
    (`x = torch.zeros(...)`, `x.shape`) and what a class builds (`model = Net()`: a flag setter
    is a function, ``is_setter``) are not followed. The result kept other than in a plain name
    (`self.args = get_args()`) is read whole where the tool does not follow it (``HANDED_ON``)."""
    imported = {
        local
        for local, binding in imports.items()
        if binding.startswith(".") or binding.partition(":")[0].split(".")[0] not in _LIBRARIES
    }
    found: dict[str, list[FlagRead]] = {}
    for body in _scopes(tree):
        bound: dict[str, str] = {}
        for statement in _statements(body):
            if not (isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Call)):
                continue
            callee = dotted(statement.value.func) or ""
            if callee.split(".", 1)[0] not in imported or not is_setter(callee.rsplit(".", 1)[-1]):
                continue
            targets = statement.targets
            if len(targets) == 1 and isinstance(targets[0], ast.Name):
                bound[targets[0].id] = callee
            else:
                why = (
                    f"its result is kept at line {statement.lineno} "
                    f"(`{_short(ast.unparse(statement))}`), where the tool does not follow it"
                )
                read = (f"?.{HANDED_ON}", statement.lineno, statement.col_offset + 1, why)
                found.setdefault(callee, []).append(read)
        for name, field, line, column, why in _reads(body, set(bound)) if bound else ():
            found.setdefault(bound[name], []).append((f"{name}.{field}", line, column, why))
    return {callee: tuple(reads) for callee, reads in found.items()}


def is_setter(name: str) -> bool:
    """A function name, as opposed to a class's (`get_args`, not `Trainer`): only functions are
    read as flag setters, on both sides."""
    return not name[:1].isupper()


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
    """The module's top level and each function's body, found through statements only."""
    yield tree.body
    stack: list[ast.stmt] = list(tree.body)
    while stack:
        statement = stack.pop()
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield statement.body
        for block in ("body", "orelse", "finalbody"):
            stack.extend(getattr(statement, block, ()))
        for handler in getattr(statement, "handlers", ()):
            stack.extend(handler.body)


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


def _reads(body: list[ast.stmt], names: set[str]) -> list[tuple[str, str, int, int, str]]:
    """Reads of ``name.field`` in one scope, as (name, field, line, column, why it is not a
    device choice); the
    name handed on whole (`train(args)`, `self.args = args`) reads every field (``HANDED_ON``)
    where the tool does not follow it."""
    reads: list[tuple[ast.Attribute, dict[ast.AST, ast.AST]]] = []
    handed: list[tuple[str, str, int, int, str]] = []
    for statement in _statements(body):
        named = [
            n
            for n in _own_nodes(statement)
            if isinstance(n, ast.Name) and n.id in names and isinstance(n.ctx, ast.Load)
        ]
        if not named:
            continue
        parents = {
            child: node for node in _own_nodes(statement) for child in ast.iter_child_nodes(node)
        }
        for node in named:
            parent = parents.get(node)
            if isinstance(parent, ast.Attribute) and isinstance(parent.ctx, ast.Load):
                call = parents.get(parent)
                if not (isinstance(call, ast.Call) and call.func is parent):
                    reads.append((parent, parents))
            elif not isinstance(parent, ast.Attribute | ast.Return):
                code = _short(
                    ast.unparse(statement if isinstance(statement, ast.Expr | ast.Assign) else node)
                )
                why = (
                    f"`{node.id}` is handed on whole at line {node.lineno} (`{code}`), where the "
                    "tool does not follow it"
                )
                handed.append((node.id, HANDED_ON, node.lineno, node.col_offset + 1, why))
    found = [
        (r.value.id, r.attr, r.lineno, r.col_offset + 1, _why_not_a_choice(r, parents))  # type: ignore[attr-defined]
        for r, parents in reads
    ]
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
    return f"it is read at line {read.lineno} in a way the tool does not follow"


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
