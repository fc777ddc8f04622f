"""The program: the files of one run read as one program, not as modules alone (issue 22).

A helper module does the kind of training of the entry scripts that reach it: `train()` in
`utils/train_utils.py` runs the step of a model that `T5_training.py` wrapped in torch FSDP, so
its `optimizer.step()` must not become `xm.optimizer_step` (a gradient all-reduce over sharded
gradients). A device decided in one module (`torch_device` in a library's testing utilities,
`autodetect_device_type()` in a helper) is decided once, there, however many modules use it.

Built once per run, in the parent process, from each file's ``ast`` (``summarize``: plain data,
cached by content like a file's result) before any file is migrated; each file's passes then
see only their module's ``ModuleView``, which is part of that file's cache key.

What the model holds:

* entry points: modules with an ``if __name__ == "__main__":`` guard, console scripts named in
  a ``pyproject.toml``, and scripts named on launch lines (``python X.py``, ``torchrun ...
  X.py``, ``accelerate launch X.py``, ``deepspeed X.py``) in shell scripts, Makefiles and
  READMEs; test modules are never entry points (tests are not training programs; a module
  named like a test that holds none and trains when run is a program: ``analysis/testcode.py``);
* the import graph among the given files (absolute imports matched to the files by their
  dotted path, relative imports by folder; re-exports through ``__init__.py`` followed);
* for each entry point, the top-level functions and classes it reaches (a name referenced is
  reached: a call, a class built, whose methods come with it, or a callable passed on) and the
  training steps among them (a loop that calls ``backward()`` or an optimizer's ``step()``);
* the kind of training of each module: its own, with the parallelism and training framework
  of every entry point that reaches it;
* device decisions: a module-level ``*device*`` name or function that other given modules
  import, classified as the accelerator, or undecided with why.
* meter classes (``analysis/meters.py``): a class whose method takes a logged number and only
  does arithmetic with it and formats it (`AverageMeter.update`), so that a loss can be handed
  to it as a tensor (TRN126), by the name each module imports it under;
* the transformer models each module can name: classes of its own or of a module it imports
  that are ``nn.Module``s named BERT/GPT/Transformer/... whose classes reach attention
  (``transformer_classes``), for the compiler's ``--model-type=transformer``.
"""

from __future__ import annotations

import ast
import re
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace

from trncodemod.analysis.device_parameters import Parameter, Resolved, device_parameters, resolve
from trncodemod.analysis.distributions import SWITCH, turns_validation_off
from trncodemod.analysis.drawn_offsets import (
    DrawnSlice,
    drawing_functions,
    import_resolver,
    module_drawn_slices,
)
from trncodemod.analysis.flag_fields import (
    HANDED_ON,
    FlagField,
    FlagRead,
    flag_fields,
    flag_reads,
)
from trncodemod.analysis.meters import Meter, module_meters
from trncodemod.analysis.off_device_scan import off_device_uses
from trncodemod.analysis.offset_slices_scan import offset_calls, slicing_functions
from trncodemod.analysis.reach import Flow, chain_of, spelled
from trncodemod.analysis.scopes import Scope, class_bases, scopes_of
from trncodemod.analysis.shape_params import module_shape_parameters
from trncodemod.analysis.testcode import holds_tests, is_test_module
from trncodemod.analysis.training import (
    ACCELERATE,
    HAND_REDUCED,
    HF_TRAINER,
    LIGHTNING,
    TrainingProfile,
    dotted,
    import_specs,
    is_main_guard,
    profile_of,
)
from trncodemod.analysis.transformer_classes import transformer_classes
from trncodemod.analysis.weight_ties import module_ties

# What a module's kind of training takes from the entry points that reach it: the parallelism,
# and a framework that owns the loop. (Launchers such as torchrun stay per file: a library
# module is launched by nobody.)
_FRAMEWORKS = (ACCELERATE, LIGHTNING, HF_TRAINER)
_AVAILABILITY = ("cuda.is_available", "accelerator.is_available")
_ACCELERATOR_STRING = re.compile(r"(cuda(:\d+)?|xla|neuron)")
_ACCELERATOR_CALLS = ("xla_device", "torch_xla.device", "current_accelerator")
_LOADS = frozenset({"torch.load", "torch.serialization.load"})
MODULE = ""  # the name of a module's own top level, as a node of the reach graph
StepRead = tuple[int, int, str, str, tuple[str, ...], str]


# -- one module, from its ast: plain data (JSON), cached by content ------------------------------
@dataclass(frozen=True)
class Decision:
    """A module-level device name or function: what it is on the target, where it is decided."""

    name: str
    line: int
    column: int
    accelerator: bool  # the accelerator on the target (after this tool's own fix there)
    why: str  # why it is not, when it is not

    def to_json(self) -> list:
        return [self.name, self.line, self.column, self.accelerator, self.why]


@dataclass(frozen=True)
class Definition:
    """A top-level function or class: the names its body references (dotted where they start
    at an imported name), its training-step loops and what they reference, its host reads."""

    references: tuple[str, ...]
    steps: tuple[int, ...]  # the lines of its step loops
    step_references: tuple[str, ...]

    def to_json(self) -> list:
        return [
            list(self.references),
            list(self.steps),
            list(self.step_references),
        ]

    @classmethod
    def from_json(cls, data: list) -> Definition:
        references, steps, step_references = data
        return cls(tuple(references), tuple(steps), tuple(step_references))


@dataclass(frozen=True)
class ModuleSummary:
    """What the program model needs of one module."""

    main_guard: bool
    trains: bool
    parallelism: tuple[str, ...]
    frameworks: tuple[str, ...]
    # Local name -> what an import binds it to: "a.b" (a module, `import a.b as n`), or
    # "[.]*a.b:c" (`from a.b import c`, the dots of a relative import kept).
    imports: Mapping[str, str]
    star_imports: tuple[str, ...]  # "[.]*a.b" of each `from a.b import *`
    definitions: Mapping[str, Definition]  # each top-level function and class
    top_references: tuple[str, ...]  # what the module's own top level references
    decisions: tuple[Decision, ...]
    # Imported names that may be devices (`*device*`) -> the lines and columns they are used at.
    device_uses: Mapping[str, tuple[tuple[int, int], ...]]
    # Something in the module may place values on a device: `.to(...)`, `.cuda()`, a `device=`
    # argument, torch_xla, a framework that moves the model (`accelerator.prepare`).
    moves: bool = False
    # Classes whose `__init__` ties weights -> the ties (``weight_ties``: "a.weight=b.weight",
    # "a.weight=b.weight if tied" with "def self, tied=False" for one under a test of its
    # parameters, "?" under another condition, "hf" for a tying PreTrainedModel subclass).
    ties: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # The module's own transformer models -> why (``transformer_classes``: an nn.Module named
    # BERT/GPT/Transformer/... whose classes reach attention).
    transformers: Mapping[str, str] = field(default_factory=dict)
    # Each function's, method's and the top level's scope, for following values across
    # modules (``analysis.reach``), and each class's bases.
    scopes: Mapping[str, Scope] = field(default_factory=dict)
    bases: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # Device names bound from an imported device name (`device_type = autodetect_device_type()`,
    # `*_, device = compute_init(device_type)`) -> (the imported name, line, column): the
    # device they hold is decided where that one is.
    derived_devices: Mapping[str, tuple[str, int, int]] = field(default_factory=dict)
    # Classes a loss may be handed to as a tensor -> (the methods that take it, the attributes
    # that hold it) (``meters.class_meter``: `AverageMeter.update`).
    meters: Mapping[str, Meter] = field(default_factory=dict)
    # Work the XLA device cannot hold (``off_device_scan``): (line, what).
    off_device: tuple[tuple[int, str], ...] = ()
    # Top-level functions that load with `torch.load(..., map_location=<a parameter>)`:
    # name -> (the parameter's position, its name, the load's line) (``_parameter_loads``).
    loads: Mapping[str, tuple[int, str, int]] = field(default_factory=dict)
    # Top-level functions that slice a parameter at another's offset (``get_batch(source,
    # i)``): name -> (the source's position, the offset's position, the line)
    # (``offset_slices.slicing_functions``); and the calls a `range` loop makes with its offset:
    # (name, position, line) (``offset_slices.offset_calls``).
    slicers: Mapping[str, tuple[int, int, int]] = field(default_factory=dict)
    offset_calls: tuple[tuple[str, int, int], ...] = ()
    # Functions, classes and methods (``Class.method``) -> their parameters read only as a
    # device, and those on whose device every tensor they return is made, each with the calls
    # of the program it relies on (``device_parameters``).
    device_parameters: Mapping[str, tuple[Parameter, ...]] = field(default_factory=dict)
    device_returns: Mapping[str, tuple[Parameter, ...]] = field(default_factory=dict)
    # The module holds tests (``testcode.holds_tests``: pytest test functions or classes, an
    # import of pytest or unittest): named like a test, it is test code even where it trains.
    tests: bool = False
    # Top-level functions whose parameters decide the length of a slice or a size argument
    # (``shape_params``: `get_batch(source, i, args, seq_len=None)` slices to `seq_len`):
    # name -> (the parameter's position, -1 for a keyword-only one, its name, the line).
    shape_params: Mapping[str, tuple[tuple[int, str, int], ...]] = field(default_factory=dict)
    # Top-level functions that set a flag from an availability check on the name they return
    # (`args.cuda = ... torch.cuda.is_available()` in `get_args()`), and the reads of the fields
    # of names bound to an imported call's result (``flag_fields``).
    flag_fields: Mapping[str, tuple[FlagField, ...]] = field(default_factory=dict)
    flag_reads: Mapping[str, tuple[FlagRead, ...]] = field(default_factory=dict)
    # Top-level functions that slice a parameter at an offset drawn on the host, in the function
    # or handed in (``drawn_offsets``: a random crop, `x[:, :, top:top + p]`).
    drawn_slices: Mapping[str, tuple[DrawnSlice, ...]] = field(default_factory=dict)
    # Top-level functions that return a number drawn on the host (``drawing_functions``: a
    # CutMix `rand_bbox` returning `np.random.randint` bounds): name -> the draw as written.
    drawing: Mapping[str, str] = field(default_factory=dict)
    # The module turns `torch.distributions` argument validation off for the whole process
    # (``distributions.turns_validation_off``).
    distribution_checks_off: bool = False

    def to_json(self) -> dict:
        return {
            "main_guard": self.main_guard,
            "trains": self.trains,
            "parallelism": list(self.parallelism),
            "frameworks": list(self.frameworks),
            "imports": dict(self.imports),
            "star_imports": list(self.star_imports),
            "definitions": {k: d.to_json() for k, d in self.definitions.items()},
            "top_references": list(self.top_references),
            "decisions": [d.to_json() for d in self.decisions],
            "device_uses": {k: [list(u) for u in v] for k, v in self.device_uses.items()},
            "moves": self.moves,
            "ties": {k: list(v) for k, v in self.ties.items()},
            "transformers": dict(self.transformers),
            "scopes": {k: v.to_json() for k, v in self.scopes.items()},
            "bases": {k: list(v) for k, v in self.bases.items()},
            "derived_devices": {k: list(v) for k, v in self.derived_devices.items()},
            "meters": {k: [list(m), list(a)] for k, (m, a) in self.meters.items()},
            "off_device": [list(u) for u in self.off_device],
            "loads": {k: list(v) for k, v in self.loads.items()},
            "slicers": {k: list(v) for k, v in self.slicers.items()},
            "offset_calls": [list(c) for c in self.offset_calls],
            "device_parameters": dict(self.device_parameters),
            "device_returns": dict(self.device_returns),
            "tests": self.tests,
            "shape_params": {k: [list(p) for p in v] for k, v in self.shape_params.items()},
            "flag_fields": {k: [list(f) for f in v] for k, v in self.flag_fields.items()},
            "flag_reads": {k: [list(r) for r in v] for k, v in self.flag_reads.items()},
            "drawn_slices": {k: [list(p) for p in v] for k, v in self.drawn_slices.items()},
            "drawing": dict(self.drawing),
            "distribution_checks_off": self.distribution_checks_off,
        }

    @classmethod
    def from_json(cls, data: dict) -> ModuleSummary:
        return cls(
            main_guard=data["main_guard"],
            trains=data["trains"],
            parallelism=tuple(data["parallelism"]),
            frameworks=tuple(data["frameworks"]),
            imports=data["imports"],
            star_imports=tuple(data["star_imports"]),
            definitions={k: Definition.from_json(d) for k, d in data["definitions"].items()},
            top_references=tuple(data["top_references"]),
            decisions=tuple(Decision(*d) for d in data["decisions"]),
            device_uses={k: tuple(tuple(u) for u in v) for k, v in data["device_uses"].items()},
            moves=data["moves"],
            ties={k: tuple(v) for k, v in data["ties"].items()},
            transformers=data["transformers"],
            scopes={k: Scope.from_json(v) for k, v in data["scopes"].items()},
            bases={k: tuple(v) for k, v in data["bases"].items()},
            derived_devices={k: tuple(v) for k, v in data["derived_devices"].items()},
            meters={k: (tuple(m), tuple(a)) for k, (m, a) in data["meters"].items()},
            off_device=tuple(tuple(u) for u in data.get("off_device", ())),  # type: ignore[misc]
            loads={k: tuple(v) for k, v in data.get("loads", {}).items()},
            slicers={k: tuple(v) for k, v in data.get("slicers", {}).items()},
            offset_calls=tuple(tuple(c) for c in data.get("offset_calls", ())),
            device_parameters=_parameters_from_json(data["device_parameters"]),
            device_returns=_parameters_from_json(data["device_returns"]),
            # No default: a summary from before is recomputed (a trainer named like a test
            # would otherwise be read as holding none, or every test module as a program).
            tests=data["tests"],
            # No default either: a summary from before would hide every helper's shapes.
            shape_params={
                k: tuple(tuple(p) for p in v)  # type: ignore[misc]
                for k, v in data["shape_params"].items()
            },
            # No default: a summary from before would hide every helper's flags.
            flag_fields={k: tuple(tuple(f) for f in v) for k, v in data["flag_fields"].items()},  # type: ignore[misc]
            flag_reads={k: tuple(tuple(r) for r in v) for k, v in data["flag_reads"].items()},  # type: ignore[misc]
            drawn_slices={
                k: tuple(DrawnSlice(*p) for p in v) for k, v in data["drawn_slices"].items()
            },
            # No default: a summary from before would hide every helper's draws.
            drawing=data["drawing"],
            # No default: a summary from before would hide a module's switch.
            distribution_checks_off=data["distribution_checks_off"],
        )


def _parameters_from_json(data: dict) -> dict[str, tuple[Parameter, ...]]:
    return {
        key: tuple(
            (name, index, tuple(tuple(f) for f in forwards)) for name, index, forwards in found
        )
        for key, found in data.items()
    }


def summarize(text: str) -> ModuleSummary | None:
    """The summary of a module's source; None when Python cannot parse it."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    profile = profile_of(tree, text, loaders=False)
    imports, stars = import_specs(tree)
    definitions: dict[str, Definition] = {}
    top: list[ast.AST] = []
    for statement in tree.body:
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            loops = _step_loops(statement)
            definitions[statement.name] = Definition(
                _references(statement, imports),
                tuple(loop.lineno for loop in loops),
                tuple(sorted({r for loop in loops for r in _references(loop, imports)})),
            )
        else:
            top.append(statement)
    wrapper = ast.Module(body=top, type_ignores=[])  # type: ignore[arg-type]
    loops = _step_loops(wrapper)
    if loops:  # a script's own top-level step
        definitions[MODULE] = Definition(
            (),
            tuple(loop.lineno for loop in loops),
            tuple(sorted({r for loop in loops for r in _references(loop, imports)})),
        )
    device_imports = {name for name in imports if "device" in name.lower()}
    parameters, returns = device_parameters(tree, lambda reference: _full_name(reference, imports))
    uses: dict[str, list[tuple[int, int]]] = {}
    if device_imports:
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and node.id in device_imports:
                if isinstance(node.ctx, ast.Load):
                    uses.setdefault(node.id, []).append((node.lineno, node.col_offset + 1))
    return ModuleSummary(
        main_guard=any(is_main_guard(s) for s in tree.body),
        trains=profile.trains,
        parallelism=profile.parallelism,
        frameworks=tuple(k for k in profile.launchers if k in _FRAMEWORKS),
        imports=imports,
        star_imports=tuple(stars),
        definitions=definitions,
        top_references=_references(wrapper, imports),
        decisions=tuple(_decisions(tree)),
        device_uses={k: tuple(v) for k, v in uses.items()},
        moves=may_move(tree, imports),
        ties=module_ties(tree),
        transformers=transformer_classes(tree, imports),
        scopes=scopes_of(tree, imports),
        bases=class_bases(tree),
        derived_devices=_derived_devices(tree, device_imports) if device_imports else {},
        meters=module_meters(tree),
        off_device=off_device_uses(tree, lambda reference: _full_name(reference, imports), text),
        loads=_parameter_loads(tree),
        slicers=slicing_functions(tree),
        offset_calls=offset_calls(tree),
        device_parameters=parameters,
        device_returns=returns,
        tests=holds_tests(tree, imports),
        shape_params=module_shape_parameters(tree),
        flag_fields=flag_fields(tree) if "is_available" in text else {},
        flag_reads=flag_reads(tree, imports),
        drawn_slices=module_drawn_slices(tree, import_resolver(imports), text),
        drawing=drawing_functions(tree, import_resolver(imports)) if "rand" in text else {},
        distribution_checks_off=SWITCH in text
        and turns_validation_off(tree, lambda reference: _full_name(reference, imports)),
    )


def device_tables_alone(text: str) -> ModuleView:
    """For a module read alone (no program: ``LONE``), the view's device tables of its own
    functions and classes (``ModuleView.device_parameters``/``device_returns``), followed
    within the module."""
    summary = summarize(text)
    if summary is None:
        return LONE

    def own(path: str, key: str, callee: str) -> tuple[str, str]:
        return (path, callee)

    tables = [
        resolve({"": summary.device_parameters}, own),
        resolve({"": summary.device_returns}, own),
    ]
    parameters, returns = (
        {
            key: tuple((name, index) for name, index, _ in found)
            for (_, key), found in sorted(table.items())
            if "." not in key
        }
        for table in tables
    )
    return ModuleView("library", device_parameters=parameters, device_returns=returns)


def _parameter_loads(tree: ast.Module) -> dict[str, tuple[int, str, int]]:
    """Top-level functions whose ``torch.load`` restores onto a device a parameter names
    (hifi-gan's `load_checkpoint(filepath, device)`): a caller that passes the XLA device
    makes the load raise."""
    found: dict[str, tuple[int, str, int]] = {}
    for function in tree.body:
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        names = [a.arg for a in (*function.args.posonlyargs, *function.args.args)]
        for node in ast.walk(function):
            if not (isinstance(node, ast.Call) and dotted(node.func) in _LOADS):
                continue
            for keyword in node.keywords:
                value = keyword.value
                if keyword.arg == "map_location" and isinstance(value, ast.Name):
                    if value.id in names:
                        found[function.name] = (names.index(value.id), value.id, node.lineno)
    return found


def _derived_devices(tree: ast.Module, imported: set[str]) -> dict[str, tuple[str, int, int]]:
    """Device names bound from an imported device name: the name itself, a call of it or a
    call that passes it (`compute_init(device_type)`, `torch.device(device_type)`), a choice
    between it and a value the tool cannot read (`f() if args.x == "" else args.x`; not a
    choice of a literal device, which decides here), a name unpacked from such a call."""
    assignments = [node for node in ast.walk(tree) if isinstance(node, ast.Assign) and node.targets]
    found: dict[str, tuple[str, int, int]] = {}
    changed = True
    while changed:
        changed = False
        for node in assignments:
            source = _derives_from(node.value, imported, found)
            if source is None:
                continue
            for target in node.targets:
                names = target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]
                for name in names:
                    if isinstance(name, ast.Name) and name.id not in imported | found.keys():
                        if _names_device(name.id):
                            found[name.id] = (source, node.lineno, node.col_offset + 1)
                            changed = True
    return found


def _derives_from(
    value: ast.AST, imported: set[str], derived: Mapping[str, tuple[str, int, int]]
) -> str | None:
    """The imported device name ``value`` derives from, if any."""
    if isinstance(value, ast.Name):
        if value.id in imported:
            return value.id
        return derived[value.id][0] if value.id in derived else None
    if isinstance(value, ast.Call):
        for part in (value.func, *value.args, *(k.value for k in value.keywords)):
            if isinstance(part, ast.Name):
                found = _derives_from(part, imported, derived)
                if found is not None:
                    return found
        return None
    if isinstance(value, ast.IfExp):
        sides = [value.body, value.orelse]
        if any(isinstance(side, ast.Constant) for side in sides):
            return None  # `f() if x else "cpu"`: a device chosen here
        for side in sides:
            found = _derives_from(side, imported, derived)
            if found is not None:
                return found
    return None


# Calls and keywords that place values on a device, or hand the model to code that does.
_MOVE_METHODS = frozenset({"to", "cuda", "prepare", "initialize", "xla_device", "device"})
_MOVE_MODULES = ("torch_xla", "deepspeed", "accelerate", "lightning", "pytorch_lightning")


def _identifier(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    return node.attr if isinstance(node, ast.Attribute) else ""


def may_move(tree: ast.AST, imports: Mapping[str, str]) -> bool:
    """Whether anything in ``tree`` may place values on a device (a step with none trains on
    the CPU): `.to(...)`, `.cuda()`, `device=`, `torch.device(...)`, a `*device*` name, an
    import of torch_xla or of a framework that moves the model itself."""
    for binding in imports.values():
        if binding.lstrip(".").startswith(_MOVE_MODULES):
            return True
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr in _MOVE_METHODS:
                return True
            if any(k.arg and "device" in k.arg for k in node.keywords):
                return True
        elif "device" in _identifier(node).lower():
            return True
    return False


def _references(node: ast.AST, imports: Mapping[str, str]) -> tuple[str, ...]:
    """The names ``node`` reads: plain names, and ``m.f``/``m.sub.f`` where ``m`` is imported."""
    found: set[str] = set()
    for child in ast.walk(node):
        if isinstance(child, ast.Name):
            found.add(child.id)
        elif isinstance(child, ast.Attribute):
            text = dotted(child)
            if text is not None and text.split(".", 1)[0] in imports:
                found.add(text)
    return tuple(sorted(found))


def _step_loops(node: ast.AST) -> list[ast.For | ast.AsyncFor | ast.While]:
    """The loops in ``node`` that call ``backward()`` or an optimizer's step."""
    loops = []
    for child in ast.walk(node):
        if isinstance(child, (ast.For, ast.AsyncFor, ast.While)):
            for inner in ast.walk(child):
                if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute):
                    attr = inner.func.attr
                    receiver = (dotted(inner.func.value) or "").lower()
                    if attr == "backward" or (attr == "step" and "optim" in receiver):
                        loops.append(child)
                        break
    return sorted(loops, key=lambda loop: loop.lineno)


def _decisions(tree: ast.Module) -> Iterable[Decision]:
    """Module-level ``*device*`` names and functions, and what each is on the target."""
    for statement in tree.body:
        if isinstance(statement, (ast.Assign, ast.AnnAssign)) and statement.value is not None:
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            for target in targets:
                if isinstance(target, ast.Name) and _names_device(target.id):
                    why = _why_not_accelerator(statement.value)
                    yield Decision(
                        target.id,
                        statement.value.lineno,
                        statement.value.col_offset + 1,
                        why is None,
                        why or "",
                    )
        elif isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if _names_device(statement.name):
                yield _function_decision(statement)


# Words beside "device" that make a name something else: a count, an index, a name, a list.
_NOT_A_DEVICE = frozenset({"count", "num", "ids", "id", "index", "idx", "name", "names", "props"})
_NOT_A_DEVICE |= {"properties", "memory", "mem", "map", "capability", "list"}


def _names_device(name: str) -> bool:
    """Whether a name says it holds a device (`device`, `select_device`, `autodetect_device_type`),
    not a count or a list of them (`parse_devices`, `device_count`, `num_devices`)."""
    words = [w for w in re.split(r"_+|(?<=[a-z])(?=[A-Z])", name.lower()) if w]
    return "device" in words and _NOT_A_DEVICE.isdisjoint(words)


def _why_not_accelerator(value: ast.expr) -> str | None:
    """None where ``value`` is the accelerator on the target, after this tool's own rewrites
    (a "cuda" string; `"cuda" if torch.cuda.is_available() else "cpu"`, TRN003), else why not."""
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        if _ACCELERATOR_STRING.fullmatch(value.value):
            return None
        return f'it is "{value.value}"'
    if isinstance(value, ast.IfExp) and _is_availability(value.test):
        body = _why_not_accelerator(value.body)
        return None if body is None else body
    if isinstance(value, ast.Call):
        name = dotted(value.func) or ""
        if name.endswith(_ACCELERATOR_CALLS):
            return None
        if name.endswith("device") and len(value.args) == 1:
            return _why_not_accelerator(value.args[0])
    return f"`{ast.unparse(value)}` is a value the tool cannot read"


def _is_availability(node: ast.AST) -> bool:
    return any(
        isinstance(n, ast.Call) and (dotted(n.func) or "").endswith(_AVAILABILITY)
        for n in ast.walk(node)
    )


def _function_decision(function: ast.FunctionDef | ast.AsyncFunctionDef) -> Decision:
    """A device function: the accelerator when every ``return`` gives it; the availability test
    it takes its way by, else, is the decision (False on Trainium: torch_xla has no CUDA)."""
    returns = [n.value for n in ast.walk(function) if isinstance(n, ast.Return) and n.value]
    reasons = [f"`{ast.unparse(v)}`" for v in returns if _why_not_accelerator(v) is not None]
    test = next(
        (n.test for n in ast.walk(function) if isinstance(n, ast.If) and _is_availability(n.test)),
        None,
    )
    if returns and not reasons:
        return Decision(function.name, function.lineno, function.col_offset + 1, True, "")
    anchor: ast.AST = test if test is not None else function
    if test is not None:
        why = (
            f"`{ast.unparse(test)}` is False on Trainium, so `{function.name}()` returns "
            f"{' or '.join(reasons) or 'another device'}"
        )
    else:
        why = f"`{function.name}()` returns {' or '.join(reasons) or 'no device'}"
    return Decision(function.name, anchor.lineno, anchor.col_offset + 1, False, why)


# -- the program ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class ModuleView:
    """What one module's passes are told about the program; part of the file's cache key."""

    role: str  # "entry", "library" or "test"
    entry_points: tuple[str, ...] = ()  # the entry scripts that reach the module
    parallelism: tuple[str, ...] = ()  # of the module and the entry points that reach it
    frameworks: tuple[str, ...] = ()
    # Imported names that are devices decided in another given module -> (path, line, whether
    # the accelerator): the use is not where the device is decided.
    imported_devices: Mapping[str, tuple[str, int, bool]] = field(default_factory=dict)
    # Decisions of this module that a module which trains uses: name -> (line, column, why,
    # the uses as "path:line:column").
    decisions: Mapping[str, tuple[int, int, str, tuple[str, ...]]] = field(default_factory=dict)
    # The training steps the module's functions hold, each with the entry point's chain of
    # calls to it ("T5_training.py → train_utils.py:train").
    steps: tuple[str, ...] = ()
    # Host reads in this module's functions that a training step in another function reaches,
    # each with the chain of calls from the step: (line, column, "item" | "cpu" | ..., chain,
    # the host library call that follows it in the function, if any, the test of the `if` it
    # runs under, if any).
    step_reads: tuple[StepRead, ...] = ()
    # Where a collate function of a loader a step iterates takes the batch's size as the
    # largest of its items' shapes: (line, column, chain).
    step_shapes: tuple[tuple[int, int, str], ...] = ()
    # The `collate_fn=` arguments of this module's loaders, as spelled here
    # ("mydatasets.collate_fn"), whose function pads each batch to its own largest item
    # (where ``step_shapes`` of that function's module points): a loader that a step iterates.
    padded_collates: tuple[str, ...] = ()
    # This module's functions and methods that a training step in another function runs every
    # step ("mel_spectrogram", "Loss.forward"), each with the chain of calls from the step.
    step_functions: tuple[tuple[str, str], ...] = ()
    # This module's functions and methods that step an optimizer once, outside any loop of
    # their own, and that every call in the program runs once per iteration of a loop which
    # cuts no graph (``_called_steps``: `agent.update(rollouts)` in `for j in range(n):`), each
    # with "path:line" of such a loop: the loop's step, to cut after the optimizer step.
    called_steps: tuple[tuple[str, str], ...] = ()
    # This module's loops whose step is such a function of the program, each as (its line, the
    # name the loop calls it by: "train_step"): the cut is in the function, so the step-marker
    # pass does not cut the loop as well.
    stepped_loops: tuple[tuple[int, str], ...] = ()
    # Another module of the program may place values on a device (`ModuleSummary.moves`).
    moves_elsewhere: bool = False
    # Where the module is an entry point: another module that its own run (`python module.py`)
    # reaches may place values on a device (True where it is no entry point: not known).
    own_run_moves: bool = True
    # An entry point whose training step is in another module (`mp.Process(target=train)`,
    # `train_one_epoch(...)` imported): its device decides where that step trains.
    steps_elsewhere: bool = False
    # Imported names that are classes of another given module which tie weights -> their ties
    # (``ModuleSummary.ties``).
    imported_ties: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # Imported names that are functions of another given module which wrap the model in torch
    # DDP (yolov5's `smart_DDP`): a call of one makes the model DDP here.
    imported_ddp: tuple[str, ...] = ()
    # Imported names that are meter classes of another given module -> their meter
    # (``ModuleSummary.meters``).
    imported_meters: Mapping[str, Meter] = field(default_factory=dict)
    # Transformer model classes of this or another given module, as spelled here
    # (`BertForPreTraining`, `modeling.BertForPreTraining`) -> "path: why"
    # (``ModuleSummary.transformers``).
    transformers: Mapping[str, str] = field(default_factory=dict)
    # Another given module imports this one: a library, whatever its `__main__` block holds.
    imported: bool = False
    # The launch lines that run the module, each with its file ("README.md: python main.py").
    launch_lines: tuple[str, ...] = ()
    # A launch line runs the module, or an entry point that reaches it, with
    # `python -m torch.distributed.launch` (which passes `--local-rank=<rank>` from torch 2.0).
    torch_launched: bool = False
    # Where every entry point that reaches the module stops on the XLA device ("path:line:
    # what", ``ModuleSummary.off_device``): ported, the program would stop there.
    off_device: tuple[str, ...] = ()
    # Imported functions of another given module that load with `map_location=<a parameter>`:
    # local name -> (the parameter's position, its name, "path:line" of the load).
    imported_loads: Mapping[str, tuple[int, str, str]] = field(default_factory=dict)
    # Names this module calls in a `range` loop with the loop's offset that are functions of
    # another given module slicing a parameter at it: local name -> (the source's position,
    # the offset's position, "path:line" of the slice) (``ModuleSummary.slicers``).
    imported_slicers: Mapping[str, tuple[int, int, str]] = field(default_factory=dict)
    # This module's slicing functions that another given module's `range` loop calls with its
    # offset: name -> "path:line" of the first such call.
    stepped_slicers: Mapping[str, str] = field(default_factory=dict)
    # Names a `from m import *` of a given module binds to a library module or object that
    # module imports (`torch` -> "torch" from a `utils.py` that does `import torch`): what the
    # module's own imports cannot say (``_Resolver.star_modules``).
    star_modules: Mapping[str, str] = field(default_factory=dict)
    # Functions and classes of the program as spelled here (`train`, `AdaptiveAugment`,
    # `ops.normal`) -> their parameters (name, position) that every function receiving the value
    # reads only as a device, at any depth (``device_parameters``) ...
    device_parameters: Mapping[str, tuple[tuple[str, int], ...]] = field(default_factory=dict)
    # ... and those on whose device every tensor they return is made (`mixing_noise(...,
    # device)`).
    device_returns: Mapping[str, tuple[tuple[str, int], ...]] = field(default_factory=dict)
    # Entry points reach the module and none of them trains (inference or evaluation scripts),
    # nor does any module that trains reach it (``_untrained``): its model is never trained.
    untrained: bool = False
    # Imported functions of another given module whose parameters decide a shape there: local
    # name -> ((the parameter's position, its name, "path:line" of the shape), ...)
    # (``ModuleSummary.shape_params``).
    imported_shape_params: Mapping[str, tuple[tuple[int, str, str], ...]] = field(
        default_factory=dict
    )
    # Calls in this module of functions that read a parameter element by element on the host
    # (``Scope.element_reads``), by how the call spells the callee ("converter.decode") ->
    # (the argument's position in the call, the parameter, "path:line" of the read, the
    # function's qualname, the read as written), ``_element_calls``.
    element_calls: Mapping[str, tuple[tuple[int, str, str, str, str], ...]] = field(
        default_factory=dict
    )
    # Availability checks of this module that set a flag on what a function returns, read in
    # other modules (``flag_fields``): line -> (why the check stays as it is, "" where every
    # read only chooses a device and it is dropped; the reads as "path:line").
    flag_checks: Mapping[int, tuple[str, tuple[str, ...]]] = field(default_factory=dict)
    # Flags this module reads that a function of another module sets from an availability
    # check: the read as spelled ("args.cuda") -> (whether the check is dropped there, so the
    # flag is true on the target; "path:line" of the check).
    imported_flags: Mapping[str, tuple[bool, str]] = field(default_factory=dict)
    # Flags this module reads that the launch decides, as the program's run reads them: the
    # read as spelled ("opt.no_cuda") -> its value (``evaluate.launch_decisions``).
    launch_flags: Mapping[str, bool | None] = field(default_factory=dict)
    # The `if` tests of this module (as written) whose availability check is why a model the
    # program's run calls stays on the CPU (``evaluate.launch_decisions``).
    deciding_checks: frozenset[str] = frozenset()
    # The lines of this module binding a CUDA device's name (`_C.DEVICE = "cuda"`) that the
    # program's run shows put a model or its batch on CUDA (``evaluate.launch_decisions``).
    device_literals: frozenset[int] = frozenset()
    # (line of an optimizer's construction, line of the later statement moving the model it
    # took the parameters of on the CPU), as the program's run shows them
    # (``evaluate.launch_decisions``): the optimizer goes below the move (TRN053).
    stale_optimizers: frozenset[tuple[int, int]] = frozenset()
    # "path:line" of each `torch.save` the program's run shows pickling the parsed options
    # (an argparse.Namespace) into a checkpoint (``evaluate.launch_decisions``).
    options_saved: tuple[str, ...] = ()
    # The lines of this module's `torch.manual_seed` calls that a run of the program which
    # trains makes (a seeding helper called by the training script): the training process's
    # seed, which the XLA RNG needs too (``evaluate.launch_decisions``).
    training_seeds: frozenset[int] = frozenset()
    # This module's top-level functions and classes that another given module names (calls,
    # imports, hands on): their callers are not all in this module (``_named_elsewhere``).
    named_elsewhere: tuple[str, ...] = ()
    # Imported functions of another given module that slice a parameter at an offset drawn on
    # the host: local name -> (the module's path, ``ModuleSummary.drawn_slices`` of it).
    imported_drawn_slices: Mapping[str, tuple[str, tuple[DrawnSlice, ...]]] = field(
        default_factory=dict
    )
    # Imported functions of another given module that return a number drawn on the host:
    # local name -> the draw as written (``ModuleSummary.drawing``).
    imported_drawing: Mapping[str, str] = field(default_factory=dict)
    # The module, or one an entry point that reaches it also runs, turns `torch.distributions`
    # argument validation off for the process (``ModuleSummary.distribution_checks_off``).
    distribution_checks_off: bool = False
    # Importing a package the repository publishes loads the module ("`x_transformers`
    # (published by pyproject.toml)", ``pipeline.program._published``): its users run it on
    # CPUs and GPUs, so its rewrites are reported, not applied.
    published: str = ""

    @property
    def is_test(self) -> bool:
        return self.role == "test"

    @property
    def locates_lines(self) -> bool:
        """Whether the view names places in the module (reported by its passes)."""
        return bool(
            self.step_reads
            or self.step_shapes
            or self.step_functions
            or self.decisions
            or self.stepped_loops
        )

    def kind_of(self, profile: TrainingProfile) -> TrainingProfile:
        """The module's own profile with the program's kind of training added: the
        parallelism and the loop-owning framework of the entry points that reach it."""
        parallelism = tuple(sorted({*profile.parallelism, *self.parallelism}))
        launchers = tuple(sorted({*profile.launchers, *self.frameworks}))
        if parallelism == profile.parallelism and launchers == profile.launchers:
            return profile
        return replace(profile, parallelism=parallelism, launchers=launchers)

    def fingerprint(self) -> str:
        """What the passes read of the view, for the file's cache key: not the paths of the
        entry points or steps (copies of one file at other paths share their results)."""
        if self == LONE:
            return ""
        return repr(
            (
                self.is_test,
                self.parallelism,
                self.frameworks,
                sorted((name, value[2]) for name, value in self.imported_devices.items()),
                sorted(self.decisions.items()),
                self.step_reads,
                self.step_shapes,
                self.padded_collates,
                self.step_functions,
                self.called_steps,
                self.stepped_loops,
                self.moves_elsewhere,
                self.own_run_moves,
                self.steps_elsewhere,
                sorted(self.imported_ties.items()),
                self.imported_ddp,
                sorted(self.imported_meters.items()),
                sorted(self.transformers.items()),
                self.imported,
                self.launch_lines,
                self.off_device,
                sorted(self.star_modules.items()),
                sorted(self.imported_loads.items()),
                sorted(self.imported_slicers.items()),
                sorted(self.stepped_slicers.items()),
                sorted(self.device_parameters.items()),
                sorted(self.device_returns.items()),
                self.untrained,
                sorted(self.imported_shape_params.items()),
                sorted(self.element_calls.items()),
                sorted(self.flag_checks.items()),
                sorted(self.imported_flags.items()),
                sorted(self.launch_flags.items()),
                sorted(self.deciding_checks),
                sorted(self.stale_optimizers),
                sorted(self.device_literals),
                self.options_saved,
                sorted(self.training_seeds),
                self.named_elsewhere,
                sorted(self.imported_drawn_slices.items()),
                sorted(self.imported_drawing.items()),
                self.distribution_checks_off,
                self.published,
            )
        )


LONE = ModuleView("library")  # a module read alone


@dataclass
class Program:
    summaries: Mapping[str, ModuleSummary]
    entry_points: dict[str, tuple[str, ...]] = field(default_factory=dict)  # path -> names
    imports: dict[str, set[str]] = field(default_factory=dict)  # path -> given modules it imports
    reached: dict[str, dict[tuple[str, str], tuple[str, str] | None]] = field(default_factory=dict)
    views: dict[str, ModuleView] = field(default_factory=dict)
    tests: frozenset[str] = frozenset()  # the modules that are test code (``test_modules``)
    _steps: dict[str, list[tuple[str, str, int, list[str]]]] = field(default_factory=dict)

    def view(self, path: str) -> ModuleView:
        return self.views.get(path, LONE)

    def steps_of(self, entry: str) -> list[tuple[str, str, int, list[str]]]:
        """The training steps ``entry`` reaches: (path, function, line, call chain)."""
        found = self._steps.get(entry)
        if found is None:
            found = []
            for node in self.reached.get(entry, {}):
                path, name = node
                summary = self.summaries[path]
                if name in summary.definitions:
                    for line in summary.definitions[name].steps:
                        found.append((path, name, line, self.chain(entry, node)))
            found = self._steps[entry] = sorted(found)
        return found

    def chain(self, entry: str, node: tuple[str, str]) -> list[str]:
        parents = self.reached.get(entry, {})
        chain: list[str] = []
        current: tuple[str, str] | None = node
        while current is not None and len(chain) < 50:
            path, name = current
            chain.append(f"{path}:{name}" if name else path)
            current = parents.get(current)
        return list(reversed(chain))


class _Index:
    """Module paths by every dotted suffix of their path (`a/b/c.py`: "a.b.c", "b.c", "c")."""

    def __init__(self, paths: Iterable[str]) -> None:
        self.paths = set(paths)
        self.by_name: dict[str, list[str]] = {}
        for path in sorted(self.paths):
            parts = path[:-3].split("/") if path.endswith(".py") else path.split("/")
            if parts[-1] == "__init__":
                parts = parts[:-1]
            for start in range(len(parts)):
                self.by_name.setdefault(".".join(parts[start:]), []).append(path)

    def module(self, importer: str, spec: str) -> str | None:
        """The given file ``spec`` ("a.b", "..a.b", ".") names, seen from ``importer``."""
        level = len(spec) - len(spec.lstrip("."))
        name = spec[level:]
        if level:
            folder = importer.split("/")[:-1]
            if level > 1:
                folder = folder[: len(folder) - (level - 1)]
            base = "/".join([*folder, *name.split(".")] if name else folder)
            for candidate in (f"{base}.py", f"{base}/__init__.py" if base else "__init__.py"):
                if candidate in self.paths:
                    return candidate
            return None
        candidates = self.by_name.get(name)
        if not candidates:
            return None
        # The file nearest the importer (the longest shared folder).
        folder = importer.split("/")[:-1]
        return max(candidates, key=lambda c: (_shared(folder, c.split("/")[:-1]), -len(c)))


def _shared(a: list[str], b: list[str]) -> int:
    count = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        count += 1
    return count


_DDP = frozenset(
    {
        "torch.nn.parallel.DistributedDataParallel",
        "torch.nn.parallel.distributed.DistributedDataParallel",
    }
)


def own_stops(text: str, trains: bool) -> tuple[str, ...]:
    """``ModuleView.off_device`` of a module read alone (no program: one given module), where it
    trains: its own places ("line: what")."""
    if not trains or not any(s in text for s in ("pack_", "spmm", "smm", "sparse")):
        return ()
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return ()
    imports, _ = import_specs(tree)
    found = off_device_uses(tree, lambda reference: _full_name(reference, imports))
    return tuple(f"line {line}: {what}" for line, what in found)


def _stops(
    summaries: Mapping[str, ModuleSummary], program: Program, resolver: _Resolver
) -> dict[str, tuple[str, ...]]:
    """Module -> where the programs that run it stop on the XLA device
    (``ModuleSummary.off_device``), for the modules every training entry point that runs them
    stops in (a module shared with one that runs is ported for that one). Training entry
    points: those of the program that train or reach a step, and scripts with a step at their
    top level (the evaluator's entry points too). An inference script that reaches the model class may never
    call the method that stops, so it does not count."""
    if not any(s.off_device for s in summaries.values()):
        return {}
    entries: dict[str, Mapping] = {}
    for path, summary in summaries.items():
        if path in program.tests:
            continue
        if path in program.entry_points:
            if summary.trains or program.steps_of(path):
                entries[path] = program.reached[path]
        elif MODULE in summary.definitions and summary.definitions[MODULE].steps:
            entries[path] = resolver.reach([(path, MODULE)])
    stops: dict[str, list[str]] = {}
    running: set[str] = set()  # modules an entry point runs that does not stop
    for parents in entries.values():
        modules = sorted({path for path, _ in parents})
        found = [f"{m}:{line}: {what}" for m in modules for line, what in summaries[m].off_device]
        for module in modules:
            if found:
                stops.setdefault(module, []).extend(found)
            else:
                running.add(module)
    return {m: tuple(dict.fromkeys(s)) for m, s in stops.items() if m not in running}


def _full_name(reference: str, imports: Mapping[str, str]) -> str:
    """``DDP`` (``from torch.nn.parallel import DistributedDataParallel as DDP``) →
    ``torch.nn.parallel.DistributedDataParallel``; a name the module does not import as it is."""
    head, dot, rest = reference.partition(".")
    binding = imports.get(head)
    if binding is None:
        return reference
    spec, colon, name = binding.partition(":")
    base = f"{spec}.{name}" if colon else spec
    return base + dot + rest


def test_modules(
    summaries: Mapping[str, ModuleSummary | None], launched: Iterable[str] = ()
) -> frozenset[str]:
    """The given modules that are test code (``testcode.is_test_module``): one named like a test
    that holds no tests is a program where a launch line names it or its own run trains (a
    summary None: not known, its name decides)."""
    named = set(launched)
    return frozenset(
        path
        for path, summary in summaries.items()
        if is_test_module(
            path,
            None if summary is None else summary.tests,
            path in named or summary is not None and runs_training(summary),
        )
    )


def runs_training(summary: ModuleSummary) -> bool:
    """Run as a script, the module trains: it trains, and has a ``__main__`` guard or a top
    level that runs a training step (its own loop, or one of its own functions' it reaches:
    TCN's `add_test.py` ends with `for ep in ...: train(ep)`)."""
    if not summary.trains:
        return False
    if summary.main_guard or MODULE in summary.definitions:
        return True
    definitions = summary.definitions
    reached: set[str] = set()
    names = [name for name in summary.top_references if name in definitions]
    while names:  # through the module's own functions that its top level calls
        name = names.pop()
        if name not in reached:
            reached.add(name)
            names += [n for n in definitions[name].references if n in definitions]
    return any(definitions[name].steps for name in reached)


def build_program(
    summaries: Mapping[str, ModuleSummary],
    launched: Iterable[str] = (),
    console_scripts: Iterable[tuple[str, str]] = (),
    launch_lines: Iterable[tuple[str, str]] = (),
) -> Program:
    """The program of the modules ``summaries`` (by display path). ``launched``: paths named on
    launch lines; ``console_scripts``: (module dotted name, function) from pyproject files;
    ``launch_lines``: (path, the line that launches it)."""
    lines_of: dict[str, list[str]] = {}
    for path, line in launch_lines:
        lines_of.setdefault(path, []).append(line)
    launched = list(launched)
    tests = test_modules(summaries, launched)
    program = Program(summaries, tests=tests)
    index = _Index(summaries)
    resolver = _Resolver(summaries, index)
    for path, summary in summaries.items():
        program.imports[path] = resolver.imported_modules(path)
        if summary.main_guard and path not in tests:
            program.entry_points.setdefault(path, (MODULE,))
    for path in launched:
        if path in summaries and path not in tests:
            program.entry_points.setdefault(path, (MODULE,))
    for module, function in console_scripts:
        path = index.module("", module)
        if path is not None and path not in tests:
            names = program.entry_points.get(path, ())
            program.entry_points[path] = tuple(dict.fromkeys((*names, function)))
    kinds: dict[str, set[str]] = {}
    frameworks: dict[str, set[str]] = {}
    reaching: dict[str, list[str]] = {}
    movers = {p for p, s in summaries.items() if s.moves and p not in tests}
    own_run_moves: dict[str, bool] = {}
    switches = {p for p, s in summaries.items() if s.distribution_checks_off and p not in tests}
    switched: set[str] = set()  # entry points whose run turns distribution validation off
    for entry, names in sorted(program.entry_points.items()):
        parents = program.reached[entry] = resolver.reach([(entry, n) for n in names])
        modules = {path for path, _ in parents}
        if (modules | {entry}) & switches:
            switched.add(entry)
        own_run_moves[entry] = bool((modules - {entry}) & movers)
        # The entry's own kind, and that of every module whose code it runs.
        kinds[entry] = {k for m in modules for k in summaries[m].parallelism}
        frameworks[entry] = {k for m in modules for k in summaries[m].frameworks}
        for module in modules:
            reaching.setdefault(module, []).append(entry)
    # A training script that is neither an entry point the program names nor imported by any
    # module (a tutorial's script, run as `python script.py` though no file says so): its own
    # run is a program of its own too.
    imported_anywhere = {m for i, found in program.imports.items() for m in found - {i}}
    for path, summary in sorted(summaries.items()):
        if summary.trains and path not in own_run_moves.keys() | imported_anywhere | tests:
            modules = {module for module, _ in resolver.reach([(path, MODULE)])}
            own_run_moves[path] = bool((modules - {path}) & movers)
    stopping = _stops(summaries, program, resolver)
    slicers, stepped = _offset_slicers(summaries, resolver)
    decisions = _used_decisions(summaries, resolver, tests)
    flag_checks, imported_flags = _flags(summaries, resolver)
    reads, shapes, reached, padded = _step_reads(summaries, resolver, tests)
    called, stepped_loops = _called_steps(summaries, resolver, tests)
    element_calls = _element_calls(summaries, resolver)
    untrained = _untrained(summaries, program, resolver, reaching, tests)
    device_only = _by_path(
        resolve({p: s.device_parameters for p, s in summaries.items()}, resolver.callee)
    )
    device_made = _by_path(
        resolve({p: s.device_returns for p, s in summaries.items()}, resolver.callee)
    )

    named = _named_elsewhere(summaries, resolver)
    for path, summary in summaries.items():
        entries = tuple(sorted(reaching.get(path, ())))
        role = "test" if path in tests else "entry" if path in program.entry_points else "library"
        parallelism = set(summary.parallelism)
        found = set(summary.frameworks)
        for entry in entries:
            parallelism |= kinds[entry]
            found |= frameworks[entry]
        steps = tuple(
            f"{' → '.join(chain)} (line {line})"
            for entry in entries
            for step_path, _name, line, chain in program.steps_of(entry)
            if step_path == path
        )
        program.views[path] = ModuleView(
            off_device=stopping.get(path, ()),
            role=role,
            entry_points=entries,
            parallelism=tuple(sorted(parallelism)),
            frameworks=tuple(sorted(found)),
            imported_devices=resolver.imported_devices(path),
            decisions=decisions.get(path, {}),
            steps=tuple(dict.fromkeys(steps)),
            step_reads=tuple(value for _, value in sorted(reads.get(path, {}).items())),
            step_shapes=tuple(
                (line, column, chain)
                for (line, column), chain in sorted(shapes.get(path, {}).items())
            ),
            padded_collates=tuple(sorted(padded.get(path, ()))),
            step_functions=tuple(sorted(reached.get(path, {}).items())),
            called_steps=tuple(sorted(called.get(path, {}).items())),
            stepped_loops=tuple(sorted(stepped_loops.get(path, ()))),
            moves_elsewhere=movers - {path} != set(),
            own_run_moves=own_run_moves.get(path, True),
            steps_elsewhere=role == "entry"
            and any(step[0] != path for step in program.steps_of(path)),
            imported_ties=resolver.imported_ties(path),
            imported_ddp=resolver.imported_ddp(path),
            imported_meters=resolver.imported_meters(path),
            transformers=resolver.transformers(path),
            imported=path in imported_anywhere,
            launch_lines=tuple(dict.fromkeys(lines_of.get(path, ()))),
            torch_launched=any(
                "torch.distributed.launch" in line
                for each in (path, *entries)
                for line in lines_of.get(each, ())
            ),
            star_modules=resolver.star_modules(path),
            imported_loads=resolver.imported_loads(path),
            imported_slicers=slicers.get(path, {}),
            stepped_slicers=stepped.get(path, {}),
            device_parameters=resolver.spelled(path, device_only),
            device_returns=resolver.spelled(path, device_made),
            untrained=path in untrained,
            imported_shape_params=resolver.imported_shape_params(path),
            element_calls=element_calls.get(path, {}),
            flag_checks=flag_checks.get(path, {}),
            imported_flags=imported_flags.get(path, {}),
            named_elsewhere=named.get(path, ()),
            imported_drawn_slices=resolver.imported_drawn_slices(path),
            imported_drawing=resolver.imported_drawing(path),
            distribution_checks_off=path in switches or bool(switched.intersection(entries)),
        )
    return program


def _flags(
    summaries: Mapping[str, ModuleSummary], resolver: _Resolver
) -> tuple[
    dict[str, dict[int, tuple[str, tuple[str, ...]]]], dict[str, dict[str, tuple[bool, str]]]
]:
    """Flags a function sets from an availability check and other modules read
    (``flag_fields``), matched: per defining module, each check with why it stays (the first
    read that does more than choose a device) and its reads; per reading module, each read
    with whether the check is dropped and where it is."""
    checks: dict[str, dict[int, tuple[str, tuple[str, ...]]]] = {}
    readers: dict[str, dict[str, tuple[str, int]]] = {}
    for path, summary in sorted(summaries.items()):
        for callee, reads in summary.flag_reads.items():
            target = resolver.name(path, callee)
            if target is None or target[1] == MODULE or target[0] == path:
                continue
            module, function = target
            fields = {f[0]: f for f in summaries[module].flag_fields.get(function, ())}
            for read, line, column, why in reads:
                field = read.rpartition(".")[2]
                for found in fields.values() if field == HANDED_ON else [fields.get(field)]:
                    if found is not None:
                        _add_flag_read(
                            checks, readers, found, (module, path, read, f"{line}:{column}", why)
                        )
    flags = {
        path: {
            read: (not checks[module][check][0], f"{module}:{check}")
            for read, (module, check) in reads.items()
        }
        for path, reads in readers.items()
    }
    return checks, flags


def _add_flag_read(
    checks: dict[str, dict[int, tuple[str, tuple[str, ...]]]],
    readers: dict[str, dict[str, tuple[str, int]]],
    found: FlagField,
    read: tuple[str, str, str, str, str],
) -> None:
    """One read (module of the check, reading module, the read as spelled, "line:column", why
    it is more than a device choice) of the flag ``found``."""
    module, path, name, place, why = read
    field, check, _column, own = found
    stays, places = checks.setdefault(module, {}).get(check, (own, ()))
    if why and not stays:
        stays = f"in {path} {why}"
    checks[module][check] = (stays, (*places, f"{path}:{place}"))
    spelled = f"{name[: -len(HANDED_ON)]}{field}" if name.endswith(HANDED_ON) else name
    readers.setdefault(path, {})[spelled] = (module, check)


def _named_elsewhere(
    summaries: Mapping[str, ModuleSummary], resolver: _Resolver
) -> dict[str, tuple[str, ...]]:
    """By module: its top-level names that another given module references (`from test import
    test`, `test.test(...)`, `from model import *` then `Net(...)`)."""
    found: dict[str, set[str]] = {}
    for path, summary in summaries.items():
        references = {*summary.top_references}
        for definition in summary.definitions.values():
            references.update(definition.references)
        for reference in references:
            target = resolver.name(path, reference)
            if target is not None and target[0] != path and target[1] != MODULE:
                found.setdefault(target[0], set()).add(target[1])
    return {path: tuple(sorted(names)) for path, names in found.items()}


def _offset_slicers(
    summaries: Mapping[str, ModuleSummary], resolver: _Resolver
) -> tuple[dict[str, dict[str, tuple[int, int, str]]], dict[str, dict[str, str]]]:
    """Calls a `range` loop makes with its offset of a function of another given module that
    slices a parameter at it: by the calling module, the callee's local name -> (source
    position, offset position, "path:line" of the slice); by the callee's module, its name ->
    "path:line" of the first call."""
    calling: dict[str, dict[str, tuple[int, int, str]]] = {}
    called: dict[str, dict[str, str]] = {}
    for path, summary in sorted(summaries.items()):
        for local, position, line in summary.offset_calls:
            definition = resolver.name(path, local)
            if definition is None or definition[0] == path:
                continue
            where, name = definition
            slicer = summaries[where].slicers.get(name)
            if slicer is None or slicer[1] != position:
                continue
            calling.setdefault(path, {})[local] = (slicer[0], slicer[1], f"{where}:{slicer[2]}")
            called.setdefault(where, {}).setdefault(name, f"{path}:{line}")
    return calling, called


def _by_path(table: Resolved) -> dict[str, dict[str, tuple[Parameter, ...]]]:
    found: dict[str, dict[str, tuple[Parameter, ...]]] = {}
    for (path, key), params in table.items():
        found.setdefault(path, {})[key] = params
    return found


def _untrained(
    summaries: Mapping[str, ModuleSummary],
    program: Program,
    resolver: _Resolver,
    reaching: Mapping[str, list[str]],
    tests: frozenset[str],
) -> set[str]:
    """The modules that only entry points which do not train reach (no training of their own,
    no step they reach: `inference.py` building the generator), and that no module which
    trains reaches either: a script without a `__main__` guard or a library's `train()` is no
    entry point, but its reach counts (from its top level and every definition: a superset)."""
    inference = {
        entry
        for entry in program.entry_points
        if not summaries[entry].trains and not program.steps_of(entry)
    }
    found = {
        path
        for path, entries in reaching.items()
        if entries and inference.issuperset(entries) and not summaries[path].trains
    }
    for path, summary in sorted(summaries.items()):
        if not found:
            break
        if not summary.trains or path in program.entry_points or path in tests:
            continue
        starts = [(path, MODULE), *((path, name) for name in summary.definitions if name)]
        found -= {module for module, _ in resolver.reach(starts)}
    return found


def _used_decisions(
    summaries: Mapping[str, ModuleSummary], resolver: _Resolver, tests: frozenset[str]
) -> dict[str, dict[str, tuple[int, int, str, tuple[str, ...]]]]:
    """Undecided devices that a module which trains (not a test) imports from another given
    module, by the module that decides them: reported there once, its uses as related places."""
    found: dict[str, dict[str, tuple[int, int, str, tuple[str, ...]]]] = {}
    for path, summary in sorted(summaries.items()):
        for local, (where, _line, accelerator) in resolver.imported_devices(path).items():
            if accelerator or local not in summary.imports:
                continue  # a derived name is a use of the imported one (below)
            decision = resolver.decision(where, _imported_name(summary.imports[local]))
            if decision is None:
                continue
            places = {line: col for line, col in reversed(summary.device_uses.get(local, ()))}
            for source, line, column in summary.derived_devices.values():
                if source == local:
                    places.setdefault(line, column)  # where the device is built from it
            uses = tuple(f"{path}:{line}:{places[line]}" for line in sorted(places))
            current = found.setdefault(where, {}).get(decision.name)
            trains = summary.trains and path not in tests
            if current is None:
                current = (decision.line, decision.column, decision.why, ())
                if not trains:
                    current = (decision.line, decision.column, "", ())  # kept only if one trains
            line, column, why, related = current
            if trains:
                why = decision.why
            found[where][decision.name] = (line, column, why, related + uses)
    return {
        where: {name: value for name, value in names.items() if value[2]}
        for where, names in found.items()
        if any(value[2] for value in names.values())
    }


def _step_reads(
    summaries: Mapping[str, ModuleSummary], resolver: _Resolver, tests: frozenset[str]
) -> tuple[
    dict[str, dict[tuple[int, int], StepRead]],
    dict[str, dict[tuple[int, int], str]],
    dict[str, dict[str, str]],
    dict[str, set[str]],
]:
    """What the training steps run every step in other functions and methods (through calls,
    parameters, returned values and attributes, across modules: ``analysis.reach``), by module:
    host reads, where a collate function of a loader a step iterates pads the batch to its
    own largest item, the functions themselves (qualname -> chain), and the `collate_fn=`
    arguments, as spelled where the loader is built, whose function pads so. The per-file
    passes see only the step loop's own code."""
    reads: dict[str, dict[tuple[int, int], StepRead]] = {}
    shapes: dict[str, dict[tuple[int, int], str]] = {}
    functions: dict[str, dict[str, str]] = {}
    padded: dict[str, set[str]] = {}
    scopes = {path: summary.scopes for path, summary in summaries.items()}
    bases = {path: summary.bases for path, summary in summaries.items()}
    flow = Flow(scopes, bases, resolver.name)
    for path, summary in sorted(summaries.items()):
        if path in tests:
            continue
        for qualname, scope in sorted(summary.scopes.items()):
            for loop in scope.steps:
                start = f"{path}:{loop.line}"
                parents = flow.reached((path, qualname), loop)
                for node in parents:
                    where, function = node
                    reached = summaries[where].scopes[function]
                    names = " → ".join([start, *chain_of(parents, node)])
                    if node != (path, qualname):
                        functions.setdefault(where, {}).setdefault(function, names)
                    for line, column, what, guard in reached.host_reads:
                        host = [name for at, name in reached.host_calls if at >= line]
                        chain = f"{names} → {where}:{line}"
                        reads.setdefault(where, {}).setdefault(
                            (line, column), (line, column, what, chain, tuple(host[:1]), guard)
                        )
                for builder, argument, collate, label in flow.collate_roots((path, qualname), loop):
                    ran = flow.reaches_from(collate, label)
                    if any(summaries[at].scopes[name].batch_maxima for at, name in ran):
                        padded.setdefault(builder, set()).add(argument)
                collates = flow.collates((path, qualname), loop)
                for node in collates:
                    where, function = node
                    for line, column in summaries[where].scopes[function].batch_maxima:
                        chain = " → ".join([start, *chain_of(collates, node), f"{where}:{line}"])
                        shapes.setdefault(where, {}).setdefault((line, column), chain)
    return reads, shapes, functions, padded


def _called_steps(
    summaries: Mapping[str, ModuleSummary], resolver: _Resolver, tests: frozenset[str]
) -> tuple[dict[str, dict[str, str]], dict[str, set[tuple[int, str]]]]:
    """Functions and methods that step an optimizer outside any loop of their own (and hold no
    training loop), found (``Flow.callers``: through instances, attributes, parameters, across
    modules) called only once per iteration of loops that cut no graph: by module, qualname ->
    "path:line" of the first such loop. `A2C_ACKTR.update` called as `agent.update(rollouts)`
    in `for j in range(num_updates):` of another module, `agent` built by one of several
    classes: the loop's step is the method's, and nothing cuts it. Not one called once outside
    any loop, or in a loop that cuts every iteration (a marker, a step of its own, a device
    loader): a second cut there would only cut an empty graph. A loop the step-marker pass would
    cut only at the end of its iteration (it moves its batch or calls the model) does not count:
    the cut goes in the function, right after the optimizer step and before the `.item()` reads
    the function makes after it, and the loop's line and the function's name are returned, by
    module, so that the pass leaves it (a Faster R-CNN's `trainer.train_step(img, bbox, label, scale)` after
    `img.cuda()`). Test modules' calls are left out."""
    candidates = [
        (path, qualname)
        for path, summary in sorted(summaries.items())
        if path not in tests
        for qualname, scope in sorted(summary.scopes.items())
        if qualname and scope.own_steps and not scope.steps
    ]
    if not candidates:
        return {}, {}
    scopes = {path: summary.scopes for path, summary in summaries.items()}
    bases = {path: summary.bases for path, summary in summaries.items()}
    flow = Flow(scopes, bases, resolver.name)
    found: dict[str, dict[str, str]] = {}
    stepped: dict[str, set[tuple[int, str]]] = {}
    for node in candidates:
        loops: list[tuple[str, int]] = []
        for caller, call, _bound in flow.callers(node):
            where, calling = caller[0], caller[1]
            if where in tests:
                continue
            scope = summaries[where].scopes[calling]
            places = [i for i, value in enumerate(scope.calls) if value == call]
            looped = {i: line for i, line in scope.looped_calls if i in places}
            if (where, calling) == node or len(looped) < len(places):
                break  # recursive, or called outside any loop
            if set(looped.values()) & (set(scope.cut_loops) - set(scope.pass_cut_loops)):
                break  # the loop cuts the graph already
            loops.extend((where, line) for line in sorted(set(looped.values())))
        else:
            if loops:
                found.setdefault(node[0], {})[node[1]] = f"{loops[0][0]}:{loops[0][1]}"
                for where, line in loops:
                    stepped.setdefault(where, set()).add((line, node[1].rpartition(".")[2]))
    return found, stepped


def _element_calls(
    summaries: Mapping[str, ModuleSummary], resolver: _Resolver
) -> dict[str, dict[str, tuple[tuple[int, str, str, str, str], ...]]]:
    """The calls that run a function which reads a parameter element by element on the host
    (through parameters, attributes and instances: ``Flow.callers``), by the calling module and
    how the call spells the callee; the host-sync pass reports those that pass a device tensor."""
    readers = [
        (path, qualname, scope.element_reads)
        for path, summary in sorted(summaries.items())
        for qualname, scope in sorted(summary.scopes.items())
        if scope.element_reads
    ]
    if not readers:
        return {}
    scopes = {path: summary.scopes for path, summary in summaries.items()}
    bases = {path: summary.bases for path, summary in summaries.items()}
    flow = Flow(scopes, bases, resolver.name)
    found: dict[str, dict[str, list[tuple[int, str, str, str, str]]]] = {}
    for path, qualname, element_reads in readers:
        for caller, call, bound in flow.callers((path, qualname)):
            spelling = spelled(call[1])
            for index, param, line, _column, read in element_reads:
                position = index - 1 if bound else index
                entry = (position, param, f"{path}:{line}", qualname, read)
                entries = found.setdefault(caller[0], {}).setdefault(spelling, [])
                if entry not in entries:
                    entries.append(entry)
    return {
        where: {spelling: tuple(entries) for spelling, entries in calls.items()}
        for where, calls in found.items()
    }


def _imported_name(binding: str) -> str:
    return binding.rsplit(":", 1)[-1] if ":" in binding else binding.rsplit(".", 1)[-1]


class _Resolver:
    def __init__(self, summaries: Mapping[str, ModuleSummary], index: _Index) -> None:
        self.summaries = summaries
        self.index = index
        # Every entry point's reach and every step's asks the same names again (a diffusion
        # package: 11 million lookups, 200 s, for 1,329 modules).
        self._names: dict[tuple[str, str], tuple[str, str] | None] = {}
        self._modules: dict[str, set[str]] = {}
        self._edges: dict[tuple[str, str], list[tuple[str, str]]] = {}

    def imported_modules(self, path: str) -> set[str]:
        found = self._modules.get(path)
        if found is None:
            found = self._modules[path] = self._imported_modules(path)
        return found

    def _imported_modules(self, path: str) -> set[str]:
        summary = self.summaries[path]
        found = set()
        for binding in (*summary.imports.values(), *summary.star_imports):
            spec, _, name = binding.partition(":")
            target = self.index.module(path, spec) if spec.strip(".") or spec else None
            if name and target is not None:
                sub = self.index.module(path, f"{spec}.{name}" if spec.strip(".") else spec + name)
                if sub is not None:
                    found.add(sub)
            if target is not None and target != path:
                found.add(target)
        return found

    def name(self, path: str, name: str, depth: int = 0) -> tuple[str, str] | None:
        """The definition (module, top-level name) that ``name`` in module ``path`` stands for,
        or (module, MODULE) for a module; None outside the given files."""
        if depth:
            return self._name(path, name, depth)
        key = (path, name)
        if key not in self._names:
            self._names[key] = self._name(path, name, 0)
        return self._names[key]

    def _name(self, path: str, name: str, depth: int) -> tuple[str, str] | None:
        summary = self.summaries.get(path)
        if summary is None or depth > 8:
            return None
        head, _, rest = name.partition(".")
        if head in summary.definitions and not rest:
            return (path, head)
        binding = summary.imports.get(head)
        if binding is not None:
            spec, _, imported = binding.partition(":")
            if imported:
                sub_spec = f"{spec}.{imported}" if spec.strip(".") else spec + imported
                sub = self.index.module(path, sub_spec)
                if sub is not None:
                    return self.name(sub, rest, depth + 1) if rest else (sub, MODULE)
                module = self.index.module(path, spec)
                if module is None:
                    return None
                found = self.name(module, imported, depth + 1)
                if found is not None and rest and found[1] == MODULE:
                    return self.name(found[0], rest, depth + 1)
                return found
            # `import a.b` binds `a` (`a.b.f` is f of a/b.py); `import a.b as n` binds `n`.
            parts = name.split(".")
            base = [binding] if binding != head else []
            for cut in range(len(parts), 0, -1):
                module = self.index.module(path, ".".join([*base, *parts[1 if base else 0 : cut]]))
                if module is not None:
                    remaining = parts[cut:]
                    if not remaining:
                        return (module, MODULE)
                    return self.name(module, remaining[0], depth + 1)
            return None
        for star in summary.star_imports:
            module = self.index.module(path, star)
            if module is not None and module != path:
                found = self.name(module, name, depth + 1)
                if found is not None:
                    return found
        return None

    def reach(self, starts: list[tuple[str, str]]) -> dict[tuple[str, str], tuple[str, str] | None]:
        """Every node reached from ``starts``, each with the node it was reached from."""
        parents: dict[tuple[str, str], tuple[str, str] | None] = {}
        queue = deque((s, None) for s in starts)
        while queue:
            node, parent = queue.popleft()
            if node in parents:
                continue
            parents[node] = parent
            queue.extend((found, node) for found in self._successors(node))
        return parents

    def _successors(self, node: tuple[str, str]) -> list[tuple[str, str]]:
        """What running ``node`` reaches directly (the same for every entry point's walk)."""
        found = self._edges.get(node)
        if found is not None:
            return found
        path, name = node
        summary = self.summaries[path]
        found = []
        if name == MODULE:
            references = summary.top_references
            # Importing a module runs its top level.
            found.extend((m, MODULE) for m in sorted(self.imported_modules(path)))
        else:
            references = summary.definitions[name].references
            found.append((path, MODULE))
        for reference in references:
            target = self.name(path, reference)
            if target is not None and target[0] in self.summaries:
                found.append(target)
        self._edges[node] = found
        return found

    def decision(self, path: str, name: str, depth: int = 0) -> Decision | None:
        summary = self.summaries.get(path)
        if summary is None:
            return None
        for decision in summary.decisions:
            if decision.name == name:
                return decision
        found = self.name(path, name, depth + 1)
        if found is not None and found != (path, name) and found[1] != MODULE and depth < 8:
            return self.decision(found[0], found[1], depth + 1)
        return None

    def imported_ties(self, path: str) -> dict[str, tuple[str, ...]]:
        found = self._imported_facts(path, lambda summary: summary.ties)
        found.update(self._star_ties(path))
        # `import model` ... `model.RNNModel(...)` (awd-lstm-lm): "model.RNNModel".
        for local, binding in self.summaries[path].imports.items():
            module = None if ":" in binding else self.index.module(path, binding)
            if module is not None and module != path:
                for name, ties in self.summaries[module].ties.items():
                    found[f"{local}.{name}"] = ties
        return found

    def _star_ties(self, path: str) -> dict[str, tuple[str, ...]]:
        """The tying classes a `from m import *` of a given module binds in ``path`` (TCN's
        `from TCN.word_cnn.model import *`): each where exactly one of the module's star imports
        binds its name, none of another library follows (it might bind it too), and the module
        binds it no other way."""
        summary = self.summaries[path]
        stars = [self.index.module(path, star) for star in summary.star_imports]
        given = [m for m in stars if m is not None and m != path]
        found: dict[str, tuple[str, ...]] = {}
        for position, module in enumerate(stars):
            if module is None or module == path or None in stars[position + 1 :]:
                continue
            for name, ties in self.summaries[module].ties.items():
                if name.startswith("_") or name in summary.definitions or name in summary.imports:
                    continue
                if sum(self.name(m, name) is not None for m in given) == 1:
                    found[name] = ties
        return found

    def imported_meters(self, path: str) -> dict[str, Meter]:
        return self._imported_facts(path, lambda summary: summary.meters)

    def _imported_facts(self, path: str, table: Callable[[ModuleSummary], Mapping]) -> dict:
        """What ``table`` of another given module says of the names this module imports from it
        (a class's ties, a meter class's meter)."""
        found = {}
        for local, binding in self.summaries[path].imports.items():
            if ":" not in binding:
                continue
            definition = self.name(path, local)
            if definition is not None and definition[0] != path:
                fact = table(self.summaries[definition[0]]).get(definition[1])
                if fact:
                    found[local] = fact
        return found

    def imported_loads(self, path: str) -> dict[str, tuple[int, str, str]]:
        """Names ``path`` imports from another given module that are functions loading with
        ``map_location=<a parameter>`` (``ModuleSummary.loads``)."""
        found: dict[str, tuple[int, str, str]] = {}
        for local, (where, name) in self._imported_definitions(path):
            load = self.summaries[where].loads.get(name)
            if load is not None:
                found[local] = (load[0], load[1], f"{where}:{load[2]}")
        return found

    def imported_shape_params(self, path: str) -> dict[str, tuple[tuple[int, str, str], ...]]:
        """Names ``path`` imports from another given module that are functions whose parameters
        decide a shape (``ModuleSummary.shape_params``)."""
        found: dict[str, tuple[tuple[int, str, str], ...]] = {}
        for local, (where, name) in self._imported_definitions(path):
            decided = self.summaries[where].shape_params.get(name)
            if decided:
                found[local] = tuple((k, p, f"{where}:{line}") for k, p, line in decided)
        return found

    def imported_drawn_slices(self, path: str) -> dict[str, tuple[str, tuple[DrawnSlice, ...]]]:
        """Names ``path`` imports from another given module that are functions slicing a
        parameter at a drawn offset (``ModuleSummary.drawn_slices``), each with that module."""
        found: dict[str, tuple[str, tuple[DrawnSlice, ...]]] = {}
        for local, (where, name) in self._imported_definitions(path):
            slices = self.summaries[where].drawn_slices.get(name)
            if slices:
                found[local] = (where, slices)
        return found

    def imported_drawing(self, path: str) -> dict[str, str]:
        """Names ``path`` imports from another given module that are functions returning a
        number drawn on the host (``ModuleSummary.drawing``), each with the draw."""
        return {
            local: draw
            for local, (where, name) in self._imported_definitions(path)
            if (draw := self.summaries[where].drawing.get(name))
        }

    def _imported_definitions(self, path: str) -> Iterable[tuple[str, tuple[str, str]]]:
        """Each name ``path`` imports by name (`from m import f`) with the definition in another
        given module it stands for."""
        for local, binding in sorted(self.summaries[path].imports.items()):
            if ":" not in binding:
                continue
            definition = self.name(path, local)
            if definition is not None and definition[0] != path:
                yield local, definition

    def star_modules(self, path: str, depth: int = 0) -> dict[str, str]:
        """Names each `from m import *` of a given module binds in ``path`` to a library module
        or object (ssd's `model.py` gets `torch` from `from utils import *`, where `utils.py`
        does `import torch`): name -> its dotted name. Not names with a leading underscore
        (`import *` leaves them out), and not relative imports (a given module's, followed as
        the star imports of that module)."""
        found: dict[str, str] = {}
        if depth > 4:
            return found
        for star in self.summaries[path].star_imports:
            module = self.index.module(path, star)
            if module is None or module == path:
                continue
            summary = self.summaries[module]
            inner = self.star_modules(module, depth + 1)
            for local, binding in (*inner.items(), *summary.imports.items()):
                spec, _, name = binding.partition(":")
                if local.startswith("_") or spec.startswith(".") or not spec:
                    continue
                if self.index.module(module, spec) is not None:
                    continue  # a given module: its names are the program's own
                found.setdefault(local, f"{spec}.{name}" if name else spec)
        return found

    def callee(self, path: str, key: str, spelled: str) -> tuple[str, str] | None:
        """The function, class or method (``Class.method``, a call of `self.method` in the
        class) that ``spelled``, called in ``key`` of module ``path``, stands for."""
        if spelled.split(".", 1)[0] in self.summaries[path].definitions:
            return (path, spelled)
        found = self.name(path, spelled)
        return found if found is not None and found[1] != MODULE else None

    def spelled(
        self, path: str, table: Mapping[str, Mapping[str, tuple[Parameter, ...]]]
    ) -> dict[str, tuple[tuple[str, int], ...]]:
        """The entries of ``table`` (path -> key -> parameters) that module ``path`` can call,
        by the names it calls them: its own functions and classes, those it imports by name,
        and `module.f` of a module it imports; a method of a class, own or imported by name, as
        `Class().method` (called on an instance, ``self`` not passed)."""
        own = table.get(path, {})
        found = {key: params for key, params in own.items() if "." not in key}
        found |= {_on_instance(key): params for key, params in own.items() if _method_key(key)}
        for local in self.summaries[path].imports:
            definition = self.name(path, local)
            if definition is None or definition[0] == path:
                continue
            module, name = definition
            if name != MODULE:
                params = table.get(module, {}).get(name)
                if params:
                    found[local] = params
                for key, params in table.get(module, {}).items():
                    if key.startswith(f"{name}.") and _method_key(key):
                        found[_on_instance(f"{local}.{key.split('.')[1]}")] = params
                continue
            for key, params in table.get(module, {}).items():
                if "." not in key:
                    found[f"{local}.{key}"] = params
        return {
            name: tuple((parameter, index) for parameter, index, _ in params)
            for name, params in sorted(found.items())
        }

    def imported_ddp(self, path: str) -> tuple[str, ...]:
        """Imported functions of another given module that make the model data parallel: they
        wrap it in torch DDP (yolov5's `smart_DDP`), or all-reduce its gradients themselves in a
        module that reduces gradients by hand (Tacotron 2's `apply_gradient_allreduce`, which
        registers backward hooks that all-reduce every gradient)."""
        found = []
        for local, definition in self._imported_definitions(path):
            module = self.summaries[definition[0]]
            function = module.definitions.get(definition[1])
            if function is None:
                continue
            names = {_full_name(reference, module.imports) for reference in function.references}
            if names & _DDP or (
                HAND_REDUCED in module.parallelism
                and any(n.startswith("torch.distributed.all_reduce") for n in names)
            ):
                found.append(local)
        return tuple(found)

    def transformers(self, path: str) -> dict[str, str]:
        """The transformer classes ``path`` can name: its own, those it imports by name, and
        those of a module it imports (`modeling.BertForPreTraining`)."""
        summary = self.summaries[path]
        found = {name: f"{path}: {why}" for name, why in summary.transformers.items()}
        for local in summary.imports:
            definition = self.name(path, local)
            if definition is None or definition[0] == path:
                continue
            module, name = definition
            if name == MODULE:
                for cls, why in self.summaries[module].transformers.items():
                    found[f"{local}.{cls}"] = f"{module}: {why}"
            elif name in self.summaries[module].transformers:
                found[local] = f"{module}: {self.summaries[module].transformers[name]}"
        return found

    def imported_devices(self, path: str) -> dict[str, tuple[str, int, bool]]:
        summary = self.summaries[path]
        found = {}
        for local, binding in summary.imports.items():
            if "device" not in local.lower() or ":" not in binding:
                continue
            spec, _, imported = binding.partition(":")
            module = self.index.module(path, spec)
            if module is None or module == path:
                continue
            decision = self.decision(module, imported)
            if decision is not None:
                where = self._where(module, decision)
                found[local] = (where, decision.line, decision.accelerator)
        for local, (source, _line, _column) in summary.derived_devices.items():
            if source in found:
                found.setdefault(local, found[source])
        return found

    def _where(self, module: str, decision: Decision, depth: int = 0) -> str:
        """The module that holds ``decision`` (through re-exports)."""
        if decision in self.summaries[module].decisions or depth > 8:
            return module
        found = self.name(module, decision.name)
        return found[0] if found is not None else module


def _method_key(key: str) -> bool:
    """``key`` names a method (`Class.method`), not a class (its `__init__`) or a function."""
    return key.count(".") == 1 and not key.endswith(".__init__")


def _on_instance(key: str) -> str:
    """``Class.method`` as ``ModuleView.device_parameters`` spells a call on an instance."""
    owner, method = key.split(".")
    return f"{owner}().{method}"
