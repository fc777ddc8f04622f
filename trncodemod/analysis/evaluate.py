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

Beside it: the values and what a run records (``abstract_values``), the facts per backend
(``device_facts``), what calls of libraries do (``library_calls``, a mix-in of ``Evaluator``),
where a program starts (``entry_points``).
"""

from __future__ import annotations

import ast
import itertools
import posixpath
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace

from trncodemod.analysis.abstract_values import (
    Bound,
    ClassRef,
    Const,
    Device,
    Dict,
    Each,
    Event,
    External,
    Frame,
    Function,
    Launched,
    ModelCall,
    ModuleRef,
    Obj,
    OneOf,
    Ref,
    Seq,
    Skipped,
    Tensor,
    TensorType,
    Trace,
    Unknown,
    Value,
    Why,
    _code,
    _compare,
    _join,
    _keep,
    _maybe,
    _reason,
    _split,
    _with_why,
    live_choices,
    truth,
)
from trncodemod.analysis.ast_nodes import own_nodes
from trncodemod.analysis.cuda_libraries import cuda_library
from trncodemod.analysis.device_facts import Facts, facts_for
from trncodemod.analysis.entry_points import entry_points, imports_torch
from trncodemod.analysis.library_calls import _WRAPPERS, LibraryCalls, is_dataclass
from trncodemod.analysis.training import dotted, is_main_guard

__all__ = [
    "Evaluator",
    "LaunchFacts",
    "launch_decisions",
    "Facts",
    "Trace",
    "entry_points",
    "facts_for",
    "imports_torch",
]

BUDGET = 20_000  # statements and expressions run per entry point
RUN_BUDGET = 200_000  # and for all the entry points of a run together
MAX_DEPTH = 24  # calls deep


# -- the program's modules -----------------------------------------------------------------------
_Definition = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef


def _counters(tree: ast.Module | None) -> frozenset[str]:
    """The names and attribute names ``tree`` adds to in place (`n += 1`, `self.count += 1`)."""
    if tree is None:
        return frozenset()
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.AugAssign) and isinstance(node.op, ast.Add | ast.Sub):
            target = node.target
            if isinstance(target, ast.Name):
                found.add(target.id)
            elif isinstance(target, ast.Attribute):
                found.add(target.attr)
    return frozenset(found)


# Names in code that trains parameters: an optimizer, a module, its parameters, a trainer.
_TRAINING_NAMES = frozenset({"Module", "parameters", "Parameter", "Trainer", "Accelerator"})


# What nn.DataParallel calls to spread a batch over its devices, none of it without CUDA.
_SPREADING_HOOKS = frozenset({"scatter", "replicate", "parallel_apply", "gather"})


def _base_name(node: ast.expr) -> str:
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def _calls_backward(tree: ast.Module | None) -> bool:
    if tree is None:
        return True  # not read: it may
    stack: list[ast.AST] = [tree]
    while stack:
        for child in ast.iter_child_nodes(stack.pop()):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef) and (
                "backward" in child.name.lower()
            ):
                continue  # the gradient machinery's own backward pass
            if isinstance(child, ast.Call):
                func = child.func
                name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                if name == "backward":
                    return True
            stack.append(child)
    return False


def names_training(tree: ast.Module | None) -> bool:
    """Whether ``tree`` names an optimizer (`torch.optim`, `optimizer`), a module class, its
    parameters or a trainer, in its code (not its comments or docstrings), or updates a tensor
    by its gradient by hand (`w.data = w.data - lr * w.grad`, `w -= lr * w.grad`,
    `w.data.sub_(lr * w.grad)`)."""
    if tree is None:
        return True  # not read: it may
    for node in ast.walk(tree):
        if _updates_by_gradient(node):
            return True
        if isinstance(node, ast.Name):
            name = node.id
        elif isinstance(node, ast.Attribute):
            name = node.attr
        elif isinstance(node, ast.alias):
            name = node.name
        elif isinstance(node, ast.ImportFrom):
            name = node.module or ""
        else:
            continue
        if "optim" in name.lower() or any(part in _TRAINING_NAMES for part in name.split(".")):
            return True
    return False


def _updates_by_gradient(node: ast.AST) -> bool:
    """``node`` writes a value computed from a gradient (`.grad`) into a tensor: an assignment
    to `x.data`, an in-place `x -= ...`, or `x.sub_(...)`/`x.add_(...)`."""
    if isinstance(node, ast.Assign):
        written = any(isinstance(t, ast.Attribute) and t.attr == "data" for t in node.targets)
        value: ast.AST | None = node.value if written else None
    elif isinstance(node, ast.AugAssign):
        value = node.value
    elif (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in ("sub_", "add_")
    ):
        value = node
    else:
        value = None
    return value is not None and any(
        isinstance(n, ast.Attribute) and n.attr == "grad" for n in ast.walk(value)
    )


def ast_of(text: str) -> ast.Module | None:
    """``text`` parsed, or None where it does not parse (``names_training`` then says it may)."""
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError):
        return None


# Comparisons a tensor makes elementwise: a tensor of booleans where the tensor is.
_ELEMENTWISE = (ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE)


@dataclass(frozen=True)
class _Definitions:
    defined: tuple[_Definition, ...]  # undecorated, at the module's top level
    # name -> (line, whether the callee of a call) of each mention; an import under another
    # name (`from m import f as g`) is a mention at line 0 that is no call.
    mentions: Mapping[str, tuple[tuple[int, bool], ...]]


# A tensor's attributes that are host values: its shape and kind, not its data.
_HOST_ATTRIBUTES = frozenset({"shape", "ndim", "dtype", "is_cuda", "requires_grad", "layout"})


def _definitions(tree: ast.Module | None) -> _Definitions:
    if tree is None:
        return _Definitions((), {})
    defined = tuple(
        node
        for node in tree.body
        if isinstance(node, _Definition) and not node.decorator_list  # type: ignore[arg-type]
    )
    mentions: dict[str, list[tuple[int, bool]]] = {}
    callees: set[int] = set()
    for node in ast.walk(tree):  # breadth first: a call before its callee
        if isinstance(node, ast.Call):
            callees.add(id(node.func))
        elif isinstance(node, ast.Name):
            mentions.setdefault(node.id, []).append((node.lineno, id(node) in callees))
        elif isinstance(node, ast.Attribute):
            mentions.setdefault(node.attr, []).append((node.lineno, id(node) in callees))
        elif isinstance(node, ast.alias) and node.asname:
            mentions.setdefault(node.name, []).append((0, False))
    return _Definitions(defined, {k: tuple(v) for k, v in mentions.items()})


class Modules:
    """The given modules: parsed once, on first use, and resolved by dotted name."""

    def __init__(self, texts: Mapping[str, str]) -> None:
        self.texts = texts
        self._trees: dict[str, ast.Module | None] = {}
        self._specs: dict[str, tuple[dict[str, str], list[str]]] = {}
        self._definitions: dict[str, _Definitions] = {}
        self._counted: dict[str, frozenset[str]] = {}
        self._all_counters: frozenset[str] = frozenset()
        self._training: dict[str, bool] = {}
        self._backward: dict[str, bool] = {}
        self._names: dict[str, frozenset[str]] = {}  # path -> the names its top level binds
        from trncodemod.analysis.program import _Index

        self.index = _Index(texts)

    def tree(self, path: str) -> ast.Module | None:
        if path not in self._trees:
            try:
                self._trees[path] = ast.parse(self.texts[path])
            except (SyntaxError, ValueError, RecursionError, MemoryError, KeyError):
                self._trees[path] = None
        return self._trees[path]

    def definitions(self, path: str) -> _Definitions:
        """The module's undecorated top-level functions and classes, and every mention of a
        name in it (each run's ``_functions_off_path`` reads them): one walk per module."""
        if path not in self._definitions:
            self._definitions[path] = _definitions(self.tree(path))
        return self._definitions[path]

    def names_training(self, path: str) -> bool:
        """``names_training`` of the module, walked once for every entry point that runs it."""
        if path not in self._training:
            self._training[path] = names_training(self.tree(path))
        return self._training[path]

    def calls_backward(self, path: str) -> bool:
        """Whether the module calls a backward pass (`loss.backward()`,
        `torch.autograd.backward(...)`) outside the gradient machinery itself: a call in a
        function named for the backward pass (a custom autograd Function's `backward`, a
        reversible layer's `backward_pass`) computes gradients for the caller's step, it is none."""
        if path not in self._backward:
            text = self.texts.get(path, "")
            self._backward[path] = "backward(" in text and _calls_backward(self.tree(path))
        return self._backward[path]

    def counters(self) -> frozenset[str]:
        """The names and attributes some module read so far adds to in place (`step += 1`,
        `self.memory_counter += 1`): a loop that runs more than once changes them."""
        if len(self._counted) != len(self._trees):
            self._counted = {
                path: self._counted[path] if path in self._counted else _counters(tree)
                for path, tree in self._trees.items()
            }
            self._all_counters = frozenset().union(*self._counted.values())
        return self._all_counters

    def defining(self, importer: str, spec: str, found: str, names: list[str]) -> str:
        """Of the modules a bare ``spec`` may name, one that defines ``names``: `from transformer
        import Transformer` where the launch puts `src/transformer/` on the path names its
        `transformer.py`, not the empty package `src/transformer/__init__.py` beside it;
        ``found`` where it defines them, or no other module of that name does."""
        if not names or all(n in self._top_names(found) for n in names):
            return found
        candidates = [
            c
            for c in self.index.by_name.get(spec, ())
            if c != importer and all(n in self._top_names(c) for n in names)
        ]
        if len(candidates) != 1:
            return found
        return candidates[0]

    def _top_names(self, path: str) -> frozenset[str]:
        if path not in self._names:
            self._names[path] = _top_names(self.tree(path))
        return self._names[path]

    def resolve(self, importer: str, spec: str) -> str | None:
        if spec.split(".", 1)[0] in _LIBRARIES:
            return None  # the facts speak for them, even in their own source tree
        found = self.index.module(importer, spec)
        return found if found != importer else None


class _Stop(Exception):
    """The budget of the entry point is spent."""


class _Exit(Exception):
    """The run calls `sys.exit()` (or `exit()`, `os._exit()`) on a path the evaluator decided:
    the program ends there."""


# The most entries of a registry of the program's functions or classes that a lookup by an
# undecided key follows, each as a choice (``_subscript``).
_REGISTRY_CHOICES = 4
# Calls that end the process.
_EXITS = frozenset({"sys.exit", "os._exit", "exit", "quit", "builtins.exit", "builtins.quit"})


class Evaluator(LibraryCalls):
    """Runs entry points of the program given as migrated texts, under ``facts``."""

    def __init__(
        self,
        texts: Mapping[str, str],
        facts: Facts,
        launch_lines: Mapping[str, Iterable[str]] | None = None,
        read_config: Callable[[str], str | None] | None = None,
        unreadable: Mapping[str, str] | None = None,
    ) -> None:
        self.modules = Modules(texts)
        self._undecided = 0  # depth of undecided branches the run is in
        # The modules the tool could not read (a syntax error), by path: why.
        self.unreadable = dict(unreadable or {})
        self.facts = facts
        self.launch_lines = {k: tuple(v) for k, v in (launch_lines or {}).items()}
        # A configuration file of the repository by its path there (`configs/vae.yaml`): its
        # text, or None where it is missing, too large or outside the repository.
        self.read_config = read_config
        self.configs_read: dict[str, str | None] = {}  # what the run read: part of its result
        self._ids = itertools.count(1)
        self.left = RUN_BUDGET
        self._iter_cuts = False
        # Where set (``launch_decisions``): each attribute read, by module and spelling, and the
        # values it held in every run: a flag the launch decides, or ``_OPEN``.
        self.observed: dict[tuple[str, str], set[object]] | None = None
        self._generators: dict[str, bool] = {}  # "path:qualname" -> whether its body yields

    # -- running an entry point ------------------------------------------------------------------
    def run(self, entry: str, function: str = "") -> Trace:
        self.trace = Trace()
        self.budget = min(BUDGET, self.left)
        self.depth = 0
        self.stack: list[str] = []
        self.heap: dict[int, Obj] = {}
        self._current_loops: tuple[int, ...] = ()
        self.trained: set[int] = set()  # the models whose parameters an optimizer steps
        # Per optimizer: the models it took the parameters of, and where each was then.
        self.held_parameters: dict[int, list[tuple[int, Value | None]]] = {}
        self.loaded: dict[str, dict[str, Value]] = {}
        self._absl: Ref | None = None  # absl's `flags.FLAGS`, once a run reads it
        self._relaunched = False  # a child process was started (``_CHILD_LAUNCHES``)
        self.entry = entry
        try:
            env = self._load(entry, main=not function)
            if function and env is not None:
                target = env.get(function)
                if isinstance(target, Function):
                    self._call(target, [], {}, f"{entry}:1")
        except (_Stop, _Exit):
            pass
        except RecursionError:
            self.trace.stopped = f"{entry}:1"
        except Exception as err:  # noqa: BLE001 - a bug here must not take the run down
            self.trace.stopped = f"{entry}:1"
            self.trace.failure = f"{type(err).__name__}: {err}"
        self.trace.trains_nearby = any(
            self.modules.calls_backward(path) for path in self.trace.modules
        )
        # Any code that builds an optimizer or a module to train: without it a `backward()`
        # only shows a gradient.
        self.trace.trains_parameters = any(
            self.modules.names_training(path) for path in self.trace.modules
        )
        self.trace.other_device = self._other_device()
        if not self.trace.stopped and self.observed is None:
            # (A run that only observes the launch's flags needs no functions off its path.)
            self._functions_off_path()
        return self.trace

    def _functions_off_path(self) -> None:
        """A module-level function or class of a module the run loaded, none of whose lines ran,
        whose every mention in the modules the run loaded is the callee of a call on a line off
        the launch path (or in another such function): its lines are off the launch path too
        (yolov5's `check_train_batch_size`, called only under `if batch_size == -1:`, off by
        default; a K-FAC optimizer built only under `if acktr:`). A decorated one, one never
        mentioned, or one mentioned any other way (handed on, a base class, imported under
        another name) is left alone: it may run another way."""
        loaded = {path: self.modules.definitions(path) for path in sorted(self.trace.modules)}
        defs = {(path, node.name): node for path, found in loaded.items() for node in found.defined}
        if not defs:
            return
        if self.facts.backend == "xla":
            self._data_parallel_hooks_off_path(defs)
        mentions: dict[str, list[tuple[str, int, bool]]] = {}  # name -> (path, line, a callee)
        for name in {name for _, name in defs}:
            for path, found in loaded.items():
                mentions.setdefault(name, []).extend(
                    (path, line, callee) for line, callee in found.mentions.get(name, ())
                )
        off, ran = self.trace.off_path, self.trace.ran
        changed = True
        while changed:
            changed = False
            for (path, name), node in defs.items():
                last = node.end_lineno or node.lineno
                body = range(node.lineno, last + 1)
                if node.lineno in off.get(path, {}) or ran.get(path, set()).intersection(body):
                    continue
                found = mentions.get(name, [])
                whys = []
                for where, line, callee in found:
                    if where == path and line in body:
                        continue  # a call of itself
                    why = off.get(where, {}).get(line)
                    if not callee or why is None or line in ran.get(where, set()):
                        break
                    whys.append(why)
                else:
                    if not whys:
                        continue
                    upstream = whys[0].replace(" is called only where ", ", called only where ", 1)
                    if upstream != whys[0]:
                        why = f"`{name}` is called only by {upstream}"
                    else:
                        why = f"`{name}` is called only where {whys[0]}"
                    lines = off.setdefault(path, {})
                    for line in body:
                        lines.setdefault(line, why)
                    changed = True

    def _data_parallel_hooks_off_path(self, defs: Mapping[tuple[str, str], ast.AST]) -> None:
        """The hooks a subclass of `nn.DataParallel` overrides to spread a batch over the GPUs
        (`scatter`, `replicate`, `parallel_apply`, `gather`) never run on XLA: without CUDA
        `device_ids` is [] and DataParallel's forward calls the module directly (torch 2.9
        nn/parallel/data_parallel.py). Their lines are off the launch path, and with them the
        module functions only they call (a CUDA stream per device)."""
        classes: dict[str, ast.ClassDef] = {
            name: node for (_, name), node in defs.items() if isinstance(node, ast.ClassDef)
        }

        def spreads(name: str, seen: frozenset[str] = frozenset()) -> bool:
            if name == "DataParallel":
                return True
            node = classes.get(name)
            if node is None or name in seen:
                return False
            return any(spreads(_base_name(b), seen | {name}) for b in node.bases)

        for (path, name), node in defs.items():
            if not isinstance(node, ast.ClassDef) or not any(
                spreads(_base_name(b)) for b in node.bases
            ):
                continue
            ran = self.trace.ran.get(path, set())
            lines = self.trace.off_path.setdefault(path, {})
            for item in node.body:
                if not isinstance(item, ast.FunctionDef) or item.name not in _SPREADING_HOOKS:
                    continue
                body = range(item.lineno, (item.end_lineno or item.lineno) + 1)
                if ran.intersection(body):
                    continue
                why = (
                    f"`{name}.{item.name}` spreads a batch over GPUs: DataParallel calls it only "
                    "with CUDA devices, and on XLA it has none (`device_ids` is [])"
                )
                for line in body:
                    lines.setdefault(line, why)

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
            if not isinstance(statement, _COMPOUND):
                end = statement.end_lineno or statement.lineno
                self.trace.ran.setdefault(frame.path, set()).update(
                    range(statement.lineno, end + 1)
                )
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
            if (
                self.observed is None
                and isinstance(node.value, ast.Call)
                and self._exits(node.value, frame)
            ):
                # `sys.exit(1)`: the process ends here, as a `raise` ends the function (a run
                # that only observes the launch's flags goes on, to see them all).
                frame.done = True
                if not self._undecided and not self._relaunched:
                    # (After a child process that may run the program again, `mpirun ...
                    # sys.argv` and `sys.exit()`, the exit ends this process only.)
                    why = "; ".join(f"{w.text} ({w.path}:{w.line})" for w in frame.under[-2:])
                    self._event("exit", frame, node.value, why)
                    raise _Exit
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

            keys = self._keys(iterable, node)
            if keys is None:
                self._loop(node, frame, bind)
            for key in keys or ():
                # `for arg in vars(args): config[arg] = getattr(args, arg)`: once per key.
                self._loop(node, frame, lambda f, k=key: self._bind(node.target, Const(value=k), f))
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
            frame.env[node.name] = ClassRef(
                path=frame.path,
                name=node.name,
                node=node,
                closure=frame.env if frame.env is not frame.globals else None,
            )
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
            self._skipped_imports(node, frame)
            if not frame.done:
                self._block(node.orelse, frame)  # type: ignore[attr-defined]
            done, frame.done = frame.done, False
            self._block(node.finalbody, frame)  # type: ignore[attr-defined]
            frame.done = frame.done or done

    def _skipped_imports(self, node: ast.stmt, frame: Frame) -> None:
        """`try: import apex` / `except ImportError: pass`: a CUDA-only package is absent on the
        target, so the import fails there and the handler leaves the name unbound. The name
        holds a marker of that, and a call through it on the launch path is where the program
        stops (NameError)."""
        handlers = getattr(node, "handlers", [])
        caught = any(
            h.type is None
            or any(
                isinstance(t, ast.Name) and t.id in _IMPORT_ERRORS
                for t in (h.type.elts if isinstance(h.type, ast.Tuple) else [h.type])
            )
            for h in handlers
        )
        if not caught:
            return
        rebinds = {
            target.id
            for h in handlers
            for statement in ast.walk(h)
            if isinstance(statement, ast.Assign)
            for target in statement.targets
            if isinstance(target, ast.Name)
        }
        for statement in node.body:  # type: ignore[attr-defined]
            if not isinstance(statement, ast.Import | ast.ImportFrom):
                continue
            if isinstance(statement, ast.ImportFrom):
                names = [(statement.module or "", a.asname or a.name) for a in statement.names]
            else:
                names = [(a.name, a.asname or a.name.split(".", 1)[0]) for a in statement.names]
            for module, local in names:
                if cuda_library(module) is None or local in rebinds or local == "*":
                    continue  # `except ImportError: apex = None` binds it: a test can see it
                frame.env[local] = Unknown(
                    at=f"{frame.path}:{statement.lineno}", reason=f"{_MISSING}{module}"
                )

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
            if skipped:
                why = f"`{_code(node.test, frame, self)}` is {decided} ({frame.path}:{node.lineno})"
                if test.why:
                    cause = test.why[0]
                    why += f": {cause.text} ({cause.path}:{cause.line})"
                lines = self.trace.off_path.setdefault(frame.path, {})
                last = skipped[-1].end_lineno or skipped[-1].lineno
                for line in range(skipped[0].lineno, last + 1):
                    lines.setdefault(line, why)
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
        self._undecided += 1
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
        self._undecided -= 1
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
                    if name == "__eval__" and a != b:
                        mine.attrs.pop(name, None)  # eval mode on one branch: not shown
                        continue
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
                self._import_unreadable(alias.name, node, frame)
                path = self.modules.resolve(frame.path, alias.name)
                if alias.asname:
                    frame.env[alias.asname] = self._module_value(path, alias.name)
                else:
                    head = alias.name.split(".", 1)[0]
                    head_path = self.modules.resolve(frame.path, head)
                    frame.env[head] = self._module_value(head_path, head)
            return
        spec = "." * node.level + (node.module or "")
        self._import_unreadable(spec, node, frame)
        module = self.modules.resolve(frame.path, spec) if spec.strip(".") or node.level else None
        if spec.strip(".") == "" and node.level:
            module = self.modules.resolve(frame.path, spec)
        if module is not None and not node.level:
            names = [a.name for a in node.names if a.name != "*"]
            module = self.modules.defining(frame.path, spec, module, names)
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

    def _import_unreadable(self, spec: str, node: ast.AST, frame: Frame) -> None:
        """An import of a module of the program the tool could not read: an "unreadable" event
        with the module and why (`from examples import *` of a file that uses `async` as a
        name: Python raises SyntaxError at that import)."""
        if not self.unreadable or spec.split(".", 1)[0] in _LIBRARIES:
            return
        name = spec.lstrip(".").replace(".", "/")
        folder = posixpath.dirname(frame.path)
        if spec.startswith("."):
            for _ in range(len(spec) - len(spec.lstrip(".")) - 1):
                folder = posixpath.dirname(folder)
            name = posixpath.join(folder, name) if name else folder
        for path, why in self.unreadable.items():
            stem = path.removesuffix(".py").removesuffix("/__init__")
            if stem == name or stem.endswith("/" + name) and not spec.startswith("."):
                self._event("unreadable", frame, node, f"{path}|{why}")
                return

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
        elif isinstance(target, ast.Subscript):
            # `config[arg] = getattr(args, arg)`: a key of a decided mapping; any other
            # subscript (a tensor's slice, a list's item) changes nothing the run follows.
            owner = self._expr(target.value, frame)
            key = self._expr(target.slice, frame)
            held = self.heap.get(owner.id) if isinstance(owner, Ref) else None
            if held is not None and held.kind == "mapping":
                if isinstance(key, Const) and isinstance(key.value, str):
                    held.attrs[key.value] = value
                else:
                    held.attrs.clear()  # a key the run cannot read: any of them may change
            elif isinstance(owner, Dict) and isinstance(target.value, ast.Name):
                kept = tuple((k, v) for k, v in owner.items if k != getattr(key, "value", k))
                if isinstance(key, Const):
                    frame.env[target.value.id] = Dict(items=(*kept, (key.value, value)))
                else:
                    frame.env[target.value.id] = Dict()

    def _unpack(self, value: Value, count: int, node: ast.AST, frame: Frame) -> list[Value]:
        if isinstance(value, Seq) and len(value.items) == count:
            return list(value.items)
        if isinstance(value, Tensor):
            return [value] * count  # a batch: its parts are where it is
        if isinstance(value, Each):
            return [value.item] * count  # `x, y = (b.to(device) for b in batch)`
        if isinstance(value, Ref) and self.heap.get(value.id, Obj("")).kind == "namespace":
            return [value] + [Unknown()] * (count - 1)
        host = isinstance(value, Unknown) and value.host  # `_, _, H, W = x.shape`
        at = f"{frame.path}:{getattr(node, 'lineno', 0)}"
        return [Unknown(at=at, reason="", host=host)] * count

    def _cuts(self, value: Value) -> bool:
        """A loader whose batches cut the step (`MpDeviceLoader`)."""
        obj = self.heap.get(value.id) if isinstance(value, Ref) else None
        return obj is not None and obj.kind == "loader" and bool(obj.attrs.get("__cuts__"))

    def _keys(self, iterable: Value, node: ast.For | ast.AsyncFor) -> list[str] | None:
        """The keys of a decided mapping a loop of plain assignments walks (`for arg in
        vars(args): config[arg] = getattr(args, arg)`), where the run takes the body once per
        key; None for any other loop, whose body runs once."""
        held = self.heap.get(iterable.id) if isinstance(iterable, Ref) else None
        if held is None or held.kind != "mapping" or not isinstance(node.target, ast.Name):
            return None
        if not all(isinstance(s, ast.Assign) for s in node.body) or node.orelse:
            return None
        keys = [k for k in held.attrs if isinstance(k, str)]
        return keys if 0 < len(keys) <= _UNROLLED_KEYS else None

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
            if all(i == first for i in items):
                return first
            # Items that differ but are all host data (`("The dog ate".split(), ["DET", "NN"])`
            # pairs of a tagging tutorial): one of them is host data too, never a tensor.
            return Unknown(host=all(_host_data(i) for i in items))
        if isinstance(iterable, Ref):
            obj = self.heap.get(iterable.id)
            if obj is not None and obj.kind == "loader":
                place = obj.place or Device(kind="cpu")
                if obj.attrs.get("__fields__"):  # torchtext's batches: `batch.src` is a tensor
                    return self._new(Obj("batch", place=place, built=obj.built))
                return Tensor(place=place)
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
            value = self._attribute(self._expr(node.value, frame), node.attr, node, frame)
            if self.observed is not None:
                self._observe(node, value, frame)
            return value
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
        if isinstance(node, (ast.ListComp, ast.GeneratorExp, ast.SetComp)):
            return self._comprehension(node, frame)
        if isinstance(node, ast.DictComp):
            # Its values, each made once with the targets bound (as a list comprehension's
            # elements): `{n: cycle(n) for n in lengths}` holds generators of `cycle`.
            value = ast.GeneratorExp(elt=node.value, generators=node.generators)
            return self._comprehension(ast.copy_location(value, node), frame)
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
        if isinstance(node, (ast.Yield, ast.YieldFrom)):
            value = self._expr(node.value, frame)
            if frame.yields is not None:
                frame.yields.append(
                    self._element(value) if isinstance(node, ast.YieldFrom) else value
                )
            return Unknown(at=f"{frame.path}:{node.lineno}")  # what the caller sends back
        return Unknown(at=f"{frame.path}:{getattr(node, 'lineno', 0)}")

    def _comprehension(
        self, node: ast.ListComp | ast.GeneratorExp | ast.SetComp, frame: Frame
    ) -> Value:
        """`(b.to(device) for b in batch)`: an iterable whose every item is the element, run
        once with each target bound to one item of what it iterates (a loop, as a ``for``
        statement's body is). The targets live in the comprehension's own scope."""
        names = {
            n.id for g in node.generators for n in ast.walk(g.target) if isinstance(n, ast.Name)
        }
        saved = {name: frame.env[name] for name in names if name in frame.env}
        outer = self._current_loops
        self._current_loops = (*outer, next(self._ids))
        try:
            for generator in node.generators:
                self._bind(
                    generator.target, self._element(self._expr(generator.iter, frame)), frame
                )
            return Each(item=self._expr(node.elt, frame))
        finally:
            self._current_loops = outer
            for name in names:
                frame.env.pop(name, None)
            frame.env.update(saved)

    def _grow(self, node: ast.Call, args: list[Value], frame: Frame) -> None:
        """`items.append(x.to(device))`: the list held by a name or an attribute is, from here
        on, a list of its items and the new one (``Each``; an item unlike the others makes the
        item unknown). A list shared under another name keeps what it held there."""
        method = node.func
        if not (
            isinstance(method, ast.Attribute)
            and method.attr in ("append", "extend", "insert")
            and isinstance(method.value, (ast.Name, ast.Attribute))
        ):
            return
        held = self._expr(method.value, frame)
        if not isinstance(held, (Seq, Each)) or len(args) != (2 if method.attr == "insert" else 1):
            return
        added = args[-1]
        new = self._element(added) if method.attr == "extend" else added
        items = [*(held.items if isinstance(held, Seq) else (held.item,)), new]
        at = f"{frame.path}:{node.lineno}"
        item = items[0]
        for other in items[1:]:
            item = _join(
                item, other, at, f"`{_code(method.value, frame, self)}` holds unlike items"
            )
        self._bind(method.value, Each(item=item), frame)

    def _observe(self, node: ast.Attribute, value: Value, frame: Frame) -> None:
        """Keeps what ``node`` held: a flag only the launch decided (an option's default or
        launch-line value, an environment default), else ``_OPEN``."""
        spelled = dotted(node)
        if spelled is not None:
            self._observe_as(spelled, value, frame)

    def _observe_key(self, node: ast.Subscript, key: Const, value: Value, frame: Frame) -> None:
        """A key of a mapping copied from the parsed options (`config["force_cpu"]` after
        `config[arg] = getattr(args, arg)` over `vars(args)`): an option's value, spelled
        with the key's repr for the device pass."""
        spelled = dotted(node.value)
        if spelled is not None and self.observed is not None and isinstance(key.value, str):
            self._observe_as(f"{spelled}[{key.value!r}]", value, frame, copied=True)

    def _observe_as(self, spelled: str, value: Value, frame: Frame, copied: bool = False) -> None:
        seen = self.observed.setdefault((frame.path, spelled), set())  # type: ignore[union-attr]
        launched = bool(value.why) and all(isinstance(w, Launched) for w in value.why)
        if copied:  # the copy adds the assignment's reason after the launch's
            launched = bool(value.why) and isinstance(value.why[0], Launched)
        flag = isinstance(value, Const) and (value.value is None or type(value.value) is bool)
        seen.add(value.value if launched and flag else _OPEN)  # type: ignore[attr-defined]

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
        if isinstance(owner, Unknown) and owner.reason.startswith(_MISSING):
            return owner  # `apex.parallel.convert_syncbn_model`: the same unbound package
        if isinstance(owner, OneOf):
            found = [self._attribute(c, attr, node, frame) for c in live_choices(owner)]
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
        if isinstance(owner, External) and owner.name == "absl.flags.FLAGS":
            owner = self._absl_flags()
        if isinstance(owner, External):
            name = f"{owner.name}.{attr}"
            if name.startswith("torch.cuda.") and name.endswith("Tensor"):
                return TensorType(kind="cuda", spelled=name)
            if name.startswith("torch.") and name.endswith("Tensor") and name.count(".") == 1:
                return TensorType(kind="cpu", spelled=name)
            if name in self.facts.false_attributes:
                path, line = _split(at)
                return Const(
                    value=False, why=(Why(path, line, f"`{name}` is False on the target"),)
                )
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
            if attr in _HOST_ATTRIBUTES:
                return Unknown(at=at, host=True)
            return Bound(target=owner, name=attr)
        if isinstance(owner, Ref):
            obj = self.heap.get(owner.id)
            if obj is None:
                return Unknown(at=at)
            if attr in obj.attrs:
                return obj.attrs[attr]
            if obj.kind == "batch":
                return Tensor(place=obj.place)
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
        if isinstance(owner, Each) and attr in ("items", "values", "copy"):
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
                        closure=cls.closure,
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
                    self._observe_key(node, key, v, frame)
                    return v
            return Unknown(at=at, reason=f"`{_code(node, frame, self)}`")
        if (
            isinstance(owner, Dict)
            and 0 < len(owner.items) <= _REGISTRY_CHOICES
            and all(isinstance(v, Function | ClassRef) for _, v in owner.items)
        ):
            # A registry of the program's functions or classes looked up by a key the evaluator
            # does not decide (`loss_registry[config.model.type](model, x, t)`): one of them. A
            # larger one (a dict of a dozen model classes) stays undecided: following each class
            # spent an entry point's budget (pytorch-semseg's `get_model`).
            values = tuple(dict.fromkeys(v for _, v in owner.items))
            if len(values) == 1:
                return values[0]
            why = f"`{_code(node.slice, frame, self)}` is undecided"
            return OneOf(choices=values, at=at, reason=why)
        if isinstance(owner, Ref) and isinstance(key, Const) and isinstance(key.value, str):
            obj = self.heap.get(owner.id)
            if obj is not None and obj.kind == "mapping" and key.value in obj.attrs:
                value = obj.attrs[key.value]
                self._observe_key(node, key, value, frame)
                return value  # `h["num_gpus"]` of an `AttrDict(config)`, `config["force_cpu"]`
        if isinstance(owner, Tensor):
            return owner
        if isinstance(owner, Unknown) and owner.host:
            return owner  # `x.shape[2:]`
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
                if self.observed is not None and _target_fact(value):
                    # `torch.cuda.is_available() and args.cuda`: the check is made true on the
                    # target (TRN021), and then the flags after it decide: read them, for the
                    # passes (``launch_decisions``), without changing what this run takes.
                    index = node.values.index(operand)
                    for rest in node.values[index + 1 :]:
                        while isinstance(rest, ast.UnaryOp) and isinstance(rest.op, ast.Not):
                            rest = rest.operand  # `... and not config["force_cpu"]`
                        if isinstance(rest, ast.Attribute | ast.Subscript):
                            self._expr(rest, frame)
                return value
            result = value
        if undecided is not None:
            return Unknown(
                at=getattr(undecided, "at", "") or f"{frame.path}:{node.lineno}",
                reason=_reason(undecided),
            )
        return result if result is not None else Const()

    def _compare(self, node: ast.Compare, frame: Frame) -> Value:
        counter = self._loop_counter(node)
        if counter:
            # `if dqn.memory_counter > MEMORY_CAPACITY: dqn.learn()` in an episode loop: the
            # first iteration's value does not decide the later ones.
            for operand in (node.left, *node.comparators):
                self._expr(operand, frame)
            return Unknown(
                at=f"{frame.path}:{node.lineno}",
                reason=f"`{counter}` is a counter the loop adds to",
            )
        left = self._expr(node.left, frame)
        why: tuple[Why, ...] = left.why
        for op, right_node in zip(node.ops, node.comparators, strict=True):
            right = self._expr(right_node, frame)
            why = (*why, *right.why)
            if isinstance(op, _ELEMENTWISE) and (
                isinstance(left, Tensor) or isinstance(right, Tensor)
            ):
                # `(ids != pad).view(b, 1, 1, -1)`: a mask, where the tensor compared is.
                return left if isinstance(left, Tensor) else right
            result = _compare(op, left, right)
            if result is None:
                # A comparison with a string, or by identity or membership, gives a bool on the
                # host however it turns out (`preact = (opt.distill == "abound")`), not a tensor.
                host = isinstance(op, ast.Is | ast.IsNot | ast.In | ast.NotIn) or any(
                    isinstance(v, Const) and isinstance(v.value, str) for v in (left, right)
                )
                return Unknown(
                    at=f"{frame.path}:{node.lineno}",
                    reason=_reason(left if not isinstance(left, Const) else right),
                    host=host,
                )
            if not result:
                return Const(value=False, why=why[-3:])
            left = right
        return Const(value=True, why=why[-3:])

    def _loop_counter(self, node: ast.Compare) -> str:
        """Inside a loop, an operand of ``node`` that some module adds to in place (a plain
        name or attribute), else ""."""
        if not self._current_loops:
            return ""
        counters = self.modules.counters()
        for operand in (node.left, *node.comparators):
            name = operand.id if isinstance(operand, ast.Name) else getattr(operand, "attr", "")
            if isinstance(operand, ast.Name | ast.Attribute) and name in counters:
                return name
        return ""

    def _binop(self, op: ast.operator, left: Value, right: Value, node: ast.AST, frame: Frame):
        if isinstance(left, Tensor):
            return left
        if isinstance(right, Tensor):
            return right
        if isinstance(op, ast.Add) and isinstance(left, Seq) and isinstance(right, Seq):
            return Seq(items=left.items + right.items)  # `params += [{"params": [value]}]`
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
        # Arithmetic on a number read on the host (`img.shape[3] / size[1]`) is a host number:
        # neither operand is a tensor the evaluator knows of.
        host = any(isinstance(v, Unknown) and v.host for v in (left, right))
        return Unknown(at=f"{frame.path}:{getattr(node, 'lineno', 0)}", host=host)

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
                elif isinstance(value, Each):
                    # `model(*data)` after `data = tuple(d.to(device) for d in data)`: items
                    # alike, however many (one stands for them all).
                    args.append(value.item)
                else:
                    args.append(Unknown(at=f"{frame.path}:{node.lineno}", reason="*args"))
            else:
                args.append(value)
        kwargs: dict[str, Value] = {}
        for keyword in node.keywords:
            value = self._expr(keyword.value, frame)
            if keyword.arg:
                kwargs[keyword.arg] = value
            elif isinstance(value, Dict):  # `Trainer(**config["trainer_params"])`
                kwargs.update((k, v) for k, v in value.items if isinstance(k, str))
            elif isinstance(value, Ref) and self.heap.get(value.id, _NOTHING).kind == "mapping":
                kwargs.update(self.heap[value.id].attrs)  # `Trainer(**cfg.trainer)`
        at = f"{frame.path}:{node.lineno}"
        self._grow(node, args, frame)
        if isinstance(func, Unknown) and func.reason.startswith(_MISSING) and not self._undecided:
            # A call through a CUDA-only package whose import the program skips when it fails.
            self._event("missing-package", frame, node, func.reason[len(_MISSING) :])
        if (
            isinstance(node.func, ast.Attribute)
            and node.func.attr == "backward"
            and not isinstance(func, Bound)
        ):
            self._event("backward", frame, node)  # `loss.backward()` on a value not followed
        if (
            isinstance(node.func, ast.Attribute)
            and node.func.attr == "fit"
            and self._unfollowed(func)
        ):
            self._fits_lightning_module(func, args, kwargs, at, node, frame)
        return self._apply(func, args, kwargs, at, node, frame)

    def _unfollowed(self, method: Value) -> bool:
        """A method of an object the evaluator did not follow: of an unknown value, or of an
        instance whose class has no such method of the program's own (derived from a library's
        class)."""
        if isinstance(method, Unknown):
            return True
        if not (isinstance(method, Bound) and method.function is None):
            return False
        target = self.heap.get(method.target.id) if isinstance(method.target, Ref) else None
        return target is not None and target.kind == "instance"

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
            choices = live_choices(func)
            results = [self._apply(c, args, kwargs, at, node, frame) for c in choices]
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
        if isinstance(func, TensorType):
            # `Tensor(n, 2)` of a legacy type (`Tensor = torch.cuda.FloatTensor if cuda else
            # ...`): a tensor on the type's device; a CUDA one raises without CUDA
            # ([measured-cuda-tensor-types]), which the inputs' place on CUDA says.
            return Tensor(place=Device(kind=func.kind, spelled=func.spelled, why=func.why))
        if isinstance(func, Tensor) and isinstance(func.place, Device):
            # A value the evaluator did not follow (`get_backbone(name)` by `eval`), moved by
            # `.to(device)` and called: a module, whose output is where it was moved.
            return self._model_call_unfollowed(func, args, kwargs, at, node, frame)
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
        if not isinstance(node, ast.Lambda):
            generator = self._generators.get(key)
            if generator is None:
                generator = self._generators[key] = _is_generator(node)
            if generator:
                frame.yields = []
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
        if frame.yields is not None:
            # A generator function (`def cycle(): while True: yield src.to(device)`): calling it
            # gives an iterator whose every item is one of the values its body yields.
            if not frame.yields:
                return Unknown(at=at)
            return Each(
                item=_joined(frame.yields, at, f"`{function.qualname}` yields more than one value")
            )
        if not frame.returns:
            return Const()
        return _joined(frame.returns, at, f"`{function.qualname}` returns more than one value")

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
                reason = f"`{param.arg}`"
                if index == 0 and self._composed_by_hydra(node, defining):
                    reason += _HYDRA_COMPOSES
                value = Unknown(at=f"{function.path}:{node.lineno}", reason=reason)
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

    def _composed_by_hydra(self, node: ast.AST, frame: Frame) -> bool:
        """A function under ``@hydra.main(...)``: Hydra hands it the configuration it composes."""
        for decorator in getattr(node, "decorator_list", ()):
            func = decorator.func if isinstance(decorator, ast.Call) else decorator
            if self._name_of(func, frame) == "hydra.main":
                return True
        return False

    def _new(self, obj: Obj) -> Ref:
        key = next(self._ids)
        self.heap[key] = obj
        return Ref(id=key)

    def _instantiate(self, cls, args, kwargs, at, node, frame) -> Value:
        if _is_dict_class(cls) and len(args) == 1 and isinstance(args[0], Dict) and not kwargs:
            # `AttrDict(config)`, a `dict` whose keys are also its attributes (`h.num_gpus`):
            # the items it is built from, read either way.
            items = {k: v for k, v in args[0].items if isinstance(k, str)}
            return self._new(Obj("mapping", attrs=items, cls=cls, built=at))
        if args and isinstance(args[0], Ref) and self._wraps_as_library(cls):
            # A subclass of nn.DataParallel (or DDP) that only overrides its hooks (`scatter`,
            # `gather`): an instance runs the module it wraps, as the library class does.
            return self._external(self._library_base(cls), args, kwargs, at, node, frame)
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
            if model:
                self._place_submodules(self.heap[ref.id], {ref.id}, unmoved=True)
        elif cls.node is not None and is_dataclass(cls.node):
            self._dataclass_fields(cls, ref, args, kwargs)
        return ref

    def _library_base(self, cls: ClassRef) -> str:
        """The library wrapper (`torch.nn.DataParallel`) the program's class ``cls`` derives
        from, by its full name; "" where none."""
        for owner in self._lineage(cls):
            env = self.loaded.get(owner.path, {})
            for base in owner.node.bases if owner.node is not None else ():
                value = self._expr(base, Frame(owner.path, {}, env))
                if isinstance(value, External) and value.name.rsplit(".", 1)[-1] in _WRAPPERS:
                    return value.name
        return ""

    def _wraps_as_library(self, cls: ClassRef) -> bool:
        """``cls`` derives from a library wrapper and none of the program's classes in its
        lineage defines how it is built or called."""
        if not self._library_base(cls):
            return False
        return not any(
            isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef)
            and statement.name in ("__init__", "__new__", "forward", "__call__")
            for owner in self._lineage(cls)
            for statement in (owner.node.body if owner.node is not None else ())
        )

    def _dataclass_fields(self, cls: ClassRef, ref: Ref, args, kwargs) -> None:
        obj = self.heap[ref.id]
        index = 0
        # A dataclass's fields are its bases' and then its own, in order (`dataclasses` docs).
        statements = [
            (owner, statement)
            for owner in reversed(self._lineage(cls))
            for statement in (owner.node.body if owner.node is not None else ())
        ]
        for owner, statement in statements:
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
                        factory = next(
                            (k.value for k in value.keywords if k.arg == "default_factory"), None
                        )
                        if default is None and factory is not None:
                            # `default_factory=list`, `default_factory=lambda: [0, 1]`
                            if isinstance(factory, ast.Lambda) and not factory.args.args:
                                default = factory.body
                            elif isinstance(factory, ast.Name) and factory.id in ("list", "dict"):
                                default = (
                                    ast.List(elts=[])
                                    if factory.id == "list"
                                    else ast.Dict(keys=[], values=[])
                                )
                        obj.attrs[name] = (
                            self._class_expr(owner, default) if default is not None else Unknown()
                        )
                    else:
                        obj.attrs[name] = self._class_expr(owner, value)
                index += 1

    def _exits(self, call: ast.Call, frame: Frame) -> bool:
        """``call`` ends the process (``_EXITS``)."""
        name = call.func.attr if isinstance(call.func, ast.Attribute) else ""
        if isinstance(call.func, ast.Name):
            name = call.func.id
        if name not in ("exit", "_exit", "quit"):
            return False  # (only those spellings are looked up a second time)
        func = self._expr(call.func, frame)
        if isinstance(func, External):
            return func.name in _EXITS
        return isinstance(call.func, ast.Name) and call.func.id in ("exit", "quit")

    def _event(
        self, kind: str, frame: Frame, node: ast.AST, detail: str = "", on_cpu: bool = False
    ) -> None:
        where = f"{frame.path}:{getattr(node, 'lineno', 0)}"
        self.trace.events.append(Event(kind, where, self._current_loops, detail, on_cpu))

    def _method(self, target, name, args, kwargs, at, node, frame) -> Value:
        if isinstance(target, Seq) and name in ("items", "values", "copy"):
            # `dict(model.named_parameters()).items()`: each item with its key.
            if name == "items":
                return Seq(items=tuple(Seq(items=(Unknown(at=at), v)) for v in target.items))
            return target
        if isinstance(target, Each) and name in ("items", "values", "copy"):
            # A mapping a comprehension made (`{n: cycle(n) for n in lengths}.items()`).
            return (
                Each(item=Seq(items=(Unknown(at=at), target.item))) if name == "items" else target
            )
        if isinstance(target, Dict) and name in ("items", "values", "keys"):
            if name == "items":
                return Seq(items=tuple(Seq(items=(Const(value=k), v)) for k, v in target.items))
            if name == "keys":
                return Seq(items=tuple(Const(value=k) for k, _ in target.items))
            return Seq(items=tuple(v for _, v in target.items))
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
            if name == "format":
                if all(isinstance(a, Const) for a in (*args, *kwargs.values())):
                    try:
                        values = {k: v.value for k, v in kwargs.items()}  # type: ignore[union-attr]
                        text = target.value.format(*(a.value for a in args), **values)  # type: ignore[union-attr]
                        return Const(value=text, why=target.why)
                    except (IndexError, KeyError, TypeError, ValueError):
                        return Unknown(at=at)
                # `'cuda:{:d}'.format(rank)`: as for "cuda:{rank}", the prefix decides the kind.
                return Unknown(at=at, reason=f"prefix:{target.value.split('{', 1)[0]}")
            if name == "startswith" and args and isinstance(args[0], Const):
                try:
                    return Const(value=target.value.startswith(args[0].value), why=target.why)
                except TypeError:
                    return Unknown(at=at)
            # A string's other methods give strings, lists of them, numbers or bools: host
            # data, never a tensor (`"The dog ate the apple".split()`, a sentence to tag).
            return Unknown(at=at, host=True)
        if isinstance(target, Dict) and name == "get" and args and isinstance(args[0], Const):
            for k, v in target.items:
                if k == args[0].value:
                    return v
            return args[1] if len(args) > 1 else Const()
        return Unknown(at=at)


# -- helpers ------------------------------------------------------------------------------------
def _top_names(tree: ast.Module | None) -> frozenset[str]:
    """The names a module's top level binds (functions, classes, assignments, imports)."""
    if tree is None:
        return frozenset()
    names: set[str] = set()
    pending: list[ast.stmt] = list(tree.body)
    while pending:
        node = pending.pop()
        if isinstance(node, ast.If | ast.Try | ast.With):
            # `try: from x import A except ImportError: A = None`: bound at the top level too.
            for field in ("body", "orelse", "finalbody"):
                pending.extend(getattr(node, field, ()))
            for handler in getattr(node, "handlers", ()):
                pending.extend(handler.body)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
    return frozenset(names)


def _joined(values: list[Value], at: str, why: str) -> Value:
    result = values[0]
    for other in values[1:]:
        result = _join(result, other, at, why)
    return result


def _is_generator(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """A function whose own body (not a function, lambda or class defined in it) yields."""
    return any(isinstance(n, ast.Yield | ast.YieldFrom) for n in own_nodes(node))


def _host_data(value: Value) -> bool:
    """A constant, a value the run knows is on the host, or a sequence or mapping of them."""
    if isinstance(value, Const):
        return True
    if isinstance(value, Unknown):
        return value.host
    if isinstance(value, Seq):
        return all(_host_data(v) for v in value.items)
    if isinstance(value, Dict):
        return all(_host_data(v) for _, v in value.items)
    return False


_BUILTINS = frozenset(
    {"bool", "str", "int", "float", "enumerate", "zip", "iter", "next", "list", "tuple", "len"}
    | {"map", "dict", "sorted", "reversed", "vars", "getattr"}
    | {"isinstance", "hasattr", "callable", "print", "range", "super", "open"}
)
_UNDECIDED = "is undecided"
_UNROLLED_KEYS = 64  # a loop over a decided mapping's keys runs once per key up to this many
_MISSING = "missing package: "  # the reason of a name a skipped import left unbound
_IMPORT_ERRORS = frozenset({"ImportError", "ModuleNotFoundError", "Exception", "BaseException"})
_OPEN = object()  # an attribute read that held something other than a launch-decided flag
# Hydra composes a `@hydra.main` function's configuration from its config store, YAML files and
# the launch line's overrides (`+configs=an4 trainer.gpus=4`): not followed here.
_HYDRA_COMPOSES = (
    ", the configuration Hydra composes from its config store, its YAML files and each launch "
    "line's overrides, which the evaluator does not compose"
)
_NOTHING = Obj("")
# Libraries the facts speak for: never followed into a given module of the same name.
_LIBRARIES = frozenset(
    {"torch", "torch_xla", "torchvision", "transformers", "accelerate", "ignite", "lightning"}
    | {"pytorch_lightning", "argparse", "os", "tqdm", "itertools"}
)
_MODULE_BASES = frozenset(
    {"Module", "Sequential", "ModuleList", "LightningModule", "PreTrainedModel", "ModuleDict"}
)


# Statements whose lines hold others: a line of theirs ran only if a simple statement on it did.
_COMPOUND = (
    ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try,
    ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef,
)  # fmt: skip


def _is_dict_class(cls: ClassRef) -> bool:
    """A class of the program derived from ``dict`` whose keys are also its attributes: its
    ``__init__`` only hands its arguments to ``dict`` and makes its ``__dict__`` itself (the
    ``AttrDict`` of hifi-gan's ``env.py``), or its ``__getattr__`` is ``dict.__getitem__`` or
    ``dict.get``."""
    node = cls.node
    if node is None or not any(dotted(b) == "dict" for b in node.bases):
        return False
    attributes = False
    for statement in node.body:
        if isinstance(statement, ast.Assign) and ast.unparse(statement) in _DICT_GETATTR:
            attributes = True
        elif isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if statement.name != "__init__":
                return False  # a method of its own may read or change what it holds
            for inner in statement.body:
                spelled = ast.unparse(inner)
                if spelled == "self.__dict__ = self":
                    attributes = True
                elif not (
                    isinstance(inner, ast.Expr)
                    and isinstance(inner.value, ast.Call)
                    and spelled.startswith(("super(", "super().", "dict.__init__("))
                    and ".__init__(" in spelled
                ):
                    return False
    return attributes


_DICT_GETATTR = frozenset({"__getattr__ = dict.__getitem__", "__getattr__ = dict.get"})


@dataclass(frozen=True)
class LaunchFacts:
    """What the program's run before the passes tells each module (``launch_decisions``)."""

    # module -> attribute as spelled (`opt.no_cuda`) -> the value the launch gives it
    flags: dict[str, dict[str, bool | None]]
    # module -> the `if` tests (as written) whose availability check keeps a model on the CPU
    checks: dict[str, frozenset[str]]
    # module -> the lines binding a CUDA device's name that put a model or its batch on CUDA
    literals: dict[str, frozenset[int]] = field(default_factory=dict)
    # "path:line" of each `torch.save` of a checkpoint holding the parsed options
    options_saved: tuple[str, ...] = ()
    # "path:line" of each `torch.manual_seed` called by a run that trains (a backward, an
    # optimizer step) a model it places with `.to()`/`.cuda()`: the training process's seed,
    # wherever the helper that seeds is
    seeds: tuple[str, ...] = ()
    # The modules that only runs needing CUDA run: every entry point whose run, as the program
    # is written, runs code of the module moves a model or a tensor to CUDA on its launch path,
    # so on the target's host (no CUDA) the original does not run there at all
    needs_cuda: frozenset[str] = frozenset()
    # module -> (line of an optimizer's construction, line of the later statement that moves
    # the model it took the parameters of, on the CPU then), both in the module, as a run that
    # steps the optimizer shows them: on the XLA device the move gives the model new parameters
    stale_optimizers: dict[str, frozenset[tuple[int, int]]] = field(default_factory=dict)


def launch_decisions(
    texts: Mapping[str, str],
    facts: Facts,
    launched: Iterable[tuple[str, str]],
    scripts: Iterable[tuple[str, str]] = (),
    read_config: Callable[[str], str | None] | None = None,
) -> LaunchFacts:
    """The flags the launch decides, as every entry point's run of the program as given reads
    them: module -> attribute as spelled (`opt.no_cuda`) -> its value, where each read of it
    in that module held the same option default, launch-line value or environment default
    (issue 34: one evaluator answers the passes). A device pass reads its own module alone; an
    option defined in another module (`opt = get_opt()` over `opts.parse_opts()`), or with a
    `type=` function, is a question only the program's run answers.

    With them, per module, the `if` tests (as written) whose availability check, False on the
    target, is why a model the run calls stays on the CPU:
    `if torch.cuda.is_available() and not args.disable_cuda: args.device = ...` in a script
    whose model moves in another module (a device pass of that module alone sees no move)."""
    lines: dict[str, list[str]] = {}
    for path, line in launched:
        lines.setdefault(path, []).append(line)
    evaluator = Evaluator(texts, facts, lines, read_config)
    evaluator.observed = {}
    starts = entry_points(texts, set(lines), scripts)
    checks: dict[str, set[str]] = {}
    literals: dict[str, set[int]] = {}
    saved: set[str] = set()
    seeds: set[str] = set()
    stale: dict[str, set[tuple[int, int]]] = {}
    runs: dict[str, set[bool]] = {}  # module -> whether each run that ran it needs CUDA
    for path, function in starts:
        trace = evaluator.run(path, function)
        _cuda_literals(trace, literals)
        _stale_optimizers(trace, stale)
        saved |= {e.where for e in trace.events if e.kind == "saves-options"}
        kinds = {e.kind for e in trace.events}
        if kinds & {"backward", "optimizer"} and "model-move" in kinds:
            # A run that trains a model it places (on CUDA or a device the port makes the
            # accelerator): its seed is the training process's.
            seeds |= {e.where for e in trace.events if e.kind == "seed"}
        cuda = any(e.kind == "cuda" for e in trace.events)
        for module in trace.modules | {path}:
            runs.setdefault(module, set()).add(cuda)
        for call in trace.calls:
            # The model's place, and its inputs' (a batch moved to `torch.device(config.device)`
            # where the model is built by a name the run cannot follow).
            for place in _places(call):
                if not isinstance(place, Device) or place.kind != "cpu":
                    continue
                for why in place.why:
                    if why.text.endswith("is False on the target") and "is_available" in why.text:
                        line = _test_text(texts.get(why.path, ""), why.line)
                        if line:
                            checks.setdefault(why.path, set()).add(line)
    if checks:
        # The checks are made true (TRN021): the program then goes where the value they
        # guarded names (`config.device = "cpu"` skipped, the defaults' "cuda" kept). Run it so,
        # for the CUDA names it then uses, each the device pass rewrites where it is bound.
        available = "torch.cuda.is_available"
        facts_after = replace(
            facts,
            false_calls=facts.false_calls - {available},
            true_calls=facts.true_calls | {available},
        )
        after = Evaluator(texts, facts_after, lines, read_config)
        for path, function in starts:
            trace = after.run(path, function)
            _cuda_literals(trace, literals)
            # An optimizer built before a move to the device the check chose (`device =
            # torch.device("cuda" if torch.cuda.is_available() else "cpu")`, made the target's
            # by the port) is stale once ported, as one before a move to "cuda" is.
            _stale_optimizers(trace, stale)
    found: dict[str, dict[str, bool | None]] = {}
    for (path, spelled), seen in evaluator.observed.items():
        if len(seen) == 1:
            (value,) = seen
            if value is not _OPEN:
                found.setdefault(path, {})[spelled] = value  # type: ignore[assignment]
    return LaunchFacts(
        found,
        {path: frozenset(tests) for path, tests in checks.items()},
        {path: frozenset(lines) for path, lines in literals.items()},
        tuple(sorted(saved)),
        tuple(sorted(seeds)),
        frozenset(m for m, cuda in runs.items() if cuda == {True}),
        {path: frozenset(pairs) for path, pairs in stale.items()},
    )


# `_C.DEVICE = 'cuda'`, `device: str = 'cuda:0'`: a binding of a CUDA device's name.
_CUDA_BINDING = re.compile(r"^`[\w.\[\]'\"]+(: \w+)? = '(cuda|cuda:0)'`$")


def _target_fact(value: Value) -> bool:
    """A truth the target's facts give (`torch.cuda.is_available()` is False there)."""
    return bool(value.why) and value.why[-1].text.endswith(" on the target")


def _places(call: ModelCall) -> list[Value]:
    """Where a model call's model (not a loss module) and its inputs are."""
    return ([] if call.loss else [call.place]) + [place for _, place in call.inputs]


def _stale_optimizers(trace: Trace, stale: dict[str, set[tuple[int, int]]]) -> None:
    """Add to ``stale`` (module -> (optimizer's line, move's line)) each optimizer ``trace``
    shows built over a model's CPU parameters before a later move of the model in its module."""
    for event in trace.events:
        if event.kind == "moved-after-optimizer":
            built, _, moved = event.detail.partition("|")
            (where, _, line), (other, _, at) = built.rpartition(":"), moved.rpartition(":")
            if where == other and line.isdigit() and at.isdigit():
                stale.setdefault(where, set()).add((int(line), int(at)))


def _cuda_literals(trace: Trace, literals: dict[str, set[int]]) -> None:
    """Where the CUDA device a model or its batch is put on was first named: a string bound
    in a configuration module (`_C.DEVICE = "cuda"`), which the device pass there reads as
    text only."""
    for call in trace.calls:
        for place in _places(call):
            if isinstance(place, Device) and place.kind == "cuda" and place.why:
                first = place.why[0]
                if _CUDA_BINDING.match(first.text):
                    literals.setdefault(first.path, set()).add(first.line)


def _test_text(text: str, line: int) -> str:
    """The test of the `if`/`elif` on ``line`` of ``text``, as written on one line, else ""."""
    lines = text.splitlines()
    if not 0 < line <= len(lines):
        return ""
    source = lines[line - 1].strip()
    for keyword in ("if ", "elif ", "if(", "elif("):
        if source.startswith(keyword) and source.endswith(":"):
            return " ".join(source[len(keyword.rstrip("(")) : -1].split())
    return ""
