"""Slices of a device tensor at an offset drawn on the host: a random crop (`top =
random.randint(0, h - p)`, then `x[:, :, top:top + p]`). The slice keeps its length and moves its
start, a new Python int every step; on XLA the start is a constant of the graph, so each new
offset compiles another graph ([measured-drawn-offsets]). Asked by the ``recompilation`` pass
(TRN448) for a step's own slices and its calls of the module's functions, and by the program
model (``ModuleSummary.drawn_slices``) for the functions of another module a step calls.

A slice whose length is drawn (`x[:, :n]`, `x[s:]`) is TRN443's; the offset of a `range` loop
(`x[i:i + bs]`) is TRN434's.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import NamedTuple

from trncodemod.analysis.shape_params import derived_names
from trncodemod.analysis.training import dotted

# Host draws of a number (Python's `random`, NumPy's legacy `np.random`).
HOST_NUMBER_DRAWS = frozenset(
    {
        *(
            f"random.{name}"
            for name in (
                "random", "randint", "randrange", "choice", "uniform", "gauss",
                "normalvariate", "triangular", "betavariate", "expovariate", "lognormvariate",
                "gammavariate", "paretovariate", "weibullvariate",
            )
        ),
        *(
            f"numpy.random.{name}"
            for name in (
                "random", "rand", "randn", "randint", "random_integers", "random_sample",
                "normal", "uniform", "choice", "poisson", "geometric", "binomial",
                "exponential", "beta", "gamma", "lognormal", "laplace", "standard_normal",
            )
        ),
    }
)  # fmt: skip
# Device-side draws that become a host number through `.item()`/`.tolist()`.
TORCH_DRAWS = frozenset(
    {"torch.randint", "torch.rand", "torch.randn", "torch.normal", "torch.poisson"}
)
TO_HOST = ("item", "tolist")
# Methods whose result is no longer the device tensor they are called on.
_HOST_METHODS = frozenset({"cpu", "numpy", "tolist", "item", "size", "dim", "numel"})
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
_DEVICE_WORDS = ("device", "xla", "cuda", "gpu", "rank")

# A slice with both bounds (`x[a:b]`, `x[:, a : a + n]`) or a `.narrow(`: text that has neither
# has nothing ``offset_part`` accepts (a superset: a dict or lambda inside brackets matches too).
_MAY_SLICE = re.compile(r"\[[^\]]*[\w)\]]\s*:\s*[\w(\-]|\bnarrow\(")

# What a callee's dotted name stands for through the module's imports.
Resolve = Callable[[ast.AST], set[str]]


def import_resolver(imports: Mapping[str, str]) -> Resolve:
    """``Resolve`` from a module's import table (``training.import_specs``: local name -> "a.b"
    or "a.b:c"): `np.random.randint` -> "numpy.random.randint"; a local name resolves to
    nothing."""

    def resolve(node: ast.AST) -> set[str]:
        name = dotted(node)
        if name is None:
            return set()
        head, dot, rest = name.partition(".")
        binding = imports.get(head)
        if binding is None:
            return set()
        spec, colon, attribute = binding.partition(":")
        return {(f"{spec}.{attribute}" if colon else spec) + dot + rest}

    return resolve


def is_draw(call: ast.Call, resolve: Resolve) -> bool:
    """A number drawn on the host: `random.randint(...)`, `np.random.uniform(...)`,
    `torch.randint(...).item()`. Not `random.choice((0, 16, 32))`: a few fixed values, the fix
    itself."""
    if resolve(call.func) & HOST_NUMBER_DRAWS:
        choices = call.args[0] if call.args else None
        return not (
            isinstance(choices, ast.List | ast.Tuple | ast.Set)
            and all(isinstance(e, ast.Constant) for e in choices.elts)
        )
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr in TO_HOST:
        return any(
            isinstance(n, ast.Call) and resolve(n.func) & TORCH_DRAWS for n in ast.walk(func.value)
        )
    return False


class DrawnSlice(NamedTuple):
    """A function's slice of its parameter ``parameter`` (``source``: its position, -1 for a
    keyword-only one) at an offset drawn in the function (``offset_name`` "", and ``draw`` as
    written) or given by its parameter ``offset_name`` (``offset``: its position), on ``line``;
    ``via``: the functions of the module the slice is made in, where it is not the function's
    own (`"crop_pair → crop"`); ``writes``: the slice is assigned to (a box pasted into the
    tensor, `x[:, :, x1:x2, y1:y2] = ...`)."""

    source: int
    parameter: str
    offset: int
    offset_name: str
    line: int
    draw: str
    via: str
    writes: bool = False


class StepSlice(NamedTuple):
    """A slice a step takes of a device tensor at an offset drawn on the host: ``node`` is the
    slice, or the call of the function that takes it; ``sources`` the device tensors sliced (as
    written at ``node``), ``moved`` the line the step moves the first one to the device on (0:
    an item of a device loader's batch), ``draw`` the draw as written, ``slice_at`` where the
    slice is ("" for ``node`` itself), ``via`` the functions it is reached through and
    ``writes`` whether the slice is assigned to (a box pasted into the tensor)."""

    node: ast.expr
    sources: tuple[str, ...]
    moved: int
    draw: str
    slice_at: str
    via: str
    writes: bool


def own_nodes(statements: Iterable[ast.AST], skip: Callable[[ast.AST], bool] = lambda n: False):
    """The nodes of ``statements``, not those of the functions, classes and lambdas they define,
    nor of a node ``skip`` holds."""
    stack = list(statements)[::-1]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(
            c
            for c in reversed(list(ast.iter_child_nodes(node)))
            if not isinstance(c, _SCOPES) and not skip(c)
        )


def _names(node: ast.AST | None) -> set[str]:
    if node is None:
        return set()
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _holds(value: ast.AST, held: set[str]) -> bool:
    """``value`` is one of the tensors ``held`` names, or holds one: a list, tuple or
    conditional expression around it, an item or slice of it, a method of it that keeps a
    tensor (`.float()`, `.contiguous()`; not `.cpu()`, `.numpy()`, `.item()`)."""
    if isinstance(value, ast.Name):
        return value.id in held
    if isinstance(value, ast.List | ast.Tuple | ast.Set):
        return any(_holds(e, held) for e in value.elts)
    if isinstance(value, ast.Starred):
        return _holds(value.value, held)
    if isinstance(value, ast.IfExp):
        return _holds(value.body, held) or _holds(value.orelse, held)
    if isinstance(value, ast.Subscript):
        return _holds(value.value, held)
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute):
        return value.func.attr not in _HOST_METHODS and _holds(value.func.value, held)
    return False


def _bindings(nodes: Iterable[ast.AST]) -> list[tuple[ast.AST, ast.AST]]:
    """(target, value) of each assignment among ``nodes``, a tuple assigned a tuple of its
    length pair by pair; (target, iterable) of each `for` and comprehension."""
    found: list[tuple[ast.AST, ast.AST]] = []

    def pair(target: ast.AST, value: ast.AST) -> None:
        if (
            isinstance(target, ast.Tuple | ast.List)
            and isinstance(value, ast.Tuple | ast.List)
            and len(target.elts) == len(value.elts)
        ):
            for t, v in zip(target.elts, value.elts, strict=True):
                pair(t, v)
        else:
            found.append((target, value))

    for node in nodes:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                pair(target, node.value)
        elif isinstance(node, ast.AnnAssign | ast.NamedExpr) and node.value is not None:
            found.append((node.target, node.value))
        elif isinstance(node, ast.For | ast.AsyncFor | ast.comprehension):
            found.append((node.target, node.iter))
    return found


def holders(bindings: list[tuple[ast.AST, ast.AST]], seeds: set[str]) -> set[str]:
    """``seeds`` and every name bound to a value that holds one of them (``_holds``), or to an
    element of one (`for image in images`)."""
    held = set(seeds)
    grew = True
    while grew:
        grew = False
        for target, value in bindings:
            names = _names(target) - held
            if names and _holds(value, held):
                held |= names
                grew = True
    return held


def _draws(
    nodes: Iterable[ast.AST], resolve: Resolve, drawing: Mapping[str, str] | None = None
) -> dict[int, str]:
    """The line of each assignment whose value draws on the host -> the draw as written: a
    draw itself, or a call of a function of ``drawing`` (``drawing_functions``: the module's
    own helper that returns a draw, `rand_bbox(x.size(), lam) → np.random.randint(W)`)."""
    found: dict[int, str] = {}
    for node in nodes:
        if isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign) and node.value is not None:
            for call in ast.walk(node.value):
                if not isinstance(call, ast.Call):
                    continue
                if is_draw(call, resolve):
                    found.setdefault(node.lineno, ast.unparse(call))
                    break
                helper = _helper(call, drawing)
                if helper:
                    found.setdefault(node.lineno, f"{ast.unparse(call)} → {helper}")
                    break
    return found


def _helper(call: ast.Call, drawing: Mapping[str, str] | None) -> str:
    """The draw of the function of ``drawing`` that ``call`` calls (`rand_bbox(...)`, or
    `self.rand_bbox(...)` for a method), "" for another call."""
    if not drawing:
        return ""
    name = dotted(call.func)
    return drawing.get(name, "") if name is not None else ""


def drawn_names(body: list[ast.stmt], nodes: list[ast.AST], draws: dict[int, str]) -> set[str]:
    """The names ``body`` (its own ``nodes``) binds to a host draw of ``draws`` or to a value
    read from one (``derived_names``), and the names a tuple takes from a call of a function
    handed such a value (`x1, y1, x2, y2 = box_of(size, lam)` with `lam` drawn): the function
    returns what it was handed, reshaped."""
    if not draws:
        return set()
    unpacked = {
        n.lineno: set().union(*map(_names, (*n.value.args, *(k.value for k in n.value.keywords))))
        for n in nodes
        if isinstance(n, ast.Assign)
        and isinstance(n.value, ast.Call)
        and (isinstance(n.value.func, ast.Name) or _is_own_method(n.value.func))
        and any(isinstance(t, ast.Tuple | ast.List) for t in n.targets)
    }
    lines = set(draws)
    while True:
        drawn = derived_names(body, set(), frozenset(lines))
        grown = {line for line, reads in unpacked.items() if reads & drawn} - lines
        if not grown:
            return drawn
        lines |= grown


def _is_own_method(func: ast.expr) -> bool:
    """`self.method`: a function of the program, not a tensor's method."""
    return (
        isinstance(func, ast.Attribute)
        and isinstance(func.value, ast.Name)
        and func.value.id == "self"
    )


def drawing_functions(tree: ast.Module, resolve: Resolve) -> dict[str, str]:
    """Each top-level function of ``tree`` that returns a number drawn on the host in it, or
    one read from such a number (`rand_bbox` returns `np.clip(cx - w // 2, 0, W)` of `cx =
    np.random.randint(W)`), itself or through another such function it calls (three calls
    deep): name -> the draw as written. A method of a class of ``tree`` is named as its
    class's own methods call it ("self.rand_bbox"). For a step that unpacks the helper's
    bounds."""
    kinds = ast.FunctionDef | ast.AsyncFunctionDef
    functions = {f.name: f for f in tree.body if isinstance(f, kinds)}
    for owner in (c for c in tree.body if isinstance(c, ast.ClassDef)):
        functions.update({f"self.{f.name}": f for f in owner.body if isinstance(f, kinds)})
    found: dict[str, str] = {}
    for _ in range(3):
        grew = False
        for name, function in functions.items():
            if name in found:
                continue
            nodes = list(own_nodes(function.body))
            returned = [n.value for n in nodes if isinstance(n, ast.Return) and n.value]
            if not returned:
                continue
            draw = _returned_draw(function, nodes, returned, resolve, found)
            if draw:
                found[name] = draw
                grew = True
        if not grew:
            break
    return found


def _returned_draw(
    function: ast.FunctionDef | ast.AsyncFunctionDef,
    nodes: list[ast.AST],
    returned: list[ast.expr],
    resolve: Resolve,
    drawing: Mapping[str, str],
) -> str:
    """The draw (as written) one of the values ``returned`` by ``function`` is or reads; ""
    where none is."""
    draws = _draws(nodes, resolve, drawing)
    drawn = drawn_names(function.body, nodes, draws)
    for value in returned:
        for call in ast.walk(value):
            if isinstance(call, ast.Call) and is_draw(call, resolve):
                return ast.unparse(call)
            helper = _helper(call, drawing) if isinstance(call, ast.Call) else ""
            if helper:
                return f"{ast.unparse(call)} → {helper}"
        if _names(value) & drawn:
            return _draw_of(draws, _names(value) & drawn, nodes)
    return ""


def offset_part(node: ast.AST, held: set[str], offsets: set[str]) -> bool:
    """``node`` slices a tensor ``held`` names at a start that one of ``offsets`` decides and
    a length it does not: `x[:, top:top + p]` (both bounds read the offset), `x.narrow(d, top,
    p)`."""
    if isinstance(node, ast.Subscript) and _holds(node.value, held):
        index = node.slice
        for part in index.elts if isinstance(index, ast.Tuple) else [index]:
            if (
                isinstance(part, ast.Slice)
                and _names(part.lower) & offsets
                and _names(part.upper) & offsets
                and not _names(part.step) & offsets
            ):
                return True
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "narrow"
        and len(node.args) == 3
        and _holds(node.func.value, held)
    ):
        return bool(_names(node.args[1]) & offsets) and not _names(node.args[2]) & offsets
    return False


def _candidate(node: ast.AST) -> bool:
    """A slice with both bounds, or a `.narrow(...)`: what ``offset_part`` may accept."""
    if isinstance(node, ast.Subscript):
        index = node.slice
        return any(
            isinstance(p, ast.Slice) and p.lower is not None and p.upper is not None
            for p in (index.elts if isinstance(index, ast.Tuple) else [index])
        )
    return isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "narrow"


def _argument(call: ast.Call, position: int, name: str) -> ast.expr | None:
    """The argument ``call`` gives the parameter ``name`` at ``position`` (-1: keyword only)."""
    for keyword in call.keywords:
        if keyword.arg == name:
            return keyword.value
    positional = [a for a in call.args if not isinstance(a, ast.Starred)]
    if len(positional) != len(call.args):
        return None  # `f(*args)`: the positions are unknown
    if 0 <= position < len(positional):
        return positional[position]
    return None


def _draw_of(draws: dict[int, str], names: set[str], nodes: list[ast.AST]) -> str:
    """The draw that binds one of ``names`` (the first draw where none does)."""
    for node in nodes:
        if isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign) and node.lineno in draws:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(_names(t) & names for t in targets):
                return draws[node.lineno]
    return draws[min(draws)] if draws else ""


def _bound_names(node: ast.AST) -> set[str]:
    if isinstance(node, ast.Subscript):
        index = node.slice
        parts = index.elts if isinstance(index, ast.Tuple) else [index]
        return set().union(*(_names(p.lower) for p in parts if isinstance(p, ast.Slice)))
    return _names(node.args[1]) if isinstance(node, ast.Call) and node.args[1:] else set()


def function_slices(
    function: ast.FunctionDef | ast.AsyncFunctionDef,
    resolve: Resolve,
    callees: Mapping[str, tuple[DrawnSlice, ...]],
    drawing: Mapping[str, str] | None = None,
) -> tuple[DrawnSlice, ...]:
    """The parameters ``function`` slices at a drawn offset (``DrawnSlice``), itself or through
    the functions of ``callees`` it hands them to; the offset may come from a function of
    ``drawing`` (``drawing_functions``)."""
    nodes = list(own_nodes(function.body))
    arguments = function.args
    positional = [a.arg for a in (*arguments.posonlyargs, *arguments.args)]
    parameters = [*positional, *(a.arg for a in arguments.kwonlyargs)]
    if not parameters:
        return ()
    bindings = _bindings(nodes)
    draws = _draws(nodes, resolve, drawing)
    drawn = drawn_names(function.body, nodes, draws)
    slices = sorted((n for n in nodes if _candidate(n)), key=lambda n: (n.lineno, n.col_offset))
    calls = [
        n
        for n in nodes
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in callees
    ]
    if not slices and not calls:
        return ()
    # Where each other parameter's value flows: an offset handed in (`crop(x, top, p)`).
    flows = {
        q: derived_names(function.body, {q})
        for q in parameters
        if any(q in _names(b) for n in (*slices, *calls) for b in _offset_reads(n))
    }
    found: list[DrawnSlice] = []
    for parameter in parameters:
        source = positional.index(parameter) if parameter in positional else -1
        held = holders(bindings, {parameter})
        offsets = [("", drawn)] + [(q, names) for q, names in flows.items() if q != parameter]
        own = _first_own(slices, held, offsets)
        if own is not None:
            node, offset_name = own
            draw = _draw_of(draws, _bound_names(node) & drawn, nodes) if not offset_name else ""
            found.append(
                DrawnSlice(
                    source,
                    parameter,
                    _position(positional, offset_name),
                    offset_name,
                    node.lineno,
                    draw,
                    "",
                    _writes(node),
                )  # fmt: skip
            )
            continue
        handed = _first_handed(calls, callees, held, drawn, draws, nodes, flows, parameter)
        if handed is not None:
            found.append(
                DrawnSlice(source, parameter, _position(positional, handed[0]), *handed)  # type: ignore[arg-type]
            )
    return tuple(found)


def _offset_reads(node: ast.AST) -> list[ast.AST]:
    """What ``node`` (a slice, a `.narrow` or a call) reads its offsets from."""
    if isinstance(node, ast.Subscript):
        return [node.slice]
    if isinstance(node, ast.Call):
        return [*node.args, *(k.value for k in node.keywords)]
    return []


def _writes(node: ast.AST) -> bool:
    """``node`` is a slice assigned to: a box pasted into the tensor (`x[:, a:b] = y`)."""
    return isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store)


def _position(positional: list[str], name: str) -> int:
    return positional.index(name) if name in positional else -1


def _first_own(
    slices: list[ast.AST], held: set[str], offsets: list[tuple[str, set[str]]]
) -> tuple[ast.AST, str] | None:
    for node in slices:
        for offset_name, names in offsets:
            if names and offset_part(node, held, names):
                return node, offset_name
    return None


def _first_handed(
    calls: list[ast.Call],
    callees: Mapping[str, tuple[DrawnSlice, ...]],
    held: set[str],
    drawn: set[str],
    draws: dict[int, str],
    nodes: list[ast.AST],
    flows: Mapping[str, set[str]],
    parameter: str,
) -> tuple[str, int, str, str, bool] | None:
    """(the offset's parameter or "", the slice's line, the draw, the chain, whether it is
    assigned to) of the first call that hands a tensor ``held`` names to a function slicing it
    at a drawn offset."""
    for call in calls:
        name = call.func.id  # type: ignore[attr-defined]
        for inner in callees[name]:
            argument = _argument(call, inner.source, inner.parameter)
            if argument is None or not _holds(argument, held):
                continue
            via = f"{name} → {inner.via}" if inner.via else name
            if not inner.offset_name:
                return "", inner.line, inner.draw, via, inner.writes
            offset = _argument(call, inner.offset, inner.offset_name)
            reads = _names(offset)
            if reads & drawn:
                return "", inner.line, _draw_of(draws, reads & drawn, nodes), via, inner.writes
            for q, names in flows.items():
                if q != parameter and reads & names:
                    return q, inner.line, "", via, inner.writes
    return None


def module_drawn_slices(
    tree: ast.Module, resolve: Resolve, text: str | None = None
) -> dict[str, tuple[DrawnSlice, ...]]:
    """Each top-level function of ``tree`` that slices a parameter at a drawn offset, itself or
    through another top-level function it hands the parameter to (three calls deep), for
    ``ModuleSummary.drawn_slices``. ``text``, the source, settles most modules without a walk."""
    if text is not None and not _MAY_SLICE.search(text):
        return {}
    functions = {
        f.name: f for f in tree.body if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef)
    }
    slicing, calling = set(), {}
    for name, function in functions.items():
        called = set()
        for node in own_nodes(function.body):
            if _candidate(node):
                slicing.add(name)
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                called.add(node.func.id)
        calling[name] = called & functions.keys()
    table: dict[str, tuple[DrawnSlice, ...]] = {}
    drawing = drawing_functions(tree, resolve)
    for _ in range(3):
        grew = False
        for name, function in functions.items():
            if name not in slicing and not calling[name] & table.keys():
                continue
            found = function_slices(function, resolve, table, drawing)
            if found and found != table.get(name):
                table[name] = found
                grew = True
        if not grew:
            break
    return table


def is_move(call: ast.AST) -> bool:
    """`x.cuda()`, or `x.to(...)` to a device: a positional or `device=` argument that is not
    visibly a dtype nor the CPU (`.to(device)`, `.to(torch_xla.device(), non_blocking=True)`,
    `.to(args.device)`)."""
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)):
        return False
    if call.func.attr == "cuda":
        return True
    if call.func.attr != "to":
        return False
    device = call.args[0] if call.args else None
    for keyword in call.keywords:
        if keyword.arg == "device":
            device = keyword.value
    if device is None:
        return False
    if isinstance(device, ast.Constant):
        return isinstance(device.value, str) and not device.value.startswith("cpu")
    spelled = (ast.unparse(device)).lower()
    return "dtype" not in spelled and any(w in spelled for w in _DEVICE_WORDS)


def _moves(value: ast.AST) -> bool:
    """``value`` is a move, or a container of moves: `{k: v.to(device) for k, v in
    batch.items()}`, `[t.cuda() for t in batch]`."""
    if isinstance(value, ast.DictComp):
        return is_move(value.value)
    if isinstance(value, ast.ListComp | ast.GeneratorExp | ast.SetComp):
        return is_move(value.elt)
    if isinstance(value, ast.Dict):
        return any(is_move(v) for v in value.values)
    return is_move(value)


def step_slices(
    loop: ast.For | ast.While | ast.AsyncFor,
    resolve: Resolve,
    functions: Mapping[str, tuple[DrawnSlice, ...]],
    places: Mapping[str, str],
    skip: Callable[[ast.AST], bool] = lambda n: False,
    device_batches: bool = False,
    drawing: Mapping[str, str] | None = None,
) -> Iterator[StepSlice]:
    """The slices the step ``loop`` takes of a tensor it moved to the device (or of a device
    loader's batch, ``device_batches``) at an offset it draws, itself or in a function of
    ``functions`` it hands the tensor to (``places``: each function's module, "" for this one);
    ``skip``: a nested loop that is a step of its own; ``drawing``: the functions that return a
    draw (``drawing_functions``)."""
    nodes = list(own_nodes(loop.body, skip))
    draws = _draws(nodes, resolve, drawing)
    calls = [
        n
        for n in nodes
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in functions
    ]
    if not draws and not calls:
        return
    bindings = _bindings(nodes)
    moved: dict[str, int] = {}
    for target, value in bindings:
        if _moves(value):
            for name in _names(target):
                moved.setdefault(name, value.lineno)
    if device_batches and isinstance(loop, ast.For | ast.AsyncFor):
        moved.update(dict.fromkeys(_names(loop.target), 0))
    if not moved and not any(is_move(n) for c in calls for n in c.args):
        return
    held = holders(bindings, set(moved))
    drawn = drawn_names(loop.body, nodes, draws)
    # The loop's own batch, sliced before the step moves it (`images[...] = ...`, then `images =
    # images.to(device)`): a slice of the CPU batch, the fix.
    batch = _names(loop.target) if isinstance(loop, ast.For | ast.AsyncFor) else set()

    def on_host(source: ast.AST | None, line: int) -> bool:
        return (
            isinstance(source, ast.Name) and source.id in batch and moved.get(source.id, 0) > line
        )

    for node in nodes:
        if drawn and _candidate(node) and offset_part(node, held, drawn):
            source = node.value if isinstance(node, ast.Subscript) else node.func.value  # type: ignore[attr-defined]
            if on_host(source, node.lineno):
                continue
            yield StepSlice(
                node,  # type: ignore[arg-type]
                (ast.unparse(source),),
                _moved_line(source, bindings, moved),
                _draw_of(draws, _bound_names(node) & drawn, nodes),
                "",
                "",
                _writes(node),
            )
    for call in calls:
        found = _handed_at_step(call, functions[call.func.id], held, drawn, draws, nodes)  # type: ignore[attr-defined]
        if found is None:
            continue
        sources, line, draw, via, writes = found
        first = _argument(call, *sources[0])
        if on_host(first, call.lineno):
            continue
        name = call.func.id  # type: ignore[attr-defined]
        where = places.get(name, "")
        yield StepSlice(
            call,
            tuple(ast.unparse(_argument(call, *s)) for s in sources),  # type: ignore[arg-type]
            _moved_line(first, bindings, moved) if first is not None else 0,
            draw,
            f"{where}:{line}" if where else f"line {line}",
            f"{name} → {via}" if via else name,
            writes,
        )


def _handed_at_step(
    call: ast.Call,
    slices: tuple[DrawnSlice, ...],
    held: set[str],
    drawn: set[str],
    draws: dict[int, str],
    nodes: list[ast.AST],
) -> tuple[list[tuple[int, str]], int, str, str, bool] | None:
    """The device tensors the step hands ``call`` that it slices at a drawn offset: (their
    (position, parameter)s, the first slice's line, the draw, the chain within the callee,
    whether the slice is assigned to)."""
    sources: list[tuple[int, str]] = []
    first: tuple[int, str, str, bool] | None = None
    for inner in slices:
        argument = _argument(call, inner.source, inner.parameter)
        if argument is None or not (_holds(argument, held) or is_move(argument)):
            continue
        draw = inner.draw
        if inner.offset_name:
            reads = _names(_argument(call, inner.offset, inner.offset_name))
            if not reads & drawn:
                continue
            draw = _draw_of(draws, reads & drawn, nodes)
        sources.append((inner.source, inner.parameter))
        first = first or (inner.line, draw, inner.via, inner.writes)
    if first is None:
        return None
    return sources, *first


def _moved_line(
    source: ast.AST, bindings: list[tuple[ast.AST, ast.AST]], moved: Mapping[str, int]
) -> int:
    """The line the step moves ``source`` (or what it is made from) to the device on."""
    if isinstance(source, ast.Call) and is_move(source):
        return source.lineno
    names = _names(source)
    for name in names:
        if name in moved:
            return moved[name]
    for target, value in bindings:  # `lr_image = images[0]`: the line `images` is moved on
        if _names(target) & names:
            line = _moved_line(value, [], moved)
            if line:
                return line
    return 0
