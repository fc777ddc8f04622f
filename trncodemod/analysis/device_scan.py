"""The first stage's view of ``trncodemod.analysis.device``, on Python's ``ast``: whether a device
argument of the file (``device=x``, ``.to(x)``) may hold a device index, which the device analysis
reports as a rank device (TRN024). ``DevicePlacement.candidate`` asks it; it over-estimates and
decides no test.
"""

from __future__ import annotations

import ast

from trncodemod.analysis.ast_nodes import nodes
from trncodemod.analysis.device import _ID_LIST, _RANK_NAME
from trncodemod.analysis.facts import FileFacts
from trncodemod.analysis.facts import dotted as _ast_dotted

# Last names of the calls the device analysis values as a device index (`_INDEX_CALLS`,
# `int(...)` of a rank) or whose value is their first argument's (`torch.device`).
_INDEX_CALL_NAMES = frozenset(
    {"current_device", "current_device_index", "get_rank", "get_node_local_rank", "int"}
)
_SPAWN_NAMES = frozenset({"spawn", "start_processes"})
_COLLECTED = frozenset(
    {ast.Call, ast.Assign, ast.AnnAssign, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef}
)


def _default_of(function: ast.FunctionDef | ast.AsyncFunctionDef, name: str) -> ast.expr | None:
    arguments = function.args
    positional = [*arguments.posonlyargs, *arguments.args]
    defaults = [None] * (len(positional) - len(arguments.defaults)) + list(arguments.defaults)
    pairs = [
        *zip(positional, defaults, strict=True),
        *zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True),
    ]
    return next((default for arg, default in pairs if arg.arg == name), None)


def may_place_on_rank(facts: FileFacts) -> bool:
    """Whether a device argument (`device=x`, `.to(x)`) may hold a device index, which the device
    analysis reports as a rank device (`rank_devices`/`rank_values`, TRN024): an over-estimate
    of ``analysis.device._Evaluator.value`` giving RANK, followed through the same bindings
    (every `name = value` by dotted text, function parameters through their callers and
    defaults, argparse defaults) without deciding any test."""
    bindings: dict[str, list[ast.expr]] = {}
    parameters: dict[str, list[tuple[ast.FunctionDef | ast.AsyncFunctionDef, int]]] = {}
    owners: dict[int, str] = {}
    defaults: dict[str, ast.expr] = {}  # argparse dest (or long flag) -> default
    calls: list[ast.Call] = []
    work: list[ast.expr] = []

    def bind(target: ast.expr, value: ast.expr | None) -> None:
        name = _ast_dotted(target)
        if name is not None:
            if value is not None:
                bindings.setdefault(name, []).append(value)
        elif isinstance(target, ast.Tuple | ast.List):
            for element in target.elts:
                bind(element, None)

    for node in nodes(facts.tree):
        kind = type(node)
        if kind not in _COLLECTED:
            continue
        if kind is ast.Call:
            calls.append(node)
            device = next((k.value for k in node.keywords if k.arg == "device"), None)
            func = node.func
            if device is not None:
                work.append(device)
            elif (
                type(func) is ast.Attribute
                and func.attr in ("to", "cuda")
                and node.args
                and type(node.args[0]) is not ast.Starred
            ):
                work.append(node.args[0])
            if type(func) is ast.Attribute and func.attr == "add_argument":
                default = next((k.value for k in node.keywords if k.arg == "default"), None)
                if default is not None:
                    for arg in [*node.args, *(k.value for k in node.keywords if k.arg == "dest")]:
                        if type(arg) is ast.Constant and type(arg.value) is str:
                            defaults[arg.value.lstrip("-").replace("-", "_")] = default
        elif kind is ast.Assign:
            for target in node.targets:
                bind(target, node.value)
        elif kind is ast.AnnAssign:
            bind(node.target, node.value)
        elif kind in (ast.FunctionDef, ast.AsyncFunctionDef):
            for position, param in enumerate([*node.args.posonlyargs, *node.args.args]):
                parameters.setdefault(param.arg, []).append((node, position))
        elif kind is ast.ClassDef:
            for statement in node.body:
                if type(statement) in (ast.FunctionDef, ast.AsyncFunctionDef):
                    owners[id(statement)] = node.name
    if not work:
        return False
    aliases = facts.bindings

    def last_names(func: ast.expr) -> set[str]:
        """The last names of what ``func`` may be, through the file's imports."""
        name = _ast_dotted(func) or ""
        head, _, rest = name.partition(".")
        full = {name} | {f"{bound}.{rest}" if rest else bound for bound in aliases.get(head, ())}
        return {n.rsplit(".", 1)[-1] for n in full}

    seen: set[int] = set()
    names_seen: set[str] = set()
    while work:
        node = work.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        kind = type(node)
        if kind is ast.Constant:
            if type(node.value) is int:
                return True  # an index: `.to(0)`, `device = 0`
        elif kind is ast.JoinedStr:
            head = node.values[0] if node.values else None
            if type(head) is ast.Constant and str(head.value).startswith("cuda:"):
                return True
        elif kind is ast.BinOp:
            if type(node.left) is ast.Constant and str(node.left.value).startswith("cuda:"):
                return True
        elif kind is ast.IfExp:
            work += [node.body, node.orelse]
        elif kind is ast.Subscript:
            if _ID_LIST.match((_ast_dotted(node.value) or "").rsplit(".", 1)[-1]):
                return True  # `device_ids[0]`
        elif kind is ast.Call:
            lasts = last_names(node.func)
            if not lasts.isdisjoint(_INDEX_CALL_NAMES):
                return True
            if "device" in lasts:  # torch.device(x): the value of x
                values = [*node.args, *(k.value for k in node.keywords)]
                if len(values) > 1:
                    return True  # torch.device("cuda", rank)
                work += values
        elif kind in (ast.Name, ast.Attribute):
            name = _ast_dotted(node)
            if name is None or name in names_seen:
                continue  # a name is worked out once: by its dotted text, as the analysis does
            names_seen.add(name)
            last = name.rsplit(".", 1)[-1]
            if _RANK_NAME.match(last):
                return True  # `rank`, `self.gpu_id`, `args.local_rank`
            if "." in name and last in defaults:
                work.append(defaults[last])
            work += bindings.get(name, ())
            for function, position in parameters.get(name, ()):
                # `_Evaluator._parameter`: the argument each caller passes (by keyword, else by
                # position less `self`), else the parameter's default.
                default = _default_of(function, name)
                if default is not None:
                    work.append(default)
                params = function.args.args
                index = position - (1 if params and params[0].arg in ("self", "cls") else 0)
                owner = owners.get(id(function))
                wanted = {function.name, owner or function.name}
                for call in calls:
                    func = call.func
                    called = func.id if type(func) is ast.Name else None
                    if type(func) is ast.Attribute and owner is not None:
                        called = func.attr
                    if called in wanted:
                        given = [k.value for k in call.keywords if k.arg == name]
                        if not given and 0 <= index < len(call.args):
                            if not any(type(a) is ast.Starred for a in call.args[: index + 1]):
                                given = [call.args[index]]
                        work += given
                    elif call.args and not last_names(func).isdisjoint(_SPAWN_NAMES):
                        first = call.args[0]
                        if type(first) is ast.Name and first.id == function.name:
                            return True  # mp.spawn(fn, ...) calls fn(rank, ...)
    return False
