"""Parameters a function reads element by element on the host, in a Python loop: a CTC decode's
``for i in range(l): if t[i] != 0 ...: chars.append(self.character[t[i]])`` with ``t`` a row of
its ``text_index`` parameter (deep-text-recognition-benchmark's ``utils.py``).

On a device tensor each such read executes the pending graph and copies one value to the host:
a comparison taken as a truth value, an element used as a Python index (``seq[t[i]]``,
``range(l)``), ``int()``/``float()`` of one ([measured-element-reads]: a greedy CTC decode of
8x24 indices, 550 graph executions; after one ``.cpu()``, 1). Iterating the rows or comparing
elements without reading the result costs nothing, so only those reads count.

Plain data per function (``Scope.element_reads``); the program model finds the calls that run
the function, and the ``host-sync`` pass reports the call that passes a device tensor.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from trncodemod.analysis.ast_nodes import own_nodes

# (parameter index, parameter name, line, column, the read as written)
ElementRead = tuple[int, str, int, int, str]

# Methods that give a tensor of the same storage or device: a view of the parameter is still it.
_SAME_DEVICE = frozenset(
    {"view", "reshape", "squeeze", "unsqueeze", "flatten", "long", "int", "detach", "t", "data"}
)
_CONVERSIONS = frozenset({"int", "float", "bool", "range", "chr"})
_LOOPS = (
    ast.For,
    ast.AsyncFor,
    ast.While,
    ast.ListComp,
    ast.SetComp,
    ast.DictComp,
    ast.GeneratorExp,
)
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
_NON_VALUE = (ast.Is, ast.IsNot, ast.In, ast.NotIn)


def element_reads(
    function: ast.FunctionDef | ast.AsyncFunctionDef,
    params: tuple[str, ...],
    method: bool,
    nodes: list[ast.AST] | None = None,
) -> tuple[ElementRead, ...]:
    """The first host read of an element of each parameter, inside a loop of ``function``;
    ``nodes``: its own nodes (``own_nodes``), where the caller has them."""
    candidates = params[1:] if method else params
    if not candidates:
        return ()
    if nodes is None:
        nodes = list(own_nodes(function))
    loops = [n for n in nodes if isinstance(n, _LOOPS)]
    if not loops:
        return ()
    assigned: dict[str, list[ast.expr]] = {}
    for node in nodes:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                for name in _names(target):
                    assigned.setdefault(name, []).append(
                        node.value if isinstance(target, ast.Name) else node
                    )
        elif isinstance(node, ast.AugAssign | ast.AnnAssign) and isinstance(node.target, ast.Name):
            assigned.setdefault(node.target.id, []).append(node)  # type: ignore[arg-type]
    # Each name that holds (a view of) one parameter, and nothing else, in the whole function.
    holds: dict[str, str] = {p: p for p in candidates if p not in assigned}
    for _ in range(3):
        for name, values in assigned.items():
            if name in holds:
                continue
            roots = {_root(v, holds) for v in values}
            if len(roots) == 1 and None not in roots:
                holds[name] = roots.pop()  # type: ignore[assignment]
    if not holds:
        return ()
    found: dict[str, ElementRead] = {}
    for loop in loops:
        elements = _loop_elements(loop, holds)
        for node in _inside(loop):
            for param, read in _reads(node, holds, elements):
                place = (read.lineno, read.col_offset + 1)
                if param not in found or place < found[param][2:4]:
                    found[param] = (
                        params.index(param),
                        param,
                        read.lineno,
                        read.col_offset + 1,
                        _short(read),
                    )
    return tuple(sorted(found.values(), key=lambda r: r[0]))


def _inside(loop: ast.AST) -> Iterator[ast.AST]:
    """What runs once per iteration: a loop's body and test, a comprehension's element and
    conditions (and the nested generators' iterables)."""
    if isinstance(loop, ast.For | ast.AsyncFor | ast.While):
        roots: list[ast.AST] = [*loop.body, *loop.orelse]
        if isinstance(loop, ast.While):
            roots.append(loop.test)
    else:
        parts = [loop.key, loop.value] if isinstance(loop, ast.DictComp) else [loop.elt]
        roots = [*parts, *loop.generators[1:]]
        roots += [ast.If(test=c, body=[], orelse=[]) for g in loop.generators for c in g.ifs]
    for root in roots:
        if isinstance(root, _SCOPES):
            continue
        yield root
        yield from own_nodes(root)


def _names(target: ast.AST) -> Iterator[str]:
    for node in ast.walk(target):
        if isinstance(node, ast.Name):
            yield node.id


def _root(node: ast.AST, holds: dict[str, str]) -> str | None:
    """The parameter ``node`` is a view of: the name itself, a subscript, ``.data`` or a method
    in ``_SAME_DEVICE`` of one (``text_index[index, :]``); None for anything else (a `.cpu()`,
    `.tolist()`, a call of something else)."""
    while True:
        if isinstance(node, ast.Name):
            return holds.get(node.id)
        if isinstance(node, ast.Subscript) or (
            isinstance(node, ast.Attribute) and node.attr == "data"
        ):
            node = node.value
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in _SAME_DEVICE
        ):
            node = node.func.value
        else:
            return None


def _loop_elements(loop: ast.AST, holds: dict[str, str]) -> dict[str, str]:
    """Loop targets that are elements of a parameter: `for i in t[row, :]`, the second target
    of `for k, l in enumerate(length)`, and the like in a comprehension."""
    pairs: list[tuple[ast.AST, ast.AST]] = []
    if isinstance(loop, ast.For | ast.AsyncFor):
        pairs.append((loop.target, loop.iter))
    elif not isinstance(loop, ast.While):
        pairs += [(g.target, g.iter) for g in loop.generators]
    found: dict[str, str] = {}
    for target, iterated in pairs:
        param = _root(iterated, holds)
        if param is not None and isinstance(target, ast.Name):
            found[target.id] = param
            continue
        if (
            isinstance(iterated, ast.Call)
            and isinstance(iterated.func, ast.Name)
            and iterated.func.id in ("enumerate", "zip")
            and isinstance(target, ast.Tuple)
        ):
            offset = 1 if iterated.func.id == "enumerate" else 0
            for position, argument in enumerate(iterated.args):
                param = _root(argument, holds)
                index = position + offset
                if param is not None and index < len(target.elts):
                    element = target.elts[index]
                    if isinstance(element, ast.Name):
                        found[element.id] = param
    return found


def _element(node: ast.AST, holds: dict[str, str], elements: dict[str, str]) -> str | None:
    """The parameter whose element ``node`` is (`t[i]`, a loop's element), or whose elements it
    compares (`t[i] != 0`, `t[i - 1] == t[i]`)."""
    if isinstance(node, ast.Name):
        return elements.get(node.id)
    if isinstance(node, ast.Subscript):
        return _root(node, holds)
    if isinstance(node, ast.Compare) and not any(isinstance(o, _NON_VALUE) for o in node.ops):
        for operand in (node.left, *node.comparators):
            param = _element(operand, holds, elements)
            if param is not None:
                return param
    return None


def _reads(
    node: ast.AST, holds: dict[str, str], elements: dict[str, str]
) -> Iterator[tuple[str, ast.AST]]:
    """(parameter, the read) for a read of an element's value on the host at ``node``."""
    tests: list[ast.AST] = []
    shown: ast.AST | None = None  # the expression the read is shown as, if not the test
    if isinstance(node, ast.If | ast.While | ast.IfExp | ast.Assert):
        tests.append(node.test)
    elif isinstance(node, ast.BoolOp):
        tests += node.values
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        tests.append(node.operand)
    elif (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in ("item", "tolist")
    ):
        tests.append(node.func.value)
        shown = node
    elif (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in _CONVERSIONS
        and node.args
    ):
        tests += node.args
        shown = node
    elif isinstance(node, ast.Subscript) and _root(node.value, holds) is None:
        # `seq[t[i]]`: an element as a Python index (a list, a str, a dict)
        index = node.slice
        if not isinstance(index, ast.Slice | ast.Tuple):
            tests.append(index)
            shown = node
    for test in tests:
        if isinstance(test, ast.BoolOp | ast.UnaryOp):
            continue  # its operands are visited as nodes of their own
        param = _element(test, holds, elements)
        if param is not None:
            yield param, shown or test


def _short(node: ast.AST) -> str:
    text = ast.unparse(node)
    return text if len(text) <= 40 else text[:37] + "..."
