"""Parameters the repository's functions read only as a device, and functions whose tensors are
made on the device a parameter gives, followed through any number of calls and modules.

StyleGAN2's `train.py` binds `device = "cuda"` and hands it to `train(..., device)`, which hands
it to `mixing_noise(..., device)` (→ `make_noise(..., device)` → `torch.randn(...,
device=device)`) and to `AdaptiveAugment(..., device)` of `non_leaking.py` (→ `torch.tensor(...,
device=device)`). Every function that receives the value reads it only as a device, so the
"cuda" is the training device: rewritten to the target's (TRN002), not left for a person
(TRN006). And what `mixing_noise` returns is made on the device it is given: an input of a DDP
model that needs no `device_ids` (TRN144).

Per module, from its ``ast`` (plain data, part of ``ModuleSummary``), for each top-level
function, class (its ``__init__``) and method (``Class.method``):

* ``parameters``: the parameters whose every read is a device use — a ``device=`` argument,
  the first argument of ``.to(...)``/``torch.device(...)``, stored in a name or a
  ``self.<attribute>`` read only so — or is handed to a call of the repository (kept as a
  *forward*, decided when the program is built). A parameter printed, compared, formatted, given
  to a string method or to a library call other than those is left out: its "cuda" stays
  text, for a person.
* ``returns``: the parameter on whose device every returned tensor is made: a torch factory
  given ``device=<it>``, ``.to(<it>)``, a tensor method of one (``.unbind(0)``), a list or tuple
  of them, a name bound only to them, or a call of the repository that passes it on (a
  forward).

Across the program (``resolve``), a forward holds where the callee's parameter it binds is one
too: the largest set that holds (a recursion that only passes the value on keeps it).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator, Mapping

# (callee as spelled, its positional index or -1, its keyword or "")
Forward = tuple[str, int, str]
# (parameter name, positional index or -1 for keyword-only, the forwards it relies on)
Parameter = tuple[str, int, tuple[Forward, ...]]

# torch functions that make a tensor on the CPU unless given `device=`.
TENSOR_FACTORIES = frozenset(
    f"torch.{name}"
    for name in (
        "randn",
        "rand",
        "randint",
        "randperm",
        "zeros",
        "ones",
        "empty",
        "full",
        "arange",
        "linspace",
        "eye",
        "tensor",
        "as_tensor",
    )
)
# Tensor methods whose result is not on the tensor's device (or is no tensor).
_LEAVES_DEVICE = frozenset({"cpu", "cuda", "to", "type", "numpy", "tolist", "item", "pin_memory"})
_DEVICE_CALLS = frozenset({"torch.device", "torch.set_default_device"})
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_DEPTH = 6


def _callables(
    tree: ast.Module,
) -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef, int]]:
    """Each top-level function, each class's ``__init__`` (by the class's name) and method
    (``Class.method``), with how many leading parameters a call does not pass (``self``)."""
    functions = (ast.FunctionDef, ast.AsyncFunctionDef)
    for statement in tree.body:
        if isinstance(statement, functions):
            yield statement.name, statement, 0
        elif isinstance(statement, ast.ClassDef):
            for method in statement.body:
                if isinstance(method, functions) and method.args.args:
                    if any(
                        _decorator(d) in ("staticmethod", "classmethod")
                        for d in method.decorator_list
                    ):
                        continue
                    yield f"{statement.name}.{method.name}", method, 1
                    if method.name == "__init__":
                        yield statement.name, method, 1


def _decorator(node: ast.expr) -> str:
    return node.id if isinstance(node, ast.Name) else ""


def _parameters(
    function: ast.FunctionDef | ast.AsyncFunctionDef, skip: int
) -> list[tuple[str, int]]:
    args = function.args
    plain = [a.arg for a in (*args.posonlyargs, *args.args)][skip:]
    return [(name, index) for index, name in enumerate(plain)] + [
        (a.arg, -1) for a in args.kwonlyargs
    ]


class _Module:
    """One module's tree, with its parents, its imports' full names and its classes."""

    def __init__(self, tree: ast.Module, full_name: Callable[[str], str]) -> None:
        self.full_name = full_name
        self.classes = {c.name: c for c in tree.body if isinstance(c, ast.ClassDef)}
        self._attributes: dict[str, dict[str, list[ast.Attribute]]] = {}
        # One walk of the tree: each node's parent, and each scope's names and returns (a
        # module of thousands of lines is asked about every parameter of every function).
        self.parents: dict[int, ast.AST] = {}
        self._names: dict[int, _Names] = {id(tree): _Names(tree)}
        stack: list[tuple[ast.AST, tuple[_Names, ...]]] = [(tree, (self._names[id(tree)],))]
        while stack:
            node, chain = stack.pop()
            for child in ast.iter_child_nodes(node):
                self.parents[id(child)] = node
                inner = chain
                if isinstance(child, _SCOPES):
                    names = self._names[id(child)] = _Names(child)
                    inner = (*chain, names)
                else:
                    chain[-1].add(child, chain)
                stack.append((child, inner))

    def names(self, scope: ast.AST) -> _Names:
        """The names ``scope`` reads and binds itself, and those a scope inside it reads."""
        return self._names[id(scope)]

    def attribute_reads(self, owner: str, attribute: str) -> list[ast.Attribute]:
        """The reads of ``self.<attribute>`` in the methods of class ``owner``."""
        table = self._attributes.get(owner)
        if table is None:
            table = self._attributes[owner] = {}
            for node in ast.walk(self.classes[owner]):
                if (
                    isinstance(node, ast.Attribute)
                    and isinstance(node.value, ast.Name)
                    and node.value.id == "self"
                    and isinstance(node.ctx, ast.Load)
                ):
                    table.setdefault(node.attr, []).append(node)
        return table.get(attribute, [])

    def parent(self, node: ast.AST) -> ast.AST | None:
        return self.parents.get(id(node))

    def _name(self, node: ast.expr) -> str | None:
        parts = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name):
            return None
        parts.append(node.id)
        return ".".join(reversed(parts))

    def callee(self, call: ast.Call) -> str | None:
        return self._name(call.func)

    def is_any(self, node: ast.expr, names: frozenset[str]) -> bool:
        spelled = self._name(node)
        return spelled is not None and self.full_name(spelled) in names

    # -- a parameter read only as a device ---------------------------------------------------
    def device_reads(
        self, scope: ast.AST, name: str, owner: str | None, seen: set
    ) -> list[Forward] | None:
        """The forwards every read of ``name`` in ``scope`` relies on to be a device use, or
        None where one read is not; None where there is no read."""
        if (id(scope), name) in seen or len(seen) > 64:
            return []  # a cycle (`a = b; b = a`) adds no use
        seen.add((id(scope), name))
        names = self.names(scope)
        reads = names.reads.get(name, [])
        if not reads or name in names.inner_reads:
            return None  # never read, or read by a function defined inside (not followed)
        forwards: list[Forward] = []
        for read in reads:
            found = self._read(read, scope, owner, seen)
            if found is None:
                return None
            forwards += found
        return forwards

    def _attribute_reads(self, attribute: str, owner: str, seen: set) -> list[Forward] | None:
        """The forwards every read of ``self.<attribute>`` in class ``owner`` relies on."""
        if (owner, attribute) in seen:
            return []
        seen.add((owner, attribute))
        reads = self.attribute_reads(owner, attribute)
        if not reads:
            return None
        forwards: list[Forward] = []
        for read in reads:
            found = self._read(read, self._enclosing(read), owner, seen)
            if found is None:
                return None
            forwards += found
        return forwards

    def _enclosing(self, node: ast.AST) -> ast.AST:
        """The function (or class) ``node`` is read in."""
        parent = self.parent(node)
        while parent is not None and not isinstance(parent, _SCOPES):
            parent = self.parent(parent)
        return parent if parent is not None else node

    def _read(
        self, read: ast.expr, scope: ast.AST, owner: str | None, seen: set
    ) -> list[Forward] | None:
        parent = self.parent(read)
        if isinstance(parent, ast.keyword):
            call = self.parent(parent)
            if not isinstance(call, ast.Call) or parent.arg is None:
                return None
            if parent.arg == "device":
                return []
            return self._forward(call, -1, parent.arg, owner)
        if isinstance(parent, ast.Call) and read in parent.args:
            index = parent.args.index(read)
            if index == 0 and isinstance(parent.func, ast.Attribute) and parent.func.attr == "to":
                return []
            if index == 0 and self.is_any(parent.func, _DEVICE_CALLS):
                return []
            return self._forward(parent, index, "", owner)
        if isinstance(parent, ast.Assign) and parent.value is read and len(parent.targets) == 1:
            target = parent.targets[0]
            if isinstance(target, ast.Name):
                return self.device_reads(scope, target.id, owner, seen)
            if (
                isinstance(target, ast.Attribute)
                and isinstance(target.value, ast.Name)
                and target.value.id == "self"
                and owner in self.classes
            ):
                return self._attribute_reads(target.attr, owner, seen)
        return None

    def _forward(
        self, call: ast.Call, index: int, keyword: str, owner: str | None
    ) -> list[Forward] | None:
        """A call of a function that may be the repository's: decided when the program is
        built. Not one that unpacks its arguments (the position is not known)."""
        callee = self.callee(call)
        if callee is None or any(isinstance(a, ast.Starred) for a in call.args):
            return None
        if index >= 0 and any(k.arg is None for k in call.keywords):
            return None
        if callee.startswith("self.") and owner is not None and callee.count(".") == 1:
            callee = f"{owner}.{callee[5:]}"  # a method of the same class, by its key
        elif callee.split(".", 1)[0] == "self":
            return None
        elif callee.split(".", 1)[0] in self.classes:
            return None  # `Class.method(obj, ...)`: the instance is passed, positions shift
        return [(callee, index, keyword)]

    # -- a function's tensors made on a parameter's device -----------------------------------
    def made_on(
        self, value: ast.expr | None, function: ast.AST, name: str, depth: int = 0
    ) -> list[Forward] | None:
        """The forwards ``value`` relies on to be tensors made on the device ``name`` holds,
        or None where it may be made elsewhere."""
        if value is None or depth > _DEPTH:
            return None
        if isinstance(value, (ast.List, ast.Tuple)) and value.elts:
            forwards: list[Forward] = []
            for element in value.elts:
                found = self.made_on(element, function, name, depth + 1)
                if found is None:
                    return None
                forwards += found
            return forwards
        if isinstance(value, ast.IfExp):
            body = self.made_on(value.body, function, name, depth + 1)
            orelse = self.made_on(value.orelse, function, name, depth + 1)
            return None if body is None or orelse is None else body + orelse
        if isinstance(value, ast.Name):
            return self._bound_on(value.id, function, name, depth)
        if not isinstance(value, ast.Call):
            return None
        given = _passes(value, name)
        if self.is_any(value.func, TENSOR_FACTORIES):
            return [] if given == (-1, "device") else None
        spelled = self.callee(value)
        func = value.func
        if isinstance(func, ast.Attribute):
            if func.attr == "to":
                return [] if given in ((0, ""), (-1, "device")) else None
            if func.attr in _LEAVES_DEVICE:
                return None
            if spelled is None or spelled.split(".", 1)[0] in self.names(function).bound:
                # A tensor's method (`torch.randn(...).unbind(0)`, `noise.view(...)`): on the
                # tensor's device.
                return self.made_on(func.value, function, name, depth + 1)
        if spelled is None or given is None:
            return None
        return [(spelled, *given)]

    def _bound_on(
        self, local: str, function: ast.AST, name: str, depth: int
    ) -> list[Forward] | None:
        """Every binding of ``local`` in ``function`` is made on ``name``'s device; None where it
        is a parameter or is bound other than by a plain assignment."""
        if local in _parameter_names(function):
            return None
        values = []
        for node in self.names(function).stores.get(local, []):
            parent = self.parent(node)
            if not (isinstance(parent, ast.Assign) and node in parent.targets):
                return None
            values.append(parent.value)
        if not values:
            return None
        forwards: list[Forward] = []
        for bound in values:
            found = self.made_on(bound, function, name, depth + 1)
            if found is None:
                return None
            forwards += found
        return forwards


def _passes(call: ast.Call, name: str) -> tuple[int, str] | None:
    """Where ``call`` passes the name ``name``: (index, "") or (-1, keyword)."""
    for index, arg in enumerate(call.args):
        if isinstance(arg, ast.Name) and arg.id == name:
            if any(isinstance(a, ast.Starred) for a in call.args[:index]):
                return None
            return index, ""
    for keyword in call.keywords:
        if keyword.arg and isinstance(keyword.value, ast.Name) and keyword.value.id == name:
            return -1, keyword.arg
    return None


def _parameter_names(function: ast.AST) -> set[str]:
    args = getattr(function, "args", None)
    if args is None:
        return set()
    every = (*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg)
    return {a.arg for a in every if a is not None}


class _Names:
    """What one scope holds itself (not a scope inside it): the names it reads and stores, by
    name, what it binds (parameters included), its `return`s and whether it yields; and the
    names a scope defined inside it reads."""

    def __init__(self, scope: ast.AST) -> None:
        self.reads: dict[str, list[ast.Name]] = {}
        self.stores: dict[str, list[ast.Name]] = {}
        self.bound = _parameter_names(scope)
        self.returns: list[ast.Return] = []
        self.generator = False
        self.inner_reads: set[str] = set()

    def add(self, node: ast.AST, chain: tuple[_Names, ...]) -> None:
        if isinstance(node, ast.Name):
            if isinstance(node.ctx, ast.Load):
                self.reads.setdefault(node.id, []).append(node)
                for outer in chain[:-1]:
                    outer.inner_reads.add(node.id)
            else:
                self.stores.setdefault(node.id, []).append(node)
                self.bound.add(node.id)
        elif isinstance(node, ast.Return):
            self.returns.append(node)
        elif isinstance(node, (ast.Yield, ast.YieldFrom)):
            self.generator = True


def device_parameters(
    tree: ast.Module, full_name: Callable[[str], str]
) -> tuple[dict[str, tuple[Parameter, ...]], dict[str, tuple[Parameter, ...]]]:
    """A module's ``parameters`` and ``returns`` (see the module's docstring), by key."""
    module = _Module(tree, full_name)
    parameters: dict[str, tuple[Parameter, ...]] = {}
    returns: dict[str, tuple[Parameter, ...]] = {}
    for key, function, skip in _callables(tree):
        owner = key.split(".", 1)[0] if skip else None
        found = []
        for name, index in _parameters(function, skip):
            forwards = module.device_reads(function, name, owner, set())
            if forwards is not None:
                found.append((name, index, tuple(dict.fromkeys(forwards))))
        if found:
            parameters[key] = tuple(found)
        made = _returns_on(module, function, skip)
        if made:
            returns[key] = made
    return parameters, returns


def _returns_on(module: _Module, function: ast.AST, skip: int) -> tuple[Parameter, ...]:
    """The parameters on whose device every tensor ``function`` returns may be made."""
    names = module.names(function)
    values = [node.value for node in names.returns]
    if names.generator or not values or any(v is None for v in values):
        return ()
    found = []
    for name, index in _parameters(function, skip):  # type: ignore[arg-type]
        forwards: list[Forward] = []
        for value in values:
            made = module.made_on(value, function, name)
            if made is None:
                break
            forwards += made
        else:
            found.append((name, index, tuple(dict.fromkeys(forwards))))
    return tuple(found)


def binds(parameter: Parameter, index: int, keyword: str) -> bool:
    """Whether an argument at ``index`` (or by ``keyword``) binds ``parameter``."""
    name, position, _ = parameter
    return (keyword == name) if keyword else (index >= 0 and index == position)


Table = Mapping[str, Mapping[str, tuple[Parameter, ...]]]  # path -> key -> parameters
Resolved = dict[tuple[str, str], tuple[Parameter, ...]]  # (path, key) -> parameters


def resolve(
    table: Table, definition: Callable[[str, str, str], tuple[str, str] | None]
) -> Resolved:
    """The parameters of ``table`` (``parameters`` or ``returns`` of each module) whose
    forwards hold across the program, by (path, key): the largest such set, found by dropping
    what fails until nothing does. ``definition(path, key, callee)``: the (path, key) that a
    callee spelled in ``key`` of ``path`` stands for, or None outside the given files."""
    held: dict[tuple[str, str], dict[str, Parameter]] = {
        (path, key): {p[0]: p for p in found}
        for path, keys in table.items()
        for key, found in keys.items()
    }

    def holds(path: str, key: str, forward: Forward) -> bool:
        target = definition(path, key, forward[0])
        found = held.get(target, {}) if target is not None else {}
        return any(binds(p, forward[1], forward[2]) for p in found.values())

    changed = True
    while changed:
        changed = False
        for (path, key), found in held.items():
            for name, parameter in list(found.items()):
                if not all(holds(path, key, f) for f in parameter[2]):
                    del found[name]
                    changed = True
    return {place: tuple(found.values()) for place, found in held.items() if found}
