"""Finding training and evaluation loops, the unit that the step-level passes work on.

A *training loop* is a ``for``/``while`` whose own body (not a nested loop, function or class)
calls ``.backward()`` or steps an optimizer. An *evaluation loop* is a ``for`` loop without those
whose own body moves a batch taken from the loop target to a device (``.to(...)``/``.cuda()``)
or that iterates a device loader. Loops are found on the original tree, before any rewrite, and
keyed by node identity, so a transformer can look them up in ``leave_For``/``leave_While`` with
``original_node``. Call ``find_step_loops`` from the pass's ``visit_Module``: LibCST's metadata
wrapper copies the module, and only the copy's nodes are the ``original_node`` a pass sees.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Container, Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

import libcst as cst
import libcst.matchers as m

from trncodemod.analysis.model_names import OPTIMIZER_NAME as _OPTIMIZER
from trncodemod.analysis.model_names import SCALER_NAME as _SCALER
from trncodemod.analysis.model_names import is_model_name
from trncodemod.analysis.nodes import children, find, visit, walk
from trncodemod.passes import PlainVisitor, per_tree

Loop = cst.For | cst.While
_SCOPE_BREAKERS = (cst.For, cst.While, cst.FunctionDef, cst.ClassDef, cst.Lambda)
DEVICE_LOADERS = ("MpDeviceLoader", "ParallelLoader")
#  The step marker in every spelling ([xla-model, xla-api]); `xm.wait_device_ops()` is not one: it
# waits for graphs already launched and leaves pending operations pending.
STEP_MARKERS = frozenset(
    {"torch_xla.core.xla_model.mark_step", "torch_xla.sync", "torch_xla.torch_xla.sync"}
)
# `with torch_xla.step():` cuts the graph when its block exits, not where it is called; so does
# the profiler's `with xp.StepTrace(...)` (its `__exit__` calls the marker).
STEP_CONTEXTS = frozenset(
    {"torch_xla.step", "torch_xla.torch_xla.step", "torch_xla.debug.profiler.StepTrace"}
)


def dotted(node: cst.BaseExpression) -> str | None:
    """``a.b.c`` for a Name/Attribute chain, else None."""
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        head = dotted(node.value)
        return f"{head}.{node.attr.value}" if head else None
    return None


def root_name(node: cst.BaseExpression) -> str | None:
    """The leftmost name of ``a.b[c].d(...)``."""
    while True:
        if isinstance(node, cst.Name):
            return node.value
        if isinstance(node, cst.Attribute | cst.Subscript):
            node = node.value
        elif isinstance(node, cst.Call):
            node = node.func
        else:
            return None


_STORAGE_METHODS = frozenset({"storage", "untyped_storage", "_typed_storage"})


def is_storage(node: cst.BaseExpression) -> bool:
    """A tensor's storage, or one made as such (`x.storage()`, `x.untyped_storage()`,
    `torch.Storage(n)`, `torch.FloatStorage(n)`), or a name or attribute that says it holds
    storages (`storage`, `self.multi_storage[i]`). A storage is not a tensor: it has no
    `.to(device)` (`TypedStorage.to` takes the device by keyword only), and an XLA tensor has
    none."""
    if isinstance(node, cst.Call):
        if isinstance(node.func, cst.Attribute) and node.func.attr.value in _STORAGE_METHODS:
            return True
        return (dotted(node.func) or "").rsplit(".", 1)[-1].endswith("Storage")
    while isinstance(node, cst.Subscript):
        node = node.value
    if isinstance(node, cst.Attribute):
        return "storage" in node.attr.value.lower()
    return isinstance(node, cst.Name) and "storage" in node.value.lower()


def storage_loop_target(name: cst.CSTNode, parent_of: Callable[[cst.CSTNode], object]) -> bool:
    """``name`` is bound by an enclosing `for` over storages (`for sto in self.multi_storage`)."""
    if not isinstance(name, cst.Name):
        return False
    node = parent_of(name)
    while isinstance(node, cst.CSTNode):
        if (
            isinstance(node, cst.For)
            and name.value in target_names(node.target)
            and is_storage(node.iter)
        ):
            return True
        node = parent_of(node)
    return False


def assigned_names(node: cst.CSTNode, skip: cst.CSTNode | None = None) -> set[str]:
    """Names that assignments (`x = ...`, `x: T = ...`, `x += ...`) and `for` targets under
    ``node`` bind, ``node`` itself included; the assignment ``skip`` does not count."""
    names: set[str] = set()
    for found in walk(node):
        if found is skip:
            continue
        if isinstance(found, cst.AssignTarget):
            if skip is None or all(found is not t for t in getattr(skip, "targets", ())):
                names |= target_names(found.target)
        elif isinstance(found, cst.AnnAssign | cst.AugAssign) and isinstance(
            found.target, cst.Name
        ):
            names.add(found.target.value)
        elif isinstance(found, cst.For):
            names |= target_names(found.target)
    return names


def target_names(target: cst.BaseExpression) -> set[str]:
    """Names bound by a ``for`` target: ``x``, ``(x, y)``, ``i, (x, y)``."""
    if isinstance(target, cst.Name):
        return {target.value}
    if isinstance(target, cst.Tuple | cst.List):
        names: set[str] = set()
        for element in target.elements:
            names |= target_names(element.value)
        return names
    return set()


def is_optimizer_step(call: cst.Call) -> bool:
    """``optimizer.step()``, ``opt_d.step()``, ``scaler.step(optimizer)``, ``xm.optimizer_step(o)``,
    and a loss scaler called with the optimizer (``loss_scaler(loss, optimizer, ...)``, timm's
    `NativeScaler` and the copies DeiT, ConvNeXt, MAE and Swin keep: its `__call__` runs the
    backward pass and the optimizer step)."""
    func = call.func
    if is_scaler_call(call):
        return True
    if not isinstance(func, cst.Attribute):
        return False
    if func.attr.value == "optimizer_step":
        return True
    if func.attr.value != "step":
        return False
    receiver = dotted(func.value)
    if receiver is None:
        return False
    last = receiver.rsplit(".", 1)[-1]
    if _SCALER.search(last):
        return bool(call.args)
    return bool(_OPTIMIZER.search(last)) and "sched" not in last.lower()


def is_scaler_call(call: cst.Call) -> bool:
    """``loss_scaler(loss, optimizer, clip_grad=...)``: a callable named for a loss scaler, given
    an optimizer among its first three arguments."""
    receiver = dotted(call.func)
    if receiver is None or not _SCALER.search(receiver.rsplit(".", 1)[-1]):
        return False
    for arg in call.args[:3]:
        name = (
            dotted(arg.value) if arg.keyword is None or arg.keyword.value == "optimizer" else None
        )
        if name is not None and _OPTIMIZER.search(name.rsplit(".", 1)[-1]):
            return "sched" not in name.lower()
    return False


def is_backward(call: cst.Call) -> bool:
    """``loss.backward()`` and ``accelerator.backward(loss)``."""
    return m.matches(call.func, m.Attribute(attr=m.Name("backward")))


def is_interval_guard(test: cst.BaseExpression) -> bool:
    """A logging interval: ``step % n == 0`` or ``(i + 1) % n == k``, alone or ``and``-ed with
    other conditions (the item-hoist pass writes it; host-sync leaves code under it alone)."""
    if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.And):
        return is_interval_guard(test.left) or is_interval_guard(test.right)
    return m.matches(
        test,
        m.Comparison(
            left=m.BinaryOperation(operator=m.Modulo()),
            comparisons=[m.ComparisonTarget(operator=m.Equal(), comparator=m.Integer())],
        ),
    )


def own_statements(body: cst.BaseSuite) -> Iterator[cst.CSTNode]:
    """Every node in ``body`` that runs in the same iteration: nested loops, functions, classes
    and lambdas are not entered."""
    stack: list[cst.CSTNode] = [body]
    while stack:
        node = stack.pop()
        yield node
        for child in reversed(children(node)):
            if not isinstance(child, _SCOPE_BREAKERS):
                stack.append(child)


def top_level_expressions(block: cst.BaseSuite) -> set[cst.BaseExpression]:
    """The values of the expression statements at the top of ``block`` (`xm.mark_step()` as a
    statement of its own, not one nested in an `if` or `with`)."""
    return {
        small.value
        for statement in block.body  # type: ignore[union-attr]
        if isinstance(statement, cst.SimpleStatementLine)
        for small in statement.body
        if isinstance(small, cst.Expr)
    }


@dataclass(frozen=True)
class LoopInfo:
    node: Loop
    kind: Literal["train", "eval"]
    optimizer_steps: tuple[cst.Call, ...] = ()
    backward_calls: tuple[cst.Call, ...] = ()
    # The per-iteration counter: the index of `enumerate(...)`, or a name incremented by
    # `name += 1` at the loop body's top level.
    counter: str | None = None
    counter_offset: int = 0  # `enumerate(x, 1)` counts from 1
    iterates_device_loader: bool = False
    # An evaluation loop found because it calls the model every iteration (a sampling or
    # generation loop over timesteps or tokens), not because it moves a batch.
    calls_model: bool = False

    @property
    def iterable(self) -> cst.BaseExpression | None:
        return self.node.iter if isinstance(self.node, cst.For) else None


def _counter(loop: Loop) -> tuple[str | None, int]:
    if isinstance(loop, cst.For) and isinstance(loop.iter, cst.Call):
        call = loop.iter
        if m.matches(call.func, m.Name("enumerate")) and isinstance(loop.target, cst.Tuple):
            first = loop.target.elements[0].value if loop.target.elements else None
            start = 0
            for index, arg in enumerate(call.args):
                is_start = (arg.keyword and arg.keyword.value == "start") or (
                    index == 1 and arg.keyword is None
                )
                if is_start and isinstance(arg.value, cst.Integer):
                    start = int(arg.value.value)
            if isinstance(first, cst.Name):
                return first.value, start
        # `for step in range(n)` / `range(start, n)` with a step of one: the target counts.
        if (
            m.matches(call.func, m.Name("range"))
            and isinstance(loop.target, cst.Name)
            and 1 <= len(call.args) <= 2
            and all(arg.keyword is None and not arg.star for arg in call.args)
        ):
            first_arg = call.args[0].value
            start = (
                int(first_arg.value)
                if len(call.args) == 2 and isinstance(first_arg, cst.Integer)
                else 0
            )
            return loop.target.value, start
    body = loop.body
    if isinstance(body, cst.IndentedBlock):
        for statement in body.body:
            if isinstance(statement, cst.SimpleStatementLine):
                for small in statement.body:
                    if m.matches(
                        small,
                        m.AugAssign(target=m.Name(), operator=m.AddAssign(), value=m.Integer("1")),
                    ):
                        return small.target.value, 0  # type: ignore[union-attr]
    return None, 0


def _moves_loop_batch(loop: cst.For, nodes: list[cst.CSTNode]) -> bool:
    """Whether the loop moves what it iterates to a device: `.cuda()`, or a `.to(...)` that is
    not visibly a dtype cast (`.to(x.dtype)`, `.to(torch.float32)`, `.to(dtype=...)`): a model's
    forward that casts each of its parts in a loop is not an evaluation loop (diffusers' Flux
    attention processor got a step marker there)."""
    if is_storage(loop.iter):
        return False  # a walk over storages converts each one: no batch is moved
    names = target_names(loop.target)
    for node in nodes:
        if not isinstance(node, cst.Call) or not isinstance(node.func, cst.Attribute):
            continue
        method = node.func.attr.value
        if method == "cuda" or (method == "to" and not _casts_only(node)):
            if root_name(node.func.value) in names:
                return True
    return False


# torch's dtype names, as `.to(torch.<name>)` spells them.
_TORCH_DTYPES = frozenset(
    {
        *("float", "double", "half", "bfloat16", "float16", "float32", "float64"),
        *("int", "long", "short", "int8", "int16", "int32", "int64", "uint8", "bool"),
        *("complex64", "complex128", "cfloat", "cdouble"),
    }
)


def _casts_only(call: cst.Call) -> bool:
    """Whether every argument of a `.to(...)` is visibly a dtype (or a flag such as
    `non_blocking=`): a cast, which moves nothing."""
    for arg in call.args:
        keyword = arg.keyword.value if arg.keyword is not None else None
        if keyword in ("non_blocking", "copy", "memory_format"):
            continue
        if keyword not in (None, "dtype") or arg.star or not _is_dtype(arg.value):
            return False
    return bool(call.args)


def _is_dtype(node: cst.BaseExpression) -> bool:
    """`x.dtype`, `torch.float32`, or a name that says it holds one (`dtype`, `weight_dtype`)."""
    if isinstance(node, cst.Attribute):
        attr = node.attr.value
        return attr == "dtype" or (dotted(node.value) == "torch" and attr in _TORCH_DTYPES)
    return isinstance(node, cst.Name) and (node.value == "dtype" or node.value.endswith("_dtype"))


# Wrappers that iterate their first argument: the loader underneath still drives the iteration.
_ITERATION_WRAPPERS = ("enumerate", "tqdm", "trange")


def unwrap_iterable(iterable: cst.BaseExpression) -> cst.BaseExpression:
    while isinstance(iterable, cst.Call) and iterable.args:
        name = (dotted(iterable.func) or "").rsplit(".", 1)[-1]
        if name not in _ITERATION_WRAPPERS or iterable.args[0].keyword or iterable.args[0].star:
            break
        iterable = iterable.args[0].value
    return iterable


def is_device_loader(
    node: cst.BaseExpression,
    device_loaders: Container[str] = (),
    loader_classes: Collection[str] = DEVICE_LOADERS,
) -> bool:
    """``pl.MpDeviceLoader(...)``, ``pl.ParallelLoader(...).per_device_loader(d)``, or a name in
    ``device_loaders`` (a variable known to hold one), optionally wrapped in ``enumerate``/``tqdm``."""
    node = unwrap_iterable(node)
    if isinstance(node, cst.Call):
        if m.matches(node.func, m.Attribute(attr=m.Name("per_device_loader"))):
            return is_device_loader(node.func.value, device_loaders, loader_classes)  # type: ignore[union-attr]
        name = dotted(node.func) or ""
        return name.rsplit(".", 1)[-1] in loader_classes
    name = dotted(node)
    return name is not None and name in device_loaders


def iterates_device_loader(
    loop: Loop,
    device_loaders: Container[str] = (),
    loader_classes: Collection[str] = DEVICE_LOADERS,
) -> bool:
    """Whether a ``for`` loop iterates an ``MpDeviceLoader``/``ParallelLoader``, which cuts the
    graph itself ([xla-devices, neuron-mnist, xla-loader, neuron-guide]). ``device_loaders``: names bound to one before the loop."""
    if not isinstance(loop, cst.For):
        return False
    return is_device_loader(loop.iter, device_loaders, loader_classes)


@dataclass(frozen=True)
class _Binding:
    device_loader: bool
    suites: tuple[cst.BaseSuite, ...]  # the blocks that enclose the assignment
    model_parts: bool = False  # bound to a model's parameters, buffers or layers


def _bound_pairs(
    target: cst.BaseExpression, value: cst.BaseExpression
) -> Iterator[tuple[str, cst.BaseExpression | None]]:
    """(dotted name, value) for ``a = v``, ``self.a = v`` and ``a, b = v, w``; value None when the
    name is bound to something that cannot be told apart (``a, b = pair``)."""
    name = dotted(target)
    if name is not None:
        yield name, value
    elif isinstance(target, cst.Tuple | cst.List):
        values = value.elements if isinstance(value, cst.Tuple | cst.List) else None
        if values is not None and len(values) != len(target.elements):
            values = None
        for index, element in enumerate(target.elements):
            if values is None or isinstance(values[index], cst.StarredElement):
                for bound in target_names(element.value):
                    yield bound, None
            else:
                yield from _bound_pairs(element.value, values[index].value)


_NO_GRAD = ("no_grad", "inference_mode")


def _is_no_grad(expression: cst.BaseExpression) -> bool:
    target = expression.func if isinstance(expression, cst.Call) else expression
    name = dotted(target) or ""
    return name.rsplit(".", 1)[-1] in _NO_GRAD


def _enters_no_grad(node: cst.CSTNode) -> bool:
    """A function decorated with, or a `with` block under, torch.no_grad()/inference_mode()."""
    if isinstance(node, cst.FunctionDef):
        return any(_is_no_grad(d.decorator) for d in node.decorators)
    if isinstance(node, cst.With):
        return any(_is_no_grad(item.item) for item in node.items)
    return False


_TENSOR_READS = ("item", "tolist", "sum", "mean", "detach")


def _reads_values(nodes: list[cst.CSTNode]) -> bool:
    """An evaluation loop whose batches come from a helper (nanoGPT's `get_batch`): under
    no_grad, it reads a tensor value every iteration (`.item()`, `.tolist()`) or accumulates
    one (`total += loss.sum()`); `count += len(row)` on host data does not count."""
    reads = m.Call(func=m.Attribute(attr=m.OneOf(*(m.Name(n) for n in _TENSOR_READS))))
    for node in nodes:
        if isinstance(node, cst.Call) and m.matches(
            node.func, m.Attribute(attr=m.Name("item") | m.Name("tolist"))
        ):
            return True
        if isinstance(node, cst.AugAssign) and m.findall(node.value, reads):
            return True
    return False


# Iterating these walks the tensors or layers of one model, not its batches or steps: a cut per
# parameter splits one update into hundreds of graphs (timm's ModelEma got one per tensor).
_MODEL_PARTS = frozenset(
    {
        *("parameters", "named_parameters", "buffers", "named_buffers", "state_dict"),
        *("modules", "named_modules", "children", "named_children"),
    }
)


def _model_parts(node: cst.CSTNode | None) -> bool:
    """Whether ``node`` (an iterable, or a value bound to the name a loop iterates) is built
    from a model's parameters, buffers, state dict or layers."""
    if node is None:
        return False
    return any(
        isinstance(call, cst.Call)
        and isinstance(call.func, cst.Attribute)
        and call.func.attr.value in _MODEL_PARTS
        for call in find(node, cst.Call)
    )


# Where a loop handles one sample or assembles one batch, in a worker process or the loader's
# thread: a `collate_fn`, a dataset's methods. No step runs there, so no loop there is cut.
_DATA_METHODS = frozenset({"__getitem__", "__getitems__", "__iter__", "__next__", "__len__"})


def _data_code(scope: cst.CSTNode | None) -> bool:
    """A collate function (its name says `collate`), a dataset class (a base whose name ends
    in `Dataset`), or a dataset protocol method (`__getitem__`, `__iter__`)."""
    if isinstance(scope, cst.FunctionDef):
        name = scope.name.value
        return "collate" in name.lower() or name in _DATA_METHODS
    if isinstance(scope, cst.ClassDef):
        return any(
            (dotted(base.value) or "").rsplit(".", 1)[-1].endswith("Dataset")
            for base in scope.bases
        )
    return False


def _counts(iterable: cst.BaseExpression) -> bool:
    """`range(...)`, also through `enumerate`/`tqdm`/`trange`: a count, not a sequence of data."""
    iterable = unwrap_iterable(iterable)
    if isinstance(iterable, cst.Call):
        name = (dotted(iterable.func) or "").rsplit(".", 1)[-1]
        return name in ("range", "trange")
    return False


def is_model_call(call: cst.Call, methods: Callable[[str], bool] = lambda name: False) -> bool:
    """``model(x)``, ``self.net(x)``, ``self(x)`` outside ``forward``, or ``self.<method>(...)``
    where ``methods`` says that method of the enclosing class calls the model."""
    func = call.func
    if isinstance(func, cst.Name):
        return func.value == "self" or is_model_name(func.value)
    if isinstance(func, cst.Attribute):
        if m.matches(func.value, m.Name("self")) and methods(func.attr.value):
            return True
        return is_model_name(func.attr.value)
    return False


def _is_generator(function: cst.FunctionDef) -> bool:
    """A function whose own body yields (nested functions and classes not entered)."""
    stack: list[cst.CSTNode] = [function.body]
    while stack:
        node = stack.pop()
        if isinstance(node, cst.Yield):
            return True
        stack.extend(
            c
            for c in children(node)
            if not isinstance(c, cst.FunctionDef | cst.ClassDef | cst.Lambda)
        )
    return False


class _Lazy:
    """A set of names computed on the first membership test: most bindings and loops are
    settled without asking which names hold a device loader."""

    def __init__(self, compute: Callable[[], set[str]]) -> None:
        self._compute = compute
        self._names: set[str] | None = None

    def __contains__(self, name: object) -> bool:
        if self._names is None:
            self._names = self._compute()
        return name in self._names


class _LoopCollector(PlainVisitor):
    """Collects step loops in source order, tracking which names hold a device loader: the last
    assignment before a loop decides, and only when it encloses the loop (not in a sibling
    branch), so a loop is skipped only when it certainly iterates a device loader."""

    def __init__(self) -> None:
        self.loops: dict[Loop, LoopInfo] = {}
        self._suites: list[cst.BaseSuite] = []
        self._scopes: list[dict[str, _Binding]] = [{}]
        self._loader_classes: set[str] = set(DEVICE_LOADERS)
        # Per enclosing class: `self.<attr>` names that every assignment in the class binds to a
        # device loader (an attribute set in `__init__` and iterated in another method), worked
        # out only when a name is looked up: [class, loader classes known there, names or None].
        self._attributes: list[list] = []
        self._no_grad = 0  # depth of enclosing no_grad/inference_mode functions and blocks
        self._loop_targets: list[set[str]] = []  # names bound by each enclosing `for`
        # Per scope (module, function, class): the scope's node and its enclosing loops.
        self._frames: list[tuple[cst.CSTNode | None, list[Loop]]] = [(None, [])]
        self._classes: list[cst.ClassDef] = []
        self._generators: dict[cst.FunctionDef, bool] = {}
        # Whether the tree holds a `yield` at all: where not, no function is a generator.
        self.yields = True
        self._model_methods: dict[tuple[cst.ClassDef, str], bool] = {}
        self._forwards: dict[cst.ClassDef, set[str]] = {}

    @staticmethod
    def _class_attributes(node: cst.ClassDef, loader_classes: Collection[str]) -> set[str]:
        verdicts: dict[str, bool] = {}
        for assign in find(node, cst.Assign, cst.AnnAssign):
            targets = (
                [t.target for t in assign.targets]  # type: ignore[union-attr]
                if isinstance(assign, cst.Assign)
                else [assign.target]  # type: ignore[union-attr]
            )
            for target in targets:
                for name, value in _bound_pairs(target, assign.value):  # type: ignore[union-attr, arg-type]
                    if name.startswith("self."):
                        loader = value is not None and is_device_loader(value, (), loader_classes)
                        verdicts[name] = verdicts.get(name, True) and loader
        return {name for name, loader in verdicts.items() if loader}

    # Most nodes are none of these: they cost a set lookup, not a hook search by name (the walk
    # runs once per tree and took 31 ms on gpt_amp.py with the generic dispatch).
    _TRACKED = frozenset(
        {
            cst.ClassDef,
            cst.FunctionDef,
            cst.Lambda,
            cst.IndentedBlock,
            cst.SimpleStatementSuite,
            cst.With,
        }
    )
    _HOOKED = frozenset({cst.ImportFrom, cst.Assign, cst.AnnAssign, cst.For, cst.While})

    def on_visit(self, node: cst.CSTNode) -> bool:
        kind = type(node)
        if kind in self._TRACKED:
            if kind is cst.ClassDef:
                self._attributes.append([node, frozenset(self._loader_classes), None])
            if kind in (cst.FunctionDef, cst.ClassDef, cst.Lambda):
                self._scopes.append({})
                self._frames.append((node, []))
            if kind is cst.ClassDef:
                self._classes.append(node)  # type: ignore[arg-type]
            if isinstance(node, cst.BaseSuite):
                self._suites.append(node)
            if _enters_no_grad(node):
                self._no_grad += 1
        if kind in self._HOOKED:
            return super().on_visit(node)
        return True

    def on_leave(self, original_node: cst.CSTNode) -> None:  # no leave_<Node> hooks here
        kind = type(original_node)
        if kind is cst.For:
            self._loop_targets.pop()
        if kind is cst.For or kind is cst.While:
            self._frames[-1][1].pop()
        if kind in self._TRACKED:
            if isinstance(original_node, cst.BaseSuite):
                self._suites.pop()
            if _enters_no_grad(original_node):
                self._no_grad -= 1
            if kind in (cst.FunctionDef, cst.ClassDef, cst.Lambda):
                self._scopes.pop()
                self._frames.pop()
            if kind is cst.ClassDef:
                self._attributes.pop()
                self._classes.pop()

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        if isinstance(node.names, cst.ImportStar):
            return
        for alias in node.names:
            if dotted(alias.name) in DEVICE_LOADERS and alias.asname is not None:
                self._loader_classes.add(dotted(alias.asname.name) or "")  # type: ignore[arg-type]

    def _bind(self, target: cst.BaseExpression, value: cst.BaseExpression | None) -> None:
        if value is None:
            return
        for name, bound in _bound_pairs(target, value):
            loader = bound is not None and is_device_loader(
                bound, _Lazy(self._device_loaders), self._loader_classes
            )
            self._scopes[-1][name] = _Binding(loader, tuple(self._suites), _model_parts(bound))

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            self._bind(target.target, node.value)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._bind(node.target, node.value)

    def _device_loaders(self) -> set[str]:
        suites = tuple(self._suites)
        scope = self._scopes[-1]
        names = {
            name
            for name, binding in scope.items()
            if binding.device_loader and suites[: len(binding.suites)] == binding.suites
        }
        if self._attributes:
            entry = self._attributes[-1]
            if entry[2] is None:
                entry[2] = self._class_attributes(entry[0], entry[1])
            names |= {name for name in entry[2] if name not in scope}
        return names

    def _visit(self, loop: Loop) -> None:
        nodes = list(own_statements(loop.body))
        calls = [n for n in nodes if isinstance(n, cst.Call)]
        steps = [c for c in calls if is_optimizer_step(c)]
        backwards = [c for c in calls if is_backward(c)]
        if (
            steps
            and not backwards
            and _steps_alone([n for n in walk(loop.body) if isinstance(n, cst.Call)], steps)
        ):
            steps = []  # no gradient is computed: a learning-rate schedule stepped to plot it
        counter, offset = _counter(loop)
        on_device_loader = iterates_device_loader(
            loop, _Lazy(self._device_loaders), self._loader_classes
        )
        calls_model = False
        if steps or backwards:
            kind: Literal["train", "eval"] = "train"
        elif not self._may_cut(loop, calls):
            return
        elif isinstance(loop, cst.For) and (
            (_moves_loop_batch(loop, nodes) and not self._iterates_parts(loop))
            or on_device_loader
            or (self._no_grad and _reads_values(nodes) and self._takes_batches(loop, calls))
        ):
            kind = "eval"
        elif any(is_model_call(c, self._method_calls_model) for c in calls) or (
            self._consumes_sampler(loop)
        ):
            kind, calls_model = "eval", True
        else:
            return
        self.loops[loop] = LoopInfo(
            node=loop,
            kind=kind,
            optimizer_steps=tuple(steps),
            backward_calls=tuple(backwards),
            counter=counter,
            counter_offset=offset,
            iterates_device_loader=on_device_loader,
            calls_model=calls_model,
        )

    def _may_cut(self, loop: Loop, calls: list[cst.Call]) -> bool:
        """Whether a loop without a training step may be an evaluation or sampling loop: not
        inside a model's ``forward`` (its loops are part of the caller's step) or a generator
        (its consumer's loop is the step), not a loop nested in a step loop that does not call
        the model (a per-image or per-sample loop of a batch, whose cut is the batch loop's; a
        validation loop inside the training loop calls the model and keeps its cut), not a
        walk over a model's parameters, buffers or layers (an EMA update is one graph)."""
        if any(_data_code(frame) for frame, _ in self._frames):
            return False
        suite = self._suites[-1] if self._suites else None
        if isinstance(suite, cst.IndentedBlock) and _unrolled_forward(loop, suite.body):
            return False
        scope = self._frames[-1][0]
        if isinstance(scope, cst.FunctionDef):
            if len(self._frames) > 2 and isinstance(self._frames[-2][0], cst.ClassDef):
                if scope.name.value in self._forward_methods(self._frames[-2][0]):
                    return False  # the model's forward, or a method it calls: the step's
            generator = self._generators.get(scope)
            if generator is None:
                generator = self._generators[scope] = self.yields and _is_generator(scope)
            if generator:
                return False
        if any(enclosing in self.loops for enclosing in self._frames[-1][1]) and not any(
            is_model_call(c, self._method_calls_model) for c in calls
        ):
            return False
        if isinstance(loop, cst.For):
            if _model_parts(loop.iter):
                return False
            iterable = unwrap_iterable(loop.iter)
            names = [iterable] if isinstance(iterable, cst.Name) else []
            if isinstance(iterable, cst.Call) and m.matches(iterable.func, m.Name("zip")):
                names = [a.value for a in iterable.args if isinstance(a.value, cst.Name)]
            scope_bindings = self._scopes[-1]
            for name in names:
                binding = scope_bindings.get(name.value)  # type: ignore[attr-defined]
                if binding is not None and binding.model_parts:
                    return False
        return True

    def _forward_methods(self, owner: cst.ClassDef) -> set[str]:
        """``forward`` and the methods of ``owner`` it calls through ``self.<name>(...)``, at
        any depth: their loops (a refinement loop, a power iteration) run inside the model's
        forward pass, which is part of the caller's step."""
        found = self._forwards.get(owner)
        if found is not None:
            return found
        methods = {s.name.value: s for s in owner.body.body if isinstance(s, cst.FunctionDef)}
        found, queue = set(), ["forward"]
        while queue:
            name = queue.pop()
            if name in found or name not in methods:
                continue
            found.add(name)
            for call in find(methods[name].body, cst.Call):
                func = call.func  # type: ignore[attr-defined]
                if m.matches(func, m.Attribute(value=m.Name("self"))):
                    queue.append(func.attr.value)
        self._forwards[owner] = found
        return found

    def _takes_batches(self, loop: cst.For, calls: list[cst.Call]) -> bool:
        """Whether a loop that reads tensor values runs a step per iteration: it iterates
        something other than a count (a loader, a list of batches), or its body takes a batch
        (`next(it)`, nanoGPT's `get_batch(split)`) or calls the model. A `for _ in range(n)`
        that only updates tensors it holds (Sinkhorn-Knopp's `Q /= torch.sum(Q, dim=0)`, a power
        iteration) is part of the step that calls it, not a loop over batches."""
        if not _counts(loop.iter):
            return True
        for call in calls:
            name = (dotted(call.func) or "").rsplit(".", 1)[-1]
            if name == "next" or "batch" in name.lower():
                return True
            if is_model_call(call, self._method_calls_model):
                return True
        return False

    def _consumes_sampler(self, loop: Loop) -> bool:
        """A loop over ``self.<generator>(...)`` whose own loop calls the model and yields each
        result (improved-diffusion's ``for sample in self.p_sample_loop_progressive(...)``): the
        generator's loop gets no cut, so its consumer is the sampling loop and cuts after each
        sample it receives."""
        if not isinstance(loop, cst.For) or not self._classes:
            return False
        iterable = unwrap_iterable(loop.iter)
        if not isinstance(iterable, cst.Call) or not m.matches(
            iterable.func, m.Attribute(value=m.Name("self"))
        ):
            return False
        name = iterable.func.attr.value  # type: ignore[attr-defined]
        method = next(
            (
                s
                for s in self._classes[-1].body.body
                if isinstance(s, cst.FunctionDef) and s.name.value == name
            ),
            None,
        )
        if method is None or not _is_generator(method):
            return False
        for inner in find(method.body, cst.For, cst.While):
            for node in own_statements(inner.body):
                if isinstance(node, cst.Call) and is_model_call(node, self._method_calls_model):
                    return True
        return False

    def _method_calls_model(self, name: str, depth: int = 0) -> bool:
        """Whether method ``name`` of the enclosing class calls the model outside a loop of its
        own (``p_sample`` → ``p_mean_variance`` → ``self.model(x, t)``); a method that loops
        over the model itself (a training epoch) is a loop, not one call."""
        if not self._classes or depth > 4:
            return False
        owner = self._classes[-1]
        key = (owner, name)
        if key in self._model_methods:
            return self._model_methods[key]
        self._model_methods[key] = False  # a recursive method does not call the model by itself
        method = next(
            (s for s in owner.body.body if isinstance(s, cst.FunctionDef) and s.name.value == name),
            None,
        )
        found = False
        if method is not None and method.name.value != "forward":
            for node in own_statements(method.body):
                if isinstance(node, cst.Call) and is_model_call(
                    node, lambda inner: self._method_calls_model(inner, depth + 1)
                ):
                    found = True
                    break
        self._model_methods[key] = found
        return found

    def _iterates_parts(self, loop: cst.For) -> bool:
        """The loop walks the parts of one value (a dict's items, the element of an enclosing
        loop), moving each to the device: a helper that moves a batch, not a loop over batches."""
        iterable = unwrap_iterable(loop.iter)
        if isinstance(iterable, cst.Call) and m.matches(
            iterable.func, m.Attribute(attr=m.Name("items") | m.Name("values") | m.Name("keys"))
        ):
            return True
        name = dotted(iterable)
        return name is not None and any(name in targets for targets in self._loop_targets)

    def visit_For(self, node: cst.For) -> None:
        self._visit(node)
        self._loop_targets.append(target_names(node.target))
        self._frames[-1][1].append(node)

    def visit_While(self, node: cst.While) -> None:
        self._visit(node)
        self._frames[-1][1].append(node)


def _unrolled_forward(loop: Loop, body: Sequence[cst.BaseStatement]) -> bool:
    """``loop`` builds a loss that a later statement of its block differentiates: it binds
    or adds to a name (`loss += criterion(output, target[c])` over the time steps of an RNN)
    whose `.backward()` follows the loop. The loop is the forward pass of that step, unrolled:
    a cut in it would run every time step's graph on its own (a reviewer of first-sight batch
    O counted on XLA:CPU 142 executions and 48 compiles for 12 steps of a char-RNN with the cut
    in the loop, 12 and 5 with the step's cut alone)."""
    index = next((k for k, statement in enumerate(body) if statement is loop), None)
    if index is None:
        return False
    bound: set[str] = set()
    for node in find(loop.body, cst.AugAssign, cst.Assign):
        targets = (
            [node.target] if isinstance(node, cst.AugAssign) else [t.target for t in node.targets]
        )
        bound |= {t.value for t in targets if isinstance(t, cst.Name)}
    for statement in body[index + 1 :]:
        for call in find(statement, cst.Call):
            func = call.func
            if (
                isinstance(func, cst.Attribute)
                and func.attr.value == "backward"
                and isinstance(func.value, cst.Name)
                and func.value.value in bound
            ):
                return True
    return False


def _steps_alone(calls: list[cst.Call], steps: list[cst.Call]) -> bool:
    """Whether every call in a loop's body, at any depth, is a method of the optimizers it
    steps, a list's `append` or a `print`, and no step is given a closure: nothing computes a
    gradient (`for i in range(n): optimizer.step(); rates.append(optimizer.get_lr())`), so the
    loop trains nothing. `optimizer.step(closure)` (L-BFGS) computes one in the closure."""
    if any(step.args for step in steps):
        return False
    receivers = {
        cst.Module([]).code_for_node(step.func.value)
        for step in steps
        if isinstance(step.func, cst.Attribute)
    }
    for call in calls:
        func = call.func
        if isinstance(func, cst.Attribute):
            if func.attr.value == "append":
                continue
            if cst.Module([]).code_for_node(func.value) in receivers:
                continue
            return False
        if not (isinstance(func, cst.Name) and func.value == "print"):
            return False
    return bool(receivers)


def _collect(module: cst.Module) -> dict[Loop, LoopInfo]:
    collector = _LoopCollector()
    # The module's nodes are listed once for every pass (``find``): a module without a `yield`
    # settles each function's generator question without a walk of its body.
    collector.yields = bool(find(module, cst.Yield))
    visit(module, collector)
    return collector.loops


def find_step_loops(module: cst.Module) -> dict[Loop, LoopInfo]:
    """Training and evaluation loops of ``module``, keyed by the (original) loop node; found once
    per tree, since most passes ask about the same one (LoopInfo is frozen; each caller gets its
    own dict)."""
    return dict(per_tree(module, "step loops", _collect))
