"""Which names decide the shape of what a piece of code slices or makes: the length of a slice
(`source[i:i + seq_len]`: `seq_len` is in one bound and not the other), a size argument
(`torch.zeros(n, d)`, `x.view(n, -1)`, `x.narrow(0, i, n)`). Asked by the `recompilation`
pass (TRN443: a length drawn on the host each step) and by the program model for the
parameters of a module's functions (`get_batch(source, i, args, seq_len=None)` slices to
`seq_len`), so a step that passes a drawn length to a helper of another module is seen.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

# Tensor factories whose positional arguments (or `size=`) are sizes.
_FACTORIES = frozenset({"zeros", "ones", "empty", "full", "rand", "randn", "arange"})
# Tensor methods whose arguments are sizes; `narrow`'s length is its third.
_SIZED_METHODS = frozenset(
    {"view", "reshape", "expand", "repeat", "new_zeros", "new_ones", "new_empty", "narrow"}
)


def _names(node: ast.AST | None) -> set[str]:
    if node is None:
        return set()
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def derived_names(
    body: Iterable[ast.AST],
    seeds: set[str],
    drawn: frozenset[int] = frozenset(),
    assignments: list[ast.Assign | ast.AnnAssign | ast.AugAssign] | None = None,
) -> set[str]:
    """``seeds``, the targets of the assignments on the lines ``drawn``, and every name ``body``
    binds to a value that reads one of them, directly or through another such name (`bptt =
    ... np.random.random() ...`; `seq_len = max(5, int(np.random.normal(bptt, 5)))`), in the
    order of the code, twice (a loop's next iteration reads what the last one bound: `i +=
    seq_len`). A name rebound to a bucket of such a value (`seq_len = -(-seq_len // 8) * 8`)
    leaves them: its value is one of a few lengths."""
    if assignments is None:
        assignments = _assignments(node for statement in body for node in ast.walk(statement))
    found = set(seeds)
    for _ in range(2):
        for node in assignments:
            if node.lineno in drawn:  # `top, left = np.random.randint(0, n, size=2)`
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                found |= {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
                continue
            for names, value in _pairs(node):
                read = _names_outside_buckets(value)
                if isinstance(node, ast.AugAssign):
                    read |= names
                if read & found:
                    found |= names
                elif _names(value) & found:
                    found -= names  # rebound to a bucket of a drawn value
    return found


def _pairs(node: ast.Assign | ast.AnnAssign | ast.AugAssign) -> list[tuple[set[str], ast.AST]]:
    """The names an assignment binds, each set with its value: a tuple assigned a tuple of its
    length pair by pair (`top, left = int(y * s), int(x * s)`); other tuples bind nothing."""
    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
    found: list[tuple[set[str], ast.AST]] = []
    for target in targets:
        if isinstance(target, ast.Name):
            found.append(({target.id}, node.value))  # type: ignore[arg-type]
        elif (
            isinstance(target, ast.Tuple | ast.List)
            and isinstance(node.value, ast.Tuple | ast.List)
            and len(target.elts) == len(node.value.elts)
        ):
            found.extend(
                ({t.id}, v)
                for t, v in zip(target.elts, node.value.elts, strict=True)
                if isinstance(t, ast.Name)
            )
    return found


def _assignments(nodes: Iterable[ast.AST]) -> list[ast.Assign | ast.AnnAssign | ast.AugAssign]:
    """The assignments among ``nodes`` that bind a value, in the order of the code."""
    return sorted(
        (
            node
            for node in nodes
            if isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign)
            and node.value is not None
        ),
        key=lambda node: (node.lineno, node.col_offset),
    )


def _is_bucket(node: ast.AST) -> bool:
    """`n // k * k`, `-(-n // k) * k`, `math.ceil(n / k) * k`, `bucket_of(n)`: one of a few
    fixed lengths."""
    if isinstance(node, ast.Call):
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        return "bucket" in name.lower()
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult)):
        return False
    for side in (node.left, node.right):
        if isinstance(side, ast.UnaryOp) and isinstance(side.op, ast.USub):
            side = side.operand
        if isinstance(side, ast.BinOp) and isinstance(side.op, ast.FloorDiv):
            return True
        if isinstance(side, ast.Call) and getattr(side.func, "attr", None) in ("ceil", "floor"):
            return True
    return False


def _names_outside_buckets(node: ast.AST) -> set[str]:
    if _is_bucket(node):
        return set()
    if isinstance(node, ast.Name):
        return {node.id}
    found: set[str] = set()
    for child in ast.iter_child_nodes(node):
        found |= _names_outside_buckets(child)
    return found


def shape_use(body: Iterable[ast.AST], names: set[str]) -> ast.AST | None:
    """The first slice or sized call in ``body`` whose shape one of ``names`` decides."""
    for statement in body:
        for node in ast.walk(statement):
            if isinstance(node, ast.Subscript) and _slices_to(node, names):
                return node
            if isinstance(node, ast.Call) and _sizes_from(node, names):
                return node
    return None


def _slices_to(node: ast.Subscript, names: set[str]) -> bool:
    index = node.slice
    for part in index.elts if isinstance(index, ast.Tuple) else [index]:
        if not isinstance(part, ast.Slice):
            continue
        lower, upper = _names(part.lower) & names, _names(part.upper) & names
        # `x[i:i + n]` with `i` decided: the offset moves, the length does not.
        if lower ^ upper or _names(part.step) & names:
            return True
    return False


def _sizes_from(call: ast.Call, names: set[str]) -> bool:
    func = call.func
    if not isinstance(func, ast.Attribute):
        return False
    sizes: list[ast.AST] = []
    if func.attr in _FACTORIES and isinstance(func.value, ast.Name) and func.value.id == "torch":
        sizes = [*call.args, *(k.value for k in call.keywords if k.arg == "size")]
        if func.attr == "full":
            sizes = sizes[:1]
    elif func.attr == "narrow":
        sizes = call.args[2:3]
    elif func.attr in _SIZED_METHODS:
        sizes = list(call.args)
    return any(_names(size) & names for size in sizes)


def shape_parameters(function: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, int]:
    """The parameters of ``function`` that decide the length of a slice or a size argument in
    its body -> the line of that slice or call."""
    nodes = [node for statement in function.body for node in ast.walk(statement)]
    uses = [node for node in nodes if isinstance(node, ast.Subscript | ast.Call)]
    bounds = _names_in_bounds(uses)
    if not bounds:
        return {}
    assignments = _assignments(nodes)
    # Where each name flows, order and buckets aside: a parameter that reaches no bound
    # through it decides no shape, and is not followed in order (the costly part).
    flows: dict[str, set[str]] = {}
    for node in assignments:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        names = {t.id for t in targets if isinstance(t, ast.Name)}
        for read in _names(node.value):
            flows.setdefault(read, set()).update(names)
    found: dict[str, int] = {}
    arguments = function.args
    for parameter in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs):
        reached, stack = {parameter.arg}, [parameter.arg]
        while stack:
            for name in flows.get(stack.pop(), ()):
                if name not in reached:
                    reached.add(name)
                    stack.append(name)
        if not reached & bounds:
            continue
        names = derived_names((), {parameter.arg}, assignments=assignments)
        use = next(
            (
                node
                for node in uses
                if (isinstance(node, ast.Subscript) and _slices_to(node, names))
                or (isinstance(node, ast.Call) and _sizes_from(node, names))
            ),
            None,
        )
        if use is not None:
            found[parameter.arg] = use.lineno  # type: ignore[attr-defined]
    return found


def _names_in_bounds(nodes: list[ast.AST]) -> set[str]:
    """The names in the slice bounds and the size arguments among ``nodes``: a parameter that
    reaches none of them decides no shape."""
    found: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Subscript):
            index = node.slice
            for part in index.elts if isinstance(index, ast.Tuple) else [index]:
                if isinstance(part, ast.Slice):
                    found |= _names(part.lower) | _names(part.upper) | _names(part.step)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr in _FACTORIES or node.func.attr in _SIZED_METHODS:
                for argument in (*node.args, *(k.value for k in node.keywords)):
                    found |= _names(argument)
    return found


def module_shape_parameters(tree: ast.Module) -> dict[str, tuple[tuple[int, str, int], ...]]:
    """Each top-level function with parameters that decide a shape -> (the parameter's
    position, -1 for a keyword-only one, its name, the line of the shape), for
    ``ModuleSummary.shape_params``."""
    found: dict[str, tuple[tuple[int, str, int], ...]] = {}
    for function in tree.body:
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        decided = shape_parameters(function)
        if decided:
            positions = [a.arg for a in (*function.args.posonlyargs, *function.args.args)]
            found[function.name] = tuple(
                (positions.index(name) if name in positions else -1, name, line)
                for name, line in decided.items()
            )
    return found
