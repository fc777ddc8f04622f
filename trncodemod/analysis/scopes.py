"""Each function's scope as plain data, for following values across modules
(``analysis.reach``: what a training step reaches, issue 22 item 3).

A detection loss is built in one module (`criterion = SetCriterion(matcher=build_matcher())`),
returned from a builder in a tuple, unpacked in the entry script and passed as a parameter to
the step function in a third module; its `forward` calls `self.matcher(...)`, whose `forward`
does `.cpu()` and a SciPy assignment every step. Names referenced are not enough to follow
that: the step calls `criterion(...)`, a parameter. So each function's scope is summarised as
plain data (``Scope``: its parameters, what each local name is bound to, what it returns, the
calls it makes, as small value expressions) and the program follows values to what they are:
a function, a class, an instance of one, a module, or a call outside the given files.

Per step, only what runs every iteration is reached: the innermost loop that calls
``backward()`` or an optimizer step, not the epoch loop around it, and not the body of an
interval guard (``if step % N == 0:``, an evaluation every N steps). A collate function passed
to the loader the step iterates runs once per batch too: a batch padded to its own largest
item gets a new shape nearly every step.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace

from trncodemod.analysis.ast_nodes import own_nodes
from trncodemod.analysis.element_reads import ElementRead, element_reads
from trncodemod.analysis.model_names import ast_is_scaler_call, is_model_name
from trncodemod.analysis.training import dotted

# A value expression, as nested tuples (lists in JSON):
#   ("n", name)                       a name
#   ("a", value, attr)                an attribute of a value
#   ("c", callee, (args...), ((kw, value)...))   a call (an argument not followed is None)
#   ("i", k, value)                   element k of a value unpacked into names
#   ("o", (values...))                one of several (a conditional expression, `a or b`)
#   ("t", (values...))                a tuple built here
Value = tuple

#  Calls that read a value to the host ([xla-troubleshoot, neuron-debug]): every step, where a step
# reaches them.
HOST_READS = frozenset({"item", "cpu", "numpy", "tolist"})
# Modules whose functions compute on the host (a round trip when a step hands them values).
HOST_LIBRARIES = ("numpy", "scipy", "sklearn")
_TRAIN_METHODS = frozenset({"backward", "optimizer_step"})
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
_LOOPS = (ast.For, ast.AsyncFor, ast.While)


@dataclass(frozen=True)
class StepLoop:
    """A loop that calls ``backward()`` or an optimizer step in its own iteration: the calls
    of its per-step code, and what it iterates."""

    line: int
    calls: tuple[Value, ...]
    iterated: Value | None

    def to_json(self) -> list:
        return [self.line, _json(self.calls), _json(self.iterated)]

    @classmethod
    def from_json(cls, data: list) -> StepLoop:
        return cls(data[0], _tuples(data[1]), _tuples(data[2]))


@dataclass(frozen=True)
class Scope:
    """One function, method (``Class.method``) or a module's top level, as the flow needs it."""

    params: tuple[str, ...]
    bindings: Mapping[str, tuple[Value, ...]]
    returns: tuple[tuple[Value, ...], ...]  # each `return`: its values (several: a tuple)
    calls: tuple[Value, ...]
    steps: tuple[StepLoop, ...] = ()
    # (line, column, "item" | "cpu" | ..., the test of the `if` it runs under, if any)
    host_reads: tuple[tuple[int, int, str, str], ...] = ()
    host_calls: tuple[tuple[int, str], ...] = ()  # (line, "scipy.optimize.x") on the host
    batch_maxima: tuple[tuple[int, int], ...] = ()  # a size taken as the max over shapes
    self_attributes: Mapping[str, tuple[Value, ...]] = field(default_factory=dict)
    generator: bool = False
    # Parameters read element by element on the host in a loop (``analysis.element_reads``).
    element_reads: tuple[ElementRead, ...] = ()
    # The lines of its optimizer steps outside any loop of its own (`update()` that steps once).
    own_steps: tuple[int, ...] = ()
    # The calls (their index in ``calls``) that run once per iteration of one of its loops,
    # each with that loop's line (the innermost loop: a nested loop is its own iteration).
    looped_calls: tuple[tuple[int, int], ...] = ()
    # The lines of its loops that cut the graph every iteration: a step marker in the iteration,
    # a step of their own (the step-marker pass cuts it), or a device loader iterated.
    cut_loops: tuple[int, ...] = ()
    # Those of them cut only by the step-marker pass's end-of-iteration cut of a loop that moves
    # its batch or calls the model: a step function the loop calls may take the cut instead.
    pass_cut_loops: tuple[int, ...] = ()

    def to_json(self) -> list:
        return [
            list(self.params),
            {k: _json(v) for k, v in self.bindings.items()},
            _json(self.returns),
            _json(self.calls),
            [s.to_json() for s in self.steps],
            [list(r) for r in self.host_reads],
            [list(r) for r in self.host_calls],
            [list(r) for r in self.batch_maxima],
            {k: _json(v) for k, v in self.self_attributes.items()},
            self.generator,
            [list(r) for r in self.element_reads],
            list(self.own_steps),
            [list(c) for c in self.looped_calls],
            list(self.cut_loops),
            list(self.pass_cut_loops),
        ]

    @classmethod
    def from_json(cls, data: list) -> Scope:
        return cls(
            tuple(data[0]),
            {k: _tuples(v) for k, v in data[1].items()},
            _tuples(data[2]),
            _tuples(data[3]),
            tuple(StepLoop.from_json(s) for s in data[4]),
            tuple(tuple(r) for r in data[5]),
            tuple(tuple(r) for r in data[6]),
            tuple(tuple(r) for r in data[7]),
            {k: _tuples(v) for k, v in data[8].items()},
            data[9],
            tuple(tuple(r) for r in data[10]),
            tuple(data[11]),
            tuple(tuple(c) for c in data[12]),
            tuple(data[13]),
            tuple(data[14]),
        )


def _json(value):
    if isinstance(value, tuple):
        return [_json(v) for v in value]
    return value


def _tuples(value):
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    return value


# -- one module, from its ast ---------------------------------------------------------------------
def scopes_of(tree: ast.Module, imports: Mapping[str, str]) -> dict[str, Scope]:
    """The scopes of a module: its top level ("") and each top-level function and method."""
    scopes = {"": _scope(tree, (), imports)}
    for statement in tree.body:
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
            scopes[statement.name] = _function_scope(statement, imports, method=False)
        elif isinstance(statement, ast.ClassDef):
            for item in statement.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    name = f"{statement.name}.{item.name}"
                    scopes[name] = _function_scope(item, imports, method=True)
    return scopes


def class_bases(tree: ast.Module) -> dict[str, tuple[str, ...]]:
    """Each top-level class's bases, as referenced (dotted)."""
    return {
        c.name: tuple(b for b in map(dotted, c.bases) if b is not None)
        for c in tree.body
        if isinstance(c, ast.ClassDef)
    }


def _function_scope(
    function: ast.FunctionDef | ast.AsyncFunctionDef, imports: Mapping[str, str], method: bool
) -> Scope:
    arguments = function.args
    params = tuple(a.arg for a in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs))
    decorated = {dotted(d) for d in function.decorator_list}
    if method and decorated & {"staticmethod"}:
        method = False
    nodes = list(own_nodes(function))  # walked once for both
    scope = _scope(function, params, imports, method=method, nodes=nodes)
    reads = element_reads(function, params, method, nodes)
    return replace(scope, element_reads=reads) if reads else scope


def _scope(
    root: ast.AST,
    params: tuple[str, ...],
    imports: Mapping[str, str],
    method: bool = False,
    nodes: list[ast.AST] | None = None,
) -> Scope:
    bindings: dict[str, list[Value]] = {}
    attributes: dict[str, list[Value]] = {}
    returns: list[tuple[Value, ...]] = []
    calls: list[Value] = []
    generator = False
    loops: list[ast.AST] = []
    call_nodes: list[ast.AST] = []  # beside ``calls``
    steps = False  # an optimizer step anywhere in the scope
    self_name = params[0] if method and params else None
    for node in own_nodes(root) if nodes is None else nodes:
        kind = type(node)
        if kind is ast.Assign:
            for target in node.targets:
                _bind(bindings, attributes, self_name, target, value_of(node.value))
        elif kind is ast.AnnAssign and node.value is not None or kind is ast.NamedExpr:
            _bind(bindings, attributes, self_name, node.target, value_of(node.value))
        elif kind is ast.Return and node.value is not None:
            value = node.value
            if isinstance(value, ast.Tuple):
                returns.append(tuple(value_of(e) for e in value.elts))
            else:
                returns.append((value_of(value),))
        elif kind is ast.Call:
            calls.append(value_of(node))
            call_nodes.append(node)
            steps = steps or _is_optimizer_step(node)
        elif kind is ast.Yield or kind is ast.YieldFrom:
            generator = True
        elif kind in _LOOPS:
            loops.append(node)
    kept = [(node, value) for node, value in zip(call_nodes, calls, strict=True) if value]
    training = [loop for loop in loops if _trains(loop)]
    looped, cut, by_pass = _loop_calls(
        loops, training, [node for node, _ in kept], bindings, imports
    )
    return Scope(
        params=params,
        bindings={k: tuple(v) for k, v in bindings.items()},
        returns=tuple(returns),
        calls=tuple(value for _, value in kept),
        steps=tuple(_step_loop(loop) for loop in sorted(training, key=_line)),
        host_reads=_host_reads(root),
        host_calls=_host_calls(root, imports),
        batch_maxima=_batch_maxima(root),
        self_attributes={k: tuple(v) for k, v in attributes.items()},
        generator=generator,
        own_steps=_own_steps(root) if steps and not isinstance(root, ast.Module) else (),
        looped_calls=looped,
        cut_loops=cut,
        pass_cut_loops=by_pass,
    )


def _line(node: ast.AST) -> int:
    return getattr(node, "lineno", 0)


def _bind(
    bindings: dict[str, list[Value]],
    attributes: dict[str, list[Value]],
    self_name: str | None,
    target: ast.AST,
    value: Value | None,
) -> None:
    if isinstance(target, ast.Name):
        if value is not None:
            bindings.setdefault(target.id, []).append(value)
    elif isinstance(target, (ast.Tuple, ast.List)):
        for index, element in enumerate(target.elts):
            if isinstance(element, ast.Starred):
                return  # positions after a starred name are not known
            part = None if value is None else ("i", index, value)
            _bind(bindings, attributes, self_name, element, part)
    elif (
        isinstance(target, ast.Attribute)
        and isinstance(target.value, ast.Name)
        and target.value.id == self_name
        and value is not None
    ):
        attributes.setdefault(target.attr, []).append(value)


def value_of(node: ast.AST | None) -> Value | None:
    """The value expression of ``node``; None where the flow does not follow it (a constant,
    arithmetic, a subscript, a lambda)."""
    kind = type(node)
    if kind is ast.Name:
        return ("n", node.id)
    if kind is ast.Attribute:
        inner = value_of(node.value)
        return None if inner is None else ("a", inner, node.attr)
    if kind is ast.Call:
        callee = value_of(node.func)
        if callee is None:
            return None
        args = tuple(None if isinstance(a, ast.Starred) else value_of(a) for a in node.args)
        keywords = tuple((k.arg, value_of(k.value)) for k in node.keywords if k.arg is not None)
        return ("c", callee, args, keywords)
    if kind is ast.IfExp:
        return _either(node.body, node.orelse)
    if kind is ast.BoolOp:
        return _either(*node.values)
    if kind is ast.Tuple:
        return ("t", tuple(value_of(e) for e in node.elts))
    if kind is ast.Await:
        return value_of(node.value)
    return None


def _either(*nodes: ast.AST) -> Value | None:
    values = tuple(v for v in map(value_of, nodes) if v is not None)
    if not values:
        return None
    return values[0] if len(values) == 1 else ("o", values)


# -- step loops -------------------------------------------------------------------------------
def _is_optimizer_step(node: ast.AST) -> bool:
    """``optimizer.step()``, ``opt_d.step()``, ``xm.optimizer_step(opt)`` (not a scheduler's), and
    a loss scaler called with the optimizer (``loss_scaler(loss, optimizer)``)."""
    if isinstance(node, ast.Call) and ast_is_scaler_call(node):
        return True
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
        return False
    attr = node.func.attr
    if attr == "optimizer_step":
        return True
    receiver = (dotted(node.func.value) or "").rsplit(".", 1)[-1].lower()
    return attr == "step" and "optim" in receiver and "sched" not in receiver


def _own_steps(function: ast.AST) -> tuple[int, ...]:
    """The lines of the optimizer steps a function runs outside any loop of its own."""
    found = []
    stack = list(ast.iter_child_nodes(function))
    while stack:
        node = stack.pop()
        if isinstance(node, (*_SCOPES, *_LOOPS)):
            continue
        if _is_optimizer_step(node):
            found.append(node.lineno)  # type: ignore[attr-defined]
        stack.extend(ast.iter_child_nodes(node))
    return tuple(sorted(found))


# What cuts the graph once per iteration where a loop calls it: the step marker in its
# spellings, `xm.optimizer_step(..., barrier=True)`, `with torch_xla.step():`.
_DEVICE_LOADERS = ("DeviceLoader", "ParallelLoader")


def _cuts(node: ast.AST, imports: Mapping[str, str]) -> bool:
    if not isinstance(node, ast.Call):
        return False
    name = dotted(node.func) or ""
    head, _, rest = name.partition(".")
    full = imports.get(head, head).replace(":", ".") + (f".{rest}" if rest else "")
    last = name.rsplit(".", 1)[-1]
    if last in ("mark_step", "StepTrace") or (
        full.startswith("torch_xla") and last in ("sync", "step")
    ):
        return True
    return last == "optimizer_step" and any(
        k.arg == "barrier" and isinstance(k.value, ast.Constant) and k.value.value is True
        for k in node.keywords
    )


def _loop_calls(
    loops: list[ast.AST],
    training: list[ast.AST],
    calls: list[ast.AST],
    bindings: Mapping[str, list[Value]],
    imports: Mapping[str, str],
) -> tuple[tuple[tuple[int, int], ...], tuple[int, ...], tuple[int, ...]]:
    """``Scope.looped_calls``, ``Scope.cut_loops`` and ``Scope.pass_cut_loops`` of a scope's
    loops and calls."""
    if not loops:
        return (), (), ()
    index = {id(node): position for position, node in enumerate(calls)}
    looped: list[tuple[int, int]] = []
    cut: list[int] = []
    by_pass: list[int] = []
    for loop in sorted(loops, key=_line):
        line = _line(loop)
        iteration = list(_iteration(loop, nested_loops=False))
        for node in iteration:
            if id(node) in index:
                looped.append((index[id(node)], line))
        loader = isinstance(loop, (ast.For, ast.AsyncFor)) and _iterates_device_loader(
            loop.iter, bindings
        )
        if loader or loop in training or any(_cuts(node, imports) for node in iteration):
            cut.append(line)
        elif _cut_by_its_pass(loop, iteration):
            cut.append(line)
            by_pass.append(line)
    return tuple(sorted(looped)), tuple(cut), tuple(by_pass)


def _cut_by_its_pass(loop: ast.AST, iteration: list[ast.AST]) -> bool:
    """A loop the step-marker pass cuts in its own module as an evaluation loop
    (``loops.find_step_loops``): it calls the model (`model(x)`, `self.net(x)`, `self(x)`) or
    moves what it iterates to a device (`x.cuda()`, `x.to(device)`). A cut in a step function
    it calls would be a second one."""
    targets = (
        {n.id for n in ast.walk(loop.target) if isinstance(n, ast.Name)}
        if isinstance(loop, (ast.For, ast.AsyncFor))
        else set()
    )
    for node in iteration:
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Name) and (func.id == "self" or is_model_name(func.id)):
            return True
        if not isinstance(func, ast.Attribute):
            continue
        if is_model_name(func.attr):
            return True
        root = func.value
        while isinstance(root, (ast.Attribute, ast.Subscript, ast.Call)):
            root = root.func if isinstance(root, ast.Call) else root.value
        if func.attr in ("cuda", "to") and isinstance(root, ast.Name) and root.id in targets:
            return True
    return False


def _iterates_device_loader(iterated: ast.AST, bindings: Mapping[str, list[Value]]) -> bool:
    """An MpDeviceLoader/ParallelLoader (or what `accelerator.prepare` returned), directly, in
    `enumerate(...)`/`tqdm(...)`, or through a name the scope binds to one: it cuts each batch."""
    spellings = []
    for node in ast.walk(iterated):
        if isinstance(node, ast.Name):
            spellings.append(node.id)
            spellings.extend(_spelled(value) for value in bindings.get(node.id, ()))
        elif isinstance(node, ast.Attribute):
            spellings.append(node.attr)
    return any(
        marker in spelling
        for spelling in spellings
        for marker in (*_DEVICE_LOADERS, "prepare", "device_loader")
    )


def _spelled(value: Value) -> str:
    """The callee's name of a bound value (`pl.MpDeviceLoader(...)`, `accelerator.prepare(...)`),
    the elements of an unpacked one."""
    while value[0] in ("i", "c"):
        value = value[2] if value[0] == "i" else value[1]
    parts = []
    while value[0] == "a":
        parts.append(value[2])
        value = value[1]
    if value[0] == "n":
        parts.append(value[1])
    return ".".join(reversed(parts))


def _trains(loop: ast.AST) -> bool:
    """Whether the loop calls ``backward()`` or an optimizer step in its own iteration (not
    only in a loop nested in it: the epoch loop around a step is not the step)."""
    for node in _iteration(loop, nested_loops=False):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            attr = node.func.attr
            if attr in _TRAIN_METHODS:
                return True
            receiver = (dotted(node.func.value) or "").rsplit(".", 1)[-1].lower()
            if attr == "step" and "optim" in receiver and "sched" not in receiver:
                return True
    return False


def _iteration(loop: ast.AST, nested_loops: bool) -> Iterator[ast.AST]:
    """The nodes of a loop's body that run every iteration: not nested functions, not the body
    of an interval guard (its test runs; its body every N iterations), and nested loops only
    when asked."""
    stack: list[ast.AST] = [*loop.body]  # type: ignore[attr-defined]
    while stack:
        node = stack.pop()
        if isinstance(node, _SCOPES):
            continue
        if isinstance(node, _LOOPS) and not nested_loops:
            continue
        yield node
        if isinstance(node, ast.If) and is_interval_guard(node.test):
            stack.append(node.test)
            stack.extend(node.orelse)
            continue
        stack.extend(ast.iter_child_nodes(node))


def is_interval_guard(test: ast.AST) -> bool:
    """``step % n == 0`` (``loops.is_interval_guard`` on the ast), alone, ``and``-ed with other
    conditions, or ``or``-ed with flags (``last_step or step % n == 0``)."""
    if isinstance(test, ast.BoolOp):
        guards = [is_interval_guard(v) for v in test.values]
        if isinstance(test.op, ast.And):
            return any(guards)
        return any(guards) and all(
            g or isinstance(v, (ast.Name, ast.Attribute))
            for g, v in zip(guards, test.values, strict=True)
        )
    return (
        isinstance(test, ast.Compare)
        and isinstance(test.left, ast.BinOp)
        and isinstance(test.left.op, ast.Mod)
        and len(test.ops) == 1
        and isinstance(test.ops[0], ast.Eq)
        and isinstance(test.comparators[0], ast.Constant)
        and isinstance(test.comparators[0].value, int)
    )


def _step_loop(loop: ast.AST) -> StepLoop:
    calls = tuple(
        value
        for node in _iteration(loop, nested_loops=True)
        if isinstance(node, ast.Call)
        if (value := value_of(node)) is not None
    )
    iterated = value_of(loop.iter) if isinstance(loop, (ast.For, ast.AsyncFor)) else None
    return StepLoop(loop.lineno, calls, iterated)


# -- what a scope does on the host -----------------------------------------------------------------
def _host_reads(root: ast.AST) -> tuple[tuple[int, int, str, str], ...]:
    """(line, column, "item" | "cpu" | ..., the test of the innermost `if` it runs under)."""
    found: list[tuple[int, int, str, str]] = []

    def visit(node: ast.AST, guard: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, _SCOPES):
                continue
            if isinstance(child, ast.If):
                test = _short(child.test)
                visit(child.test, guard)
                for statement in child.body:
                    visit_one(statement, test)
                for statement in child.orelse:
                    visit_one(statement, f"not ({test})")
                continue
            visit_one(child, guard)

    def visit_one(node: ast.AST, guard: str) -> None:
        if isinstance(node, _SCOPES):
            return
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in HOST_READS
            and not node.args
            and not node.keywords
        ):
            found.append((node.lineno, node.func.col_offset + 1, node.func.attr, guard))
        if isinstance(node, ast.If):
            wrapper = ast.Module(body=[node], type_ignores=[])
            visit(wrapper, guard)
        else:
            visit(node, guard)

    visit(root, "")
    return tuple(sorted(found))


def _short(test: ast.expr) -> str:
    text = ast.unparse(test)
    return text if len(text) <= 60 else text[:57] + "..."


def _host_calls(root: ast.AST, imports: Mapping[str, str]) -> tuple[tuple[int, str], ...]:
    found = []
    for node in own_nodes(root):
        if isinstance(node, ast.Call):
            name = dotted(node.func)
            if name is None:
                continue
            head, _, rest = name.partition(".")
            binding = imports.get(head)
            if binding is None:
                continue
            full = binding.replace(":", ".") + (f".{rest}" if rest else "")
            if full.split(".", 1)[0] in HOST_LIBRARIES:
                found.append((node.lineno, full))
    return tuple(sorted(found))


def _batch_maxima(root: ast.AST) -> tuple[tuple[int, int], ...]:
    """A size taken as the largest over the shapes of several tensors: `max(len(x) for ...)`,
    `_max_by_axis([list(img.shape) for img in batch])`, `max(t.size(0) for t in batch)`."""
    found = []
    for node in own_nodes(root):
        if not isinstance(node, ast.Call):
            continue
        name = (dotted(node.func) or "").rsplit(".", 1)[-1].lower()
        if "max" not in name or name.startswith("argmax"):
            continue
        if any(
            isinstance(arg, (ast.ListComp, ast.GeneratorExp)) and _reads_shape(arg.elt)
            for arg in node.args
        ):
            found.append((node.lineno, node.col_offset + 1))
    return tuple(found)


def _reads_shape(node: ast.AST) -> bool:
    for inner in ast.walk(node):
        if isinstance(inner, ast.Attribute) and inner.attr == "shape":
            return True
        if isinstance(inner, ast.Call):
            func = inner.func
            if isinstance(func, ast.Attribute) and func.attr == "size":
                return True
            if isinstance(func, ast.Name) and func.id == "len":
                return True
    return False
