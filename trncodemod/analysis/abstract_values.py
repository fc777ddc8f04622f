"""The values the evaluator of the migrated program computes (``analysis.evaluate``), and what
a run records for the verdict: three-valued constants, devices, tensor types, tensors with
where they are, objects of the program and of libraries, a choice among objects, and "unknown,
because of line N"; each decided value carries the decisions behind it (``Why``)."""

from __future__ import annotations

import ast
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from trncodemod.analysis.device_facts import Facts

# How the decision that moved a tensor is worded (`x.to(feat_device)`), for the verdict.
MOVED_BY = "moved by "


@dataclass(frozen=True)
class Why:
    """Where a value was decided: ``path:line``, and what decided it."""

    path: str
    line: int
    text: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.text}"


@dataclass(frozen=True)
class Launched(Why):
    """A decision the launch makes: an argparse option's default or the value every launch
    line gives it, an environment variable's default. What the device pass of a module may take
    from the program's run (``Evaluator.observed``): it holds whatever the migration rewrites."""


@dataclass(frozen=True)
class Value:
    why: tuple[Why, ...] = field(default=(), compare=False)


@dataclass(frozen=True)
class Unknown(Value):
    """A value the evaluator could not decide; ``at`` is where (``path:line``)."""

    at: str = ""
    reason: str = ""
    # A count the target decides at run time, never 0 (`torch_xla.runtime.world_size()`).
    positive: bool = field(default=False, compare=False)
    # A number or shape read from a tensor on the host (`x.shape`, `x.size(0)`, `x.item()`): not
    # a tensor, so never a step's input whose place matters.
    host: bool = field(default=False, compare=False)


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
    # The names of the function a class is defined in, which its methods read (`device`).
    closure: dict | None = field(default=None, compare=False)


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
    on_cpu: bool = False  # a framework its arguments keep on the CPU (`Trainer(gpus=0)`)

    def copy(self) -> Obj:
        return replace(self, attrs=dict(self.attrs))


_OBJECTS = (Ref, Function, ClassRef, Bound, ModuleRef)


MAX_CHOICES = 16


def _join(a: Value, b: Value, at: str, why: str) -> Value:
    if a == b:
        return a
    if isinstance(a, Tensor) and isinstance(b, Tensor):
        return Tensor(place=_join(a.place, b.place, at, why))
    # Lists of different lengths whose items are all alike (`[noise]` or `[noise, noise]`): a
    # list of that item, however long.
    items = [*_items(a), *_items(b)]  # compared, not hashed: a Const may hold a list
    if isinstance(a, Seq | Each) and isinstance(b, Seq | Each) and items:
        if all(item == items[0] for item in items):
            return Each(item=items[0])
    # Sequences of one length, item by item (`self.unet.parameters()` of one of four U-Nets).
    if isinstance(a, Seq) and isinstance(b, Seq) and len(a.items) == len(b.items):
        return Seq(items=tuple(_join(x, y, at, why) for x, y in zip(a.items, b.items, strict=True)))
    # Mappings of the same keys, key by key (a parameter group whose `lr` an `if` chose).
    if (
        isinstance(a, Dict)
        and isinstance(b, Dict)
        and [k for k, _ in a.items] == [k for k, _ in b.items]
    ):
        return Dict(
            items=tuple(
                (k, _join(x, y, at, why)) for (k, x), (_, y) in zip(a.items, b.items, strict=True)
            )
        )
    # Mappings whose keys differ (`save_dict["scaler"] = ...` under an undecided `if`): the
    # keys of both, each joined; a key one way lacks is unknown.
    if isinstance(a, Dict) and isinstance(b, Dict):
        left, right = dict(_keyed(a)), dict(_keyed(b))
        missing = Unknown(at=at, reason=why)
        keys = [*left, *(k for k in right if k not in left)]
        return Dict(
            items=tuple(
                (k, _join(left.get(k, missing), right.get(k, missing), at, why)) for k in keys
            )
        )
    # Objects chosen by an undecided condition (`gan = GAN(args)` or `WGAN(args)`): each is
    # followed where it is used.
    # An attribute left None on one way (`self.unet = None` in `__init__`, set by an `if`/`elif`
    # chain with no `else`) is one of the choices too: using it there raises, so the run that
    # goes on is one of the objects (``live_choices``).
    if _object_or_none(a) and _object_or_none(b) and not (_is_none(a) and _is_none(b)):
        choices = tuple(dict.fromkeys((*_choices(a), *_choices(b))))
        if len(choices) <= MAX_CHOICES:
            return OneOf(choices=choices, at=at, reason=why)
    return Unknown(at=at, reason=why)


def _keyed(value: Dict) -> list[tuple[object, Value]]:
    """The items of a mapping whose keys can be compared as dict keys (a Const may hold a
    list: such a key is left out)."""
    found = []
    for key, item in value.items:
        try:
            hash(key)
        except TypeError:
            continue
        found.append((key, item))
    return found


def _is_none(value: Value) -> bool:
    return isinstance(value, Const) and value.value is None


def _object_or_none(value: Value) -> bool:
    return isinstance(value, (*_OBJECTS, OneOf)) or _is_none(value)


def live_choices(value: OneOf) -> tuple[Value, ...]:
    """The choices a call or an attribute of ``value`` can go on with: not None (using it
    raises there), unless every choice is."""
    return tuple(c for c in value.choices if not _is_none(c)) or value.choices


def _items(value: Value) -> tuple[Value, ...]:
    if isinstance(value, Seq):
        return value.items
    return (value.item,) if isinstance(value, Each) else ()


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
    if isinstance(value, Bound) and value.function is None and not isinstance(value.target, Ref):
        # An attribute of a value the evaluator cannot see (`args.cuda` of an unknown parser's
        # result): undecided, not a bound method that is always true.
        return None
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
    # "path:line" of the `model.eval()` the model is called under (its BatchNorm layers then
    # use their running statistics), "" in training mode or where the mode is not decided.
    eval_at: str = ""
    # Where the model holds a BatchNorm layer with running statistics ("path:line" or its
    # spelling), "" where none is seen.
    batchnorm: str = ""
    # How many events the run had recorded when the model was called: a ``backward()`` that
    # differentiates its output is recorded after it (a test forward in eval mode after the
    # step's backward, in the same iteration, is not differentiated).
    events_before: int = 0


@dataclass(frozen=True)
class Event:
    kind: str  # "backward", "optimizer", "cut", "framework", "launch"
    where: str
    loops: tuple[int, ...]
    detail: str = ""
    on_cpu: bool = False  # a framework's loop its arguments keep on the CPU


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
    # A module it ran code of builds an optimizer or a module, or takes parameters (evaluate's
    # ``_TRAINING_WORDS``): a `backward()` there may train.
    trains_parameters: bool = True
    # Where a module it ran code of imports kernels for another device ("path:line", module).
    other_device: tuple[str, str] | None = None
    # Lines of branches a decided condition never takes, per module: line -> why.
    off_path: dict[str, dict[int, str]] = field(default_factory=dict)
    # The lines of the simple statements it ran, per module.
    ran: dict[str, set[int]] = field(default_factory=dict)

    def off_launch_path(self) -> dict[str, dict[int, str]]:
        """The lines of a decided branch not taken that the run never reached another way."""
        found: dict[str, dict[int, str]] = {}
        for path, lines in self.off_path.items():
            ran = self.ran.get(path, set())
            kept = {line: why for line, why in lines.items() if line not in ran}
            if kept:
                found[path] = kept
        return found


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


def _code(node: ast.AST, frame: object = None, evaluator: object = None) -> str:
    """The source of ``node`` on one line (for messages)."""
    try:
        text = ast.unparse(node)
    except Exception:  # noqa: BLE001 - only for a message
        return "?"
    if isinstance(node, ast.stmt) and isinstance(node, ast.If):
        text = ast.unparse(node.test)
    text = " ".join(text.split())
    return text if len(text) <= 80 else text[:79] + "…"


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
    yields: list[Value] | None = None  # a generator function's yielded values, as it runs
