"""Whether a loop that does no training already runs its graph every iteration by a host read.

An evaluation or sampling loop that reads a value it computed this iteration on the host
(``loss.item()``, ``y[0].tolist()``) executes that value's graph then; what else the iteration
made is dropped with its names at the next one, so the graph does not grow and a step marker at
the end of the body adds an execution for nothing (issue 23, item 6: super_resolution's
``1 / mse.item()``, nanoGPT's ``losses[k] = loss.item()``). That holds only where nothing
computed on the device is carried to the next iteration: a device accumulator
(``fsdp_loss[0] += loss.item()`` on ``torch.zeros(2).to(rank)``) or a tensor rebuilt from itself
(``idx = torch.cat((idx, nxt), 1)``) keeps growing one graph, and then the marker stays.
"""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from trncodemod.analysis.loops import Loop, assigned_names, dotted, root_name, target_names
from trncodemod.analysis.nodes import children, walk

# What copies a value to the host, and so runs its graph: `loss.item()`, `y.tolist()`,
# `out.cpu()`, `a.numpy()`, and the builtins `float(loss)`, `int(n)`, `bool(flag)`.
_HOST_READS = frozenset({"item", "tolist", "cpu", "numpy"})
_HOST_CONVERSIONS = frozenset({"float", "int", "bool"})
# Tensor methods whose result is a tensor: `total += loss.detach()` sums on the device, whatever
# `total` started as (item-hoist's TRN121 writes that of `total += loss.item()`).
_DEVICE_RESULTS = frozenset({"detach", "sum", "mean", "clone", "float", "double"})
_HOST_FACTORIES = frozenset({"list", "dict", "set", "int", "float", "defaultdict", "Counter"})
# Factories of a tensor on the CPU unless told a device: `losses = torch.zeros(n)`. A write of a
# device value into one (`losses[k] = loss`) copies it to the host, a read like `.item()`.
_CPU_TENSOR_FACTORIES = frozenset({"zeros", "ones", "empty", "full", "tensor"})


def host_read_cuts(loop: Loop, scope: cst.CSTNode) -> bool:
    """Every iteration of ``loop`` reads on the host one value computed in that iteration
    (`.cpu().numpy()` is one read; a read in a per-sample loop inside it counts once), and no
    device value is carried from one iteration to the next. ``scope``: the function (or
    module) that holds the loop, where the names the loop updates get their first values."""
    made = _made(loop)
    reads = [call for call in every_iteration_calls(loop.body) if _reads_on_host(call, made)]
    writes = _host_tensor_writes(loop, scope, made)
    if not reads and not writes:
        return False
    inner = {id(node) for read in reads for node in walk(read.func) if node is not read}
    if sum(1 for read in reads if id(read) not in inner) + len(writes) > 1:
        # Each read runs its own graph over what came before it (`out.cpu()`, `h.cpu()`,
        # `float(loss)`: 3.0 executions a batch, 1.0 with a cut before the first read;
        # benchmarks/step_shapes/eval_host_read.py).
        return False
    return not carries_device_value(loop, scope)


def _host_tensor_writes(loop: Loop, scope: cst.CSTNode, made: set[str]) -> list[cst.Assign]:
    """Statements at the top of ``loop``'s body that write a value computed in the iteration,
    not read on the host already, into a tensor made on the CPU before the loop (`losses =
    torch.zeros(n)`; `losses[k] = loss`): each copies the value to the host, running its graph
    (benchmarks/xla_quirks/cpu_tensor_write.py: 7 executions for 6 batches with no cut, 12 with
    a cut after the write or before it). `losses[k] = loss.item()` is the `.item()`'s read."""
    statements = loop.body.body if isinstance(loop.body, cst.IndentedBlock) else ()
    found = []
    for statement in statements:
        if not isinstance(statement, cst.SimpleStatementLine):
            continue
        for small in statement.body:
            if not (
                isinstance(small, cst.Assign)
                and len(small.targets) == 1
                and isinstance(small.targets[0].target, cst.Subscript)
                and isinstance(small.targets[0].target.value, cst.Name)
            ):
                continue
            name = small.targets[0].target.value.value
            if name in made or not _starts_as_cpu_tensor(name, loop, scope):
                continue
            values = walk(small.value)
            if any(isinstance(n, cst.Call) and _reads_on_host(n, made) for n in values):
                continue
            if any(isinstance(n, cst.Name) and n.value in made for n in walk(small.value)):
                found.append(small)
    return found


def _starts_as_cpu_tensor(name: str, loop: Loop, scope: cst.CSTNode) -> bool:
    """Every assignment of ``name`` outside ``loop`` in ``scope`` makes a tensor on the CPU:
    `torch.zeros(n)`, with no `device=` and not moved (`torch.zeros(2).to(rank)` is not)."""
    loop_nodes = {id(n) for n in walk(loop)}
    values = [
        node.value
        for node in walk(scope)
        if isinstance(node, cst.Assign)
        and id(node) not in loop_nodes
        and any(isinstance(t.target, cst.Name) and t.target.value == name for t in node.targets)
    ]
    return bool(values) and all(
        isinstance(v, cst.Call)
        and dotted(v.func) in {f"torch.{f}" for f in _CPU_TENSOR_FACTORIES}
        and not any(a.keyword is not None and a.keyword.value == "device" for a in v.args)
        for v in values
    )


def first_host_read(loop: Loop) -> tuple[int, cst.Call] | None:
    """The first statement at the top of ``loop``'s body that reads on the host, on every
    iteration, a value computed in that iteration: its index and the read. A graph cut right
    before it runs the iteration's graph once; a cut after it (at the end of the body, or an
    MpDeviceLoader's at the next batch) runs the forward pass again for what is still alive
    (benchmarks/step_shapes/eval_host_read.py: 2.0 executions a batch against 1.0)."""
    if not isinstance(loop.body, cst.IndentedBlock):
        return None
    made = _made(loop)
    for index, statement in enumerate(loop.body.body):
        every = {id(c) for c in every_iteration_calls(cst.IndentedBlock(body=[statement]))}
        for node in walk(statement):  # in source order
            if id(node) in every and _reads_on_host(node, made):  # type: ignore[arg-type]
                return index, node  # type: ignore[return-value]
    return None


def _made(loop: Loop) -> set[str]:
    made = assigned_names(loop.body)
    if isinstance(loop, cst.For):
        made |= target_names(loop.target)
    return made


def every_iteration_calls(body: cst.BaseSuite) -> Iterator[cst.Call]:
    """Calls that run on every iteration: not under an ``if``, a ``while``, a ``match``, an
    ``except`` or a short-circuit; a nested ``for`` counts (the cifar evaluation's per-sample
    reads run as often as its batches)."""
    stack: list[cst.CSTNode] = list(body.body) if isinstance(body, cst.IndentedBlock) else [body]
    while stack:
        node = stack.pop()
        if isinstance(node, cst.Call):
            yield node
        if isinstance(node, cst.If | cst.While):
            stack.append(node.test)  # the test runs every time the statement does
            continue  # its body runs on some iterations only
        if isinstance(node, cst.Match | cst.FunctionDef | cst.ClassDef):
            continue  # runs on some iterations only, or not here
        if isinstance(node, cst.Lambda | cst.IfExp | cst.BooleanOperation | cst.CompFor):
            continue
        if isinstance(node, cst.Try):
            stack.append(node.body)
            continue
        stack.extend(children(node))


def _reads_on_host(call: cst.Call, made: set[str]) -> bool:
    func = call.func
    if isinstance(func, cst.Attribute) and func.attr.value in _HOST_READS and not call.args:
        read = func.value
    elif (
        isinstance(func, cst.Name)
        and func.value in _HOST_CONVERSIONS
        and len(call.args) == 1
        and call.args[0].keyword is None
        and not call.args[0].star
    ):
        read = call.args[0].value
    else:
        return False
    return any(isinstance(n, cst.Name) and n.value in made for n in walk(read))


def _device_result(value: cst.BaseExpression) -> bool:
    """``loss.detach()``, ``(pred == y).sum()``, ``a.detach() * n``: a tensor method's result."""
    if isinstance(value, cst.BinaryOperation):
        return _device_result(value.left) or _device_result(value.right)
    return (
        isinstance(value, cst.Call)
        and isinstance(value.func, cst.Attribute)
        and value.func.attr.value in _DEVICE_RESULTS
    )


def _keeps_tensor(node: cst.CSTNode) -> bool:
    """``losses.append(loss.detach())``: a list that keeps each iteration's tensor, whose pending
    graph is run only when it is read (item-hoist's TRN121 writes that of ``.item()``)."""
    return (
        isinstance(node, cst.Call)
        and isinstance(node.func, cst.Attribute)
        and node.func.attr.value == "append"
        and len(node.args) == 1
        and _device_result(node.args[0].value)
    )


def carries_device_value(loop: Loop, scope: cst.CSTNode) -> bool:
    """A name the loop updates from its own value (``x += ...``, ``x[i] += ...``,
    ``x = f(x, ...)``) that did not start as a host value (a number, a list or dict) before it,
    or that adds a tensor to itself (``total += loss.detach()``: a device sum from the second
    iteration on, whatever its first value), or a list the loop appends tensors to. The loop's own target is no such name: `for`
    rebinds it every iteration (`x = x.to(device)` carries nothing over)."""
    rebound = target_names(loop.target) if isinstance(loop, cst.For) else set()
    for node in walk(loop.body):
        if _keeps_tensor(node):
            return True
        if isinstance(node, cst.AugAssign):
            if _device_result(node.value):
                return True
            root = root_name(node.target)
        elif isinstance(node, cst.Assign):
            roots = {  # `gen_seq, scores = step(gen_seq, ...)` carries both
                name
                for t in node.targets
                for name in (target_names(t.target) or {root_name(t.target)})
            }
            read = {n.value for n in walk(node.value) if isinstance(n, cst.Name)}
            carried = roots & read
            if not carried:
                continue
            root = next(iter(carried))
        else:
            continue
        if root in rebound:
            continue
        if root is None or not _starts_on_host(root, loop, scope):
            return True
    return False


def _starts_on_host(name: str, loop: Loop, scope: cst.CSTNode) -> bool:
    loop_nodes = {id(n) for n in walk(loop)}
    values = [
        node.value
        for node in walk(scope)
        if isinstance(node, cst.Assign)
        and id(node) not in loop_nodes
        and any(isinstance(t.target, cst.Name) and t.target.value == name for t in node.targets)
    ]
    return bool(values) and all(_host_value(v) for v in values)


def _host_value(value: cst.BaseExpression) -> bool:
    if isinstance(value, cst.Integer | cst.Float | cst.SimpleString):
        return True
    if isinstance(value, cst.List | cst.Dict | cst.Set | cst.ListComp | cst.DictComp):
        return True
    if isinstance(value, cst.BinaryOperation):  # `[0] * n`, `0.0 + 1`
        if isinstance(value.left, cst.List | cst.ListComp):
            return True
        return _host_value(value.left) and _host_value(value.right)
    if isinstance(value, cst.UnaryOperation):
        return _host_value(value.expression)
    if isinstance(value, cst.Call) and isinstance(value.func, cst.Name):
        return value.func.value in _HOST_FACTORIES
    return False


def fetches_prepared_batch(loop: Loop, scope: cst.CSTNode, module: cst.Module) -> bool:
    """Every iteration of ``loop`` takes a batch with ``next(it)`` from what
    ``accelerator.prepare`` returned, through ``iter``/``cycle`` and names or ``self.``
    attributes bound anywhere in ``module`` (denoising-diffusion's ``self.dl = cycle(dl)`` with
    ``dl = self.accelerator.prepare(dl)``; accelerate's ``next(training_iterator)`` with
    ``training_iterator = iter(train_dataloader)``): on XLA accelerate wraps that loader in an
    MpDeviceLoader, which cuts the graph at each batch. A plain name bound in ``scope`` (the
    function that holds the loop) is followed there; a ``self.`` attribute, and a name the
    function does not bind, in the whole module."""
    local, everywhere = _bindings(scope), _bindings(module)
    bindings = {**everywhere, **{k: v for k, v in local.items() if not k.startswith("self.")}}
    for call in every_iteration_calls(loop.body):
        if (
            isinstance(call.func, cst.Name)
            and call.func.value == "next"
            and call.args
            and _prepared(call.args[0].value, bindings, 0)
        ):
            return True
    return False


def _bindings(scope: cst.CSTNode) -> dict[str, list[cst.BaseExpression]]:
    """``name`` or ``self.attr`` → every value assigned to it (a tuple target binds each of its
    names to the whole value)."""
    found: dict[str, list[cst.BaseExpression]] = {}
    for node in walk(scope):
        if not isinstance(node, cst.Assign):
            continue
        for target in node.targets:
            parts = (
                [e.value for e in target.target.elements]
                if isinstance(target.target, cst.Tuple | cst.List)
                else [target.target]
            )
            for part in parts:
                name = dotted(part) if isinstance(part, cst.BaseExpression) else None
                if name is not None:
                    found.setdefault(name, []).append(node.value)
    return found


def _prepared(
    node: cst.BaseExpression, bindings: dict[str, list[cst.BaseExpression]], depth: int
) -> bool:
    if depth > 4:
        return False
    if isinstance(node, cst.Call):
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value == "prepare":
            return (
                root_name(func) is not None and "accelerator" in (dotted(func.value) or "").lower()
            )
        if isinstance(func, cst.Name) and func.value in ("iter", "cycle") and node.args:
            return _prepared(node.args[0].value, bindings, depth + 1)
        return False
    name = dotted(node)
    if name is None:
        return False
    return any(_prepared(value, bindings, depth + 1) for value in bindings.get(name, []))
