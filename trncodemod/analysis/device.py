"""The training device: the value the model and the batches are moved to, and what decides it.

Worked out once per tree and asked by the passes ([xla-devices, neuron-guide, measured-cuda-calls]).
Every expression that decides the device is evaluated as it would run on the target, where the
accelerator is there: `torch.cuda.is_available()` and `torch.accelerator.is_available()` are True
(they are False under torch_xla, measured, so an unchanged script trains on the CPU), `torch.cuda.
is_bf16_supported()` is True (Trainium computes in bf16; Neuron's own examples patch it so), an
argparse flag takes its default, and a test of the device's identity (`device.type == "cuda"`) is
true when the device is the accelerator. Values are followed through assignments, `if`/else
branches, conditional expressions, function and constructor arguments and attributes
(`self.gpu_id`). A value the tool cannot read (a config file, the environment, a function it cannot
see) is *unknown*, and the node that holds it is kept so a pass can name its line.

Names are matched as dotted text (`device`, `self.device`, `args.device`) across the file, not
per scope: training scripts bind the device once and pass it around under the same name.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

import libcst as cst

from trncodemod.analysis.loops import dotted
from trncodemod.analysis.nodes import find, visit, walk
from trncodemod.analysis.ranks import environ_key

Qualified = Callable[[cst.CSTNode], set[str]]

# What a device value can be on the target.
ACCELERATOR = "accelerator"
CPU = "cpu"
RANK = "rank"  # a CUDA device index (an int, a rank): on Trainium, the process's one device
UNKNOWN = "unknown"

_AVAILABLE = frozenset({"torch.cuda.is_available", "torch.accelerator.is_available"})
_BF16 = frozenset({"torch.cuda.is_bf16_supported"})
NOT_HERE_CALLS = frozenset(
    {"torch.backends.mps.is_available", "torch.mps.is_available", "torch.backends.mps.is_built"}
)
# Attributes False on a Trainium host (Linux): `torch.has_mps` is False in torch 2.9.0's Linux
# wheel (measured, benchmarks/xla_facts.py `has_mps`).
NOT_HERE_ATTRIBUTES = frozenset({"torch.has_mps"})
# ignite's `idist.device()` is the XLA device wherever torch_xla imports (its XLA backend; with
# the torch_xla names it asks for restored, measured `xla:0`): on torch-xla 2.9 the call itself
# raises, which the evaluator reports (``Facts.broken_calls``).
_ACCELERATOR_CALLS = frozenset(
    {
        "torch.accelerator.current_accelerator",
        "torch_xla.device",
        "torch_xla.core.xla_model.xla_device",
        "ignite.distributed.device",
        "ignite.distributed.utils.device",
    }
)
_INDEX_CALLS = frozenset(
    {
        "torch.cuda.current_device",
        "torch.accelerator.current_device_index",
        "torch.distributed.get_rank",
        "torch.distributed.get_node_local_rank",
    }
)
_DEVICE_COUNTS = frozenset({"torch.cuda.device_count", "torch.accelerator.device_count"})
_SPAWNS = frozenset({"torch.multiprocessing.spawn", "torch.multiprocessing.start_processes"})
_CUDA = re.compile(r"cuda(:\d+)?")
# Names that hold a per-process device index in GPU code: `self.gpu_id`, `args.gpu`,
# `local_rank`, `rank`, `device_id`.
_RANK_NAME = re.compile(r"^((local|global)_)?rank$|^gpu(_id|_index)?$|^device_id$", re.I)
_RANK_ENV = ("RANK", "LOCAL_RANK")
_CONFIG_ROOT = re.compile(r"^(cfg|config|conf|configs|opt|opts|hparams|settings|params)$", re.I)
# Devices of a copy kept elsewhere on purpose (an EMA or reference model on the host, offload).
_DELIBERATE = re.compile(r"(^|_)(ema|cpu|host|offload|ref|reference|save|saving)(_|$)", re.I)
_ARGS_NAME = re.compile(r"^(args|arguments|opt|opts|options|flags|hparams|hps|FLAGS|cfg|config)$")
OPTIONS_NAME = _ARGS_NAME  # a name that holds a namespace of options (`args.device`)
_DEVICE_WORD = re.compile(r"cuda(:\d+)?|cpu|xla|neuron|mps")
_ID_LIST = re.compile(r"^(device|gpu)_?ids$|^gpus$", re.I)
_DEPTH = 12
_STEPS = 20_000  # values worked out per file before the rest is "cannot follow"
_DTYPES = {
    "bfloat16": "bfloat16",
    "float16": "float16",
    "half": "float16",
    "float32": "float32",
    "float": "float32",
    "float64": "float64",
    "double": "float64",
}


def _string(node: cst.CSTNode | None) -> str | None:
    if isinstance(node, cst.SimpleString) and node.prefix in ("", "u", "U"):
        value = node.evaluated_value
        return value if isinstance(value, str) else None
    return None


def is_cuda_string(node: cst.CSTNode | None) -> bool:
    value = _string(node)
    return value is not None and _CUDA.fullmatch(value) is not None


def _last(name: str) -> str:
    return name.rsplit(".", 1)[-1]


def is_rank_name(node: cst.BaseExpression) -> bool:
    name = dotted(node)
    return name is not None and _RANK_NAME.match(_last(name)) is not None


@dataclass(frozen=True)
class Binding:
    """One ``name = value`` (value None: a binding the tool cannot read, e.g. tuple unpacking),
    with the ``if`` tests around it and whether each must be true."""

    value: cst.BaseExpression | None
    guards: tuple[tuple[cst.BaseExpression, bool], ...]
    parameter: tuple[cst.FunctionDef, int, str] | None = None  # (function, position, name)
    scope: cst.FunctionDef | None = None  # the function it binds in (None: the module)


@dataclass(frozen=True)
class Option:
    """An argparse option as the script declares it."""

    action: str
    default: cst.BaseExpression | None


@dataclass
class DeviceFacts:
    """What the passes ask. Nodes are those of the tree the facts were worked out on."""

    # Something in the file is placed on a device (`.to(x)`, `.cuda()`, `device=`).
    places_on_device: bool = False
    # What the training device is on the target: a subset of ACCELERATOR, CPU, UNKNOWN (empty:
    # the file names no training device).
    outcome: frozenset[str] = frozenset()
    # Availability and bf16 checks that decide the device or its dtype: True on the target.
    gates: set[cst.Call] = field(default_factory=set)
    # The expressions that keep the device undecided, each with why (for a blocker's message).
    unresolved: dict[cst.CSTNode, str] = field(default_factory=dict)
    # Explicit CPU values the training device is bound to (`device = "cpu"`).
    cpu_values: set[cst.BaseExpression] = field(default_factory=set)
    # Device arguments that are a rank or index (`.to(self.gpu_id)`, `.to(device)` with
    # `device = 0`, `torch.device(f"cuda:{rank}")`).
    rank_devices: set[cst.BaseExpression] = field(default_factory=set)
    # Where such a device is built from an index: `device = torch.device(f"cuda:{rank}")`.
    rank_values: set[cst.BaseExpression] = field(default_factory=set)
    # Rank device arguments that hold a function's parameter, which every call of it in the
    # file (at any depth) fills with a device built from an index: rewritten where that is
    # built, once, unless another module calls one of those functions (``PassedDevice.
    # callers``, asked of the program by the device pass); then where it is used.
    passed_ranks: dict[cst.BaseExpression, PassedDevice] = field(default_factory=dict)
    # Dotted names that hold the training device (or its type string).
    device_names: set[str] = field(default_factory=set)
    # `if` tests that keep a move to the device from running on the target by default
    # (`if args.cuda: model.cuda()` with `--cuda` off by default), with why.
    skipped_moves: dict[cst.BaseExpression, str] = field(default_factory=dict)
    # CPU values bound on the off branch of a user's flag (`--accel` off by default: `device =
    # torch.device("cpu")` under `else`), with the flag: the user's choice, kept and reported.
    opt_in_cpu: dict[cst.BaseExpression, str] = field(default_factory=dict)
    # Unresolved expressions that are a function's parameter whose callers the tool cannot
    # see: the device is decided by the caller, not here (issue 22: `def uniform(shape,
    # device)` got 12 blockers in one file).
    parameters: set[cst.CSTNode] = field(default_factory=set)
    # Launcher calls sized by the CUDA/accelerator device count, with the count call.
    launchers: dict[cst.Call, cst.Call] = field(default_factory=dict)
    # `if`-tests and conditions whose value on the target is known (True or False).
    known_tests: dict[cst.BaseExpression, bool] = field(default_factory=dict)
    # Unresolved expressions that read a flag another module sets from an availability check
    # and keeps (``ModuleView.imported_flags``): the device is decided there, and reported there.
    decided_elsewhere: set[cst.CSTNode] = field(default_factory=set)

    evaluator: _Evaluator | None = None

    @property
    def on_accelerator(self) -> bool:
        return self.outcome == frozenset({ACCELERATOR})

    def truth(self, node: cst.BaseExpression) -> bool | None:
        """The value of a condition on the target, None when the tool cannot tell."""
        if self.evaluator is None:
            return None
        recording, self.evaluator.recording = self.evaluator.recording, False
        try:
            value = self.evaluator.truth(node)
        finally:
            self.evaluator.recording = recording
        return value if isinstance(value, bool) else None

    def kinds(self, node: cst.BaseExpression) -> frozenset[str]:
        """What a device value can be on the target (ACCELERATOR, CPU, RANK, UNKNOWN); empty
        when the file gives it no value."""
        if self.evaluator is None:
            return frozenset({UNKNOWN})
        recording, self.evaluator.recording = self.evaluator.recording, False
        try:
            return self.evaluator.value(node).kinds
        finally:
            self.evaluator.recording = recording

    def constant(self, node: cst.BaseExpression) -> str | None:
        """The string an expression holds on the target (through names, argparse defaults and
        conditional expressions), None when the tool cannot tell."""
        if self.evaluator is None:
            return None
        recording, self.evaluator.recording = self.evaluator.recording, False
        try:
            return self.evaluator.constant(node)
        finally:
            self.evaluator.recording = recording

    def dtype(self, node: cst.BaseExpression) -> str | None:
        """The floating dtype an expression holds on the target ("bfloat16", "float16",
        "float32"...), followed through names, conditional expressions, a dict indexed by a
        known key (nanoGPT's ``{"bfloat16": torch.bfloat16, ...}[dtype]``) and
        ``getattr(torch, name)``; None when the tool cannot tell."""
        return self.evaluator.dtype(node) if self.evaluator is not None else None


class _Collector(cst.CSTVisitor):
    def __init__(self, qualified: Qualified) -> None:
        self.qualified = qualified
        self.bindings: dict[str, list[Binding]] = {}
        self.options: dict[str, Option] = {}
        self.functions: dict[str, list[cst.FunctionDef]] = {}
        self.classes: dict[str, cst.ClassDef] = {}
        self.calls: list[cst.Call] = []
        self.guards: list[tuple[cst.BaseExpression, bool]] = []
        self.saved_guards: list[list[tuple[cst.BaseExpression, bool]]] = []
        self.call_guards: dict[cst.Call, tuple[tuple[cst.BaseExpression, bool], ...]] = {}
        self.comparisons: list[cst.Comparison] = []
        self.if_tests: list[cst.BaseExpression] = []
        self.if_bodies: dict[cst.BaseExpression, cst.BaseSuite] = {}  # test -> the `if`'s body
        # Scopes, for following a device to where it is built (``_Origins``): the functions and
        # lambdas around each call, innermost last; each function's top-level definition (the
        # name another module would call it by); names a `global`/`nonlocal` rebinds.
        self.scopes: tuple[cst.FunctionDef | cst.Lambda, ...] = ()
        self.call_scopes: dict[cst.Call, tuple[cst.FunctionDef | cst.Lambda, ...]] = {}
        self.function_scopes: dict[cst.FunctionDef, tuple[cst.FunctionDef | cst.Lambda, ...]] = {}
        self.tops: dict[cst.FunctionDef, str] = {}
        self.top: list[str] = []
        self.declared: set[str] = set()
        # Names also bound where no binding is collected (`with ... as d`, `for d in` of a
        # comprehension, `except ... as d`, `(d := ...)`, an import): not followed to an origin.
        self.opaque: set[str] = set()

    def _function(self) -> cst.FunctionDef | None:
        return next((s for s in reversed(self.scopes) if isinstance(s, cst.FunctionDef)), None)

    # -- guards ------------------------------------------------------------------------------
    def visit_If(self, node: cst.If) -> bool:
        self.if_tests.append(node.test)
        self.if_bodies[node.test] = node.body
        visit(node.test, self)
        self.guards.append((node.test, True))
        visit(node.body, self)
        self.guards.pop()
        if node.orelse is not None:
            self.guards.append((node.test, False))
            visit(node.orelse, self)
            self.guards.pop()
        return False

    def visit_IfExp(self, node: cst.IfExp) -> bool:
        """`net.Net(params).cuda() if params.cuda else net.Net(params)`: the move runs where
        the test holds, as under an `if` statement."""
        visit(node.test, self)
        self.guards.append((node.test, True))
        visit(node.body, self)
        self.guards[-1] = (node.test, False)
        visit(node.orelse, self)
        self.guards.pop()
        return False

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.functions.setdefault(node.name.value, []).append(node)
        self.saved_guards.append(self.guards)
        self.guards = []  # a function's body runs when it is called, not under the `if` around it
        self.top.append(self.top[-1] if self.top else node.name.value)
        self.tops[node] = self.top[-1]
        self.scopes = (*self.scopes, node)
        self.function_scopes[node] = self.scopes
        params = [*node.params.posonly_params, *node.params.params]
        for position, param in enumerate(params):
            name = param.name.value
            binding = Binding(None, (), (node, position, name), node)
            self.bindings.setdefault(name, []).append(binding)

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self.guards = self.saved_guards.pop()
        self.top.pop()
        self.scopes = self.scopes[:-1]

    def visit_Lambda(self, node: cst.Lambda) -> None:
        self.scopes = (*self.scopes, node)

    def leave_Lambda(self, original_node: cst.Lambda) -> None:
        self.scopes = self.scopes[:-1]

    def visit_Global(self, node: cst.Global) -> None:
        self.declared.update(n.name.value for n in node.names)

    def visit_Nonlocal(self, node: cst.Nonlocal) -> None:
        self.declared.update(n.name.value for n in node.names)

    def _opaque(self, target: cst.BaseExpression | None) -> None:
        if isinstance(target, cst.Tuple | cst.List):
            for element in target.elements:
                self._opaque(element.value)
        elif target is not None and (name := dotted(target)) is not None:
            self.opaque.add(name)

    def visit_WithItem(self, node: cst.WithItem) -> None:
        self._opaque(node.asname.name if node.asname is not None else None)

    def visit_CompFor(self, node: cst.CompFor) -> None:
        self._opaque(node.target)

    def visit_ExceptHandler(self, node: cst.ExceptHandler) -> None:
        self._opaque(node.name.name if node.name is not None else None)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self._opaque(node.target)

    def visit_ImportAlias(self, node: cst.ImportAlias) -> None:
        bound = node.asname.name if node.asname is not None else node.name
        while isinstance(bound, cst.Attribute):
            bound = bound.value  # `import a.b` binds `a`
        self._opaque(bound)  # type: ignore[arg-type]

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.classes[node.name.value] = node
        self.top.append(self.top[-1] if self.top else node.name.value)

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self.top.pop()

    # -- bindings ----------------------------------------------------------------------------
    def _bind(self, target: cst.BaseExpression, value: cst.BaseExpression | None) -> None:
        name = dotted(target)
        if name is not None:
            binding = Binding(value, tuple(self.guards), None, self._function())
            self.bindings.setdefault(name, []).append(binding)
        elif isinstance(target, cst.Tuple | cst.List):
            values = (
                value.elements
                if isinstance(value, cst.Tuple | cst.List)
                and len(value.elements) == len(target.elements)
                and not any(isinstance(e, cst.StarredElement) for e in value.elements)
                else None
            )
            for index, element in enumerate(target.elements):
                # `dim, device = x.shape[-1], x.device`: each name its own value.
                self._bind(element.value, values[index].value if values else None)

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            self._bind(target.target, node.value)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._bind(node.target, node.value)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._bind(node.target, None)

    def visit_For(self, node: cst.For) -> None:
        self._bind(node.target, None)

    def visit_Call(self, node: cst.Call) -> None:
        self.calls.append(node)
        self.call_scopes[node] = self.scopes
        if self.guards:
            self.call_guards[node] = tuple(self.guards)
        if isinstance(node.func, cst.Attribute) and node.func.attr.value == "add_argument":
            self._option(node)

    def visit_Comparison(self, node: cst.Comparison) -> None:
        self.comparisons.append(node)

    def _option(self, call: cst.Call) -> None:
        flags = [_string(a.value) for a in call.args if a.keyword is None]
        keywords = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
        dest_node = keywords.get("dest")
        dest = _string(dest_node) if dest_node is not None else None
        if dest is None:
            longs = [f for f in flags if f and f.startswith("--")]
            if not longs:
                return
            dest = longs[0][2:].replace("-", "_")
        action = _string(keywords.get("action")) or "store"
        self.options[dest] = Option(action, keywords.get("default"))


@dataclass(frozen=True)
class _Value:
    kinds: frozenset[str]
    blame: cst.CSTNode | None = None  # the node that makes it unknown
    why: str = ""


def _unknown(node: cst.CSTNode, why: str) -> _Value:
    return _Value(frozenset({UNKNOWN}), node, why)


def _known(kind: str) -> _Value:
    return _Value(frozenset({kind}))


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


class _Evaluator:
    """Evaluates device values and conditions as they would be on the target."""

    def __init__(
        self,
        collected: _Collector,
        facts: DeviceFacts,
        flags: Mapping[str, tuple[bool, str]] | None = None,
        launch_flags: Mapping[str, bool | None] | None = None,
    ) -> None:
        self.c = collected
        # Flags set in another module from an availability check: read -> (whether the check
        # is dropped there, where it is) (``ModuleView.imported_flags``).
        self.flags = flags or {}
        # Flags the launch decides, as the program's run reads them in this module: read ->
        # value (``ModuleView.launch_flags``): an option of another module, or one with a
        # `type=` function, that this module's own options cannot decide.
        self.launch_flags = launch_flags or {}
        self.q = collected.qualified
        self.facts = facts
        self.active: set[int] = set()  # nodes being evaluated (cycles)
        # A value reached through every caller of every function that passes it on is worked
        # out once: without this a diffusers pipeline that hands `device` through its methods
        # took minutes (paths multiply with each call level). Values cut short by a cycle, the
        # depth limit or the step budget are not kept: another path may see further.
        # Values by node, keyed by its id: the node is kept beside its value, so an id a
        # collected node (a `cst.Name` built to ask about a name) leaves free is never
        # answered with another node's value.
        self.known: dict[tuple[int, bool], tuple[cst.BaseExpression, _Value]] = {}
        self.cuts = 0
        self.steps = 0
        self.callers: dict[int, list[cst.Call]] = {}
        self.spawns: dict[int, cst.Call] = {}  # the call `mp.spawn(fn, ...)` makes -> mp.spawn's
        # Availability checks met while this is set decide the training device: the pass
        # resolves them. Elsewhere (`if torch.cuda.is_available(): torch.cuda.manual_seed(s)`)
        # they are left to the rules about CUDA calls.
        self.recording = True
        self.config_defaults: dict[str, list[cst.BaseExpression]] = {}
        # A flag parameter's truth through its callers, worked out once per parameter.
        self.parameter_truths: dict[tuple[int, int], bool | _Value | None] = {}
        self.active_parameters: set[tuple[int, int]] = set()

    def _names(self, node: cst.CSTNode) -> set[str]:
        return self.q(node)

    # -- device values -------------------------------------------------------------------------
    def value(self, node: cst.BaseExpression, depth: int = 0) -> _Value:
        key = (id(node), self.recording)
        known = self.known.get(key)
        if known is not None and known[0] is node:
            return known[1]
        if id(node) in self.active:
            self.cuts += 1
            return _Value(frozenset())  # a cycle (`f(device)` inside `f`) adds nothing
        self.steps += 1
        if depth > _DEPTH or self.steps > _STEPS:
            self.cuts += 1
            return _unknown(node, "it is computed in a way the tool cannot follow")
        cuts = self.cuts
        self.active.add(id(node))
        try:
            result = self._value(node, depth + 1)
        finally:
            self.active.discard(id(node))
        if self.cuts == cuts:
            self.known[key] = (node, result)
        return result

    def _value(self, node: cst.BaseExpression, depth: int) -> _Value:
        text = _string(node)
        if text is not None:
            if _CUDA.fullmatch(text) or text in ("xla", "neuron"):
                return _known(ACCELERATOR)
            if text == "cpu":
                return _known(CPU)
            if not text:
                # `ModelEma(model, device="cpu" if args.ema_cpu else "")`: as None, the empty
                # string keeps the default (timm's ModelEma: the model's device).
                return _Value(frozenset())
            return _unknown(node, f'"{text}" is not a device the target has')
        if isinstance(node, cst.Integer):
            return _known(RANK)
        if isinstance(node, cst.FormattedString):
            head = node.parts[0] if node.parts else None
            if isinstance(head, cst.FormattedStringText) and head.value.startswith("cuda:"):
                return _known(RANK)
            index = accelerator_index(node, lambda e: self.value(e, depth).kinds)
            if index is not None:
                return _known(RANK if index == "own" else ACCELERATOR)
            return _unknown(node, "the device string is built at run time")
        if isinstance(node, cst.BinaryOperation) and (_string(node.left) or "").startswith("cuda:"):
            return _known(RANK)
        if isinstance(node, cst.IfExp):
            truth = self.truth(node.test, depth)
            if truth is True:
                return self.value(node.body, depth)
            if truth is False:
                return self.value(node.orelse, depth)
            return self._either(self.value(node.body, depth), self.value(node.orelse, depth), truth)
        if isinstance(node, cst.Call):
            return self._call_value(node, depth)
        if isinstance(node, cst.Name) and node.value == "None":
            # `ModelEmaV3(model, device="cpu" if args.ema_cpu else None)`: None keeps the
            # default (the model's device); it decides nothing.
            return _Value(frozenset())
        if isinstance(node, cst.Name | cst.Attribute):
            return self._name_value(node, depth)
        if isinstance(node, cst.Subscript) and _ID_LIST.match(_last(dotted(node.value) or "")):
            return _known(RANK)  # `device_ids[0]`: one of the process's CUDA indices
        return _unknown(node, "the tool cannot read it")

    def _either(self, body: _Value, orelse: _Value, test: _Value | bool | None) -> _Value:
        if not body.kinds or not orelse.kinds:
            return body if body.kinds else orelse
        kinds = body.kinds | orelse.kinds
        if len(kinds) == 1:
            return _Value(kinds)
        if isinstance(test, _Value) and test.blame is not None:
            # Where one way is certainly the accelerator, what keeps the other way unknown is
            # the cause, not the test between them (yolov5: `device = select_device(...)`,
            # then `if LOCAL_RANK != -1: device = torch.device("cuda", LOCAL_RANK)`).
            for side, other in ((body, orelse), (orelse, body)):
                if side.kinds <= {ACCELERATOR, RANK} and other.blame is not None:
                    return _Value(kinds | {UNKNOWN}, other.blame, other.why)
            return _Value(kinds | {UNKNOWN}, test.blame, test.why)
        blame = body.blame or orelse.blame
        return _Value(kinds | {UNKNOWN}, blame, body.why or orelse.why)

    def _call_value(self, node: cst.Call, depth: int) -> _Value:
        names = self._names(node.func)
        if names & {"torch.device"} and node.args:
            first = self.value(node.args[0].value, depth)
            if len(node.args) > 1 and first.kinds == {ACCELERATOR}:
                if _other_gpu(node.args[1].value):
                    return first  # torch.device("cuda", 1): a second GPU, reported as TRN006
                return _known(RANK)  # torch.device("cuda", rank)
            return first
        if names & _ACCELERATOR_CALLS:
            return _known(ACCELERATOR)
        if names & _INDEX_CALLS:
            return _known(RANK)
        if names & {"builtins.int"} and node.args:
            inner = node.args[0].value
            if environ_key(inner, self.q) in _RANK_ENV or is_rank_name(inner):
                return _known(RANK)
        return _unknown(node, f"`{_code(node)}` is a call the tool cannot follow")

    def _name_value(self, node: cst.Name | cst.Attribute, depth: int) -> _Value:
        name = dotted(node)
        if name is None:
            if isinstance(node, cst.Attribute) and node.attr.value == "device":
                # `params[0].grad.device`: where a tensor already lives, not a decision.
                return _known(ACCELERATOR)
            if (
                isinstance(node, cst.Attribute)
                and node.attr.value == "type"
                and isinstance(node.value, cst.Call)
                and self._names(node.value.func) & _ACCELERATOR_CALLS
            ):
                return _known(ACCELERATOR)  # `torch.accelerator.current_accelerator().type`
            return _unknown(node, "the tool cannot read it")
        bindings = self.c.bindings.get(name)
        if not bindings:
            if _RANK_NAME.match(_last(name)):
                return _known(RANK)
            option = self._option(name)
            if option is not None:
                if option.default is None:
                    return _unknown(node, f"`{name}` has no default")
                return self.value(option.default, depth)
            head, _, attr = name.rpartition(".")
            default = self._config_default(name)
            if default is not None:
                return self.value(default, depth)
            if attr == "device" and not _CONFIG_ROOT.match(_last(head)):
                # `x.device`, `model.device`, `accelerator.device`: the device something
                # already lives on, or that a framework chose; not a decision of this file.
                return _known(ACCELERATOR)
            return _unknown(node, f"`{name}` is set outside what the tool can see")
        return self._bound(node, name, bindings, depth)

    def _bound(self, node, name: str, bindings: list[Binding], depth: int) -> _Value:
        live: list[tuple[Binding, _Value, bool | _Value]] = []
        for binding in bindings:
            if binding.value is not None and any(n is node for n in walk(binding.value)):
                continue  # `device = torch.device(device)` reads the binding before it
            guard = self._guards(binding, depth)
            if guard is False:
                continue
            if binding.parameter is not None:
                value = self._parameter(node, binding.parameter, depth)
            elif binding.value is None:
                value = _unknown(node, f"`{name}` is bound in a way the tool cannot follow")
            else:
                value = self.value(binding.value, depth)
            if binding.parameter is None:
                if guard is True:
                    live = []  # a later unconditional binding replaces what came before
                else:
                    # ... and so does one on the same path as an earlier one, under tests
                    # that all take its way (llm.c: `device = "cpu"`, then under `if
                    # torch.cuda.is_available():` in the same branch, `device = "cuda"`).
                    live = [e for e in live if not self._replaces(binding, e[0], depth)]
            live.append((binding, value, guard))
        result: _Value | None = None
        for _, value, guard in live:
            result = value if result is None else self._either(result, value, guard)
        if result is None or not result.kinds:
            return _unknown(node, f"no binding of `{name}` runs on the target")
        if _RANK_NAME.match(_last(name)) and UNKNOWN in result.kinds:
            return _known(RANK)
        return result

    def _replaces(self, later: Binding, earlier: Binding, depth: int) -> bool:
        """Whether ``later`` runs whenever ``earlier`` does, after it: the earlier one's tests
        are the first of the later one's, and the later one's other tests take its way."""
        size = len(earlier.guards)
        if later.guards[:size] != earlier.guards:
            return False
        return all(self.truth(test, depth) is wanted for test, wanted in later.guards[size:])

    def _guards(self, binding: Binding, depth: int) -> bool | _Value:
        """True when every `if` around the binding takes its way on the target, False when one
        does not, else the unknown test."""
        unknown: _Value | None = None
        for test, wanted in binding.guards:
            truth = self.truth(test, depth)
            if isinstance(truth, _Value):
                unknown = unknown or truth  # a later test may still rule the binding out
            elif truth is not wanted:
                return False
        return unknown if unknown is not None else True

    def _parameter(self, node, parameter: tuple[cst.FunctionDef, int, str], depth: int) -> _Value:
        function, position, name = parameter
        values: list[_Value] = []
        for call in self._calls_of(function):
            offset = 1 if self._is_method(function) else 0
            arg = _argument(call, position - offset, name)
            if arg is None:
                default = _default(function, name)
                if default is None:
                    continue
                arg = default
            values.append(self.value(arg, depth))
        if not values:
            default = _default(function, name)
            if default is not None:
                return self.value(default, depth)
            self.facts.parameters.add(node)
            return _unknown(
                node,
                f"`{name}` is a parameter of `{function.name.value}`, whose "
                "callers the tool cannot see",
            )
        result = values[0]
        for value in values[1:]:
            result = self._either(result, value, None)
        return result

    def _parameter_truth(
        self, node, parameter: tuple[cst.FunctionDef, int, str], depth: int
    ) -> bool | _Value | None:
        """A flag parameter as its callers pass it (imagenet's `AverageMeter(name, use_accel)`,
        built with `use_accel = torch.accelerator.is_available()`): True or False when every
        call agrees; None where each call passes the value on in a cycle."""
        function, position, name = parameter
        key = (id(function), position)
        if key in self.parameter_truths:
            return self.parameter_truths[key]
        if key in self.active_parameters:
            return None  # a call passes the parameter on to its own function: a cycle
        self.active_parameters.add(key)
        try:
            truth = self._parameter_truth_of(node, function, position, name, depth)
        finally:
            self.active_parameters.discard(key)
        self.parameter_truths[key] = truth
        return truth

    def _parameter_truth_of(
        self, node, function: cst.FunctionDef, position: int, name: str, depth: int
    ) -> bool | _Value | None:
        offset = 1 if self._is_method(function) else 0
        results: set[bool] = set()
        for call in self._calls_of(function):
            arg = _argument(call, position - offset, name)
            if arg is None:
                arg = _default(function, name)
                if arg is None:
                    continue
            if id(arg) in self.active:
                continue
            truth = self.truth(arg, depth)
            if isinstance(truth, _Value):
                return truth
            results.add(truth)
        if not results:
            if self._calls_of(function):
                return None
            default = _default(function, name)
            if default is not None:
                return self.truth(default, depth)
            self.facts.parameters.add(node)
            return _unknown(
                node,
                f"`{name}` is a parameter of `{function.name.value}`, whose "
                "callers the tool cannot see",
            )
        if len(results) == 1:
            return results.pop()
        return _unknown(node, f"`{name}` is passed both ways")

    def _config_default(self, name: str) -> cst.BaseExpression | None:
        """The default of a config field (`config.device`) set in this file's config factory:
        a function that builds an object, sets the field on it and returns it (minGPT's
        `Trainer.get_default_config()`: `C = CN(); C.device = "auto"; return C`)."""
        head, _, attr = name.rpartition(".")
        if not attr or not _CONFIG_ROOT.match(_last(head)):
            return None
        found = self.config_defaults.get(attr, ())
        if not self.config_defaults:
            self.config_defaults = _config_defaults(self.c.functions)
            found = self.config_defaults.get(attr, ())
        return found[0] if len(found) == 1 else None

    def _dataclass_default(self, name: str) -> cst.BaseExpression | None:
        """The default of a field of this file's dataclass that `args = tyro.cli(Args)` fills
        (`args.backend`, `backend: str = "gloo"`), as the program's evaluator reads it; the
        launch lines may set it, so only a string is taken (``constant``)."""
        head, _, attr = name.rpartition(".")
        bindings = self.c.bindings.get(head, ())
        if len(bindings) != 1 or not isinstance(bindings[0].value, cst.Call):
            return None
        call = bindings[0].value
        if not (self.q(call.func) & {"tyro.cli"} and call.args):
            return None
        cls = self.c.classes.get(dotted(call.args[0].value) or "")
        for statement in cls.body.body if cls is not None else ():
            for small in statement.body if isinstance(statement, cst.SimpleStatementLine) else ():
                if (
                    isinstance(small, cst.AnnAssign)
                    and isinstance(small.target, cst.Name)
                    and small.target.value == attr
                ):
                    return small.value
        return None

    def _is_method(self, function: cst.FunctionDef) -> bool:
        params = function.params.params
        return bool(params) and params[0].name.value in ("self", "cls")

    def _calls_of(self, function: cst.FunctionDef) -> list[cst.Call]:
        # Asked for each parameter value on every path: found once per function.
        found = self.callers.get(id(function))
        if found is None:
            found = self.callers[id(function)] = self._find_calls_of(function)
        return found

    def _find_calls_of(self, function: cst.FunctionDef) -> list[cst.Call]:
        name = function.name.value
        owner = next((c for c in self.c.classes.values() if function in _methods(c)), None)
        wanted = {name}
        if owner is not None and name == "__init__":
            wanted = {owner.name.value}
        found = []
        for call in self.c.calls:
            func = call.func
            called = func.value if isinstance(func, cst.Name) else None
            if isinstance(func, cst.Attribute) and owner is not None and name != "__init__":
                called = func.attr.value
            if called in wanted:
                found.append(call)
            # mp.spawn(fn, args=(...)) calls fn(rank, *args)
            elif self._names(call.func) & _SPAWNS and call.args:
                if isinstance(call.args[0].value, cst.Name) and call.args[0].value.value == name:
                    spawned = _spawned(call)
                    self.spawns[id(spawned)] = call
                    found.append(spawned)
        return found

    def _option(self, name: str) -> Option | None:
        """The argparse option ``name`` reads (`args.device`), not an attribute of something
        else with the option's name (`idx.device` beside a `--device` flag)."""
        if "." not in name:
            return None
        head = name.rpartition(".")[0]
        if not (_ARGS_NAME.match(_last(head)) or self._parsed(head)):
            return None
        return self.c.options.get(_last(name))

    def _parsed(self, head: str) -> bool:
        """Whether ``head`` is bound to what `parser.parse_args()` returns."""
        for binding in self.c.bindings.get(head, ()):
            value = binding.value
            if isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute):
                if value.func.attr.value in ("parse_args", "parse_known_args"):
                    return True
        return False

    # -- constants and dtypes --------------------------------------------------------------------
    def constant(self, node: cst.BaseExpression, depth: int = 0) -> str | None:
        """A string an expression holds on the target, when certain."""
        if depth > _DEPTH:
            return None
        text = _string(node)
        if text is not None:
            return text
        if isinstance(node, cst.IfExp):
            truth = self.truth(node.test, depth + 1)
            if isinstance(truth, bool):
                return self.constant(node.body if truth else node.orelse, depth + 1)
            return None
        if isinstance(node, cst.Name | cst.Attribute):
            name = dotted(node)
            values = set()
            for binding in self.c.bindings.get(name or "", ()):
                guard = self._guards(binding, depth + 1)
                if guard is False:
                    continue
                if guard is not True or binding.value is None:
                    return None
                values = {self.constant(binding.value, depth + 1)}  # the later binding wins
            if not values and name is not None:
                option = self._option(name)
                if option is not None and option.default is not None:
                    return self.constant(option.default, depth + 1)
                default = self._config_default(name) or self._dataclass_default(name)
                if default is not None:
                    return self.constant(default, depth + 1)
            return values.pop() if len(values) == 1 else None
        return None

    def dtype(self, node: cst.BaseExpression, depth: int = 0) -> str | None:
        if depth > _DEPTH:
            return None
        for name in self._names(node):
            if name.startswith("torch.") and name.count(".") == 1:
                return _DTYPES.get(name[len("torch.") :])
        if isinstance(node, cst.IfExp):
            truth = self.truth(node.test, depth + 1)
            if isinstance(truth, bool):
                return self.dtype(node.body if truth else node.orelse, depth + 1)
            return None
        if isinstance(node, cst.Subscript) and isinstance(node.value, cst.Dict):
            element = node.slice[0].slice if len(node.slice) == 1 else None
            key = (
                self.constant(element.value, depth + 1) if isinstance(element, cst.Index) else None
            )
            for entry in node.value.elements:
                if (
                    key is not None
                    and isinstance(entry, cst.DictElement)
                    and _string(entry.key) == key
                ):
                    return self.dtype(entry.value, depth + 1)
            return None
        if (
            isinstance(node, cst.Call)
            and isinstance(node.func, cst.Name)
            and node.func.value == "getattr"
            and len(node.args) == 2
            and self._names(node.args[0].value) & {"torch"}
        ):
            return _DTYPES.get(self.constant(node.args[1].value, depth + 1) or "")
        if isinstance(node, cst.Name | cst.Attribute):
            bindings = self.c.bindings.get(dotted(node) or "", ())
            result = None
            for binding in bindings:
                guard = self._guards(binding, depth + 1)
                if guard is False:
                    continue
                if guard is not True or binding.value is None:
                    return None
                result = self.dtype(binding.value, depth + 1)
            return result
        return None

    # -- conditions ----------------------------------------------------------------------------
    def truth(self, node: cst.BaseExpression, depth: int = 0) -> bool | _Value:
        """True/False as the condition is on the target; a _Value with the blame when unknown."""
        if depth > _DEPTH or id(node) in self.active:
            return _unknown(node, "it is computed in a way the tool cannot follow")
        self.active.add(id(node))
        try:
            result = self._truth(node, depth + 1)
        finally:
            self.active.discard(id(node))
        if isinstance(result, bool):
            self.facts.known_tests[node] = result
        return result

    def _truth(self, node: cst.BaseExpression, depth: int) -> bool | _Value:
        if isinstance(node, cst.Name) and node.value in ("True", "False"):
            return node.value == "True"
        text = _string(node)
        if text is not None:
            return bool(text)  # `if args.device:` with `--device` defaulting to ""
        if isinstance(node, cst.Call):
            names = self._names(node.func)
            if names & (_AVAILABLE | _BF16) and not node.args:
                if self.recording:
                    self.facts.gates.add(node)
                return True
            if names & NOT_HERE_CALLS:
                return False
            return _unknown(node, f"`{_code(node)}` is a call the tool cannot follow")
        if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Not):
            inner = self.truth(node.expression, depth)
            return (not inner) if isinstance(inner, bool) else inner
        if isinstance(node, cst.BooleanOperation):
            left = self.truth(node.left, depth)
            right = self.truth(node.right, depth)
            if isinstance(node.operator, cst.And):
                if left is False or right is False:
                    return False
                if left is True and right is True:
                    return True
            else:
                if left is True or right is True:
                    return True
                if left is False and right is False:
                    return False
            return left if isinstance(left, _Value) else right
        if isinstance(node, cst.Comparison):
            return self._comparison(node, depth)
        if isinstance(node, cst.Subscript):
            # `config["force_cpu"]` of a dict copied from the parsed options: the program's
            # run reads it (``ModuleView.launch_flags``, spelled with the key's repr).
            spelled = _subscript_spelling(node)
            if spelled is not None and spelled in self.launch_flags:
                return bool(self.launch_flags[spelled])
            return _unknown(node, "the tool cannot read it")
        if isinstance(node, cst.Name | cst.Attribute):
            name = dotted(node)
            if name is None:
                return _unknown(node, "the tool cannot read it")
            if self._names(node) & NOT_HERE_ATTRIBUTES:
                return False
            bindings = self.c.bindings.get(name)
            if not bindings and name in self.launch_flags and name not in self.flags:
                # The program's run decided it: the launch lines' value, before the option's
                # default (`--cuda` on every launch line of a `store_true` option). A flag
                # another module sets from an availability check is the port's to decide.
                return bool(self.launch_flags[name])
            if not bindings:
                option = self._option(name)
                if option is not None and option.action in ("store_true", "store_false"):
                    if option.default is not None:
                        return self.truth(option.default, depth)
                    return option.action == "store_false"
                if option is not None and _string(option.default) is not None:
                    return self.truth(option.default, depth)  # a string option's default
                if name in self.flags:
                    return self._imported_flag(node, name)
                return _unknown(node, f"`{name}` is set outside what the tool can see")
            results = set()
            for binding in bindings:
                guard = self._guards(binding, depth)
                if guard is False:
                    continue
                if binding.parameter is not None:
                    truth = self._parameter_truth(node, binding.parameter, depth)
                    if truth is None:
                        continue  # a cycle through the callers: they add nothing
                elif binding.value is None:
                    return _unknown(node, f"`{name}` is bound in a way the tool cannot follow")
                else:
                    truth = self.truth(binding.value, depth)
                if isinstance(truth, _Value):
                    return truth
                results.add(truth)
            if len(results) == 1:
                return results.pop()
            return _unknown(node, f"`{name}` is set both ways")
        return _unknown(node, "the tool cannot read it")

    def _imported_flag(self, node: cst.BaseExpression, name: str) -> bool | _Value:
        """A flag another module sets from an availability check: true on the target where
        the tool drops the check there; else undecided here, and reported there, once."""
        dropped, where = self.flags[name]
        if dropped:
            return True
        self.facts.decided_elsewhere.add(node)
        return _unknown(
            node,
            f"`{name}` is set at {where} from an availability check that is False on "
            "Trainium and stays there",
        )

    def _comparison(self, node: cst.Comparison, depth: int) -> bool | _Value:
        """``device.type == "cuda"``, ``"cuda" in device``, ``device != "cpu"``: true on the
        target where the device is the accelerator (the pass rewrites "cuda" to its type)."""
        if len(node.comparisons) != 1:
            return _unknown(node, "the tool cannot read it")
        target = node.comparisons[0]
        left, right, operator = node.left, target.comparator, target.operator
        if _is_main_test(left, right) and isinstance(operator, cst.Equal):
            return True  # the script is the program run: its `__main__` block runs
        if _string(left) is not None and _string(right) is None:
            left, right = right, left
        text = _string(right)
        subject = identity_subject(left)
        if text is not None and (subject is None or not _DEVICE_WORD.fullmatch(text)):
            # `dtype == "float16"`, `args.precision == "bf16"`, `config.device == "auto"`
            held = self.constant(left, depth)
            if held is not None and isinstance(operator, cst.Equal | cst.NotEqual):
                return (held == text) is isinstance(operator, cst.Equal)
        if text is None or subject is None:
            return _unknown(node, f"`{_code(node)}` is a test the tool cannot decide")
        value = self.value(subject, depth)
        if value.kinds not in ({ACCELERATOR}, {CPU}, {RANK}):
            return value
        device = "cuda" if value.kinds != {CPU} else "cpu"
        if isinstance(operator, cst.Equal | cst.In):
            same = device == text if isinstance(operator, cst.Equal) else text in device
        elif isinstance(operator, cst.NotEqual | cst.NotIn):
            same = device != text if isinstance(operator, cst.NotEqual) else text not in device
        else:
            return _unknown(node, f"`{_code(node)}` is a test the tool cannot decide")
        if _CUDA.fullmatch(text):
            self.facts.device_names.add(dotted(subject) or "")
        return same


def _is_main_test(left: cst.BaseExpression, right: cst.BaseExpression) -> bool:
    sides = {_string(left), _string(right)}
    names = {n.value for n in (left, right) if isinstance(n, cst.Name)}
    return "__main__" in sides and "__name__" in names


def identity_subject(node: cst.BaseExpression) -> cst.BaseExpression | None:
    """The device in a test of a device's identity: ``device`` in ``device.type``,
    ``str(device)``, ``device`` itself when its name says it is one (``device_type``)."""
    if isinstance(node, cst.Attribute) and node.attr.value == "type":
        return node.value
    if (
        isinstance(node, cst.Call)
        and isinstance(node.func, cst.Name)
        and node.func.value == "str"
        and len(node.args) == 1
    ):
        return node.args[0].value
    name = dotted(node)
    if name is not None and "device" in _last(name).lower():
        return node
    return None


def _config_defaults(
    functions: dict[str, list[cst.FunctionDef]],
) -> dict[str, list[cst.BaseExpression]]:
    """Field -> the values config factories give it: in a function that returns a plain name,
    each ``name.field = value`` (one level; the last per function)."""
    found: dict[str, list[cst.BaseExpression]] = {"": []}  # never empty once worked out
    for function in (f for group in functions.values() for f in group):
        returned = {
            r.value.value for r in find(function, cst.Return) if isinstance(r.value, cst.Name)
        }
        fields: dict[str, cst.BaseExpression] = {}
        for assign in find(function, cst.Assign):
            for target in assign.targets:
                node = target.target
                if (
                    isinstance(node, cst.Attribute)
                    and isinstance(node.value, cst.Name)
                    and node.value.value in returned
                ):
                    fields[node.attr.value] = assign.value
        for key, value in fields.items():
            found.setdefault(key, []).append(value)
    return found


def _methods(cls: cst.ClassDef) -> Iterable[cst.FunctionDef]:
    body = cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ()
    return [s for s in body if isinstance(s, cst.FunctionDef)]


def _argument(call: cst.Call, position: int, name: str) -> cst.BaseExpression | None:
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == name:
            return arg.value
    positional = [a for a in call.args if a.keyword is None]
    if any(a.star for a in positional[: position + 1]) or position < 0:
        return None
    return positional[position].value if position < len(positional) else None


def _default(function: cst.FunctionDef, name: str) -> cst.BaseExpression | None:
    for param in [*function.params.params, *function.params.kwonly_params]:
        if param.name.value == name:
            return param.default
    return None


def _spawned(call: cst.Call) -> cst.Call:
    """The call ``mp.spawn(fn, args=(a, b))`` makes: ``fn(rank, a, b)``."""
    args: list[cst.Arg] = [cst.Arg(cst.Name("rank"))]
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == "args":
            if isinstance(arg.value, cst.Tuple):
                args += [cst.Arg(e.value) for e in arg.value.elements]
    return cst.Call(call.func, args)


def _device_argument(call: cst.Call, qualified: Qualified) -> cst.BaseExpression | None:
    """The device a call places something on: ``x.to(d)``, ``x.cuda(d)``, ``f(device=d)``."""
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == "device":
            return arg.value
    func = call.func
    if isinstance(func, cst.Attribute) and func.attr.value in ("to", "cuda") and call.args:
        first = call.args[0]
        if first.keyword is None and not first.star:
            if func.attr.value == "cuda" and qualified(func) & {"torch.cuda"}:
                return None
            return first.value
    return None


def _is_dtype(node: cst.BaseExpression, qualified: Qualified) -> bool:
    last = _last(dotted(node) or "")
    return bool(last) and not last.startswith("dev") and bool(qualified(node) & {f"torch.{last}"})


def analyse(
    module: cst.Module,
    qualified: Qualified,
    flags: Mapping[str, tuple[bool, str]] | None = None,
    launch_flags: Mapping[str, bool | None] | None = None,
    deciding_checks: frozenset[str] = frozenset(),
) -> DeviceFacts:
    """The training device of ``module`` and what decides it; ``flags``: the flags it reads
    that another module sets from an availability check (``ModuleView.imported_flags``);
    ``launch_flags``: those the launch decides, as the program's run reads them
    (``ModuleView.launch_flags``); ``deciding_checks``: the `if` tests whose availability check
    the program's run shows keeps a model on the CPU (``ModuleView.deciding_checks``): they
    decide the training device though this module moves nothing."""
    collected = _Collector(qualified)
    visit(module, collected)
    facts = DeviceFacts()
    evaluator = _Evaluator(collected, facts, flags, launch_flags)
    origins = _Origins(module, collected, evaluator)
    outcome: set[str] = set()
    moves_run = False
    skipped: dict[cst.BaseExpression, str] = {}
    for call in collected.calls:
        func = call.func
        if (
            isinstance(func, cst.Attribute)
            and func.attr.value == "cuda"
            and all(a.keyword is not None for a in call.args)  # `.cuda(non_blocking=True)` too
        ):
            if not (qualified(func) & {"torch.cuda"}):
                facts.places_on_device = True
                outcome.add(ACCELERATOR)
                if not _follows_operand(call, collected):
                    moves_run |= _guards_of_move(call, collected, evaluator, skipped)
            continue
        device = _device_argument(call, qualified)
        if device is None or _is_dtype(device, qualified) or evaluator.dtype(device) is not None:
            continue  # `.to(dtype)` with `dtype = torch.bfloat16 if ... else torch.float16`
        if _last(dotted(device) or "").lower().endswith("dtype"):
            continue  # `.to(self.dtype)`, `.to(ptdtype)`: a cast, whatever the name holds
        literal = _string(device)
        if literal is not None and not (_CUDA.fullmatch(literal) or literal in ("xla", "neuron")):
            continue  # `.to("cpu")`: a copy to the host, not the training device
        if isinstance(device, cst.Tuple | cst.List | cst.Dict | cst.Lambda):
            continue
        if _DELIBERATE.search(_last(dotted(device) or "")):
            continue  # `ema.to(ema_device)`, `.to(cpu_device)`: a copy kept off the device
        value = evaluator.value(device)
        if value.kinds == {UNKNOWN} and isinstance(device, cst.Name | cst.Attribute):
            name = dotted(device) or ""
            if "device" not in _last(name).lower() and (
                _last(name) not in collected.bindings
                or _unpacked_only(collected.bindings.get(name, ()))
            ):
                # `.to(other_tensor)`, `.to(memory_format)`, `.to(actions)` with `actions` one of
                # the tensors a call returns (`idxs, states, actions = mem.sample(...)`): the
                # dtype and device of a tensor at hand, not a decision of the training device.
                continue
        facts.places_on_device = True
        if not _follows_operand(call, collected):
            moves_run |= _guards_of_move(call, collected, evaluator, skipped)
        name = dotted(device)
        if name is not None:
            facts.device_names.add(name)
        if value.kinds == {RANK}:
            built = origins.of(device, call)
            if built is None:
                facts.rank_devices.add(device)
            elif not built.callers:
                facts.rank_values |= built.origins  # rewrite where the device is built, once
            else:
                facts.passed_ranks[device] = built
        kinds = {ACCELERATOR if k == RANK else k for k in value.kinds}
        outcome |= kinds
        if UNKNOWN in kinds and value.blame is not None:
            facts.unresolved.setdefault(value.blame, value.why)
        if kinds == {CPU}:
            facts.cpu_values |= _cpu_values(device, collected, evaluator)
    for call in collected.calls:
        # `torch.device("cuda", local_rank)` is a device wherever it is; a literal index other
        # than 0 (`"cuda:1"`, model parallel over GPUs) is not a process's own device.
        if qualified(call.func) & {"torch.device"} and is_index_device(call, qualified):
            if not _other_gpu(call.args[-1].value):
                facts.rank_values.add(call)
        elif qualified(call.func) & {"torch.device"} and _accelerator_device(call, evaluator):
            facts.rank_values.add(call)
    if deciding_checks:
        for test in collected.if_tests:
            if " ".join(_code(test).split()) in deciding_checks and _binds_device(
                collected.if_bodies[test], qualified
            ):
                evaluator.truth(test)  # its availability checks decide the device elsewhere
    evaluator.recording = False
    for test in collected.if_tests:
        evaluator.truth(test)  # records the device-identity tests they contain
    for comparison in collected.comparisons:
        if comparison not in facts.known_tests:
            evaluator.truth(comparison)
    for call in collected.calls:
        names = qualified(call.func)
        if names & _BF16 and not call.args:
            facts.gates.add(call)
        if names & _SPAWNS:
            count = _launcher_count(call, collected, qualified)
            if count is not None:
                facts.launchers[call] = count
    _bf16_partners(collected, facts, qualified)
    if not moves_run:
        facts.skipped_moves = skipped  # no move to the device runs on the target by default
    facts.outcome = frozenset(outcome)
    if facts.outcome != {CPU}:
        facts.cpu_values.clear()  # a CPU device beside the accelerator is a deliberate one
        facts.opt_in_cpu.clear()
    facts.evaluator = evaluator
    return facts


def _subscript_spelling(node: cst.Subscript) -> str | None:
    """`config['force_cpu']` as the program's run names a read of a mapping's key."""
    owner = dotted(node.value)
    if owner is None or len(node.slice) != 1 or not isinstance(node.slice[0].slice, cst.Index):
        return None
    key = node.slice[0].slice.value
    if not isinstance(key, cst.SimpleString) or not isinstance(key.evaluated_value, str):
        return None
    return f"{owner}[{key.evaluated_value!r}]"


def _guards_of_move(
    call: cst.Call,
    collected: _Collector,
    evaluator: _Evaluator,
    skipped: dict[cst.BaseExpression, str],
) -> bool:
    """Whether a move to the device runs on the target, as far as the `if` tests around it
    tell: availability checks there are resolved; a test that is false on the target is kept,
    with why, in ``skipped`` (`if args.cuda: model.cuda()`, `--cuda` off by default)."""
    runs = True
    for test, wanted in collected.call_guards.get(call, ()):
        truth = evaluator.truth(test)
        if isinstance(truth, _Value):
            continue  # an unknown guard may be anything (`if verbose:`): not the device decision
        if truth is not wanted:
            runs = False
            if not (isinstance(test, cst.Name) and test.value == "False"):
                why = f"`{_code(test)}` is {truth} on the target unless it is set otherwise"
                skipped.setdefault(test, why)
    return runs


def _follows_operand(call: cst.Call, collected: _Collector) -> bool:
    """A move under a test of where another tensor lives (`if values.is_cuda: noise =
    noise.cuda()`, `is_cuda = a.is_cuda` ... `if is_cuda:`): a scratch tensor made beside an
    operand follows it, it decides no device; whether the conditions around it let it run says
    nothing about where the model and the step's inputs are (a CPU operand beside XLA tensors
    is uploaded: `xla + cpu` is an XLA tensor and its backward runs, measured on torch-xla 2.9
    XLA:CPU)."""
    for test, _ in collected.call_guards.get(call, ()):
        for node in walk(test):
            if _where_it_lives(node, collected):
                return True
            name = dotted(node) if isinstance(node, cst.Name | cst.Attribute) else None
            for binding in collected.bindings.get(name or "", ()):
                if binding.value is not None and _where_it_lives(binding.value, collected):
                    return True
    return False


def _where_it_lives(node: cst.CSTNode, collected: _Collector) -> bool:
    """`x.is_cuda`, `x.device.type`: where a tensor already lives; not an attribute the file
    assigns (`self.is_cuda = torch.cuda.is_available()` is a decision, not a tensor's place)."""
    if not isinstance(node, cst.Attribute) or dotted(node) in collected.bindings:
        return False
    if node.attr.value == "is_cuda":
        return True
    inner = node.value
    return (
        node.attr.value == "type"
        and isinstance(inner, cst.Attribute)
        and inner.attr.value == "device"
    )


def _binds_device(body: cst.BaseSuite, qualified: Qualified) -> bool:
    """``body`` binds a name or an attribute to `torch.device(...)` (`args.device =
    torch.device("cuda")`) or to a device's name (`config.device = "cpu"`, a configuration's
    fallback in a helper): a statement-form device choice, not a helper returning one."""
    for node in walk(body):
        if isinstance(node, cst.Assign) and isinstance(node.value, cst.Call):
            if qualified(node.value.func) & {"torch.device"}:
                return True
        if isinstance(node, cst.Assign) and _string(node.value) in _DEVICE_NAMES:
            return True
    return False


_DEVICE_NAMES = frozenset({"cpu", "cuda", "cuda:0", "mps"})


def _unpacked_only(bindings: Iterable[Binding]) -> bool:
    """Every binding of a name is a target of tuple unpacking (value unread, not a parameter)."""
    found = list(bindings)
    return bool(found) and all(b.value is None and b.parameter is None for b in found)


def _cpu_values(
    device: cst.BaseExpression, collected: _Collector, evaluator: _Evaluator
) -> set[cst.BaseExpression]:
    """The literal CPU values a device variable is bound to (only plain bindings)."""
    name = dotted(device)
    if name is None:
        return set()
    values = set()
    if name not in collected.bindings and "." in name:
        option = collected.options.get(_last(name))  # `--device` with default "cpu"
        if option is not None and _string(option.default) == "cpu":
            values.add(option.default)  # type: ignore[arg-type]
    for binding in collected.bindings.get(name, ()):
        if binding.value is None or binding.parameter is not None:
            continue
        value = binding.value
        flag = _flag_of(binding.guards, collected)
        if flag is not None:
            if (
                _cpu_values(value, collected, evaluator)
                or _string(value) == "cpu"
                or (
                    isinstance(value, cst.Call)
                    and _string(value.args[0].value if value.args else None) == "cpu"
                )
            ):
                evaluator.facts.opt_in_cpu[value] = flag
            continue
        if _string(value) == "cpu":
            values.add(value)
        elif isinstance(value, cst.Call) and value.args and _string(value.args[0].value) == "cpu":
            if evaluator.q(value.func) & {"torch.device"} and len(value.args) == 1:
                values.add(value)
        elif isinstance(value, cst.Name | cst.Attribute):
            values |= _cpu_values(value, collected, evaluator)
    return values


def _flag_of(
    guards: tuple[tuple[cst.BaseExpression, bool], ...], collected: _Collector
) -> str | None:
    """The command-line flag an ``if`` around a binding reads (``args.accel``), if any: in the
    test, or in what a name tested is bound to (``use_cuda = args.cuda and ...``)."""
    return next(filter(None, (_flag_in(test, collected, 2) for test, _ in guards)), None)


def _flag_in(test: cst.BaseExpression, collected: _Collector, depth: int) -> str | None:
    for node in walk(test):
        name = dotted(node) if isinstance(node, cst.Attribute) else None
        if name is not None and "." in name and _last(name) in collected.options:
            return name
    if isinstance(test, cst.Name) and depth > 0:
        for binding in collected.bindings.get(test.value, ()):
            if binding.value is not None:
                found = _flag_in(binding.value, collected, depth - 1)
                if found is not None:
                    return found
    return None


def is_index_device(node: cst.BaseExpression, qualified: Qualified) -> bool:
    """A CUDA device built from an index: ``f"cuda:{rank}"``, ``"cuda:%d" % rank``,
    ``torch.device(f"cuda:{rank}")``, ``torch.device("cuda", rank)``."""
    if isinstance(node, cst.FormattedString):
        head = node.parts[0] if node.parts else None
        return isinstance(head, cst.FormattedStringText) and head.value.startswith("cuda:")
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Modulo):
        return (_string(node.left) or "").startswith("cuda:")
    if isinstance(node, cst.Call) and qualified(node.func) & {"torch.device"} and node.args:
        first = node.args[0].value
        if len(node.args) == 2:
            keyword = node.args[1].keyword
            return is_cuda_string(first) and (keyword is None or keyword.value == "index")
        return len(node.args) == 1 and is_index_device(first, qualified)
    return False


def accelerator_index(
    node: cst.BaseExpression, kinds: Callable[[cst.BaseExpression], frozenset[str]]
) -> str | None:
    """``f"{acc}:{rank}"`` or ``f"{acc}:0"`` with ``acc`` the accelerator (pytorch/examples'
    `torch.accelerator.current_accelerator()`): "own", a process's own device; ``f"{acc}:1"``:
    "other", a second device of one process; None for anything else."""
    parts = node.parts if isinstance(node, cst.FormattedString) else ()
    if len(parts) < 2:
        return None
    head, text = parts[0], parts[1]
    if not (
        isinstance(head, cst.FormattedStringExpression)
        and isinstance(text, cst.FormattedStringText)
        and text.value.startswith(":")
    ):
        return None
    if kinds(head.expression) != {ACCELERATOR}:
        return None
    index = text.value[1:]
    if not index and len(parts) == 3 and isinstance(parts[2], cst.FormattedStringExpression):
        return "own"
    if index.isdigit() and len(parts) == 2:
        return "own" if int(index) == 0 else "other"
    return None


def _accelerator_device(node: cst.BaseExpression, evaluator: _Evaluator) -> bool:
    """``torch.device(f"{acc}:{rank}")``: the accelerator with a process's own index."""
    if not (isinstance(node, cst.Call) and len(node.args) == 1 and node.args[0].keyword is None):
        return False
    recording, evaluator.recording = evaluator.recording, False
    try:
        kinds = accelerator_index(node.args[0].value, lambda e: evaluator.value(e).kinds)
    finally:
        evaluator.recording = recording
    return kinds == "own"


def _other_gpu(index: cst.BaseExpression) -> bool:
    """A literal index other than 0: a second GPU of one process (model parallel)."""
    return isinstance(index, cst.Integer) and index.value != "0"


def _is_index(node: cst.BaseExpression, evaluator: _Evaluator) -> bool:
    """A CUDA device built from a process's index (``is_index_device``, ``torch.device(f"{acc}:
    {rank}")``): where a rank device is rewritten, once."""
    if is_index_device(node, evaluator.q):
        return True
    return (
        isinstance(node, cst.Call)
        and bool(evaluator.q(node.func) & {"torch.device"})
        and _accelerator_device(node, evaluator)
    )


@dataclass(frozen=True)
class PassedDevice:
    """What a rank device argument holds: the index-built devices (and ``device = 0``) it is
    bound to, through names and the calls of the functions whose parameter it is."""

    origins: frozenset[cst.BaseExpression]
    # The top-level functions and classes (by name) whose callers in this file were taken to be
    # all their callers: another module that calls one may pass anything.
    callers: frozenset[str]
    # A method (not `__init__`) among them: an instance made here may be handed to another
    # module, which calls it there without naming its class.
    methods: bool = False


# Decorators that call the function as its callers do.
_PLAIN_DECORATORS = frozenset(
    {"torch.no_grad", "torch.inference_mode", "torch.enable_grad", "builtins.staticmethod"}
)


class _Origins:
    """Where a rank device argument is built, when every value it can hold is built from an
    index and so is rewritten there (``rank_values``): then the argument already holds the
    target's device, and rewriting it too would be a second, unneeded edit that takes away the
    script's one switch. Followed through assignments, and through a parameter to every call of
    its function (at any depth, `mp.spawn` included), in the scope the name is read in. A
    function whose callers the file may not show (passed as a value, decorated, `forward`, a
    class built by `cls(...)`) stops the search: the argument is rewritten where it is used."""

    def __init__(self, module: cst.Module, collected: _Collector, evaluator: _Evaluator) -> None:
        self.module = module
        self.c = collected
        self.e = evaluator
        self._callees: set[int] | None = None  # ids of the names and attributes called
        self._names: dict[str, list[cst.CSTNode]] = {}  # names and attributes, by spelling
        self._direct: dict[int, bool] = {}  # function -> only called, by its name
        self.plain = False  # the device last followed may hold the CPU or the target's own
        self.methods = False  # ... and passes through a method

    def of(self, device: cst.BaseExpression, call: cst.Call) -> PassedDevice | None:
        callers: set[str] = set()
        self.plain = self.methods = False
        found = self._held(device, self.c.call_scopes.get(call, ()), callers, set(), 0)
        if found is None or not (found or self.plain):
            return None
        # (Nothing built, only the target's own device or the CPU: the use holds no index,
        # whatever another function's binding of the name, which the evaluator reads too, holds.)
        return PassedDevice(frozenset(found), frozenset(callers), self.methods)

    def _held(
        self,
        node: cst.BaseExpression,
        scopes: tuple[cst.FunctionDef | cst.Lambda, ...],
        callers: set[str],
        seen: set[tuple[str, int]],
        depth: int,
    ) -> set[cst.BaseExpression] | None:
        """The index-built devices ``node`` (read in ``scopes``) holds; None where it may hold
        something else."""
        if depth > _DEPTH:
            return None
        if _is_index(node, self.e):
            return {node}
        name = dotted(node)
        found = self._bindings(name, scopes) if name is not None else None
        if found is None:
            return None
        bindings, scope = found
        if (name, id(scope)) in seen:
            return set()  # a cycle (a function passing its parameter on to itself) adds nothing
        seen.add((name, id(scope)))  # type: ignore[arg-type]
        built: set[cst.BaseExpression] = set()
        for binding in bindings:
            value = binding.value
            if binding.parameter is not None:
                inner = self._passed(binding.parameter, callers, seen, depth)
            elif value is None:
                return None
            elif _is_index(value, self.e) or isinstance(value, cst.Integer):
                inner = {value}  # `device = 0  # cuda:0` is rewritten where it is bound too
            elif _is_cpu(value) or _string(value) in ("xla", "neuron"):
                # FSDP2's `else: device = torch.device("cpu")`, or the target's own device
                # written by an earlier run: the name holds the target's device where it is read.
                inner = set()
                self.plain = True
            else:
                chain = self.c.function_scopes.get(binding.scope, ()) if binding.scope else ()
                inner = self._held(value, chain, callers, seen, depth + 1)
            if inner is None:
                return None
            built |= inner
        return built

    def _bindings(
        self, name: str, scopes: tuple[cst.FunctionDef | cst.Lambda, ...]
    ) -> tuple[list[Binding], cst.FunctionDef | None] | None:
        """The bindings a read of ``name`` in ``scopes`` can see, and the function they are in
        (None: the module); None where one may be bound in a way the tool does not collect."""
        every = self.c.bindings.get(name)
        if not every or name in self.c.opaque:
            return None
        if "." in name or name in self.c.declared:
            return every, None  # an attribute, or a name a `global` rebinds: the whole file's
        for scope in reversed(scopes):
            if name in _parameter_names(scope.params):
                own = [b for b in every if b.scope is scope]
                if isinstance(scope, cst.Lambda) or not any(b.parameter for b in own):
                    return None  # a lambda's, keyword-only or `*args` parameter
                return own, scope  # type: ignore[return-value]
            if isinstance(scope, cst.FunctionDef):
                own = [b for b in every if b.scope is scope]
                if own:
                    return own, scope
        module = [b for b in every if b.scope is None]
        return (module, None) if module else None

    def _passed(
        self,
        parameter: tuple[cst.FunctionDef, int, str],
        callers: set[str],
        seen: set[tuple[str, int]],
        depth: int,
    ) -> set[cst.BaseExpression] | None:
        """What every call of ``parameter``'s function passes it, where those are all its
        calls."""
        function, position, name = parameter
        if not self._only_called(function):
            return None
        calls = self.e._calls_of(function)
        if not calls:
            return None
        offset = 1 if self.e._is_method(function) else 0
        built: set[cst.BaseExpression] = set()
        for call in calls:
            if any(arg.star for arg in call.args):
                return None  # `f(*args)`, `f(**config)`: which argument binds it is not known
            arg = _argument(call, position - offset, name)
            if arg is None:
                return None  # its default, or a call the tool misreads
            written = self.e.spawns.get(id(call), call)
            inner = self._held(arg, self.c.call_scopes.get(written, ()), callers, seen, depth + 1)
            if inner is None:
                return None
            built |= inner
        callers.add(self.c.tops[function])
        if offset and function.name.value != "__init__":
            self.methods = True
        return built

    def _only_called(self, function: cst.FunctionDef) -> bool:
        """Whether the file shows every call of ``function``: it is only called by its name
        (`train(...)`, `obj.method(...)`, `Class(...)` for `__init__`, `mp.spawn(train, ...)`),
        never handed on as a value, decorated, or called by PyTorch itself (`forward`)."""
        known = self._direct.get(id(function))
        if known is None:
            known = self._direct[id(function)] = self._shows_calls(function)
        return known

    def _shows_calls(self, function: cst.FunctionDef) -> bool:
        for decorator in function.decorators:
            target = decorator.decorator
            target = target.func if isinstance(target, cst.Call) else target
            if not self.e.q(target) & _PLAIN_DECORATORS:
                return False
        name = function.name.value
        owner = next((c for c in self.c.classes.values() if function in _methods(c)), None)
        if owner is None:
            return self._called_by_name(name)
        if name == "__init__":
            if any(_builds_own_class(call) for call in find(owner, cst.Call)):
                return False  # `cls(...)`, `type(self)(...)`: built where the name is not
            return self._called_by_name(owner.name.value)
        if name.startswith("__") or name == "forward":
            return False  # `model(x)` runs `forward`; `obj[i]`, `len(obj)` run dunders
        classes = set(self.c.classes)
        for node in self._spelled(name):
            if isinstance(node, cst.Name):
                return False  # `step = self.step`, `target=self.run`: handed on
            if id(node) not in self._called() or dotted(node.value) in classes:
                return False  # `Class.method(obj, ...)`: the positions shift
        return True

    def _called_by_name(self, name: str) -> bool:
        spawned = {
            id(call.args[0].value)
            for call in self.c.calls
            if self.e.q(call.func) & _SPAWNS and call.args
        }
        return all(
            id(node) in self._called() or id(node) in spawned
            for node in self._spelled(name)
            if isinstance(node, cst.Name)
        )

    def _called(self) -> set[int]:
        if self._callees is None:
            self._callees = {id(call.func) for call in self.c.calls}
            # Names that name no value: a definition's, an attribute's, a keyword's, a
            # parameter's, and those of annotations (`device: torch.device`, `-> Model`).
            words: set[int] = set()
            for node in walk(self.module):
                if isinstance(node, cst.FunctionDef | cst.ClassDef):
                    words.add(id(node.name))
                elif isinstance(node, cst.Attribute):
                    words.add(id(node.attr))
                    self._names.setdefault(node.attr.value, []).append(node)
                elif isinstance(node, cst.Arg) and node.keyword is not None:
                    words.add(id(node.keyword))
                elif isinstance(node, cst.Param):
                    words.add(id(node.name))
                elif isinstance(node, cst.Annotation):
                    words.update(id(n) for n in find(node, cst.Name))
                elif isinstance(node, cst.Name) and id(node) not in words:
                    self._names.setdefault(node.value, []).append(node)
        return self._callees

    def _spelled(self, name: str) -> list[cst.CSTNode]:
        """The names and attributes spelled ``name`` in the file."""
        self._called()
        return self._names.get(name, [])


def _builds_own_class(call: cst.Call) -> bool:
    """``cls(...)``, ``type(self)(...)``, ``self.__class__(...)``."""
    func = call.func
    if isinstance(func, cst.Name):
        return func.value == "cls"
    if isinstance(func, cst.Call):
        return isinstance(func.func, cst.Name) and func.func.value == "type"
    return isinstance(func, cst.Attribute) and func.attr.value == "__class__"


def _parameter_names(params: cst.Parameters) -> set[str]:
    every = [*params.posonly_params, *params.params, *params.kwonly_params]
    for star in (params.star_arg, params.star_kwarg):
        if isinstance(star, cst.Param):
            every.append(star)
    return {param.name.value for param in every}


def _is_cpu(node: cst.BaseExpression | None) -> bool:
    if _string(node) == "cpu":
        return True
    return (
        isinstance(node, cst.Call)
        and len(node.args) == 1
        and _string(node.args[0].value) == "cpu"
        and dotted(node.func) in ("torch.device", "device")
    )


def _launcher_count(call: cst.Call, collected: _Collector, qualified: Qualified) -> cst.Call | None:
    """The device-count call that sizes ``mp.spawn(fn, args, nprocs)`` (``nprocs`` by keyword or
    third), directly or through a name or attribute bound once (`args.ngpus_per_node`)."""
    nprocs = next((a.value for a in call.args if a.keyword and a.keyword.value == "nprocs"), None)
    positional = [a.value for a in call.args if a.keyword is None and not a.star]
    if nprocs is None and len(positional) > 2:
        nprocs = positional[2]  # spawn(fn, args=(), nprocs=1, ...), start_processes alike
    if nprocs is None:
        return None
    seen = 0
    while isinstance(nprocs, cst.Name | cst.Attribute) and seen < _DEPTH:
        seen += 1
        bindings = collected.bindings.get(dotted(nprocs) or "", [])
        values = [b.value for b in bindings if b.value is not None]
        if len(values) != 1:
            return None
        nprocs = values[0]
    for node in walk(nprocs):
        if isinstance(node, cst.Call) and qualified(node.func) & _DEVICE_COUNTS:
            return node
    return None


def _bf16_partners(collected: _Collector, facts: DeviceFacts, qualified: Qualified) -> None:
    """``torch.cuda.is_available() and torch.cuda.is_bf16_supported()`` (nanoGPT's dtype
    choice): the availability check there decides the dtype, and is True on the target."""
    for op in _and_operations(collected):
        if not isinstance(op.operator, cst.And):
            continue  # `not torch.cuda.is_available() or ...` is True on the target already
        calls = find(op, cst.Call)
        if any(qualified(c.func) & _BF16 for c in calls):
            for c in calls:
                if qualified(c.func) & _AVAILABLE and not c.args:
                    facts.gates.add(c)


def _and_operations(collected: _Collector) -> Iterable[cst.BooleanOperation]:
    for binding_list in collected.bindings.values():
        for binding in binding_list:
            if isinstance(binding.value, cst.BooleanOperation):
                yield binding.value
            elif isinstance(binding.value, cst.IfExp) and isinstance(
                binding.value.test, cst.BooleanOperation
            ):
                yield binding.value.test
    for test in collected.if_tests:
        if isinstance(test, cst.BooleanOperation):
            yield test
