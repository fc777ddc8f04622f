"""What a training step reaches: the functions and methods it runs every step, across modules,
through parameters, returned values and attributes (issue 22 item 3).

A detection loss is built in one module (`criterion = SetCriterion(matcher=build_matcher())`),
returned in a tuple from a builder, unpacked in the entry script and passed as a parameter to
the step function in a third module; its `forward` calls `self.matcher(...)`, whose `forward`
does `.cpu()` and a SciPy assignment every step. The names a step references do not lead
there: the step calls `criterion(...)`, a parameter. So values are followed (from each scope's
``analysis.scopes.Scope``) to what they are: a function, a class, an instance of one, a module,
a tuple, or a call to something outside the given files (a ``DataLoader(collate_fn=...)``).

A step runs every iteration what its loop calls (``scopes._step_loop``: the innermost loop that
trains, interval-guarded code left out), and, through any number of calls, what those run:
calling a class runs its ``__init__``; calling an instance its ``__call__`` or ``forward``.
The collate function of the loader a step iterates runs once per batch.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping

from trncodemod.analysis.scopes import Scope, StepLoop, Value

Object = tuple  # ("def", path, qualname) | ("cls", path, name) | ("inst", path, name) | ...
Node = tuple[str, str]  # (path, qualname) of a scope
# A scope as one call runs it: (path, qualname, context). The context is the call that ran it,
# (calling frame, call, whether the call binds the first parameter), or None: any caller. A
# parameter is what that call passes (`model(x)` in a step passes no `kv_cache`, whatever
# other callers pass).
Frame = tuple
_DEPTH = 24
_CONTEXTS = 3  # calls kept in a frame's context; beyond them, any caller
_VISITS = 6  # contexts in which one scope is walked
_INSTANCE_CALLS = ("__call__", "forward")
_COLLATE = "collate_fn"
# nn.Module methods that return the module (where the class does not define its own; torch 2.9
# `module.py`).
_RETURNS_SELF = frozenset(
    {"to", "cuda", "cpu", "train", "eval", "float", "half", "double", "bfloat16", "type"}
    | {"requires_grad_", "share_memory", "apply", "to_empty", "xpu", "ipu", "mtia"}
)


def frame(path: str, qualname: str, context: tuple | None = None) -> Frame:
    return (path, qualname, _trimmed(context, _CONTEXTS))


def _trimmed(context: tuple | None, keep: int) -> tuple | None:
    if context is None:
        return None
    if keep == 0:
        return None
    caller, call, bound = context
    return ((caller[0], caller[1], _trimmed(caller[2], keep - 1)), call, bound)


class Flow:
    """Values followed across the scopes of the given modules. ``name_of(path, name)``: the
    definition (path, top-level name) a module-level name stands for, (path, "") for a module,
    None outside the given files."""

    def __init__(
        self,
        scopes: Mapping[str, Mapping[str, Scope]],
        bases: Mapping[str, Mapping[str, tuple[str, ...]]],
        name_of: Callable[[str, str], tuple[str, str] | None],
    ) -> None:
        self.scopes = scopes
        self.bases = bases
        self.name_of = name_of
        self._memo: dict[tuple[Frame, Value], frozenset[Object]] = {}
        self._busy: set[tuple[Frame, Value]] = set()
        self._callers: dict[str, list[tuple[Node, Value]]] | None = None

    # -- values ------------------------------------------------------------------------------
    def values(self, at: Frame, value: Value | None, depth: int = 0) -> frozenset[Object]:
        if value is None or depth > _DEPTH:
            return frozenset()
        key = (at, value)
        found = self._memo.get(key)
        if found is not None:
            return found
        if key in self._busy:
            return frozenset()  # a cycle: a = f(a)
        self._busy.add(key)
        try:
            found = frozenset(self._values(at, value, depth + 1))
        finally:
            self._busy.discard(key)
        self._memo[key] = found
        return found

    def _values(self, at: Frame, value: Value, depth: int) -> Iterator[Object]:
        kind = value[0]
        if kind == "n":
            yield from self._name(at, value[1], depth)
        elif kind == "a":
            for owner in _ordered(self.values(at, value[1], depth)):
                yield from self._attribute(owner, value[2], depth)
        elif kind == "c":
            yield from self._call_result(at, value, depth)
        elif kind == "i":
            for whole in _ordered(self.values(at, value[2], depth)):
                if whole[0] == "tup" and value[1] < len(whole[2]):
                    yield from self.values(whole[1], whole[2][value[1]], depth)
        elif kind == "o":
            for option in value[1]:
                yield from self.values(at, option, depth)
        elif kind == "t":
            yield ("tup", at, value[1])

    def _name(self, at: Frame, name: str, depth: int) -> Iterator[Object]:
        path, qualname, context = at
        own = self.scopes[path].get(qualname)
        if own is None:
            return
        if name in own.bindings:
            for bound in own.bindings[name]:
                yield from self.values(at, bound, depth)
            return
        if name in own.params:
            yield from self._argument(at, own, name, depth)
            return
        if qualname:  # a module-level name, seen from a function
            top = self.scopes[path].get("")
            if top is not None and name in top.bindings:
                yield from self.values(frame(path, ""), ("n", name), depth)
                return
        found = self.name_of(path, name)
        if found is not None:
            yield self._definition(*found)

    def _definition(self, path: str, name: str) -> Object:
        if not name:
            return ("mod", path)
        if name in self.bases.get(path, {}):
            return ("cls", path, name)
        return ("def", path, name)

    def _attribute(self, owner: Object, attr: str, depth: int) -> Iterator[Object]:
        kind = owner[0]
        if kind == "mod":
            found = self.name_of(owner[1], attr)
            if found is not None:
                yield self._definition(*found)
        elif kind in ("inst", "cls"):
            for path, cls in self._mro(owner[1], owner[2]):
                method = f"{cls}.{attr}"
                if method in self.scopes[path]:
                    yield ("def", path, method)
                    return
            if kind == "inst":
                for path, cls in self._mro(owner[1], owner[2]):
                    for qualname, scope in self.scopes[path].items():
                        if qualname.startswith(f"{cls}.") and attr in scope.self_attributes:
                            for bound in scope.self_attributes[attr]:
                                yield from self.values(frame(path, qualname), bound, depth)

    def _mro(self, path: str, cls: str, depth: int = 0) -> Iterator[tuple[str, str]]:
        """The class and its bases among the given modules."""
        yield path, cls
        if depth > 8:
            return
        for base in self.bases.get(path, {}).get(cls, ()):
            found = self.name_of(path, base)
            if found is not None and found[1] in self.bases.get(found[0], {}):
                yield from self._mro(found[0], found[1], depth + 1)

    def _call_result(self, at: Frame, call: Value, depth: int) -> Iterator[Object]:
        callees = self.values(at, call[1], depth)
        if not callees and call[1][0] == "a" and call[1][2] in _RETURNS_SELF:
            # `Trainer(model).cuda()`, `VAE(...).cuda()`, `net.to(device).train()`: nn.Module's
            # own methods that return the module, so what they are called on (an instance of the
            # program's class) is what the call gives.
            owners = [o for o in _ordered(self.values(at, call[1][1], depth)) if o[0] == "inst"]
            if owners:
                yield from owners
                return
        if not callees:
            yield ("ext", at, call)
            return
        for callee in callees:
            if callee[0] == "cls":
                yield ("inst", callee[1], callee[2])
            elif callee[0] == "def":
                function = self.scopes[callee[1]].get(callee[2])
                if function is None:
                    continue
                bound = "." in callee[2] and call[1][0] == "a"
                target = frame(callee[1], callee[2], (at, call, bound))
                for returned in function.returns:
                    if len(returned) == 1:
                        yield from self.values(target, returned[0], depth)
                    else:
                        yield ("tup", target, returned)

    def _argument(self, at: Frame, own: Scope, name: str, depth: int) -> Iterator[Object]:
        """What the call that runs the frame passes for its parameter ``name``; with no such
        call known, what every caller passes."""
        path, qualname, context = at
        index = own.params.index(name)
        cls = qualname.rpartition(".")[0]
        if cls and index == 0:
            yield ("inst", path, cls)  # `self`
            return
        calls = [context] if context is not None else self.callers((path, qualname))
        for caller, call, bound in calls:
            position = index - 1 if bound else index
            arguments = call[2]
            if 0 <= position < len(arguments):
                yield from self.values(caller, arguments[position], depth)
            for keyword, argument in call[3]:
                if keyword == name:
                    yield from self.values(caller, argument, depth)

    def callers(self, node: Node) -> list[tuple[Frame, Value, bool]]:
        """The calls that run ``node``'s function: (calling frame, call, whether the call binds
        the first parameter: a method called on an instance, a class built)."""
        path, qualname = node
        cls, _, method = qualname.rpartition(".")
        name = cls if method == "__init__" else method
        if self._callers is None:
            self._callers = {}
            for where, scopes in self.scopes.items():
                for calling, scope in scopes.items():
                    for call in scope.calls:
                        last = call[1][-1] if call[1][0] == "a" else call[1][1]
                        if isinstance(last, str):
                            self._callers.setdefault(last, []).append(((where, calling), call))
        found = []
        for (where, calling), call in self._callers.get(name, ()):
            caller = frame(where, calling)
            for callee in _ordered(self.values(caller, call[1])):
                if callee == ("def", path, qualname):
                    found.append((caller, call, bool(cls) and call[1][0] == "a"))
                elif method == "__init__" and callee[0] == "cls":
                    if (path, cls) in self._mro(callee[1], callee[2]):
                        found.append((caller, call, True))
        return found

    # -- what runs -----------------------------------------------------------------------------
    def runs(self, at: Frame, call: Value) -> Iterator[tuple[Frame, str]]:
        """The frames a call runs, each with how the chain names it: as the call spells it,
        and what that is where the spelling does not say (`criterion (SetCriterion.forward)`)."""
        for path, qualname, bound in self._runs(at, call):
            yield frame(path, qualname, (at, call, bound)), _label(spelled(call[1]), qualname)

    def _runs(self, at: Frame, call: Value) -> Iterator[tuple[str, str, bool]]:
        for callee in _ordered(self.values(at, call[1])):
            if callee[0] == "def":
                yield callee[1], callee[2], "." in callee[2] and call[1][0] == "a"
            elif callee[0] == "cls":
                for path, cls in self._mro(callee[1], callee[2]):
                    if f"{cls}.__init__" in self.scopes[path]:
                        yield path, f"{cls}.__init__", True
                        break
            elif callee[0] == "inst":
                for method in _INSTANCE_CALLS:
                    found = next(
                        (
                            (path, f"{cls}.{method}")
                            for path, cls in self._mro(callee[1], callee[2])
                            if f"{cls}.{method}" in self.scopes[path]
                        ),
                        None,
                    )
                    if found is not None:
                        yield found[0], found[1], True
                        break

    def reached(self, node: Node, loop: StepLoop) -> dict[Node, tuple[Node | None, str]]:
        """Every scope the step loop runs each iteration, with the one it was first reached
        from (None: the loop itself) and how the chain names it."""
        at = frame(*node)
        queue: list[tuple[Frame, Node | None, str]] = []
        for call in loop.calls:
            queue.extend((inner, None, label) for inner, label in self.runs(at, call))
        queue.extend((inner, None, label) for inner, label in self._generators(at, loop))
        return self._walk(queue, stop=node)

    def collates(self, node: Node, loop: StepLoop) -> dict[Node, tuple[Node | None, str]]:
        """What the collate functions of the loaders the loop iterates run: once per batch."""
        queue = [(start, None, label) for _, _, start, label in self.collate_roots(node, loop)]
        return self._walk(queue, stop=None)

    def collate_roots(self, node: Node, loop: StepLoop) -> Iterator[tuple[str, str, Frame, str]]:
        """The collate functions of the loaders the loop iterates: (the path of the module
        that builds the loader, the `collate_fn=` argument as spelled there, the function's
        frame, its label)."""
        at = frame(*node)
        for loader in self._loaders(at, loop.iterated, 0):
            where, call = loader[1], loader[2]
            for keyword, argument in call[3]:
                if keyword == _COLLATE:
                    for found in _ordered(self.values(where, argument)):
                        if found[0] == "def":
                            label = _label(spelled(argument), found[2])
                            yield where[0], spelled(argument), frame(found[1], found[2]), label

    def reaches_from(self, start: Frame, label: str) -> dict[Node, tuple[Node | None, str]]:
        """What a function runs, from its frame: itself and every call it makes, at any depth."""
        return self._walk([(start, None, label)], stop=None)

    def _loaders(self, at: Frame, value: Value | None, depth: int) -> Iterator[Object]:
        """Calls outside the given files that the iterated value is, or is made from
        (`enumerate(loader)`, `logger.log_every(loader, 10)`, a loader passed as a parameter)."""
        if value is None or depth > 3:
            return
        for found in _ordered(self.values(at, value)):
            if found[0] == "ext":
                yield found
        if value[0] == "c":
            for argument in value[2]:
                yield from self._loaders(at, argument, depth + 1)

    def _generators(self, at: Frame, loop: StepLoop) -> Iterator[tuple[Frame, str]]:
        """A generator the loop iterates runs its body between the steps."""
        iterated = loop.iterated
        while iterated is not None and iterated[0] == "c":
            for inner, label in self.runs(at, iterated):
                function = self.scopes[inner[0]].get(inner[1])
                if function is not None and function.generator:
                    yield inner, label
            iterated = iterated[2][0] if iterated[2] else None  # enumerate(gen()), tqdm(gen())

    def _walk(
        self, queue: list[tuple[Frame, Node | None, str]], stop: Node | None
    ) -> dict[Node, tuple[Node | None, str]]:
        parents: dict[Node, tuple[Node | None, str]] = {}
        seen: set[Frame] = set()
        visits: dict[Node, int] = {}
        while queue:
            at, parent, label = queue.pop(0)
            node = (at[0], at[1])
            if at in seen or node == stop or visits.get(node, 0) >= _VISITS:
                continue
            seen.add(at)
            visits[node] = visits.get(node, 0) + 1
            parents.setdefault(node, (parent, label))
            function = self.scopes[node[0]].get(node[1])
            if function is None:
                continue
            for call in function.calls:
                queue.extend((inner, node, name) for inner, name in self.runs(at, call))
        return parents


def _ordered(found: frozenset[Object]) -> list[Object]:
    """The values in one order on every run: a set's order follows string hashing, which
    differs per process (`PYTHONHASHSEED`), and the first value reached names the chain."""
    return sorted(found, key=repr)


def spelled(value: Value) -> str:
    """How a value expression is written (a call's arguments left out)."""
    kind = value[0]
    if kind == "n":
        return value[1]
    if kind == "a":
        return f"{spelled(value[1])}.{value[2]}"
    if kind == "c":
        return f"{spelled(value[1])}(...)"
    return "..."


def _label(spelling: str, qualname: str) -> str:
    if spelling == qualname or spelling.endswith(f".{qualname}"):
        return spelling
    if qualname.endswith(".__init__") and spelling.endswith(qualname[: -len(".__init__")]):
        return spelling
    return f"{spelling} ({qualname})"


def chain_of(parents: Mapping[Node, tuple[Node | None, str]], node: Node) -> list[str]:
    """The names from the step to ``node``."""
    names = []
    current: Node | None = node
    while current is not None and len(names) < 50:
        parent, label = parents[current]
        names.append(label)
        current = parent
    return list(reversed(names))
