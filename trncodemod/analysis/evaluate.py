"""One evaluator of the migrated program under the target's facts (issue 34).

An abstract interpreter over Python ``ast``, program-wide, as pyright narrows and Pyre follows
a value: it starts at an entry point (the module's top level run as ``__main__``, or a console
script's function), runs what the launch path runs — module top levels, calls into functions
and methods (arguments bound to parameters, any depth, recursion bounded), imports between the
given modules, attributes of objects, argparse defaults and the repository's launch lines,
``os.environ.get(k, default)`` defaults — and decides the values that choose where training
runs: booleans in three-valued logic, devices, the tensor types chosen with them, and where
``.to()``, ``.cuda()``, ``.type()``, ``.cpu()`` put modules and tensors.

It is path-sensitive: a decided condition takes its branch; an undecided one runs both and
joins them, and a value that differs between the branches becomes unknown "because of line N".
A loop's body runs once (a training step is the same every iteration). Facts are data per
backend (``data/device_facts.toml``): ``torch.cuda.is_available()`` is False on torch-xla.

What it records for the verdict (``analysis.verdict``): every call of a model (an
``nn.Module``) with where its parameters and its tensor arguments are, every ``backward()`` and
optimizer step, every cut of the step, each with the loops it runs in; the moves a decided
condition skipped; the wrappers the target cannot train. Work is bounded per entry point
(statements run, call depth), and running out is an unknown like any other.
"""

from __future__ import annotations

import ast
import itertools
import re
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from trncodemod.analysis.training import dotted, import_specs, is_main_guard

_FACTS = Path(__file__).resolve().parent.parent / "data" / "device_facts.toml"
BUDGET = 20_000  # statements and expressions run per entry point
RUN_BUDGET = 200_000  # and for all the entry points of a run together
MAX_DEPTH = 24  # calls deep


@dataclass(frozen=True)
class Facts:
    backend: str
    false_calls: frozenset[str]
    true_calls: frozenset[str]
    accelerator_calls: frozenset[str]
    accelerator_strings: frozenset[str]
    cut_calls: frozenset[str]
    cut_loaders: frozenset[str]
    needs_cut: bool
    unsupported_wrappers: frozenset[str]
    owning_frameworks: frozenset[str]
    other_device_modules: frozenset[str]


@cache
def facts_for(backend: str) -> Facts:
    """The facts of a backend ("xla" or "neuron")."""
    with _FACTS.open("rb") as handle:
        row = tomllib.load(handle)["backends"][backend]
    return Facts(
        backend=backend,
        needs_cut=bool(row.pop("needs_cut")),
        **{key: frozenset(value) for key, value in row.items()},
    )


# -- values --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Why:
    """Where a value was decided: ``path:line``, and what decided it."""

    path: str
    line: int
    text: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.text}"


@dataclass(frozen=True)
class Value:
    why: tuple[Why, ...] = field(default=(), compare=False)


@dataclass(frozen=True)
class Unknown(Value):
    """A value the evaluator could not decide; ``at`` is where (``path:line``)."""

    at: str = ""
    reason: str = ""


@dataclass(frozen=True)
class Const(Value):
    value: object = None


@dataclass(frozen=True)
class Device(Value):
    kind: str = "cpu"  # "accelerator", "cpu", "cuda" (absent on the target), "other"
    spelled: str = ""


@dataclass(frozen=True)
class TensorType(Value):
    kind: str = "cpu"
    spelled: str = ""


@dataclass(frozen=True)
class Tensor(Value):
    place: Value = field(default_factory=Device)  # a Device, or Unknown


@dataclass(frozen=True)
class Seq(Value):
    items: tuple[Value, ...] = ()


@dataclass(frozen=True)
class Dict(Value):
    items: tuple[tuple[object, Value], ...] = ()


@dataclass(frozen=True)
class Each(Value):
    """An iterable whose every item is ``item`` (`enumerate(loader)`: (an index, a batch))."""

    item: Value = field(default_factory=Value)


@dataclass(frozen=True)
class OneOf(Value):
    """One of several objects, chosen by a condition the evaluator could not decide (``at``)."""

    choices: tuple[Value, ...] = ()
    at: str = ""
    reason: str = ""


@dataclass(frozen=True)
class External(Value):
    """A name outside the given modules, by its full dotted name (``torch.cuda.is_available``)."""

    name: str = ""


@dataclass(frozen=True)
class ModuleRef(Value):
    path: str = ""


@dataclass(frozen=True)
class Function(Value):
    path: str = ""
    qualname: str = ""
    node: ast.AST | None = field(default=None, compare=False)
    owner: str = ""  # the class a method belongs to
    closure: dict | None = field(default=None, compare=False)  # the defining function's names


@dataclass(frozen=True)
class ClassRef(Value):
    path: str = ""
    name: str = ""
    node: ast.ClassDef | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Ref(Value):
    """An object of the heap: a model, an instance of a class of the program, a parser, ..."""

    id: int = 0


@dataclass(frozen=True)
class Bound(Value):
    """A method bound to an object (or a known method of a value: ``parser.add_argument``)."""

    target: Value = field(default_factory=Value)
    function: Value | None = None  # a Function of the program, else a name
    name: str = ""


@dataclass
class Obj:
    kind: str  # "model", "instance", "parser", "namespace", "optimizer", "loader", "engine", ...
    attrs: dict[str, Value] = field(default_factory=dict)
    cls: ClassRef | None = None
    place: Value | None = None  # a model's parameters: a Device, or Unknown
    built: str = ""  # where it was made ("path:line")
    wrapped: str = ""  # an unsupported wrapper it is in
    spelled: str = ""  # how it was built (`Net()`)

    def copy(self) -> Obj:
        return replace(self, attrs=dict(self.attrs))


_OBJECTS = (Ref, Function, ClassRef, Bound, ModuleRef)
MAX_CHOICES = 16


def _join(a: Value, b: Value, at: str, why: str) -> Value:
    if a == b:
        return a
    if isinstance(a, Tensor) and isinstance(b, Tensor):
        return Tensor(place=_join(a.place, b.place, at, why))
    # Objects chosen by an undecided condition (`gan = GAN(args)` or `WGAN(args)`): each is
    # followed where it is used.
    if isinstance(a, (*_OBJECTS, OneOf)) and isinstance(b, (*_OBJECTS, OneOf)):
        choices = tuple(dict.fromkeys((*_choices(a), *_choices(b))))
        if len(choices) <= MAX_CHOICES:
            return OneOf(choices=choices, at=at, reason=why)
    return Unknown(at=at, reason=why)


def _choices(value: Value) -> tuple[Value, ...]:
    return value.choices if isinstance(value, OneOf) else (value,)


def truth(value: Value) -> bool | None:
    """Three-valued truth: None where undecided."""
    if isinstance(value, Const):
        try:
            return bool(value.value)
        except Exception:  # noqa: BLE001 - a value of the program's own
            return None
    if isinstance(value, Seq):
        return bool(value.items)
    if isinstance(value, Dict):
        return bool(value.items)
    if isinstance(value, (Device, TensorType, Function, ClassRef, ModuleRef, Ref, Bound, OneOf)):
        return True
    return None


def device_of_string(text: str, facts: Facts) -> str:
    base = text.split(":", 1)[0].strip()
    if base in facts.accelerator_strings:
        return "accelerator"
    if base == "cpu":
        return "cpu"
    if base == "cuda":
        return "cuda"
    return "other"


# -- events ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ModelCall:
    where: str  # "path:line"
    trained: bool  # an optimizer steps its parameters
    loops: tuple[int, ...]
    model: str  # how the model is spelled
    place: Value  # where its parameters are
    inputs: tuple[tuple[str, Value], ...]  # each tensor argument: its spelling, where it is
    wrapped: str = ""
    built: str = ""
    loss: bool = False  # a loss module (`nn.CrossEntropyLoss()`): no parameters to place


@dataclass(frozen=True)
class Event:
    kind: str  # "backward", "optimizer", "cut", "framework"
    where: str
    loops: tuple[int, ...]
    detail: str = ""


@dataclass(frozen=True)
class Skipped:
    """A move of a module or tensor in a branch a decided condition never takes."""

    where: str
    code: str  # the move (`model.cuda()`)
    test: str  # the condition (`cuda`)
    taken: bool  # the value the condition has
    why: tuple[Why, ...]
    receiver: str


@dataclass
class Trace:
    """What one entry point's run did."""

    calls: list[ModelCall] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    modules: set[str] = field(default_factory=set)  # the given modules it ran code of
    stopped: str = ""  # where the budget ran out, if it did
    failure: str = ""  # an error of the evaluator's own (reported as "cannot tell")
    # A module it ran code of calls `backward()`: a step may be behind a choice left open.
    trains_nearby: bool = False
    # Where a module it ran code of imports kernels for another device ("path:line", module).
    other_device: tuple[str, str] | None = None


# -- the program's modules -----------------------------------------------------------------------
class Modules:
    """The given modules: parsed once, on first use, and resolved by dotted name."""

    def __init__(self, texts: Mapping[str, str]) -> None:
        self.texts = texts
        self._trees: dict[str, ast.Module | None] = {}
        self._specs: dict[str, tuple[dict[str, str], list[str]]] = {}
        from trncodemod.analysis.program import _Index

        self.index = _Index(texts)

    def tree(self, path: str) -> ast.Module | None:
        if path not in self._trees:
            try:
                self._trees[path] = ast.parse(self.texts[path])
            except (SyntaxError, ValueError, RecursionError, MemoryError, KeyError):
                self._trees[path] = None
        return self._trees[path]

    def resolve(self, importer: str, spec: str) -> str | None:
        if spec.split(".", 1)[0] in _LIBRARIES:
            return None  # the facts speak for them, even in their own source tree
        found = self.index.module(importer, spec)
        return found if found != importer else None


class _Stop(Exception):
    """The budget of the entry point is spent."""


@dataclass
class Frame:
    path: str
    env: dict[str, Value]
    globals: dict[str, Value]
    returns: list[Value] = field(default_factory=list)
    done: bool = False  # returned, raised, broke or continued: the rest of the block is not run
    under: tuple[Why, ...] = ()  # the decided conditions the code runs under
    closure: dict | None = None  # the names of the function it is defined in
    self_value: Value | None = None  # a method's `self`, for `super()`
    function: Function | None = None
    self_class: str = ""


class Evaluator:
    """Runs entry points of the program given as migrated texts, under ``facts``."""

    def __init__(
        self,
        texts: Mapping[str, str],
        facts: Facts,
        launch_lines: Mapping[str, Iterable[str]] | None = None,
    ) -> None:
        self.modules = Modules(texts)
        self.facts = facts
        self.launch_lines = {k: tuple(v) for k, v in (launch_lines or {}).items()}
        self._ids = itertools.count(1)
        self.left = RUN_BUDGET
        self._iter_cuts = False

    # -- running an entry point ------------------------------------------------------------------
    def run(self, entry: str, function: str = "") -> Trace:
        self.trace = Trace()
        self.budget = min(BUDGET, self.left)
        self.depth = 0
        self.stack: list[str] = []
        self.heap: dict[int, Obj] = {}
        self._current_loops: tuple[int, ...] = ()
        self.trained: set[int] = set()  # the models whose parameters an optimizer steps
        self.loaded: dict[str, dict[str, Value]] = {}
        self.entry = entry
        try:
            env = self._load(entry, main=not function)
            if function and env is not None:
                target = env.get(function)
                if isinstance(target, Function):
                    self._call(target, [], {}, f"{entry}:1")
        except _Stop:
            pass
        except RecursionError:
            self.trace.stopped = f"{entry}:1"
        except Exception as err:  # noqa: BLE001 - a bug here must not take the run down
            self.trace.stopped = f"{entry}:1"
            self.trace.failure = f"{type(err).__name__}: {err}"
        self.trace.trains_nearby = any(
            "backward(" in self.modules.texts.get(path, "") for path in self.trace.modules
        )
        self.trace.other_device = self._other_device()
        return self.trace

    def _other_device(self) -> tuple[str, str] | None:
        """The first import of a kernel module for another device in the modules run."""
        for path in sorted(self.trace.modules):
            text = self.modules.texts.get(path, "")
            for name in sorted(self.facts.other_device_modules):
                at = text.find(name)
                if at >= 0:
                    return f"{path}:{text.count(chr(10), 0, at) + 1}", name
        return None

    def _load(self, path: str, main: bool = False) -> dict[str, Value] | None:
        """Run a module's top level once; its globals."""
        if path in self.loaded:
            return self.loaded[path]
        tree = self.modules.tree(path)
        if tree is None:
            return None
        env: dict[str, Value] = {"__name__": Const(value="__main__" if main else path)}
        self.loaded[path] = env
        self.trace.modules.add(path)
        frame = Frame(path, env, env)
        self._block(tree.body, frame)
        return env

    def _tick(self, path: str, line: int) -> None:
        self.budget -= 1
        self.left -= 1
        if self.budget <= 0:
            self.trace.stopped = self.trace.stopped or f"{path}:{line}"
            raise _Stop

    # -- statements ------------------------------------------------------------------------------
    def _block(self, body: Iterable[ast.stmt], frame: Frame) -> None:
        for statement in body:
            if frame.done:
                return
            self._tick(frame.path, statement.lineno)
            self._statement(statement, frame)

    def _statement(self, node: ast.stmt, frame: Frame) -> None:
        if isinstance(node, ast.Assign):
            value = self._expr(node.value, frame)
            value = self._decided_here(value, node, frame)
            for target in node.targets:
                self._bind(target, value, frame)
        elif isinstance(node, ast.AnnAssign):
            if node.value is not None:
                value = self._decided_here(self._expr(node.value, frame), node, frame)
                self._bind(node.target, value, frame)
        elif isinstance(node, ast.AugAssign):
            left = self._expr(node.target, frame)
            right = self._expr(node.value, frame)
            self._bind(node.target, self._binop(node.op, left, right, node, frame), frame)
        elif isinstance(node, ast.Expr):
            self._expr(node.value, frame)
        elif isinstance(node, ast.If):
            self._if(node, frame)
        elif isinstance(node, (ast.For, ast.AsyncFor)):
            self._iter_cuts = False
            iterable = self._expr(node.iter, frame)
            cuts = self._iter_cuts or self._cuts(iterable)

            def bind(f: Frame, iterable: Value = iterable) -> None:
                self._bind(node.target, self._element(iterable), f)
                if cuts:
                    self._event("cut", f, node, "a MpDeviceLoader")  # each batch cuts the step

            self._loop(node, frame, bind)
        elif isinstance(node, ast.While):
            if truth(self._expr(node.test, frame)) is False:
                self._block(node.orelse, frame)
                return
            self._loop(node, frame, lambda f: None)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            frame.env[node.name] = Function(
                path=frame.path,
                qualname=node.name,
                node=node,
                owner=frame.self_class,
                closure=frame.env if frame.env is not frame.globals else None,
            )
        elif isinstance(node, ast.ClassDef):
            frame.env[node.name] = ClassRef(path=frame.path, name=node.name, node=node)
        elif isinstance(node, ast.Return):
            value = self._expr(node.value, frame) if node.value is not None else Const()
            if isinstance(value, (Const, Device, TensorType)):
                value = replace(value, why=_keep((*frame.under, *value.why)))
            frame.returns.append(value)
            frame.done = True
        elif isinstance(node, (ast.Raise, ast.Break, ast.Continue)):
            frame.done = True
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            self._import(node, frame)
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            for item in node.items:
                value = self._expr(item.context_expr, frame)
                if isinstance(item.context_expr, ast.Call):
                    name = self._name_of(item.context_expr.func, frame)
                    if name in self.facts.cut_calls:
                        self._event("cut", frame, node, name)
                if item.optional_vars is not None:
                    self._bind(item.optional_vars, value, frame)
            self._block(node.body, frame)
        elif isinstance(node, ast.Try) or type(node).__name__ == "TryStar":
            self._block(node.body, frame)  # type: ignore[attr-defined]
            if not frame.done:
                self._block(node.orelse, frame)  # type: ignore[attr-defined]
            done, frame.done = frame.done, False
            self._block(node.finalbody, frame)  # type: ignore[attr-defined]
            frame.done = frame.done or done

    def _decided_here(self, value: Value, node: ast.stmt, frame: Frame) -> Value:
        """A decided value keeps where it was assigned, and the conditions it was assigned under."""
        if isinstance(value, (Const, Device, TensorType)):
            text = _code(node, frame, self)
            why = (*frame.under, *value.why, Why(frame.path, node.lineno, f"`{text}`"))
            return replace(value, why=_keep(why))
        return value

    def _if(self, node: ast.If, frame: Frame) -> None:
        if is_main_guard(node):
            main = truth(self._expr(node.test, frame))
            self._block(node.body if main is not False else node.orelse, frame)
            return
        test = self._expr(node.test, frame)
        decided = truth(test)
        if decided is not None:
            taken, skipped = (node.body, node.orelse) if decided else (node.orelse, node.body)
            self._note_skipped(skipped, node, test, decided, frame)
            under = frame.under
            if test.why:  # decided by the target's facts or the launch, not by a literal
                text = _code(node.test, frame, self)
                reason = Why(frame.path, node.lineno, f"`{text}` is {decided}")
                last = test.why[-1]
                same = last.path == frame.path and last.line == node.lineno
                frame.under = _keep((*under, *test.why, *(() if same else (reason,))))
            self._block(taken, frame)
            if not any(isinstance(s, (ast.Return, ast.Raise)) for s in skipped):
                frame.under = under  # else what follows runs because the skipped branch left
            return
        at = f"{frame.path}:{node.lineno}"
        why = f"`{_code(node.test, frame, self)}` is undecided"
        if isinstance(test, Unknown) and test.reason:
            why += f" ({test.reason})"
        branches = []
        heaps = []
        start = self.heap
        for body in (node.body, node.orelse):
            self.heap = {k: v.copy() for k, v in start.items()}
            branch = Frame(
                frame.path,
                dict(frame.env),
                frame.globals,
                under=frame.under,
                self_class=frame.self_class,
            )
            self._block(body, branch)
            branches.append(branch)
            heaps.append(self.heap)
        live_heaps = [h for b, h in zip(branches, heaps, strict=True) if not b.done] or heaps
        live = [b for b in branches if not b.done] or branches
        for branch in branches:
            frame.returns.extend(branch.returns)
        frame.done = all(b.done for b in branches)
        env = live[0].env
        for other in live[1:]:
            env = {
                k: _join(env[k], other.env[k], at, why) if k in other.env else _maybe(env[k], at)
                for k in env
            } | {k: _maybe(v, at) for k, v in other.env.items() if k not in env}
        frame.env.clear()
        frame.env.update(env)
        heap = live_heaps[0]
        for other_heap in live_heaps[1:]:
            for key, obj in other_heap.items():
                mine = heap.get(key)
                if mine is None:
                    heap[key] = obj
                    continue
                if mine.place != obj.place and mine.place is not None and obj.place is not None:
                    mine.place = _join(mine.place, obj.place, at, why)
                for name in set(mine.attrs) | set(obj.attrs):
                    a, b = mine.attrs.get(name), obj.attrs.get(name)
                    if a is None or b is None:
                        mine.attrs[name] = _maybe(a or b, at)
                    else:
                        mine.attrs[name] = _join(a, b, at, why)
                mine.wrapped = mine.wrapped or obj.wrapped
        self.heap = heap

    def _note_skipped(
        self, body: list[ast.stmt], node: ast.If, test: Value, taken: bool, frame: Frame
    ) -> None:
        for statement in body:
            for child in ast.walk(statement):
                if (
                    isinstance(child, ast.Call)
                    and isinstance(child.func, ast.Attribute)
                    and child.func.attr in ("cuda", "to", "type")
                ):
                    self.trace.skipped.append(
                        Skipped(
                            f"{frame.path}:{child.lineno}",
                            _code(child, frame, self),
                            _code(node.test, frame, self),
                            taken,
                            test.why,
                            dotted(child.func.value) or "",
                        )
                    )

    def _loop(self, node: ast.stmt, frame: Frame, bind: Callable[[Frame], None]) -> None:
        outer = self._current_loops
        self._current_loops = (*outer, next(self._ids))
        try:
            bind(frame)
            self._block(node.body, frame)  # type: ignore[attr-defined]
        finally:
            self._current_loops = outer
        if frame.done and not frame.returns:
            frame.done = False  # a break or continue ends the iteration, not the function
        if not frame.done:
            self._block(node.orelse, frame)  # type: ignore[attr-defined]

    def _import(self, node: ast.Import | ast.ImportFrom, frame: Frame) -> None:
        if isinstance(node, ast.Import):
            for alias in node.names:
                path = self.modules.resolve(frame.path, alias.name)
                if alias.asname:
                    frame.env[alias.asname] = self._module_value(path, alias.name)
                else:
                    head = alias.name.split(".", 1)[0]
                    head_path = self.modules.resolve(frame.path, head)
                    frame.env[head] = self._module_value(head_path, head)
            return
        spec = "." * node.level + (node.module or "")
        module = self.modules.resolve(frame.path, spec) if spec.strip(".") or node.level else None
        if spec.strip(".") == "" and node.level:
            module = self.modules.resolve(frame.path, spec)
        for alias in node.names:
            if alias.name == "*":
                if module is not None:
                    env = self._load(module) or {}
                    frame.env.update({k: v for k, v in env.items() if not k.startswith("_")})
                continue
            local = alias.asname or alias.name
            sub = self.modules.resolve(
                frame.path, f"{spec}.{alias.name}" if spec.strip(".") else spec + alias.name
            )
            if sub is not None:
                frame.env[local] = self._module_value(sub, alias.name)
            elif module is not None:
                env = self._load(module) or {}
                frame.env[local] = env.get(
                    alias.name, Unknown(at=f"{module}:1", reason=f"`{alias.name}` not found")
                )
            elif node.level:
                frame.env[local] = Unknown(at=f"{frame.path}:{node.lineno}", reason="an import")
            else:
                frame.env[local] = External(name=f"{node.module}.{alias.name}")

    def _module_value(self, path: str | None, name: str) -> Value:
        """A module bound by an import: run when one of its names is first read."""
        if path is None:
            return External(name=name)
        return ModuleRef(path=path)

    # -- binding ---------------------------------------------------------------------------------
    def _bind(self, target: ast.expr, value: Value, frame: Frame) -> None:
        if isinstance(target, ast.Name):
            frame.env[target.id] = value
        elif isinstance(target, (ast.Tuple, ast.List)):
            items = self._unpack(value, len(target.elts), target, frame)
            for element, item in zip(target.elts, items, strict=False):
                if isinstance(element, ast.Starred):
                    self._bind(element.value, Unknown(), frame)
                else:
                    self._bind(element, item, frame)
        elif isinstance(target, ast.Attribute):
            owner = self._expr(target.value, frame)
            if isinstance(owner, Ref) and owner.id in self.heap:
                self.heap[owner.id].attrs[target.attr] = value
            elif isinstance(owner, ModuleRef) and owner.path in self.loaded:
                self.loaded[owner.path][target.attr] = value

    def _unpack(self, value: Value, count: int, node: ast.AST, frame: Frame) -> list[Value]:
        if isinstance(value, Seq) and len(value.items) == count:
            return list(value.items)
        if isinstance(value, Tensor):
            return [value] * count  # a batch: its parts are where it is
        if isinstance(value, Ref) and self.heap.get(value.id, Obj("")).kind == "namespace":
            return [value] + [Unknown()] * (count - 1)
        return [Unknown(at=f"{frame.path}:{getattr(node, 'lineno', 0)}", reason="")] * count

    def _cuts(self, value: Value) -> bool:
        """A loader whose batches cut the step (`MpDeviceLoader`)."""
        obj = self.heap.get(value.id) if isinstance(value, Ref) else None
        return obj is not None and obj.kind == "loader" and bool(obj.attrs.get("__cuts__"))

    def _element(self, iterable: Value) -> Value:
        """One item of what a loop iterates."""
        if isinstance(iterable, Each):
            return iterable.item
        if isinstance(iterable, OneOf):
            items = [self._element(c) for c in iterable.choices]
            result = items[0]
            for other in items[1:]:
                result = _join(result, other, iterable.at, iterable.reason)
            return result
        if isinstance(iterable, Seq):
            items = list(iterable.items)
            if not items:
                return Unknown()
            first = items[0]
            return first if all(i == first for i in items) else Unknown()
        if isinstance(iterable, Ref):
            obj = self.heap.get(iterable.id)
            if obj is not None and obj.kind == "loader":
                return Tensor(place=obj.place or Device(kind="cpu"))
        if isinstance(iterable, Tensor):
            return iterable
        if isinstance(iterable, Unknown):
            return Unknown(at=iterable.at, reason=iterable.reason)
        return Unknown()

    # -- expressions -----------------------------------------------------------------------------
    def _expr(self, node: ast.expr | None, frame: Frame) -> Value:
        if node is None:
            return Const()
        self._tick(frame.path, getattr(node, "lineno", 0))
        if isinstance(node, ast.Constant):
            return Const(value=node.value)
        if isinstance(node, ast.Name):
            return self._lookup(node.id, node, frame)
        if isinstance(node, ast.Attribute):
            return self._attribute(self._expr(node.value, frame), node.attr, node, frame)
        if isinstance(node, ast.Call):
            return self._call_node(node, frame)
        if isinstance(node, ast.IfExp):
            test = self._expr(node.test, frame)
            decided = truth(test)
            if decided is None:
                body, orelse = self._expr(node.body, frame), self._expr(node.orelse, frame)
                why = f"`{_code(node.test, frame, self)}` is undecided"
                if isinstance(test, Unknown) and test.reason:
                    why += f" ({test.reason})"
                return _join(body, orelse, f"{frame.path}:{node.lineno}", why)
            value = self._expr(node.body if decided else node.orelse, frame)
            return _with_why(value, test.why)
        if isinstance(node, ast.BoolOp):
            return self._boolop(node, frame)
        if isinstance(node, ast.UnaryOp):
            operand = self._expr(node.operand, frame)
            if isinstance(node.op, ast.Not):
                decided = truth(operand)
                if decided is None:
                    return Unknown(at=f"{frame.path}:{node.lineno}", reason=_reason(operand))
                return Const(value=not decided, why=operand.why)
            if isinstance(operand, Const) and isinstance(operand.value, (int, float)):
                if isinstance(node.op, ast.USub):
                    return Const(value=-operand.value, why=operand.why)
            return Unknown(at=f"{frame.path}:{node.lineno}")
        if isinstance(node, ast.Compare):
            return self._compare(node, frame)
        if isinstance(node, ast.BinOp):
            left, right = self._expr(node.left, frame), self._expr(node.right, frame)
            return self._binop(node.op, left, right, node, frame)
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            return Seq(items=tuple(self._expr(e, frame) for e in node.elts))
        if isinstance(node, ast.Dict):
            items = []
            for key, value in zip(node.keys, node.values, strict=True):
                k = self._expr(key, frame) if key is not None else None
                v = self._expr(value, frame)
                if isinstance(k, Const):
                    items.append((k.value, v))
            return Dict(items=tuple(items))
        if isinstance(node, ast.Subscript):
            return self._subscript(node, frame)
        if isinstance(node, ast.JoinedStr):
            parts = []
            for part in node.values:
                value = self._expr(part, frame) if isinstance(part, ast.expr) else Const()
                if isinstance(part, ast.FormattedValue):
                    value = self._expr(part.value, frame)
                if not isinstance(value, Const):
                    prefix = "".join(parts)
                    # "cuda:{rank}": the kind of device is decided by its prefix.
                    return Unknown(at=f"{frame.path}:{node.lineno}", reason=f"prefix:{prefix}")
                parts.append(str(value.value))
            return Const(value="".join(parts))
        if isinstance(node, ast.NamedExpr):
            value = self._expr(node.value, frame)
            self._bind(node.target, value, frame)
            return value
        if isinstance(node, (ast.ListComp, ast.GeneratorExp, ast.SetComp, ast.DictComp)):
            return Unknown(at=f"{frame.path}:{node.lineno}", reason="a comprehension")
        if isinstance(node, ast.Lambda):
            return Function(
                path=frame.path,
                qualname="<lambda>",
                node=node,
                owner=frame.self_class,
                closure={**(frame.closure or {}), **frame.env}
                if frame.env is not frame.globals
                else None,
            )
        if isinstance(node, ast.Starred):
            return self._expr(node.value, frame)
        return Unknown(at=f"{frame.path}:{getattr(node, 'lineno', 0)}")

    def _lookup(self, name: str, node: ast.AST, frame: Frame) -> Value:
        if name in frame.env:
            return frame.env[name]
        if frame.closure is not None and name in frame.closure:
            return frame.closure[name]
        if name in frame.globals:
            return frame.globals[name]
        if name in _BUILTINS:
            return External(name=name)
        return Unknown(at=f"{frame.path}:{getattr(node, 'lineno', 0)}", reason=f"`{name}`")

    def _attribute(self, owner: Value, attr: str, node: ast.AST, frame: Frame) -> Value:
        at = f"{frame.path}:{getattr(node, 'lineno', 0)}"
        if isinstance(owner, OneOf):
            found = [self._attribute(c, attr, node, frame) for c in owner.choices]
            result = found[0]
            for other in found[1:]:
                result = _join(result, other, owner.at, owner.reason)
            return result
        if isinstance(owner, Bound) and owner.name == "__super__":
            assert isinstance(owner.function, ClassRef)
            for base in self._bases(owner.function):
                found = self._class_attr(base, attr)
                if isinstance(found, Function):
                    return Bound(target=owner.target, function=found, name=attr)
                if found is not None:
                    return found
            return Bound(target=owner.target, name=attr)  # a library base's (`nn.Module`)
        if isinstance(owner, External):
            name = f"{owner.name}.{attr}"
            if name.startswith("torch.cuda.") and name.endswith("Tensor"):
                return TensorType(kind="cuda", spelled=name)
            if name.startswith("torch.") and name.endswith("Tensor") and name.count(".") == 1:
                return TensorType(kind="cpu", spelled=name)
            return External(name=name)
        if isinstance(owner, ModuleRef):
            env = self.loaded.get(owner.path)
            if env is None:
                env = self._load(owner.path) or {}
            if attr in env:
                return env[attr]
            sub = self.modules.resolve(owner.path, f".{attr}")
            if sub is not None:
                self._load(sub)
                return ModuleRef(path=sub)
            return Unknown(at=at, reason=f"`{attr}`")
        if isinstance(owner, Device):
            if attr == "type":
                kinds = {"accelerator": self.facts.backend, "cpu": "cpu", "cuda": "cuda"}
                return Const(value=kinds.get(owner.kind, owner.spelled), why=owner.why)
            return Unknown(at=at)
        if isinstance(owner, Tensor):
            if attr == "device":
                return owner.place
            if attr in ("data", "T", "mT"):
                return owner
            return Bound(target=owner, name=attr)
        if isinstance(owner, Ref):
            obj = self.heap.get(owner.id)
            if obj is None:
                return Unknown(at=at)
            if attr in obj.attrs:
                return obj.attrs[attr]
            if obj.cls is not None:
                found = self._class_attr(obj.cls, attr)
                if isinstance(found, Function):
                    return Bound(target=owner, function=found, name=attr)
                if found is not None:
                    return found
            if obj.kind == "namespace":
                return Unknown(at=at, reason=f"`{attr}` is not an option of the parser")
            return Bound(target=owner, name=attr)
        if isinstance(owner, ClassRef):
            found = self._class_attr(owner, attr)
            return found if found is not None else Unknown(at=at, reason=f"`{attr}`")
        if isinstance(owner, (Const, Seq, Dict)):
            return Bound(target=owner, name=attr)
        if isinstance(owner, Unknown):
            if attr in ("to", "cuda", "cpu", "type"):
                return Bound(target=owner, name=attr)
            return Unknown(at=owner.at or at, reason=owner.reason)
        return Unknown(at=at)

    def _class_attr(self, cls: ClassRef, attr: str, depth: int = 0) -> Value | None:
        if cls.node is None or depth > 8:
            return None
        for statement in cls.node.body:
            if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if statement.name == attr:
                    return Function(
                        path=cls.path,
                        qualname=f"{cls.name}.{attr}",
                        node=statement,
                        owner=cls.name,
                    )
            elif isinstance(statement, ast.Assign):
                for target in statement.targets:
                    if isinstance(target, ast.Name) and target.id == attr:
                        return self._class_expr(cls, statement.value)
            elif isinstance(statement, ast.AnnAssign) and statement.value is not None:
                if isinstance(statement.target, ast.Name) and statement.target.id == attr:
                    return self._class_expr(cls, statement.value)
        for base in self._bases(cls):
            found = self._class_attr(base, attr, depth + 1)
            if found is not None:
                return found
        return None

    def _class_expr(self, cls: ClassRef, node: ast.expr) -> Value:
        env = self.loaded.get(cls.path, {})
        return self._expr(node, Frame(cls.path, {}, env))

    def _bases(self, cls: ClassRef) -> list[ClassRef]:
        env = self.loaded.get(cls.path, {})
        found = []
        for base in cls.node.bases if cls.node is not None else ():
            value = self._expr(base, Frame(cls.path, {}, env))
            if isinstance(value, ClassRef) and value.node is not cls.node:
                found.append(value)
        return found

    def _is_module_class(self, cls: ClassRef, depth: int = 0) -> bool:
        """An ``nn.Module`` (or a framework's module class): its instances are models."""
        if cls.node is None or depth > 8:
            return False
        env = self.loaded.get(cls.path, {})
        for base in cls.node.bases:
            value = self._expr(base, Frame(cls.path, {}, env))
            if isinstance(value, External) and value.name.rsplit(".", 1)[-1] in _MODULE_BASES:
                return True
            if isinstance(value, ClassRef) and self._is_module_class(value, depth + 1):
                return True
            text = dotted(base) or ""
            if text.rsplit(".", 1)[-1] in _MODULE_BASES:
                return True
        return False

    def _subscript(self, node: ast.Subscript, frame: Frame) -> Value:
        owner = self._expr(node.value, frame)
        key = self._expr(node.slice, frame)
        at = f"{frame.path}:{node.lineno}"
        if isinstance(owner, Seq) and isinstance(key, Const) and isinstance(key.value, int):
            try:
                return owner.items[key.value]
            except IndexError:
                return Unknown(at=at)
        if isinstance(owner, Dict) and isinstance(key, Const):
            for k, v in owner.items:
                if k == key.value:
                    return v
            return Unknown(at=at, reason=f"`{_code(node, frame, self)}`")
        if isinstance(owner, Tensor):
            return owner
        if isinstance(owner, External) and owner.name == "os.environ":
            return Unknown(at=at, reason=f"`{_code(node, frame, self)}` is set outside the program")
        return Unknown(at=at, reason=_reason(owner))

    def _boolop(self, node: ast.BoolOp, frame: Frame) -> Value:
        is_and = isinstance(node.op, ast.And)
        result: Value | None = None
        undecided: Value | None = None
        for operand in node.values:
            value = self._expr(operand, frame)
            decided = truth(value)
            if decided is None:
                undecided = undecided or value
                result = value
                continue
            if decided is not is_and:  # `and` stops at a false one, `or` at a true one
                return value
            result = value
        if undecided is not None:
            return Unknown(
                at=getattr(undecided, "at", "") or f"{frame.path}:{node.lineno}",
                reason=_reason(undecided),
            )
        return result if result is not None else Const()

    def _compare(self, node: ast.Compare, frame: Frame) -> Value:
        left = self._expr(node.left, frame)
        why: tuple[Why, ...] = left.why
        for op, right_node in zip(node.ops, node.comparators, strict=True):
            right = self._expr(right_node, frame)
            why = (*why, *right.why)
            result = _compare(op, left, right)
            if result is None:
                return Unknown(
                    at=f"{frame.path}:{node.lineno}",
                    reason=_reason(left if not isinstance(left, Const) else right),
                )
            if not result:
                return Const(value=False, why=why[-3:])
            left = right
        return Const(value=True, why=why[-3:])

    def _binop(self, op: ast.operator, left: Value, right: Value, node: ast.AST, frame: Frame):
        if isinstance(left, Tensor):
            return left
        if isinstance(right, Tensor):
            return right
        if isinstance(left, Const) and isinstance(right, Const):
            a, b = left.value, right.value
            try:
                if isinstance(op, ast.Add) and not (
                    isinstance(a, (str, bytes)) and len(a) + len(b) > 10_000  # type: ignore
                ):
                    return Const(value=a + b, why=(*left.why, *right.why))  # type: ignore
                if isinstance(op, ast.Sub):
                    return Const(value=a - b)  # type: ignore
                if isinstance(op, ast.Mult) and isinstance(a, (int, float)):
                    if isinstance(b, (int, float)):
                        return Const(value=a * b)
                if isinstance(op, ast.Mod) and isinstance(a, str):
                    return Const(value=a % b)
            except Exception:  # noqa: BLE001 - the program's own error
                pass
        return Unknown(at=f"{frame.path}:{getattr(node, 'lineno', 0)}")

    def _name_of(self, node: ast.expr, frame: Frame) -> str:
        value = self._expr(node, frame)
        return value.name if isinstance(value, External) else ""

    # -- calls -----------------------------------------------------------------------------------
    def _call_node(self, node: ast.Call, frame: Frame) -> Value:
        func = self._expr(node.func, frame)
        args: list[Value] = []
        for arg in node.args:
            value = self._expr(arg, frame)
            if isinstance(arg, ast.Starred):
                if isinstance(value, Seq):
                    args.extend(value.items)
                else:
                    args.append(Unknown(at=f"{frame.path}:{node.lineno}", reason="*args"))
            else:
                args.append(value)
        kwargs = {k.arg: self._expr(k.value, frame) for k in node.keywords if k.arg}
        at = f"{frame.path}:{node.lineno}"
        if (
            isinstance(node.func, ast.Attribute)
            and node.func.attr == "backward"
            and not isinstance(func, Bound)
        ):
            self._event("backward", frame, node)  # `loss.backward()` on a value not followed
        return self._apply(func, args, kwargs, at, node, frame)

    def _apply(
        self,
        func: Value,
        args: list[Value],
        kwargs: dict[str, Value],
        at: str,
        node: ast.Call,
        frame: Frame,
    ) -> Value:
        if isinstance(func, OneOf):
            results = [self._apply(c, args, kwargs, at, node, frame) for c in func.choices]
            result = results[0]
            for other in results[1:]:
                result = _join(result, other, func.at, func.reason)
            return result
        if isinstance(func, Function):
            return self._call(func, args, kwargs, at)
        if isinstance(func, ClassRef):
            return self._instantiate(func, args, kwargs, at, node, frame)
        if isinstance(func, External):
            return self._external(func.name, args, kwargs, at, node, frame)
        if isinstance(func, Bound) and func.name == "__compiled__":
            result = self._apply(func.target, args, kwargs, at, node, frame)
            self._event("cut", frame, node, "torch_xla.compile")
            return result
        if isinstance(func, Bound):
            if isinstance(func.function, Function):
                return self._call(func.function, [func.target, *args], kwargs, at)
            return self._method(func.target, func.name, args, kwargs, at, node, frame)
        if isinstance(func, Ref):
            obj = self.heap.get(func.id)
            if obj is not None and obj.kind == "model":
                return self._model_call(func, obj, args, kwargs, at, node, frame)
            if obj is not None and obj.cls is not None:
                call = self._class_attr(obj.cls, "__call__")
                if isinstance(call, Function):
                    return self._call(call, [func, *args], kwargs, at)
            return Unknown(at=at, reason="")
        if isinstance(func, Unknown) and _UNDECIDED in func.reason:
            # A call of a value an undecided condition chose: what runs there is not known.
            self._event("unfollowed", frame, node, f"{func.at}: {func.reason}")
        return Unknown(at=at, reason=_reason(func))

    def _call(self, function: Function, args: list[Value], kwargs: dict[str, Value], at: str):
        node = function.node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            return Unknown(at=at)
        key = f"{function.path}:{function.qualname}"
        if self.depth >= MAX_DEPTH or self.stack.count(key) >= 1:
            return Unknown(at=at, reason=f"`{function.qualname}` calls itself")
        env = self.loaded.get(function.path)
        if env is None:
            env = self._load(function.path) or {}
        frame = Frame(
            function.path,
            {},
            env,
            self_class=function.owner,
            closure=function.closure,
            self_value=args[0] if function.owner and args else None,
            function=function,
        )
        self._bind_parameters(node, args, kwargs, frame, function)
        self.depth += 1
        self.stack.append(key)
        self.trace.modules.add(function.path)
        try:
            if isinstance(node, ast.Lambda):
                frame.returns.append(self._expr(node.body, frame))
            else:
                self._block(node.body, frame)
        finally:
            self.depth -= 1
            self.stack.pop()
        if not frame.returns:
            return Const()
        result = frame.returns[0]
        for other in frame.returns[1:]:
            result = _join(result, other, at, f"`{function.qualname}` returns more than one value")
        return result

    def _bind_parameters(
        self,
        node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda,
        args: list[Value],
        kwargs: dict[str, Value],
        frame: Frame,
        function: Function,
    ) -> None:
        params = node.args
        positional = [*params.posonlyargs, *params.args]
        defaults = [None] * (len(positional) - len(params.defaults)) + list(params.defaults)
        defining = Frame(function.path, {}, frame.globals)
        for index, (param, default) in enumerate(zip(positional, defaults, strict=True)):
            if index < len(args):
                value = args[index]
            elif param.arg in kwargs:
                value = kwargs[param.arg]
            elif default is not None:
                value = self._expr(default, defining)
            else:
                value = Unknown(at=f"{function.path}:{node.lineno}", reason=f"`{param.arg}`")
            frame.env[param.arg] = value
        for param, default in zip(params.kwonlyargs, params.kw_defaults, strict=True):
            if param.arg in kwargs:
                frame.env[param.arg] = kwargs[param.arg]
            elif default is not None:
                frame.env[param.arg] = self._expr(default, defining)
            else:
                frame.env[param.arg] = Unknown(at=f"{function.path}:{node.lineno}")
        if params.vararg is not None:
            frame.env[params.vararg.arg] = Seq(items=tuple(args[len(positional) :]))
        if params.kwarg is not None:
            known = {p.arg for p in (*positional, *params.kwonlyargs)}
            frame.env[params.kwarg.arg] = Dict(
                items=tuple((k, v) for k, v in kwargs.items() if k not in known)
            )

    def _new(self, obj: Obj) -> Ref:
        key = next(self._ids)
        self.heap[key] = obj
        return Ref(id=key)

    def _instantiate(self, cls, args, kwargs, at, node, frame) -> Value:
        model = self._is_module_class(cls)
        place = Device(kind="cpu", why=(Why(*_split(at), f"`{_code(node, frame, self)}`"),))
        ref = self._new(
            Obj(
                "model" if model else "instance",
                cls=cls,
                place=place if model else None,
                built=at,
                spelled=_code(node, frame, self),
            )
        )
        init = self._class_attr(cls, "__init__")
        if isinstance(init, Function):
            self._call(init, [ref, *args], kwargs, at)
        elif cls.node is not None and _is_dataclass(cls.node):
            self._dataclass_fields(cls, ref, args, kwargs)
        return ref

    def _dataclass_fields(self, cls: ClassRef, ref: Ref, args, kwargs) -> None:
        obj = self.heap[ref.id]
        index = 0
        for statement in cls.node.body if cls.node is not None else ():
            if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
                name = statement.target.id
                if index < len(args):
                    obj.attrs[name] = args[index]
                elif name in kwargs:
                    obj.attrs[name] = kwargs[name]
                elif statement.value is not None:
                    value = statement.value
                    if isinstance(value, ast.Call) and (dotted(value.func) or "").endswith("field"):
                        default = next(
                            (k.value for k in value.keywords if k.arg == "default"), None
                        )
                        obj.attrs[name] = (
                            self._class_expr(cls, default) if default is not None else Unknown()
                        )
                    else:
                        obj.attrs[name] = self._class_expr(cls, value)
                index += 1

    def _event(self, kind: str, frame: Frame, node: ast.AST, detail: str = "") -> None:
        where = f"{frame.path}:{getattr(node, 'lineno', 0)}"
        self.trace.events.append(Event(kind, where, self._current_loops, detail))

    def _model_call(self, ref: Ref, obj: Obj, args, kwargs, at, node, frame) -> Value:
        inputs = []
        for index, value in enumerate(args):
            spelled = _code(node.args[index], frame, self) if index < len(node.args) else "*args"
            inputs.extend(_tensors(value, spelled))
        for key, value in kwargs.items():
            inputs.extend(_tensors(value, key))
        self.trace.calls.append(
            ModelCall(
                at,
                ref.id in self.trained,
                self._current_loops,
                _code(node.func, frame, self),
                obj.place or Unknown(at=at),
                tuple(inputs),
                obj.wrapped,
                obj.built,
                _is_loss(obj),
            )
        )
        return Tensor(place=obj.place or Unknown(at=at))

    def _move(self, value: Value, kind_of: Value, at: str, node, frame) -> Value:
        """``value.to(kind_of)``: where the result is (a Device, or Unknown)."""
        if isinstance(kind_of, Device):
            return kind_of
        if isinstance(kind_of, TensorType):
            return Device(kind=kind_of.kind, spelled=kind_of.spelled, why=kind_of.why)
        if isinstance(kind_of, Const) and isinstance(kind_of.value, str):
            return Device(
                kind=device_of_string(kind_of.value, self.facts),
                spelled=kind_of.value,
                why=kind_of.why,
            )
        if isinstance(kind_of, Tensor):
            return kind_of.place
        if isinstance(kind_of, Unknown) and kind_of.reason.startswith("prefix:"):
            return Device(kind=device_of_string(kind_of.reason[7:] or "?", self.facts))
        if isinstance(kind_of, Const) and isinstance(kind_of.value, int):
            return Device(kind="cuda", spelled=str(kind_of.value))
        if isinstance(kind_of, External):
            return Device(kind="dtype")  # a dtype: the place stays
        if isinstance(kind_of, Unknown) and kind_of.at:
            return kind_of
        return Unknown(at=at, reason=_reason(kind_of) or f"`{_code(node, frame, self)}`")

    def _method(self, target, name, args, kwargs, at, node, frame) -> Value:
        if name == "backward":
            self._event("backward", frame, node)
            return Const()
        if isinstance(target, Ref):
            obj = self.heap.get(target.id)
            if obj is None:
                return Unknown(at=at)
            return self._object_method(target, obj, name, args, kwargs, at, node, frame)
        if isinstance(target, Tensor):
            return self._tensor_method(target, name, args, kwargs, at, node, frame)
        if isinstance(target, Unknown) and name in ("to", "cuda", "cpu", "type"):
            # Whatever it was, what `.to(device)` returns is on that device.
            return self._tensor_method(Tensor(place=target), name, args, kwargs, at, node, frame)
        if isinstance(target, Const) and isinstance(target.value, str):
            if name in ("lower", "upper", "strip") and not args:
                return Const(value=getattr(target.value, name)(), why=target.why)
            if name == "startswith" and args and isinstance(args[0], Const):
                try:
                    return Const(value=target.value.startswith(args[0].value), why=target.why)
                except TypeError:
                    return Unknown(at=at)
        if isinstance(target, Dict) and name == "get" and args and isinstance(args[0], Const):
            for k, v in target.items:
                if k == args[0].value:
                    return v
            return args[1] if len(args) > 1 else Const()
        return Unknown(at=at)

    def _tensor_method(self, target: Tensor, name, args, kwargs, at, node, frame) -> Value:
        if name == "to":
            goal = kwargs.get("device", args[0] if args else None)
            if goal is None:
                return target
            place = self._move(target, goal, at, node, frame)
            return (
                target
                if isinstance(place, Device) and place.kind == "dtype"
                else Tensor(place=place)
            )
        if name == "cuda":
            return Tensor(place=Device(kind="cuda", spelled=".cuda()"))
        if name == "cpu":
            return Tensor(place=Device(kind="cpu", spelled=".cpu()"))
        if name == "type" and args:
            kind = args[0]
            if isinstance(kind, TensorType):
                return Tensor(place=Device(kind=kind.kind, spelled=kind.spelled, why=kind.why))
            return Tensor(place=Unknown(at=at, reason=_reason(kind)))
        if name in ("item", "tolist", "numpy"):
            return Unknown(at=at)
        return target

    def _object_method(self, ref: Ref, obj: Obj, name, args, kwargs, at, node, frame) -> Value:
        if obj.kind == "model":
            if name in ("to", "cuda", "cpu", "type"):
                if name == "cuda":
                    goal: Value = Device(kind="cuda", spelled=".cuda()")
                elif name == "cpu":
                    goal = Device(kind="cpu", spelled=".cpu()")
                else:
                    value = kwargs.get("device", args[0] if args else None)
                    if value is None:
                        return ref
                    goal = self._move(ref, value, at, node, frame)
                if isinstance(goal, Device) and goal.kind == "dtype":
                    return ref
                why = (*frame.under, Why(*_split(at), f"`{_code(node, frame, self)}`"))
                obj.place = (
                    replace(goal, why=_keep((*goal.why, *why)))
                    if isinstance(goal, Device)
                    else goal
                )
                return ref
            if name in ("parameters", "named_parameters"):
                return Seq(items=(ref,))  # the model's parameters, for an optimizer
            if name in _CHAINING:
                return ref
            return Unknown(at=at)
        if obj.kind == "parser":
            return self._parser_method(ref, obj, name, args, kwargs, at, frame)
        if obj.kind == "optimizer" and name == "step":
            self._event("optimizer", frame, node)
            return Const()
        if obj.kind == "engine" and name == "run" and args:
            callback = obj.attrs.get("__process__")
            if callback is not None:
                loops = self._current_loops
                self._current_loops = (*loops, next(self._ids))
                try:
                    self._apply(callback, [ref, self._element(args[0])], {}, at, node, frame)
                finally:
                    self._current_loops = loops
            return Unknown(at=at)
        if obj.kind == "process" and name == "start":
            callback = obj.attrs.get("__target__")
            params = obj.attrs.get("__args__")
            if callback is not None:
                items = list(params.items) if isinstance(params, Seq) else []
                self._apply(callback, items, {}, at, node, frame)
            return Const()
        if obj.kind == "framework" and name in ("train", "fit"):
            self._event("framework", frame, node, obj.spelled)
            return Unknown(at=at)
        if obj.kind == "accelerator" and name == "prepare":
            return self._prepared(args, at)
        if obj.kind == "accelerator" and name == "backward":
            self._event("backward", frame, node)
            return Const()
        return Unknown(at=at)

    def _prepared(self, args: list[Value], at: str) -> Value:
        """``accelerator.prepare(...)``: the models and loaders on the accelerator's device."""
        device = Device(kind="accelerator", spelled="accelerator.device")
        out = []
        for value in args:
            obj = self.heap.get(value.id) if isinstance(value, Ref) else None
            if obj is not None and obj.kind in ("model", "loader"):
                obj.place = device
                if obj.kind == "loader" and self.facts.cut_loaders:
                    # accelerate wraps a loader in its MpDeviceLoaderWrapper on XLA
                    # (accelerate/data_loader.py, DistributedType.XLA): each batch cuts.
                    obj.attrs["__cuts__"] = Const(value=True)
            out.append(value)
        return out[0] if len(out) == 1 else Seq(items=tuple(out))

    def _parser_method(self, ref: Ref, obj: Obj, name, args, kwargs, at, frame) -> Value:
        if name in (
            "add_argument_group",
            "add_mutually_exclusive_group",
            "add_subparsers",
            "add_parser",
        ):
            return ref  # a subcommand's options are read as the parser's own
        if name == "add_argument":
            flags = [a.value for a in args if isinstance(a, Const) and isinstance(a.value, str)]
            if not flags:
                return Const()
            dest = kwargs.get("dest")
            long = next((f for f in flags if f.startswith("--")), flags[0])
            key = dest.value if isinstance(dest, Const) else long.lstrip("-").replace("-", "_")
            action = kwargs.get("action")
            action_name = action.value if isinstance(action, Const) else ""
            if "default" in kwargs:
                default = kwargs["default"]
            elif action_name == "store_true":
                default = Const(value=False)
            elif action_name == "store_false":
                default = Const(value=True)
            elif truth(kwargs.get("required", Const())):
                default = Unknown(at=at, reason=f"`{long}` is required: set where it is launched")
            else:
                default = Const()
            default = self._launched(flags, action_name, default, kwargs.get("type"), at)
            obj.attrs[key] = default
            return Const()
        if name in ("parse_args", "parse_known_args"):
            namespace = self._new(Obj("namespace", attrs=dict(obj.attrs), built=at))
            if name == "parse_known_args":
                return Seq(items=(namespace, Unknown(at=at)))
            return namespace
        if name == "set_defaults":
            obj.attrs.update(kwargs)
            return Const()
        return Unknown(at=at)

    def _launched(self, flags, action, default, kind, at) -> Value:
        """An option's value on the known launches: the default where no launch line sets it,
        the value the launch lines give where they all agree, else undecided."""
        flag_text = "/".join(flags)
        lines = self.launch_lines.get(self.entry, ())
        values = []
        for line in lines:
            words = line.split(": ", 1)[-1].split()
            value: Value = default
            for index, word in enumerate(words):
                name, eq, rest = word.partition("=")
                if name not in flags:
                    continue
                if action == "store_true":
                    value = Const(value=True)
                elif action == "store_false":
                    value = Const(value=False)
                elif eq:
                    value = _typed(rest, kind)
                elif index + 1 < len(words):
                    value = _typed(words[index + 1], kind)
            values.append((line, value))
        path, line_no = _split(at)
        if not values:
            text = f"`{flag_text}` defaults to {_show(default)}"
            text += " and no launch line sets it" if not lines else ""
            return _with_why(default, (Why(path, line_no, text),))
        first = values[0][1]
        if isinstance(first, Unknown) and not first.at:
            first = replace(first, at=at)
        if all(
            v == first or isinstance(v, Unknown) and isinstance(first, Unknown) for _, v in values
        ):
            shown = "; ".join(line for line, _ in values[:2])
            text = f"`{flag_text}` is {_show(first)} on every launch line ({shown})"
            return _with_why(first, (Why(path, line_no, text),))
        plain = [line for line, v in values if v == default and not isinstance(v, Unknown)]
        if plain and isinstance(default, Const):
            # `python main.py` and `python main.py --no-accel`: the documented run is the one
            # with the default; the others opt out on purpose.
            text = f"`{flag_text}` is {_show(default)} as {plain[0]} launches it"
            return _with_why(default, (Why(path, line_no, text),))
        return Unknown(at=at, reason=f"the launch lines give `{flag_text}` different values")

    def _external(self, name, args, kwargs, at, node, frame) -> Value:
        facts = self.facts
        path, line = _split(at)
        spelled = f"`{_code(node, frame, self)}`"
        if name in facts.false_calls:
            return Const(value=False, why=(Why(path, line, f"{spelled} is False on the target"),))
        if name in facts.true_calls:
            return Const(value=True, why=(Why(path, line, f"{spelled} is True on the target"),))
        if name in facts.accelerator_calls:
            return Device(kind="accelerator", spelled=spelled)
        if name in facts.cut_calls:
            self._event("cut", frame, node, name)
            return Const()
        if name == "torch.device":
            if not args:
                return Unknown(at=at)
            goal = self._move(Const(), args[0], at, node, frame)
            if isinstance(goal, Device) and goal.kind != "dtype":
                return replace(goal, spelled=spelled)
            return goal
        if name in ("bool", "str", "int", "float"):
            if args and isinstance(args[0], Const):
                try:
                    return Const(value=_BUILTIN_TYPES[name](args[0].value), why=args[0].why)
                except (TypeError, ValueError):
                    return Unknown(at=at)
            if name == "bool" and args and truth(args[0]) is not None:
                return Const(value=truth(args[0]), why=args[0].why)
            return Unknown(at=at, reason=_reason(args[0]) if args else "")
        if name in ("os.environ.get", "os.getenv"):
            key = args[0].value if args and isinstance(args[0], Const) else "?"
            default = args[1] if len(args) > 1 else kwargs.get("default", Const())
            text = f"{spelled}: `{key}` is not set on the launch lines, so its default"
            return _with_why(default, (Why(path, line, text),))
        if name == "argparse.ArgumentParser":
            return self._new(Obj("parser", built=at))
        if name in ("argparse.Namespace", "types.SimpleNamespace"):
            return self._new(Obj("namespace", attrs=dict(kwargs), built=at))
        if name == "itertools.islice" and args:
            return args[0]
        if name == "torch_xla.compile" and args:
            # The compiled function runs as one graph: each call cuts the step.
            return Bound(target=args[0], name="__compiled__")
        if name == "map" and len(args) >= 2:
            # `map(lambda x: x.to(device), batch)`: each item is what the function returns.
            return self._apply(args[0], [self._element(a) for a in args[1:]], {}, at, node, frame)
        if name in _ITERATORS and any(self._cuts(a) for a in args):
            self._iter_cuts = True  # `enumerate(MpDeviceLoader(...))` still cuts each step
        if name in ("enumerate",) and args:
            return Each(item=Seq(items=(Unknown(), self._element(args[0]))))
        if name in ("zip",) and args:
            return Each(item=Seq(items=tuple(self._element(a) for a in args)))
        if name in ("tqdm.tqdm", "tqdm.auto.tqdm", "tqdm", "iter", "list", "tuple") and args:
            return args[0]
        if name == "next" and args:
            return self._element(args[0])
        if name in ("isinstance", "hasattr", "callable", "len", "print", "range"):
            return Unknown(at=at)
        if name in ("torch.autograd.Variable", "torch.autograd.variable.Variable"):
            return args[0] if args else Unknown(at=at)
        if name in facts.unsupported_wrappers or name.endswith("FullyShardedDataParallel"):
            if args and isinstance(args[0], Ref) and args[0].id in self.heap:
                if name in facts.unsupported_wrappers:
                    self.heap[args[0].id].wrapped = (
                        f"{path}:{line}|the model is wrapped in {spelled}, which does not train "
                        "on the target (torch_xla's XlaFullyShardedDataParallel does)"
                    )
                return args[0]
        if (
            name.endswith("DistributedDataParallel")
            and facts.needs_cut
            and kwargs.get("device_ids") not in (None, Const(), Seq())
            and args
            and isinstance(args[0], Ref)
            and args[0].id in self.heap
        ):
            # torch DDP moves every input to `xla:<device_ids[0]>`: a device a process of a
            # local rank above 0 does not have (torch 2.9 DDP `_pre_forward`; TRN144).
            self.heap[args[0].id].wrapped = (
                f"{path}:{line}|{spelled} keeps `device_ids`: DDP moves every input to "
                "`xla:<device_ids[0]>`, which a process of a local rank above 0 does not have"
            )
            return args[0]
        if name.rsplit(".", 1)[-1] in _WRAPPERS or name in ("torch.compile",):
            return args[0] if args else Unknown(at=at)
        if name in facts.cut_loaders and args:
            device = args[1] if len(args) > 1 else kwargs.get("device", Unknown(at=at))
            place = self._move(Const(), device, at, node, frame)
            cuts = Const(value=True)
            return self._new(
                Obj("loader", {"__cuts__": cuts}, place=place, built=at, spelled=spelled)
            )
        if name.endswith(("DataLoader", "data.DataLoader")):
            return self._new(Obj("loader", place=Device(kind="cpu"), built=at, spelled=spelled))
        if name.startswith("torch.optim.") and name[12:13].isupper() or ".optim." in name:
            params = args[0] if args else kwargs.get("params", Seq())
            models = [
                v for v in (params.items if isinstance(params, Seq) else ()) if isinstance(v, Ref)
            ]
            self.trained.update(v.id for v in models)
            return self._new(Obj("optimizer", built=at))
        if name.startswith(_ENGINES):
            obj = Obj("engine", built=at)
            if args:
                obj.attrs["__process__"] = args[0]
            return self._new(obj)
        if name in ("torch.multiprocessing.Process", "multiprocessing.Process"):
            obj = Obj("process", built=at)
            obj.attrs["__target__"] = kwargs.get("target", Unknown(at=at))
            obj.attrs["__args__"] = kwargs.get("args", Seq())
            return self._new(obj)
        if name == "super" and frame.self_value is not None and frame.function is not None:
            owner = self.loaded.get(frame.function.path, {}).get(frame.function.owner)
            if isinstance(owner, ClassRef):
                return Bound(target=frame.self_value, function=owner, name="__super__")
            return Unknown(at=at)
        if name in _LAUNCHES and args:
            rest = kwargs.get("args", Seq())
            items = list(rest.items) if isinstance(rest, Seq) else []
            self._apply(args[0], [Unknown(at=at, reason="the rank"), *items], {}, at, node, frame)
            return Const()
        if name in ("torch.multiprocessing.spawn", "torch.multiprocessing.start_processes"):
            if args:
                rest = kwargs.get("args", Seq())
                items = list(rest.items) if isinstance(rest, Seq) else []
                self._apply(
                    args[0], [Unknown(at=at, reason="the rank"), *items], {}, at, node, frame
                )
            return Const()
        if name == "accelerate.Accelerator":
            return self._new(Obj("accelerator", built=at))
        if name in ("transformers.TrainingArguments", "transformers.Seq2SeqTrainingArguments"):
            return self._new(Obj("namespace", attrs=dict(kwargs), built=at))
        if name.rsplit(".", 1)[-1] in _FRAMEWORK_CLASSES:
            owns = name in facts.owning_frameworks
            options = kwargs.get("args", args[1] if len(args) > 1 else None)
            held = self.heap.get(options.id) if isinstance(options, Ref) else None
            for flag in ("use_cpu", "no_cuda"):
                value = held.attrs.get(flag) if held is not None else None
                if value is not None and truth(value):
                    # The framework is told to train on the CPU.
                    spelled = f"!{name}: its arguments set `{flag}=True` ({at})"
                    return self._new(Obj("framework", built=at, spelled=spelled))
            obj = Obj("framework", built=at, spelled=name if owns else "?" + name)
            return self._new(obj)
        if name.startswith(_TENSOR_FACTORIES_PREFIX) and name.rsplit(".", 1)[-1] in _FACTORIES:
            device = kwargs.get("device")
            if device is None:
                return Tensor(place=Device(kind="cpu", why=(Why(path, line, spelled),)))
            return Tensor(place=self._move(Const(), device, at, node, frame))
        if _builds_model(name):
            place = Device(kind="cpu", why=(Why(path, line, spelled),))
            return self._new(Obj("model", place=place, built=at, spelled=spelled))
        if name.startswith("torch.") and args and isinstance(args[0], Tensor):
            return args[0]
        return Unknown(at=at, reason=f"{spelled} is outside the program")


# -- helpers ------------------------------------------------------------------------------------
_BUILTINS = frozenset(
    {"bool", "str", "int", "float", "enumerate", "zip", "iter", "next", "list", "tuple", "len"}
    | {"map"}
    | {"isinstance", "hasattr", "callable", "print", "range", "super"}
)
_UNDECIDED = "is undecided"
# Libraries the facts speak for: never followed into a given module of the same name.
_LIBRARIES = frozenset(
    {"torch", "torch_xla", "torchvision", "transformers", "accelerate", "ignite", "lightning"}
    | {"pytorch_lightning", "argparse", "os", "tqdm", "itertools"}
)
# Calls that run a function once per process: `torch_xla.launch(fn)`, `xmp.spawn(fn, args)`.
_LAUNCHES = frozenset(
    {"torch_xla.launch", "torch_xla.distributed.xla_multiprocessing.spawn"}
    | {"torch.multiprocessing.spawn", "torch.multiprocessing.start_processes"}
)
_ITERATORS = frozenset({"enumerate", "zip", "iter", "list", "tqdm", "tqdm.tqdm", "tqdm.auto.tqdm"})
_BUILTIN_TYPES: dict[str, Callable] = {"bool": bool, "str": str, "int": int, "float": float}
_MODULE_BASES = frozenset(
    {"Module", "Sequential", "ModuleList", "LightningModule", "PreTrainedModel", "ModuleDict"}
)
_CHAINING = frozenset(
    {"train", "eval", "apply", "share_memory", "half", "float", "double", "bfloat16"}
    | {"requires_grad_", "zero_grad", "load_state_dict", "register_buffer"}
)
_WRAPPERS = frozenset({"DistributedDataParallel", "DataParallel", "XlaFullyShardedDataParallel"})
_ENGINES = ("ignite.engine.Engine", "ignite.engine.engine.Engine")
_FRAMEWORK_CLASSES = frozenset({"Trainer", "Seq2SeqTrainer", "SFTTrainer"})
_TENSOR_FACTORIES_PREFIX = ("torch.",)
_FACTORIES = frozenset(
    {"randn", "rand", "randint", "zeros", "ones", "empty", "full", "tensor", "arange"}
    | {"as_tensor", "from_numpy", "linspace", "eye", "randperm", "normal"}
)


def _builds_model(name: str) -> bool:
    """A library's model: `torch.nn.Linear(...)`, `torchvision.models.resnet18()`,
    `AutoModel.from_pretrained(...)`, `timm.create_model(...)`."""
    last = name.rsplit(".", 1)[-1]
    if name.startswith("torch.nn.") and last[:1].isupper() and ".functional" not in name:
        return True
    if name.startswith("torchvision.models."):
        return True
    if name.startswith("transformers.") and last == "from_pretrained":
        return True
    return name in ("timm.create_model",)


def _is_loss(obj: Obj) -> bool:
    """A loss module: `nn.CrossEntropyLoss()`, a class of the program named `*Loss`/`*Criterion`."""
    name = obj.cls.name if obj.cls is not None else obj.spelled.split("(", 1)[0]
    return name.rsplit(".", 1)[-1].endswith(("Loss", "Criterion", "Loss2d"))


def _is_dataclass(node: ast.ClassDef) -> bool:
    return any(
        (dotted(d.func if isinstance(d, ast.Call) else d) or "").endswith("dataclass")
        for d in node.decorator_list
    )


def _tensors(value: Value, spelled: str) -> list[tuple[str, Value]]:
    """The tensors an argument holds, each with where it is; a value the evaluator did not
    follow may be one, so it is undecided too."""
    if isinstance(value, Tensor):
        return [(spelled, value.place)]
    if isinstance(value, Unknown):
        return [(spelled, value)]
    if isinstance(value, Seq):
        return [item for v in value.items for item in _tensors(v, spelled)]
    return []


def _keep(why: Iterable[Why]) -> tuple[Why, ...]:
    """The decisions behind a value, for its message: the first (the cause) and the last three."""
    found = tuple(dict.fromkeys(why))
    return found if len(found) <= 4 else (found[0], *found[-3:])


def _with_why(value: Value, why: tuple[Why, ...]) -> Value:
    """``value``, decided by ``why`` before its own decisions."""
    if not why or isinstance(value, (Ref, Function, ClassRef, ModuleRef, Bound)):
        return value
    return replace(value, why=_keep((*why, *value.why)))


def _maybe(value: Value | None, at: str) -> Value:
    return Unknown(at=at, reason="set on one branch only") if value is None else value


def _reason(value: Value) -> str:
    if isinstance(value, Unknown):
        return value.reason
    return ""


def _split(at: str) -> tuple[str, int]:
    path, _, line = at.rpartition(":")
    return path, int(line) if line.isdigit() else 0


def _show(value: Value) -> str:
    return repr(value.value) if isinstance(value, Const) else "a value the tool cannot read"


def _typed(text: str, kind: Value | None) -> Value:
    if isinstance(kind, External) and kind.name in ("int", "float"):
        try:
            return Const(value=_BUILTIN_TYPES[kind.name](text))
        except ValueError:
            return Unknown()
    if text.startswith(("$", "`", "<", "{", "[")) or text.endswith((">", "}", "]")):
        # `$LR`, `<TYPE>`, `{gan_type}`: a placeholder, set where the command is run
        return Unknown(reason=f"`{text}` is set outside the program")
    return Const(value=text.strip("\"'"))


def _compare(op: ast.cmpop, left: Value, right: Value) -> bool | None:
    if isinstance(op, (ast.Is, ast.IsNot)):
        if isinstance(right, Const) and right.value is None:
            if isinstance(left, Const):
                same = left.value is None
            elif isinstance(left, (Device, Ref, Tensor, Function, ClassRef, Seq, Dict)):
                same = False
            else:
                return None
            return same if isinstance(op, ast.Is) else not same
        return None
    if isinstance(left, Const) and isinstance(right, Const):
        a, b = left.value, right.value
        try:
            if isinstance(op, ast.Eq):
                return a == b
            if isinstance(op, ast.NotEq):
                return a != b
            if isinstance(op, ast.Lt):
                return a < b  # type: ignore[operator]
            if isinstance(op, ast.LtE):
                return a <= b  # type: ignore[operator]
            if isinstance(op, ast.Gt):
                return a > b  # type: ignore[operator]
            if isinstance(op, ast.GtE):
                return a >= b  # type: ignore[operator]
            if isinstance(op, ast.In):
                return a in b  # type: ignore[operator]
            if isinstance(op, ast.NotIn):
                return a not in b  # type: ignore[operator]
        except TypeError:
            return None
    if isinstance(op, (ast.In, ast.NotIn)) and isinstance(right, Seq) and isinstance(left, Const):
        if all(isinstance(i, Const) for i in right.items):
            found = any(left.value == i.value for i in right.items)  # type: ignore[union-attr]
            return found if isinstance(op, ast.In) else not found
    return None


def _code(node: ast.AST, frame: Frame, evaluator: Evaluator) -> str:
    """The source of ``node`` on one line (for messages)."""
    try:
        text = ast.unparse(node)
    except Exception:  # noqa: BLE001 - only for a message
        return "?"
    if isinstance(node, ast.stmt) and isinstance(node, ast.If):
        text = ast.unparse(node.test)
    text = " ".join(text.split())
    return text if len(text) <= 80 else text[:79] + "…"


def entry_points(
    texts: Mapping[str, str], launched: Iterable[str] = (), console: Iterable[tuple[str, str]] = ()
) -> list[tuple[str, str]]:
    """The entry points among the given modules: (path, function or "" for the module's top
    level): a ``__main__`` guard, a script named on a launch line, a console script's function,
    a module whose own top level trains (a script without a guard). Test modules are none."""
    from trncodemod.analysis.program import _Index, is_test_module

    found: dict[tuple[str, str], None] = {}
    # Modules that run a training step: a script whose top level calls into one trains.
    trainers = {p for p, t in texts.items() if "backward(" in t and not is_test_module(p)}
    index = _Index(texts) if trainers else None
    for path in sorted(texts):
        if is_test_module(path) or not path.endswith(".py"):
            continue
        text = texts[path]
        if path in launched or _MAIN_GUARD.search(text):
            found[(path, "")] = None
        elif "backward(" in text or (trainers and _script(path, texts) and _TOP_CALL.search(text)):
            try:
                tree = ast.parse(text)
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                continue
            if _top_level_step(tree) or _drives_training(tree, path, trainers, index):
                found[(path, "")] = None
    modules = {p[:-3].replace("/", "."): p for p in texts if p.endswith(".py")}
    for module, function in console:
        for name, path in modules.items():
            if name == module or name.endswith("." + module):
                found[(path, function)] = None
    return list(found)


_MAIN_GUARD = re.compile(
    r"""^if\s*\(?\s*(__name__\s*==\s*['"]__main__['"]|['"]__main__['"]\s*==\s*__name__)""",
    re.MULTILINE,
)


# A call at a module's top level (`engine.train(...)`, `results = train(...)`).
_TOP_CALL = re.compile(r"^(?:[\w.]+(?:\s*,\s*[\w.]+)*\s*=\s*)?[\w.]+\(", re.MULTILINE)


def _script(path: str, texts: Mapping[str, str]) -> bool:
    """A module outside any package (no `__init__.py` beside it): a script, not a library."""
    folder = path.rpartition("/")[0]
    return (f"{folder}/__init__.py" if folder else "__init__.py") not in texts


def _drives_training(tree: ast.Module, path: str, trainers: set[str], index) -> bool:
    """A script without a guard whose own top level calls a function of a given module that
    trains (going_modular's `train.py`: `engine.train(model=model, ...)`)."""
    imports, _ = import_specs(tree)
    for statement in tree.body:
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        for node in ast.walk(statement):
            if not isinstance(node, ast.Call):
                continue
            head = (dotted(node.func) or "").split(".", 1)[0]
            binding = imports.get(head)
            if binding is None:
                continue
            spec, _, name = binding.partition(":")
            for candidate in (f"{spec}.{name}" if name else spec, spec):
                module = index.module(path, candidate) if candidate.strip(".") else None
                if module is not None and module != path and module in trainers:
                    return True
    return False


def _top_level_step(tree: ast.Module) -> bool:
    for statement in tree.body:
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        for node in ast.walk(statement):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                if node.func.attr == "backward":
                    return True
    return False


def imports_torch(text: str) -> bool:
    return "torch" in text and bool(import_specs_safe(text))


def import_specs_safe(text: str) -> bool:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    names, _ = import_specs(tree)
    return any(
        spec.lstrip(".").split(":", 1)[0].split(".", 1)[0]
        in ("torch", "torch_xla", "lightning", "pytorch_lightning", "transformers", "accelerate")
        for spec in names.values()
    )
