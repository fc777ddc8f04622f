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

from collections.abc import Iterator, Mapping
from contextvars import ContextVar

import libcst as cst

from trncodemod.analysis.loops import Loop, assigned_names, dotted, root_name, target_names
from trncodemod.analysis.nodes import children, walk

# What copies a value to the host, and so runs its graph: `loss.item()`, `y.tolist()`,
# `out.cpu()` (or `out.to("cpu")`, ``_to_cpu``), `a.numpy()`, and the builtins `float(loss)`, `int(n)`, `bool(flag)`.
_HOST_READS = frozenset({"item", "tolist", "cpu", "numpy"})
_HOST_CONVERSIONS = frozenset({"float", "int", "bool"})
# Functions that copy their first argument to the host: torchvision's `save_image` (it ends in
# `.to("cpu", torch.uint8).numpy()`), under any module path (`vutils.save_image`).
_HOST_READING_FUNCTIONS = frozenset({"save_image"})
# Moves of a batch to the device: the result is device data, which a host read copies back
# without running a graph.
_MOVES = frozenset({"to", "cuda"})
# Tensor methods whose result is a tensor: `total += loss.detach()` sums on the device, whatever
# `total` started as (item-hoist's TRN121 writes that of `total += loss.item()`).
_DEVICE_RESULTS = frozenset({"detach", "sum", "mean", "clone", "float", "double"})
# Calls whose result is a host number: `n = x.size(0)`, `len(batch)`.
_SIZES = frozenset({"size", "numel", "len", "dim", "ndimension"})
_HOST_FACTORIES = frozenset({"list", "dict", "set", "int", "float", "defaultdict", "Counter"})
# Factories of a tensor on the CPU unless told a device: `losses = torch.zeros(n)`. A write of a
# device value into one (`losses[k] = loss`) copies it to the host, a read like `.item()`.
_CPU_TENSOR_FACTORIES = frozenset({"zeros", "ones", "empty", "full", "tensor"})


def host_read_cuts(loop: Loop, scope: cst.CSTNode) -> bool:
    """No cut pays in ``loop``: every iteration reads on the host a value computed in that
    iteration, at most one of its reads (`.cpu().numpy()` is one; a read in a per-sample loop
    inside it counts once) reads values that a cut before the first read would have computed
    (the others read a batch just moved to the device, or values made after that point), and
    no device value is carried from one iteration to the next. ``scope``: the function (or
    module) that holds the loop, where the names the loop updates get their first values."""
    made = _made(loop)
    reads = [call for call in every_iteration_calls(loop.body) if _reads_on_host(call, made)]
    statements = loop.body.body if isinstance(loop.body, cst.IndentedBlock) else ()
    reads += [r for r in (_branch_read(s, made) for s in statements) if r is not None]
    writes = _host_tensor_writes(loop, scope, made)
    if not reads and not writes:
        return False
    inner = {id(node) for read in reads for node in walk(read.func) if node is not read}
    outer = [read for read in reads if id(read) not in inner]
    if len(_reads_sharing_a_cut(loop, outer, made)) + len(writes) > 1:
        # Each read runs its own graph over what came before it (`out.cpu()`, `h.cpu()`,
        # `float(loss)`: 3.0 executions a batch, 1.0 with a cut before the first read;
        # benchmarks/step_shapes/eval_host_read.py).
        return False
    if _hands_on(loop, made):
        # A value of the iteration handed on (`top1.update(acc1[0], n)`, a meter summing on the
        # device): the read runs only its own graph, and what leaves grows one pending graph
        # by a forward pass a batch until something reads it.
        return False
    return not carries_device_value(loop, scope)


def _hands_on(loop: Loop, made: set[str]) -> bool:
    """Every iteration hands a device value it made to a method of an object made before the
    loop, whose result it drops, after its first host read: `losses.update(loss.item(), n)`,
    then `top1.update(acc1[0], n)`. A plain function's call (`save_image(...)`, a loss scaler
    that steps) is not taken for one."""
    statements = loop.body.body if isinstance(loop.body, cst.IndentedBlock) else ()
    # The device values of the iteration, in order: the batch moved to the device, and what is
    # computed from them other than through a host read (`output = model(input)`, `acc1, acc5
    # = accuracy(output, target)`; not `loss_value = loss.item()`, `time.time() - end`).
    # Only a value handed on after the first read: a cut right before that read computes it
    # (a hand-on before the first read the tool sees is read inside the call, for all it knows).
    read = first_host_read(loop)
    device = set(_moved_batches(loop))
    for index, statement in enumerate(statements):
        if not isinstance(statement, cst.SimpleStatementLine):
            continue
        after_read = read is not None and index > read[0]
        for small in statement.body:
            if isinstance(small, cst.Assign):
                bound = set().union(*(target_names(t.target) for t in small.targets))
                if _device_operand(small.value, device):
                    device |= bound
                else:
                    device -= bound  # `logits = logits.detach().cpu().numpy()`: on the host
            elif (
                after_read
                and isinstance(small, cst.Expr)
                and isinstance(small.value, cst.Call)
                and isinstance(small.value.func, cst.Attribute)
                and root_name(small.value.func.value) not in made
                and not small.value.func.attr.value.endswith("_")
                and any(_device_operand(arg.value, device) for arg in small.value.args)
            ):
                return True
    return False


def reads_all_on_host(loop: Loop, scope: cst.CSTNode) -> bool:
    """A cut at the end of ``loop``'s body pays nothing: the iteration reads on the host what it
    computed (`.item()`, `.cpu()`, a tensor formatted into a string: `f"{score:0.4f}"`, each of
    which runs its graph then), nothing it computes leaves the iteration but through such reads,
    and nothing is carried to the next one. A cut after the reads only runs again what is still
    alive and dropped at the next iteration: one more execution a batch (three reads: 3.00
    executions a batch, 4.00 with the cut after them; a label read and a confidence formatted
    per sample: 9.00 against 10.00; benchmarks/step_shapes/eval_host_read.py). Leaving the
    iteration: handed to a call whose result is dropped (`valid_loss_avg.add(cost)`, a meter
    that sums on the device), changed in place or stored into something made before the loop
    (`bank[i] = out`, `self.last = out`), or yielded. A call whose result the loop uses
    (`converter.decode(preds_index, ...)`, the model) is taken to keep nothing, as for
    ``host_read_cuts``."""
    made = _made(loop)
    if not any(
        _reads_on_host(call, made) or _formats(call, made)
        for call in every_iteration_calls(loop.body)
    ):
        return False
    if any(_leaves(node, made) for node in walk(loop.body)):
        return False
    return not carries_device_value(loop, scope) and not _fed_forward(loop, scope, made)


def _fed_forward(loop: Loop, scope: cst.CSTNode, made: set[str]) -> bool:
    """A value the iteration computes is read by the next one: a name read before any
    statement of the body assigns it (`out = model(x, prev)` ... `prev = out`), that did not
    start as a host value before the loop. A `for` target is rebound each iteration."""
    assigned = {
        name
        for node in walk(loop)
        if isinstance(node, cst.For)
        for name in target_names(node.target)
    }
    for part in _in_order(loop.body):
        early = (_names_read_in(part) & made) - assigned
        if any(not _starts_on_host(name, loop, scope) for name in early):
            return True
        assigned |= assigned_names(part)
    return False


def _in_order(suite: cst.BaseSuite) -> Iterator[cst.CSTNode]:
    """The simple statements of ``suite`` and the tests and iterables of its compound ones, in
    the order they run (an `if`'s blocks one after the other)."""
    statements = suite.body if isinstance(suite, cst.IndentedBlock) else [suite]
    for statement in statements:
        if not isinstance(statement, cst.BaseCompoundStatement):
            yield statement
            continue
        for header in ("test", "iter"):
            value = getattr(statement, header, None)
            if value is not None:
                yield value
        for inner in _suites(statement):
            yield from _in_order(inner)


def _names_read_in(statement: cst.CSTNode) -> set[str]:
    """The variables ``statement`` reads, not those it only assigns."""
    stored = {
        id(node)
        for small in walk(statement)
        if isinstance(small, cst.Assign | cst.AugAssign | cst.AnnAssign | cst.For)
        for target in (
            [t.target for t in small.targets] if isinstance(small, cst.Assign) else [small.target]
        )
        for node in ([target] if isinstance(target, cst.Name) else _tuple_names(target))
    }
    stored |= {
        id(name)
        for node in walk(statement)
        if isinstance(node, cst.CompFor)
        for name in _tuple_names(node.target)
    }
    labels = {  # `x.attr` and `f(dim=2)`: names that are no variables
        id(label)
        for n in walk(statement)
        for label in (
            [n.attr]
            if isinstance(n, cst.Attribute)
            else [n.keyword]
            if isinstance(n, cst.Arg)
            else []
        )
        if label is not None
    }
    return {
        n.value
        for n in walk(statement)
        if isinstance(n, cst.Name) and id(n) not in stored and id(n) not in labels
    }


def _tuple_names(target: cst.CSTNode) -> list[cst.Name]:
    if isinstance(target, cst.Tuple | cst.List):
        return [n for e in target.elements for n in _tuple_names(e.value)]
    return [target] if isinstance(target, cst.Name) else []


def _formats(call: cst.Call, made: set[str]) -> bool:
    """``call`` is handed a string that formats a value made in the iteration (`print(f"{p}")`,
    `log.write(f"{score:0.4f}")`): formatting a tensor copies it to the host."""
    return any(
        isinstance(node, cst.FormattedStringExpression) and _names_read(node.expression) & made
        for arg in call.args
        for node in walk(arg.value)
    )


def _leaves(node: cst.CSTNode, made: set[str]) -> bool:
    """``node`` takes a value made in the iteration (not read on the host first) out of it."""
    if isinstance(node, cst.Expr) and isinstance(node.value, cst.Call):
        call = node.value
        func = call.func
        if isinstance(func, cst.Name) and func.value == "print":
            return False  # prints what it is given: a host read
        if (
            isinstance(func, cst.Attribute)
            and func.attr.value.endswith("_")
            and root_name(func.value) not in made
        ):
            return True  # `total.add_(loss)`: changes a value made before the loop
        return any(_device_operand(arg.value, made) for arg in call.args)
    if isinstance(node, cst.Assign | cst.AugAssign | cst.AnnAssign):
        targets = (
            [t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target]
        )
        return node.value is not None and any(
            isinstance(t, cst.Attribute | cst.Subscript)
            and root_name(t) not in made
            and _device_operand(node.value, made)
            for t in targets
        )
    return isinstance(node, cst.Yield) and node.value is not None


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
    values = _assigned_outside(name, loop, scope)
    return bool(values) and all(
        isinstance(v, cst.Call)
        and dotted(v.func) in {f"torch.{f}" for f in _CPU_TENSOR_FACTORIES}
        and not any(a.keyword is not None and a.keyword.value == "device" for a in v.args)
        for v in values
    )


def _reads_sharing_a_cut(loop: Loop, reads: list[cst.Call], made: set[str]) -> list[cst.Call]:
    """The ``reads`` that a cut right before the first read would serve: those of a value
    computed before that statement, other than a batch only moved to the device (`labels =
    labels.to(device)`: device data, copied back without running a graph), or computed after it
    from one (`num_correct = (pred == label).sum()` from `out`, the forward pass read first as
    `loss.item()`: each read runs that forward again, 2 executions a batch). One read of such
    values runs their graph once by itself; a cut would add an execution (a forward pass read
    with one argmax and its labels: 2.0 executions a batch with the cut, 1.0 without;
    benchmarks/step_shapes/eval_host_read.py)."""
    statements = loop.body.body if isinstance(loop.body, cst.IndentedBlock) else None
    first = first_host_read(loop)
    if statements is None or first is None:
        return reads
    computed = (
        assigned_names(cst.IndentedBlock(body=list(statements[: first[0]]))) & made
    ) - _moved_batches(loop)
    # Through values computed after the first read, only to what the iteration's own statements
    # computed before it (not a batch a nested training loop left, which its cut computed).
    pending = computed - {
        name
        for statement in statements[: first[0]]
        if isinstance(statement, cst.For | cst.While)
        for name in assigned_names(statement)
    }
    sources = _sources(statements[first[0] :], made)
    return [
        read
        for read in reads
        if _read_names(read) & computed or _closure(_read_names(read), sources) & pending
    ]


def _sources(statements, made: set[str]) -> dict[str, set[str]]:
    """Per name the statements bind, the names of the iteration its values are computed from
    (`num_correct = (pred == label).sum()` after `_, pred = torch.max(out, 1)`: `pred`, `label`;
    then `out`); a name bound to a host read's result is host data, computed from nothing."""
    found: dict[str, set[str]] = {}
    for statement in statements:
        for node in walk(statement):
            if isinstance(node, cst.Assign):
                if isinstance(node.value, cst.Call) and _reads_on_host(node.value, made):
                    continue  # `correct = (pred == gt).cpu()`: host data, no graph to rerun
                read = _names_read(node.value) & made
                for target in node.targets:
                    for name in target_names(target.target):
                        found.setdefault(name, set()).update(read)
    return found


def _closure(names: set[str], sources: dict[str, set[str]]) -> set[str]:
    """``names`` and every name they are computed from, through ``sources``."""
    seen = set(names)
    stack = list(names)
    while stack:
        for source in sources.get(stack.pop(), ()):
            if source not in seen:
                seen.add(source)
                stack.append(source)
    return seen


def _read_names(read: cst.Call) -> set[str]:
    func = read.func
    operand = (
        func.value
        if isinstance(func, cst.Attribute) and (func.attr.value in _HOST_READS or _to_cpu(read))
        else (read.args[0].value if read.args else read)
    )
    return _names_read(operand)


def _device_operand(node: cst.CSTNode, made: set[str]) -> bool:
    """``node`` reads a name made in the iteration other than through a host read (`.item()`,
    `float(x)`, a size, an f-string)."""
    if isinstance(node, cst.FormattedString | cst.SimpleString | cst.ConcatenatedString):
        return False
    if isinstance(node, cst.Lambda):
        return False  # a function: its parameters are not the iteration's names
    if isinstance(node, cst.Call):
        func = node.func
        if (
            (isinstance(func, cst.Attribute) and func.attr.value in _HOST_READS | _SIZES)
            or (isinstance(func, cst.Name) and func.value in _HOST_CONVERSIONS | _SIZES | {"str"})
            or _to_cpu(node)
        ):
            return False
    if isinstance(node, cst.Name):
        return node.value in made
    if isinstance(node, cst.Attribute):
        return _device_operand(node.value, made)  # `batch.src` reads `batch`, not `src`
    if isinstance(node, cst.Arg):
        return _device_operand(node.value, made)
    return any(_device_operand(child, made) for child in children(node))


def _moved_batches(loop: Loop) -> set[str]:
    """Names every assignment in ``loop`` binds to a batch moved to the device: ``.to(...)`` or
    ``.cuda()`` of the loop's own target (`labels.to(device, dtype=torch.long)`,
    `batch["de_ids"].to(device)`), nothing computed on the way."""
    targets = target_names(loop.target) if isinstance(loop, cst.For) else set()
    values: dict[str, list[cst.BaseExpression]] = {}
    for node in walk(loop.body):
        if isinstance(node, cst.Assign):
            for target in node.targets:
                for name in target_names(target.target):
                    values.setdefault(name, []).append(node.value)
        elif isinstance(node, cst.AugAssign | cst.AnnAssign) and isinstance(node.target, cst.Name):
            values.setdefault(node.target.value, []).append(cst.Name("_"))
    found = {
        name
        for name, assigned in values.items()
        if any(_moves_batch(value, targets) for value in assigned)
        and all(_moves_batch(v, targets) or _copied_back(v, name) for v in assigned)
    }
    # `pred, true = self._process_one_batch(data, batch_x, batch_y)`, whose `true` is
    # `batch_y`'s slice moved to the device: the batch, moved, where nothing else binds it.
    movers = _OWN_MOVERS.get() or {}
    for node in walk(loop.body):
        if not (
            isinstance(node, cst.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0].target, cst.Tuple)
            and isinstance(node.value, cst.Call)
        ):
            continue
        func = node.value.func
        name = (
            func.attr.value
            if _self_method(func)
            else func.value
            if isinstance(func, cst.Name)
            else ""
        )
        positions = movers.get(name, {})
        args = [a.value for a in node.value.args if a.keyword is None and not a.star]
        for position, parameter in positions.items():
            elements = node.targets[0].target.elements  # type: ignore[union-attr]
            if position >= len(elements) or parameter >= len(args):
                continue
            given, bound = args[parameter], elements[position].value
            if (
                isinstance(given, cst.Name)
                and given.value in targets
                and isinstance(bound, cst.Name)
                and len(values.get(bound.value, ())) == 1
            ):
                found.add(bound.value)
    return found


def _self_method(func: cst.BaseExpression) -> bool:
    """``self.name``: a method of the object the loop runs in."""
    return (
        isinstance(func, cst.Attribute)
        and isinstance(func.value, cst.Name)
        and func.value.value == "self"
    )


def _copied_back(value: cst.BaseExpression, name: str) -> bool:
    """``value`` copies ``name`` itself back to the host (`label_ids = label_ids.to("cpu")
    .numpy()`, `mask = mask.detach().cpu()`): the moved batch's data, no graph computed."""
    while isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute):
        if value.func.attr.value not in _HOST_READS | _MOVES | {"detach"}:
            return False
        value = value.func.value
    return isinstance(value, cst.Name) and value.value == name


def _moves_batch(value: cst.BaseExpression, targets: set[str]) -> bool:
    if not _is_move(value):
        return False
    receiver = value.func.value  # type: ignore[attr-defined]
    while isinstance(receiver, cst.Subscript):
        receiver = receiver.value
    return isinstance(receiver, cst.Name) and receiver.value in targets


def first_host_read(loop: Loop, after: int = -1) -> tuple[int, cst.Call] | None:
    """The first statement at the top of ``loop``'s body (past index ``after``) that reads on
    the host, on every iteration, a value computed in that iteration: its index and the read.
    A graph cut right before it runs the iteration's graph once; a cut after it (at the end of
    the body, or an MpDeviceLoader's at the next batch) runs the forward pass again for what is
    still alive (benchmarks/step_shapes/eval_host_read.py: 2.0 executions a batch against 1.0)."""
    if not isinstance(loop.body, cst.IndentedBlock):
        return None
    made = _made(loop)
    for index, statement in enumerate(loop.body.body):
        if index <= after:
            continue
        every = {id(c) for c in every_iteration_calls(cst.IndentedBlock(body=[statement]))}
        for node in walk(statement):  # in source order
            if id(node) in every and _reads_on_host(node, made):  # type: ignore[arg-type]
                return index, node  # type: ignore[return-value]
        read = _branch_read(statement, made) or _truth_read(statement, made)
        if read is not None:
            return index, read
    return None


# A tensor's reductions to one truth value (`(out == eos).any(-1).all()`).
_TRUTH_REDUCTIONS = frozenset({"any", "all"})


def _truth_read(statement: cst.CSTNode, made: set[str]) -> cst.Call | None:
    """The test of an `if` or `while` that is a tensor's `.any()`/`.all()` of a value the
    iteration made (`if is_eos.any(dim=-1).all(): break`), negated or not: Python asks the
    tensor for its truth, a host read like `bool(...)`."""
    if not isinstance(statement, cst.If | cst.While):
        return None
    test = statement.test
    while isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        test = test.expression
    if (
        isinstance(test, cst.Call)
        and isinstance(test.func, cst.Attribute)
        and test.func.attr.value in _TRUTH_REDUCTIONS
        and root_name(test.func.value) in made
    ):
        return test
    return None


# Statements that hand a value on without reading it anywhere the tool cannot see: a list's
# append, a progress bar's update, a print (a host read, found as such).
_KEEPING_METHODS = frozenset(
    {"append", "extend", "update_postfix", "set_postfix", "set_description"}
)


def first_hand_off(loop: Loop) -> tuple[int, cst.Call] | None:
    """The first statement at the top of ``loop``'s body that only calls code of the program
    or of a library with a value the iteration computed by a call (`self.metric.add(outputs,
    labels)` after `outputs = self.model(inputs)`): a metric's or a logger's method, whose
    code may read the value on the host (`IoU.add` → `outputs.max(1)[1].cpu()`). Its index and
    the call; None where there is none. A cut right before it runs the iteration's graph once
    whatever that code does; a cut after it runs the forward pass again where the code reads
    (first-sight batch P: 0.43–0.62 s of execution an evaluation epoch against 1.14–1.52 s)."""
    if not isinstance(loop.body, cst.IndentedBlock):
        return None
    computed: set[str] = set()  # names an earlier statement of the iteration bound to a call
    for index, statement in enumerate(loop.body.body):
        call = _statement_call(statement)
        if call is not None and _hands_computed(call, computed):
            return index, call
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                if isinstance(small, cst.Assign) and isinstance(small.value, cst.Call):
                    for target in small.targets:
                        computed |= target_names(target.target)
        elif isinstance(statement, cst.With):
            # `with torch.no_grad(): outputs = model(inputs)`: what the block binds.
            computed |= assigned_names(statement.body)
    return None


def _statement_call(statement: cst.CSTNode) -> cst.Call | None:
    """The call a statement of one expression makes (`metric.add(out, y)`), not a tensor's own
    method or a keeping one (`losses.append(...)`, `bar.set_postfix(...)`)."""
    if not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1:
        return None
    small = statement.body[0]
    if not isinstance(small, cst.Expr) or not isinstance(small.value, cst.Call):
        return None
    call = small.value
    if not isinstance(call.func, cst.Attribute) or call.func.attr.value in _KEEPING_METHODS:
        return None  # a function of the module: `own_readers` knows those that read
    if root_name(call.func) in ("torch", "F", "nn", "np", "numpy", "xm", "torch_xla", "print"):
        return None
    return call


def _hands_computed(call: cst.Call, computed: set[str]) -> bool:
    """The call is given a value the iteration computed by a call, and is not a method of it."""
    owner = root_name(call.func)
    if owner in computed:
        return False  # `outputs.add_(bias)`: the value's own method, on the device
    return any(
        isinstance(node, cst.Name) and node.value in computed
        for arg in call.args
        for node in walk(arg.value)
    )


def _branch_read(statement: cst.CSTNode, made: set[str]) -> cst.Call | None:
    """The first host read of an `if` whose every branch, `else` included, reads a value of
    the iteration on the host (`if distributed: v = reduce(loss).item()` / `else: v =
    loss.item()`): whichever runs, the iteration reads there."""
    if not isinstance(statement, cst.If):
        return None
    first = None
    branch: cst.If | cst.Else | None = statement
    while branch is not None:
        read = next(
            (c for c in every_iteration_calls(branch.body) if _reads_on_host(c, made)), None
        )
        if read is None:
            return None
        first = first or read
        if isinstance(branch, cst.Else):
            return first
        branch = branch.orelse
    return None  # no `else`: some iterations may read nothing


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


# The module's own functions that read a parameter on the host in every call: name -> the
# parameters' positions (``own_readers``). Set for the module a pass works on (``reading``).
_OWN_READERS: ContextVar[Mapping[str, frozenset[int]] | None] = ContextVar(
    "own_readers", default=None
)


def own_readers(module: cst.Module) -> dict[str, frozenset[int]]:
    """The module-level functions of ``module`` whose body, on every call (statements at its
    top, not under an `if`, a loop or a `try`), reads a positional parameter on the host:
    through the parameter or a name bound from it by a method or an index (`predict = pred;
    predict = predict.squeeze(); predict.cpu().data.numpy()`), as `.cpu()`, `.item()`,
    `.numpy()`, `.tolist()` or `float()`. Called in a loop with a value the iteration computed,
    such a function is the loop's host read (a helper that saves each prediction)."""
    found: dict[str, frozenset[int]] = {}
    for statement in module.body:
        if not isinstance(statement, cst.FunctionDef) or statement.decorators:
            continue
        params = [p.name.value for p in statement.params.params]
        aliases = {name: index for index, name in enumerate(params)}
        read: set[int] = set()
        body = statement.body.body if isinstance(statement.body, cst.IndentedBlock) else ()
        for line in body:
            if not isinstance(line, cst.SimpleStatementLine):
                continue
            for small in line.body:
                # Not a read under a conditional expression, a short-circuit or a lambda.
                every = every_iteration_calls(cst.SimpleStatementLine(body=[small]))
                for call in every:
                    if _reads_on_host(call, set(aliases)):
                        read |= {
                            aliases[n.value]
                            for n in walk(call)
                            if isinstance(n, cst.Name) and n.value in aliases
                        }
                if isinstance(small, cst.Assign) and len(small.targets) == 1:
                    target = small.targets[0].target
                    source = _derived_from(small.value, aliases)
                    if isinstance(target, cst.Name):
                        if source is None:
                            aliases.pop(target.value, None)
                        else:
                            aliases[target.value] = source
        if read:
            found[statement.name.value] = frozenset(read)
    return found


def _derived_from(
    value: cst.BaseExpression,
    aliases: Mapping[str, int],
    methods: frozenset[str] | None = None,
) -> int | None:
    """The parameter ``value`` is, or is made from by indexing and methods (`pred`,
    `pred.squeeze()`, `pred[0]`): any method, or only ``methods`` (and then no attribute
    read: `batch_y[:, -n:].float().to(device)`)."""
    while True:
        if isinstance(value, cst.Name):
            return aliases.get(value.value)
        if (
            isinstance(value, cst.Call)
            and isinstance(value.func, cst.Attribute)
            and (methods is None or value.func.attr.value in methods)
        ):
            value = value.func.value
        elif isinstance(value, cst.Subscript) or (
            methods is None and isinstance(value, cst.Attribute)
        ):
            value = value.value
        else:
            return None


# The module's own functions and methods that return a batch they were given, moved to the
# device with nothing computed on it: name -> {the returned tuple's position: the parameter's}
# (``own_movers``). Set with the readers.
_OWN_MOVERS: ContextVar[Mapping[str, Mapping[int, int]] | None] = ContextVar(
    "own_movers", default=None
)


def own_movers(module: cst.Module) -> dict[str, dict[int, int]]:
    """Functions of ``module`` and methods of its classes (by name) whose every `return` gives a
    tuple in which an item is a parameter moved to the device, with only indexing and dtype
    casts on the way (`batch_y = batch_y.float()`, `batch_y = batch_y[:, -n:].to(device)`,
    `return outputs, batch_y`): called with a batch, that item is the batch, moved: device
    data, no graph to run (the method's parameters count from after `self`)."""
    found: dict[str, dict[int, int]] = {}
    functions = [s for s in module.body if isinstance(s, cst.FunctionDef)]
    for statement in module.body:
        if isinstance(statement, cst.ClassDef) and isinstance(statement.body, cst.IndentedBlock):
            functions += [f for f in statement.body.body if isinstance(f, cst.FunctionDef)]
    for function in functions:
        if function.decorators or not isinstance(function.body, cst.IndentedBlock):
            continue
        params = [p.name.value for p in function.params.params]
        method = bool(params) and params[0] in ("self", "cls")
        derived = {name: index - method for index, name in enumerate(params)}
        moved: dict[str, int] = {}
        returns: list[cst.BaseExpression | None] = []
        for line in function.body.body:
            if not isinstance(line, cst.SimpleStatementLine):
                if any(isinstance(n, cst.Return) for n in walk(line)):
                    returns.append(None)  # a return under a condition: not followed
                continue
            for small in line.body:
                if isinstance(small, cst.Return):
                    returns.append(small.value)
                elif isinstance(small, cst.Assign) and len(small.targets) == 1:
                    target = small.targets[0].target
                    if not isinstance(target, cst.Name):
                        continue
                    source = _derived_from(small.value, derived, _CASTS | _MOVES)
                    moved.pop(target.value, None)
                    derived.pop(target.value, None)
                    if source is not None and _is_move(small.value):
                        moved[target.value] = source
                    elif source is not None:
                        derived[target.value] = source
        if not returns or any(not isinstance(r, cst.Tuple) for r in returns):
            continue
        positions: dict[int, int] | None = None
        for value in returns:
            here = {
                k: moved[e.value.value]
                for k, e in enumerate(value.elements)  # type: ignore[union-attr]
                if isinstance(e.value, cst.Name) and e.value.value in moved
            }
            positions = (
                here
                if positions is None
                else {k: v for k, v in positions.items() if here.get(k) == v}
            )
        if positions:
            found[function.name.value] = positions
    return found


_CASTS = frozenset({"float", "double", "half", "long", "int", "bool", "contiguous", "clone"})


def _is_move(value: cst.BaseExpression) -> bool:
    return (
        isinstance(value, cst.Call)
        and isinstance(value.func, cst.Attribute)
        and value.func.attr.value in _MOVES
        and not _to_cpu(value)
    )


def _to_cpu(call: cst.Call) -> bool:
    """``x.to("cpu")``, ``x.to(device="cpu")``, ``x.to(torch.device("cpu"), ...)``: a copy to the
    host, as ``x.cpu()`` is (a dtype or a `non_blocking` beside it changes nothing)."""
    if not (isinstance(call.func, cst.Attribute) and call.func.attr.value == "to"):
        return False
    first = next(
        (a.value for a in call.args if a.keyword is None or a.keyword.value == "device"), None
    )
    if isinstance(first, cst.Call) and (dotted(first.func) or "").endswith("device"):
        first = first.args[0].value if len(first.args) == 1 else None
    return isinstance(first, cst.SimpleString) and first.evaluated_value == "cpu"


def reading(  # type: ignore[no-untyped-def]
    readers: Mapping[str, frozenset[int]], movers: Mapping[str, Mapping[int, int]] | None = None
):
    """Set the module's own reading functions (``own_readers``) and batch movers
    (``own_movers``) for the host-read questions asked while a pass works on it; returns the
    tokens to reset."""
    return _OWN_READERS.set(readers), _OWN_MOVERS.set(movers or {})


def done_reading(tokens) -> None:  # type: ignore[no-untyped-def]
    _OWN_READERS.reset(tokens[0])
    _OWN_MOVERS.reset(tokens[1])


def _reads_on_host(call: cst.Call, made: set[str]) -> bool:
    func = call.func
    readers = _OWN_READERS.get() or {}
    if isinstance(func, cst.Name) and func.value in readers:
        positional = [a for a in call.args if a.keyword is None and not a.star]
        return any(
            any(isinstance(n, cst.Name) and n.value in made for n in walk(positional[i].value))
            for i in readers[func.value]
            if i < len(positional)
        )
    if isinstance(func, cst.Attribute) and (
        func.attr.value in _HOST_READS and not call.args or _to_cpu(call)
    ):
        read = func.value
    elif (
        isinstance(func, cst.Name)
        and func.value in _HOST_CONVERSIONS
        and len(call.args) == 1
        and call.args[0].keyword is None
        and not call.args[0].star
    ) or (
        (dotted(func) or "").rsplit(".", 1)[-1] in _HOST_READING_FUNCTIONS
        and call.args
        and call.args[0].keyword is None
        and not call.args[0].star
    ):
        read = call.args[0].value
    else:
        return False
    return any(isinstance(n, cst.Name) and n.value in made for n in walk(read))


def _device_result(value: cst.BaseExpression) -> bool:
    """``loss.detach()``, ``(pred == y).sum()``, ``a.detach() * n``, ``F.nll_loss(o, y).data``: a
    tensor method's result."""
    if isinstance(value, cst.BinaryOperation):
        return _device_result(value.left) or _device_result(value.right)
    if (
        isinstance(value, cst.Attribute)
        and value.attr.value == "data"
        and isinstance(value.value, cst.Call)
        and _tensor_call(value.value)
    ):
        return True  # `test_loss += F.nll_loss(output, target).data`: the tensor, detached
    return (
        isinstance(value, cst.Call)
        and isinstance(value.func, cst.Attribute)
        and value.func.attr.value in _DEVICE_RESULTS
        and not _copied_to_host(value.func.value)
    )


def _copied_to_host(receiver: cst.BaseExpression) -> bool:
    """``receiver``'s chain of method calls copies to the host on the way (`(pred == y).cpu()
    .numpy()` before its `.mean()`): what is called on it computes on the host."""
    while isinstance(receiver, cst.Call) and isinstance(receiver.func, cst.Attribute):
        if receiver.func.attr.value in _HOST_READS or _to_cpu(receiver):
            return True
        receiver = receiver.func.value
    return False


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
    or that adds a tensor to itself (``total += loss.detach()``, ``total += loss`` with ``loss``
    computed in the loop: a device sum from the second iteration on, whatever its first value),
    or a list the loop appends tensors to. A `for` target is no such name: `for` rebinds it
    every iteration (`x = x.to(device)` carries nothing over), nor is a name an earlier
    statement of the iteration assigns whatever it held (`trg = batch["trg"].to(device)` then
    `trg = trg[1:].view(-1)`)."""
    rebound = {
        name
        for node in walk(loop)
        if isinstance(node, cst.For)
        for name in target_names(node.target)
    }
    tensors = _tensor_names(loop)
    return _carries_in(loop.body, rebound, tensors, loop, scope)


def _carries_in(
    suite: cst.BaseSuite, fresh: set[str], tensors: set[str], loop: Loop, scope: cst.CSTNode
) -> bool:
    """``carries_device_value`` over the statements of ``suite`` in order: a name an earlier
    statement of the same block (or of a block around it) assigned is ``fresh``."""
    statements = list(suite.body) if isinstance(suite, cst.IndentedBlock) else [suite]
    fresh = set(fresh)
    for statement in statements:
        if isinstance(statement, cst.BaseCompoundStatement):
            for inner in _suites(statement):
                if _carries_in(inner, fresh, tensors, loop, scope):
                    return True
        elif _carries(statement, fresh, tensors, loop, scope):
            return True
        fresh |= _assigned_unconditionally(statement)
    return False


def _suites(statement: cst.BaseCompoundStatement) -> list[cst.BaseSuite]:
    """The blocks of a compound statement: its body, `else`, `except` and `finally` blocks."""
    found = [statement.body]
    for part in ("orelse", "finalbody"):
        extra = getattr(statement, part, None)
        while isinstance(extra, cst.If):  # `elif`
            found.append(extra.body)
            extra = extra.orelse
        if extra is not None:
            found.append(extra.body)
    found += [handler.body for handler in getattr(statement, "handlers", ())]
    return found


def _carries(
    statement: cst.CSTNode,
    rebound: set[str],
    tensors: set[str],
    loop: Loop,
    scope: cst.CSTNode,
) -> bool:
    for node in walk(statement):
        if _keeps_tensor(node):
            return True
        if isinstance(node, cst.AugAssign):
            if _device_result(node.value) or (
                isinstance(node.value, cst.Name) and node.value.value in tensors
            ):
                return True
            root = root_name(node.target)
        elif isinstance(node, cst.Assign):
            roots = {  # `gen_seq, scores = step(gen_seq, ...)` carries both
                name
                for t in node.targets
                for name in (target_names(t.target) or {root_name(t.target)})
            }
            carried = roots & _names_read(node.value)
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


def _names_read(value: cst.BaseExpression) -> set[str]:
    """The variables ``value`` reads: not the attribute names (`batch.src` reads `batch`)."""
    attributes = {id(n.attr) for n in walk(value) if isinstance(n, cst.Attribute)}
    return {n.value for n in walk(value) if isinstance(n, cst.Name) and id(n) not in attributes}


def _assigned_unconditionally(statement: cst.CSTNode) -> set[str]:
    """Names a statement of the loop body binds whenever it runs: a plain assignment, or one
    inside a `with` block."""
    if isinstance(statement, cst.With):
        names: set[str] = set()
        for inner in statement.body.body if isinstance(statement.body, cst.IndentedBlock) else ():
            names |= _assigned_unconditionally(inner)
        return names
    if isinstance(statement, cst.SimpleStatementLine):
        return {
            name
            for small in statement.body
            if isinstance(small, cst.Assign)
            for target in small.targets
            for name in target_names(target.target)
        }
    return set()


def _tensor_names(loop: Loop) -> set[str]:
    """Names the loop assigns only from a call that is not a host read nor a size (`loss =
    criterion(out, y)`): values a `total += loss` sums on the device."""
    values: dict[str, list[cst.BaseExpression]] = {}
    for node in walk(loop.body):
        if isinstance(node, cst.Assign) and len(node.targets) == 1:
            target = node.targets[0].target
            if isinstance(target, cst.Name):
                values.setdefault(target.value, []).append(node.value)
        elif isinstance(node, cst.AugAssign | cst.AnnAssign) and isinstance(node.target, cst.Name):
            values.setdefault(node.target.value, []).append(cst.Name("_"))
    return {
        name for name, assigned in values.items() if all(_tensor_call(value) for value in assigned)
    }


def _tensor_call(value: cst.BaseExpression) -> bool:
    if not isinstance(value, cst.Call):
        return False
    func = value.func
    # `reduce_tensor(loss.data, n).item()`: the method's name, whatever it is called on.
    name = func.attr.value if isinstance(func, cst.Attribute) else (dotted(func) or "")
    return name.rsplit(".", 1)[-1] not in _HOST_READS | _HOST_CONVERSIONS | _SIZES and not (
        _to_cpu(value)
    )


def _starts_on_host(name: str, loop: Loop, scope: cst.CSTNode) -> bool:
    values = _assigned_outside(name, loop, scope)
    return bool(values) and all(_host_value(v) for v in values)


def _assigned_outside(name: str, loop: Loop, scope: cst.CSTNode) -> list[cst.BaseExpression]:
    """The values ``scope`` assigns to ``name`` outside ``loop`` (`name = ...`) that can reach
    it: those before it, and, where an outer loop runs it again, those after it too (`val_loss
    = val_loss / (i + 1)` after a loop that no other loop holds is never its first value)."""
    last = _last_assigned_before(name, loop, scope)
    if last is not None:
        return [last]  # `num_total = 0` right before the loop: what it starts with every time
    loop_nodes = {id(n) for n in walk(loop)}
    outer = _inside_a_loop(scope, loop)
    found: list[cst.BaseExpression] = []
    after = False
    for node in walk(scope):  # in source order
        if node is loop:
            after = True
        if (
            isinstance(node, cst.Assign)
            and id(node) not in loop_nodes
            and (outer or not after)
            and any(isinstance(t.target, cst.Name) and t.target.value == name for t in node.targets)
        ):
            found.append(node.value)
    return found


def _last_assigned_before(name: str, loop: Loop, scope: cst.CSTNode) -> cst.BaseExpression | None:
    """The value the last statement of ``loop``'s own block before it that assigns ``name``
    (unconditionally: `name = value` on a line of that block) gives it: every run of the loop
    starts from it, whatever an enclosing loop assigned after it."""
    for node in walk(scope):
        if isinstance(node, cst.IndentedBlock | cst.Module) and any(s is loop for s in node.body):
            body = list(node.body)
            for statement in reversed(body[: body.index(loop)]):
                if not isinstance(statement, cst.SimpleStatementLine):
                    continue
                for small in reversed(statement.body):
                    if isinstance(small, cst.Assign) and any(
                        isinstance(t.target, cst.Name) and t.target.value == name
                        for t in small.targets
                    ):
                        return small.value
            return None
    return None


def _inside_a_loop(scope: cst.CSTNode, loop: Loop) -> bool:
    """``loop`` is in the body of another loop of ``scope``: one pass down from ``scope``."""
    stack: list[tuple[cst.CSTNode, bool]] = [(scope, False)]
    while stack:
        node, looped = stack.pop()
        if node is loop:
            return looped
        inner = looped or (isinstance(node, cst.For | cst.While) and node is not scope)
        stack.extend((child, inner) for child in children(node))
    return False


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
            value = node.value
            positional = (
                isinstance(value, cst.Call)
                and len(parts) > 1
                and len(value.args) == len(parts)
                and all(a.keyword is None and not a.star for a in value.args)
            )
            for index, part in enumerate(parts):
                name = dotted(part) if isinstance(part, cst.BaseExpression) else None
                if name is None:
                    continue
                if positional and _is_prepare(value):
                    # `model, opt, loader = accelerator.prepare(model, opt, loader)`: each name
                    # is what prepare makes of the argument at its place.
                    found.setdefault(name, []).append(
                        value.with_changes(args=[value.args[index]])  # type: ignore[union-attr]
                    )
                else:
                    found.setdefault(name, []).append(value)
    return found


def _is_prepare(node: cst.BaseExpression) -> bool:
    func = node.func if isinstance(node, cst.Call) else None
    return (
        isinstance(func, cst.Attribute)
        and func.attr.value == "prepare"
        and root_name(func) is not None
        and "accelerator" in (dotted(func.value) or "").lower()
    )


def _passed_through(
    node: cst.BaseExpression, bindings: dict[str, list[cst.BaseExpression]], depth: int = 0
) -> bool:
    """``node`` is an iterator accelerate's `prepare` hands back as it is, not a DataLoader it
    wraps: `cycle(loader)`, `iter(loader)`, a generator expression, or a name every other
    binding of which is one (x-transformers' `train_loader = cycle(DataLoader(...))`, then
    prepared: batches on the CPU and no cut)."""
    if depth > 4:
        return False
    if isinstance(node, cst.GeneratorExp):
        return True
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Name):
        return node.func.value in ("cycle", "iter")
    name = dotted(node)
    values = [v for v in bindings.get(name or "", []) if not _is_prepare(v)]
    return bool(values) and all(_passed_through(v, bindings, depth + 1) for v in values)


def _prepared(
    node: cst.BaseExpression, bindings: dict[str, list[cst.BaseExpression]], depth: int
) -> bool:
    if depth > 4:
        return False
    if isinstance(node, cst.Call):
        func = node.func
        if _is_prepare(node):
            return not (len(node.args) == 1 and _passed_through(node.args[0].value, bindings))
        if isinstance(func, cst.Name) and func.value in ("iter", "cycle") and node.args:
            return _prepared(node.args[0].value, bindings, depth + 1)
        return False
    name = dotted(node)
    if name is None:
        return False
    return any(_prepared(value, bindings, depth + 1) for value in bindings.get(name, []))
