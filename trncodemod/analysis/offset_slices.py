"""Slices a step takes at a Python-int offset that changes every step (`X[i:i + bs]`,
`source[:, i:i + seq_len]`), and the whole-tensor moves whose tensor they slice.

On XLA a slice's start is a constant of the graph: a tensor on the device sliced at a new
offset every step compiles a new graph every step ([measured-offset-slices]: 6 offsets, 6
compiles; the same slices taken on the CPU and moved, 1). Asked by the `recompilation` pass
(TRN434, the slices) and the `device` pass (TRN056, the move of the whole tensor).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import libcst as cst
import libcst.matchers as m
from libcst.metadata import GlobalScope, Scope

from trncodemod.analysis.loops import Loop, LoopInfo
from trncodemod.analysis.nodes import children, find
from trncodemod.analysis.nodes import walk as _walk
from trncodemod.analysis.shape_reads import is_shape_read

_SCOPES = (cst.FunctionDef, cst.ClassDef, cst.Lambda)
_OFFSET_ARITHMETIC = (cst.Add, cst.Subtract, cst.Multiply)
# Reads of a tensor that need only its metadata: the host copy answers them the same.


def range_offsets(loop: Loop) -> set[str]:
    """The names a loop steps: what a ``for`` binds to the elements of a ``range(...)`` (``i``
    of ``for i in range(...)`` and of ``for batch, i in enumerate(range(...))``), and a name
    the loop's own body adds to (``i += seq_len`` in ``while i < n:``, awd-lstm-lm's variable
    BPTT)."""
    found = _stepped(loop.body)
    if not isinstance(loop, cst.For) or not isinstance(loop.iter, cst.Call):
        return found
    call, target = loop.iter, loop.target
    if m.matches(call.func, m.Name("enumerate")) and call.args:
        if not isinstance(target, cst.Tuple | cst.List) or len(target.elements) != 2:
            return found
        call, target = call.args[0].value, target.elements[1].value  # type: ignore[assignment]
    if isinstance(call, cst.Call) and m.matches(call.func, m.Name("range")):
        if isinstance(target, cst.Name):
            found.add(target.value)
    return found


def _stepped(body: cst.BaseSuite) -> set[str]:
    lines = body.body if isinstance(body, cst.IndentedBlock) else [body]
    return {
        small.target.value
        for line in lines
        if isinstance(line, cst.SimpleStatementLine | cst.SimpleStatementSuite)
        for small in line.body
        if isinstance(small, cst.AugAssign)
        and isinstance(small.operator, cst.AddAssign)
        and isinstance(small.target, cst.Name)
    }


def offset_names(loop: Loop, code: list[cst.CSTNode]) -> set[str]:
    """``range_offsets`` and the names the step's ``code`` binds to them through plain
    arithmetic: ``start_ind = batch``, ``start = i * bs``. Not a ``min(...)`` (a length that
    shrinks at the end of the source is no offset)."""
    offsets = range_offsets(loop)
    if not offsets:
        return offsets
    assigns = [
        (node.targets[0].target.value, node.value)
        for node in code
        if isinstance(node, cst.Assign)
        and len(node.targets) == 1
        and isinstance(node.targets[0].target, cst.Name)
    ]
    grew = True
    while grew:
        grew = False
        for name, value in assigns:
            if name not in offsets and _offset_expression(value, offsets):
                offsets.add(name)
                grew = True
    return offsets


def _offset_expression(value: cst.BaseExpression, offsets: set[str]) -> bool:
    if isinstance(value, cst.Name):
        return value.value in offsets
    if isinstance(value, cst.BinaryOperation) and isinstance(value.operator, _OFFSET_ARITHMETIC):
        sides = (value.left, value.right)
        plain = all(isinstance(s, cst.Name | cst.Integer | cst.BinaryOperation) for s in sides)
        return plain and any(_offset_expression(s, offsets) for s in sides)
    return False


def starts_at(node: cst.Subscript, names: set[str]) -> cst.Slice | None:
    """The slice of ``node`` whose start reads one of ``names`` (``x[i:i + n]``, ``x[:, i:]``)."""
    for element in node.slice:
        part = element.slice
        if isinstance(part, cst.Slice) and part.lower is not None:
            if any(n.value in names for n in m.findall(part.lower, m.Name())):  # type: ignore[union-attr]
                return part
    return None


def step_code(loop: Loop, loops: dict[Loop, LoopInfo]) -> Iterator[cst.CSTNode]:
    """The step's own code and the loops nested in it; not functions defined there, and not a
    nested step loop (it is a step of its own)."""
    stack: list[cst.CSTNode] = [loop.body]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(
            c for c in reversed(children(node)) if not isinstance(c, _SCOPES) and c not in loops
        )


def moved_slices(nodes: list[cst.CSTNode]) -> set[int]:
    """The subscripts among ``nodes`` whose value goes to a device: ``x[a:b].to(...)``, the host
    side of ``x[a:b].to(d) if c else x[a:b]``, or ``y = x[a:b]`` and then
    ``y.to(...)``/``y.cuda()``."""
    moved: set[int] = set()
    named: dict[str, list[cst.Subscript]] = {}
    receivers: set[str] = set()
    for node in nodes:
        if isinstance(node, cst.Call) and m.matches(
            node.func, m.Attribute(attr=m.Name("to") | m.Name("cuda"))
        ):
            receiver = node.func.value  # type: ignore[attr-defined]
            if isinstance(receiver, cst.Subscript):
                moved.add(id(receiver))
            elif isinstance(receiver, cst.Name):
                receivers.add(receiver.value)
        elif isinstance(node, cst.IfExp) and isinstance(node.orelse, cst.Subscript):
            body = node.body
            if (
                isinstance(body, cst.Call)
                and isinstance(body.func, cst.Attribute)
                and body.func.attr.value == "to"
                and body.func.value.deep_equals(node.orelse)
            ):
                moved.add(id(node.orelse))
        elif isinstance(node, cst.Assign) and isinstance(node.value, cst.Subscript):
            for target in node.targets:
                if isinstance(target.target, cst.Name):
                    named.setdefault(target.target.value, []).append(node.value)
    for name in receivers & set(named):
        moved.update(id(s) for s in named[name])
    return moved


@dataclass
class SlicedMove:
    """``X = X.cuda()`` (or ``.to(device)``) at a module's top level, with the slices that the
    module's steps take of ``X`` at their offsets."""

    statement: cst.SimpleStatementLine
    move: cst.Call
    name: str
    guard: cst.If | None  # the ``if`` it runs under
    slices: list[cst.Subscript]
    # Why the whole tensor must stay where the move puts it (a read that needs all of it, a
    # condition the slices cannot repeat); None: keep it on the host and move each slice.
    kept_because: str | None = None


def sliced_moves(
    module: cst.Module,
    loops: dict[Loop, LoopInfo],
    global_scope: GlobalScope,
    parent_of: Callable[[cst.CSTNode], cst.CSTNode | None],
    scope_of: Callable[[cst.CSTNode], Scope | None],
    line_of: Callable[[cst.CSTNode], int],
    is_device: Callable[[cst.BaseExpression], bool],
) -> list[SlicedMove]:
    """The whole-tensor moves of ``module`` whose tensor a step slices at its offset, each with
    whether keeping the tensor on the host and moving each slice is certain to be the same
    program (``kept_because`` None)."""
    candidates = {m.name: m for m in _top_level_moves(module.body, None, is_device)}
    if not candidates:
        return []
    for info in loops.values():
        code = list(step_code(info.node, loops))
        offsets = offset_names(info.node, code)
        if not offsets:
            continue
        moved = moved_slices(code)
        for node in code:
            if (
                isinstance(node, cst.Subscript)
                and isinstance(node.value, cst.Name)
                and node.value.value in candidates
                and id(node) not in moved
                and starts_at(node, offsets) is not None
                and not _written(node, parent_of)  # `X[i:j] = y` writes into the tensor
            ):
                candidates[node.value.value].slices.append(node)
    found = [c for c in candidates.values() if c.slices]
    for candidate in found:
        candidate.kept_because = candidate.kept_because or _kept_because(
            candidate, module, global_scope, parent_of, scope_of, line_of
        )
    return found


def _top_level_moves(
    body: list,
    guard: cst.If | None,
    is_device: Callable[[cst.BaseExpression], bool],
    nested: bool = False,
) -> Iterator[SlicedMove]:
    """``X = X.cuda()`` / ``X = X.to(device)`` statements of the module's own code, in its
    ``if`` blocks too (the ``if`` is the guard; ``if __name__ == "__main__"`` guards nothing;
    under two conditions, ``nested``, the slices would have to repeat both)."""
    for statement in body:
        if isinstance(statement, cst.If):
            main = m.matches(
                statement.test,
                m.Comparison(left=m.Name("__name__"), comparisons=[m.ComparisonTarget()]),
            )
            inner = guard if main else statement
            if isinstance(statement.body, cst.IndentedBlock):
                deeper = nested or (guard is not None and not main)
                yield from _top_level_moves(list(statement.body.body), inner, is_device, deeper)
            continue
        if not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1:
            continue
        assign = statement.body[0]
        if not (
            isinstance(assign, cst.Assign)
            and len(assign.targets) == 1
            and isinstance(assign.targets[0].target, cst.Name)
            and isinstance(assign.value, cst.Call)
            and isinstance(assign.value.func, cst.Attribute)
        ):
            continue
        call, name = assign.value, assign.targets[0].target.value
        if not m.matches(call.func.value, m.Name(name)):  # type: ignore[attr-defined]
            continue  # `X = X.cuda()`: dropped whole, `X` is then what it was
        if _is_whole_move(call, is_device):
            kept = "it runs under more than one condition" if nested else None
            yield SlicedMove(statement, call, name, guard, [], kept)


def _is_whole_move(call: cst.Call, is_device: Callable[[cst.BaseExpression], bool]) -> bool:
    method = call.func.attr.value  # type: ignore[attr-defined]
    positional = [a for a in call.args if a.keyword is None]
    keywords = {a.keyword.value for a in call.args if a.keyword is not None}
    if not keywords <= {"non_blocking"} or any(a.star for a in call.args):
        return False
    if method == "cuda":
        return not positional
    return method == "to" and len(positional) == 1 and is_device(positional[0].value)


def _kept_because(
    move: SlicedMove,
    module: cst.Module,
    global_scope: GlobalScope,
    parent_of: Callable[[cst.CSTNode], cst.CSTNode | None],
    scope_of: Callable[[cst.CSTNode], Scope | None],
    line_of: Callable[[cst.CSTNode], int],
) -> str | None:
    name = move.name
    bindings = list(global_scope.assignments[name])
    if any(a.scope is not global_scope for a in bindings):
        return f"`{name}` is bound again in a function"
    sliced = {id(s.value) for s in move.slices}
    accesses = {id(r): r for a in bindings for r in a.references}  # in functions too
    for access in sorted(accesses.values(), key=lambda a: line_of(a.node)):
        node = access.node
        if id(node) in sliced or node is move.move.func.value:  # type: ignore[attr-defined]
            continue
        if not is_shape_read(node, parent_of):
            return f"`{name}` is also used whole (line {line_of(node)})"
    # The slices repeat the move's condition and device: names the slice's scope reads as
    # the module's own, bound once, and attributes nothing assigns (`args.cuda = False` would
    # change the condition between the move and the slice).
    assigned = _assigned_attributes(module)
    for part in (move.guard.test if move.guard else None, *move.move.args):
        value = part.value if isinstance(part, cst.Arg) else part
        if value is None:
            continue
        if not _plain(value):
            return f"the slices cannot repeat `{_code(value)}`"
        reads = _read_names(value)
        for read in reads:
            if len(global_scope.assignments[read]) > 1:
                return f"`{read}` is bound more than once"
        for attribute in m.findall(value, m.Attribute()):
            if _code(attribute) in assigned:
                return f"`{_code(attribute)}` is assigned"
        for slice_ in move.slices:
            scope = scope_of(slice_)
            for read in reads:
                if scope is None or _local(read, scope, global_scope):
                    return f"`{read}` is not the module's where `{name}` is sliced"
    return None


def _written(node: cst.CSTNode, parent_of: Callable[[cst.CSTNode], cst.CSTNode | None]) -> bool:
    """``node`` is (in) the target of an assignment, a ``del`` or a ``for``."""
    child, parent = node, parent_of(node)
    while isinstance(parent, cst.Tuple | cst.List | cst.Element | cst.StarredElement):
        child, parent = parent, parent_of(parent)
    if isinstance(parent, cst.AssignTarget | cst.Del):
        return True
    if isinstance(parent, cst.AugAssign | cst.AnnAssign | cst.For):
        return parent.target is child
    return False


def _read_names(value: cst.BaseExpression) -> set[str]:
    """The names ``value`` reads: not the attribute names of ``a.b`` (``b``)."""
    attributes = {id(a.attr) for a in m.findall(value, m.Attribute())}  # type: ignore[union-attr]
    return {
        n.value  # type: ignore[union-attr]
        for n in m.findall(value, m.Name())
        if id(n) not in attributes
    }


def _assigned_attributes(module: cst.Module) -> set[str]:
    """``a.b`` of every ``a.b = ...``, ``a.b += ...`` in ``module``."""
    return {
        _code(node.target)
        for node in find(module, cst.AssignTarget, cst.AugAssign, cst.AnnAssign)
        if isinstance(node.target, cst.Attribute)
    }


def _plain(value: cst.BaseExpression) -> bool:
    """Names, attributes, constants and their tests: nothing a second evaluation could change."""
    allowed = (
        cst.Name,
        cst.Attribute,
        cst.Integer,
        cst.SimpleString,
        cst.UnaryOperation,
        cst.BooleanOperation,
        cst.Comparison,
    )
    return all(
        isinstance(n, allowed) or not isinstance(n, cst.BaseExpression) for n in _walk(value)
    )


def _local(name: str, scope: Scope, global_scope: GlobalScope) -> bool:
    """``name`` read in ``scope`` is not the module's own binding."""
    while scope is not global_scope:
        if any(a.scope is scope for a in scope.assignments[name]):
            return True
        parent = getattr(scope, "parent", None)
        if parent is None or parent is scope:
            return True
        scope = parent
    return False


def _code(node: cst.CSTNode) -> str:
    return cst.Module(body=[]).code_for_node(node)


def stepped_slicers(
    module: cst.Module, loops: dict[Loop, LoopInfo]
) -> dict[str, tuple[cst.FunctionDef, cst.Call]]:
    """The module's functions that one of its steps calls with the loop's offset, and that
    slice the parameter the offset is passed to (``get_batch(train_data, i)``): name -> (the
    function, the call)."""
    functions = {f.name.value: f for f in module.body if isinstance(f, cst.FunctionDef)}
    found: dict[str, tuple[cst.FunctionDef, cst.Call]] = {}
    for info in loops.values():
        code = list(step_code(info.node, loops))
        offsets = offset_names(info.node, code)
        for call in code:
            if not (isinstance(call, cst.Call) and isinstance(call.func, cst.Name)):
                continue
            function = functions.get(call.func.value)
            if function is None or call.func.value in found:
                continue
            params = [p.name.value for p in function.params.params]
            passed = {
                params[k]
                for k, a in enumerate(call.args)
                if k < len(params) and a.keyword is None and m.matches(a.value, m.Name())
                if a.value.value in offsets  # type: ignore[attr-defined]
            }
            if passed and _slices_at(function, set(params), passed):
                found[call.func.value] = (function, call)
    return found


def _slices_at(function: cst.FunctionDef, params: set[str], offsets: set[str]) -> bool:
    body = list(_walk(function.body))
    moved = moved_slices(body)
    return any(
        isinstance(node, cst.Subscript)
        and m.matches(node.value, m.Name())
        and node.value.value in params - offsets  # type: ignore[attr-defined]
        and id(node) not in moved
        and starts_at(node, offsets) is not None
        for node in body
    )


def returned_moves(
    function: cst.FunctionDef, is_device: Callable[[cst.BaseExpression], bool]
) -> list[cst.Call]:
    """The moves of a whole value ``function`` returns: ``return x.to(device)``, or ``x =
    x.cuda()`` and ``return x`` (``batchify`` of a language model)."""
    returned = set()
    moves: list[cst.Call] = []
    own = list(_own_nodes(function.body))
    for node in own:
        if isinstance(node, cst.Return) and node.value is not None:
            if isinstance(node.value, cst.Name):
                returned.add(node.value.value)
            elif _moves_whole(node.value, is_device):
                moves.append(node.value)  # type: ignore[arg-type]
    for node in own:
        if (
            isinstance(node, cst.Assign)
            and len(node.targets) == 1
            and m.matches(node.targets[0].target, m.Name())
            and node.targets[0].target.value in returned  # type: ignore[attr-defined]
            and _moves_whole(node.value, is_device)
        ):
            moves.append(node.value)  # type: ignore[arg-type]
    return moves


def _own_nodes(body: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """The nodes of a function's body, not those of the functions and classes it defines."""
    stack = [body]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(c for c in reversed(children(node)) if not isinstance(c, _SCOPES))


def _moves_whole(value: cst.BaseExpression, is_device: Callable[[cst.BaseExpression], bool]):
    return (
        isinstance(value, cst.Call)
        and isinstance(value.func, cst.Attribute)
        and value.func.attr.value in ("cuda", "to")
        and _is_whole_move(value, is_device)
    )
