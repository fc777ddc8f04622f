"""`torch.compile` on the target: Inductor cannot compile for an XLA device, and TorchNeuron has
its own Dynamo backend with its own limits (issue 12; torch_xla `perf/dynamo.md`; Neuron
`torch/compile/reference-torch-compile`; [torchneuron-overview])."""

from __future__ import annotations

from dataclasses import replace

import libcst as cst
from libcst.metadata import ParentNodeProvider

from trncodemod.analysis.facts import FileFacts, may_resolve
from trncodemod.analysis.loops import dotted, find_step_loops
from trncodemod.analysis.nodes import find
from trncodemod.analysis.trained_models import TrainedModels, scope_of
from trncodemod.findings import Rule, Safety, Severity
from trncodemod.passes import Pass
from trncodemod.rewriting.calls import append_keyword, without_keyword
from trncodemod.targets import Target

_COMPILE = frozenset({"torch.compile"})
# torch_xla's Dynamo backends: "openxla" for training and inference, "openxla_eval" for inference.
_XLA_BACKENDS = ("openxla", "openxla_eval")


class CompileOnXla(Rule):
    """## What it does
    On the XLA targets, gives `torch.compile` torch_xla's Dynamo backend: `backend="openxla"` is
    added where no backend is named (also to a bare `@torch.compile` decorator), and
    `backend="inductor"` becomes `"openxla"`. Another backend, a backend held in a variable, or
    `**kwargs` that may hold one is reported.

    ## Why
    The default backend, Inductor, generates Triton or C++ kernels and has no code generator for the
    `xla` device: a compiled model called on XLA tensors raises `InductorError: KeyError: 'xla'`
    ([measured-dynamo], with torch 2.9.0 and torch-xla 2.9.0, PJRT CPU, a `torch.compile(model)`
    training step). torch_xla supports Dynamo through `torch.compile(model, backend="openxla")`
    ([xla-dynamo]), measured to train [measured-dynamo] with `mode=`, `dynamic=` and `fullgraph=` as
    given. torch_xla calls Dynamo training experimental (it splits forward, backward and optimizer
    into separate graphs): dropping `torch.compile` altogether, so the lazy tensor compiles the
    whole step, is the other choice a person may make.

    ## Example
    ```python
    model = torch.compile(model)
    ```

    ## Use instead
    ```python
    model = torch.compile(model, backend="openxla")
    ```
    """

    code = "TRN154"
    name = "torch-compile-xla"
    summary = '`torch.compile` on XLA → `backend="openxla"` (Inductor cannot compile for XLA)'
    safety = Safety.REVIEW
    severity = Severity.BLOCKER
    sources = ("xla-dynamo", "measured-dynamo")


class CompileOnNeuron(Rule):
    """## What it does
    On the `neuron` target, rewrites `torch.compile` to TorchNeuron's form: `backend="neuron"`
    where no backend (or `"inductor"`) is named, `mode=` removed, and `dynamic=False` (added,
    or in place of `dynamic=True`). A bare `@torch.compile` decorator gets the same arguments.
    Another backend, a `dynamic=`/`backend=` held in a variable, or `**kwargs` is reported.

    ## Why
    TorchNeuron compiles through its own TorchDynamo backend,
    `torch.compile(model, backend="neuron")`, with no Inductor. Its parameter table: `mode`
    "Unsupported (default only) … reduce-overhead, max-autotune, and
    max-autotune-no-cudagraphs have no effect"; `dynamic=True` "is rejected during
    compilation"; shapes that vary recompile per shape (Neuron `reference-torch-compile`;
    [torchneuron-overview]: "Remove CUDA-specific parameters like `mode=`", "use `dynamic=False`").

    ## Example
    ```python
    model = torch.compile(model, mode="max-autotune")
    ```

    ## Use instead
    ```python
    model = torch.compile(model, backend="neuron", dynamic=False)
    ```
    """

    code = "TRN155"
    name = "torch-compile-neuron"
    summary = '`torch.compile` on TorchNeuron → `backend="neuron"`, no `mode=`, `dynamic=False`'
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = ("torchneuron-compile", "torchneuron-overview")


class CompileTrainedOnXla(Rule):
    """## What it does
    On the XLA targets, drops `torch.compile` from a model that is trained: `model =
    torch.compile(model)` is removed (`fast = torch.compile(model)` becomes `fast = model`), and
    a bare `@torch.compile` comes off a step function. Where the compile is the only statement of
    an `if` (`if cfg.compile: model = torch.compile(model)`), the `if` goes with it when its test
    only reads names, attributes, subscripts and comparisons, and `pass` takes its place
    otherwise. "Trained" means the compiled model is called in a training loop of the file (a
    loop that calls `.backward()` or steps an optimizer), followed through the file's own
    functions: a helper that compiles and returns it (`g, ema, d = build_model(cfg)`) and a
    function it is handed to (`train(g, ...)`, or `forward_loss(model, x, y)` called by the
    loop each step). A model that is also evaluated loses the compile too (its evaluation
    runs in fewer graph executions without it, [measured-compile-trained]); one that is only evaluated or
    averaged (an EMA copy) keeps it, with `backend="openxla"` (TRN154). Only where dropping is
    certain: `torch.compile` gets the model and nothing else, the file reads no `_orig_mod`
    (the compiled wrapper's attribute), and the switch that turns the compile on is read nowhere
    else (a checkpoint loader told whether keys carry `_orig_mod.` would then look for keys the
    model no longer has). Elsewhere it is reported, and TRN154 gives it `backend="openxla"` so
    that it runs. Nothing changes for `--target neuron`, where `torch.compile(model,
    backend="neuron")` is the path (TRN155).

    Without the compile a model's `state_dict()` keys lose the `_orig_mod.` prefix: checkpoints
    saved before the port by a compiled model load into the ported one only where the loader
    strips the prefix (`strict=True` otherwise fails loudly on the key names).

    ## Why
    Under the lazy tensor, torch_xla traces the whole training step (forward, backward and
    optimizer) into one graph at each cut. Through Dynamo, AOT Autograd splits it into forward,
    backward and optimizer graphs; torch_xla's documentation says "PyTorch/XLA also supports
    Dynamo for training, but it is experimental" ([xla-dynamo]). Measured on XLA:CPU with torch
    2.9.0 and torch-xla 2.9.0 ([measured-compile-trained]: a two-layer trainer, 6 steps, then 6
    evaluation batches that read the loss): `torch.compile(model, backend="openxla")` gave 4.0
    graph executions a step and 6 compiles, the same loop without `torch.compile` 1.0 and 1,
    with the same loss; its evaluation 2.0 executions a batch against 1.0. An EMA copy compiled
    with `backend="openxla"` costs the training step nothing (1.17 executions a step either way:
    its forward does not run there). A switch read again is measured on srgan's own loader
    ([measured-compile-switch]): with the compile dropped and the switch left on, a checkpoint
    saved by the compiled model loads 0 of 4 tensors with no error, and one saved by the port
    raises; with the switch off, 4 of 4.

    ## Example
    ```python
    model = torch.compile(model)
    for x, y in loader:
        loss_fn(model(x), y).backward()
        optimizer.step()
    ```

    ## Use instead
    ```python
    for x, y in loader:
        loss_fn(model(x), y).backward()
        optimizer.step()
    ```
    """

    code = "TRN436"
    name = "torch-compile-trained-xla"
    summary = (
        "`torch.compile` of a model trained on XLA → dropped (the lazy tensor traces the step)"
    )
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = ("xla-dynamo", "measured-compile-trained", "measured-compile-switch")


def _string(node: cst.BaseExpression) -> str | None:
    if isinstance(node, cst.SimpleString):
        value = node.evaluated_value
        return value if isinstance(value, str) else None
    return None


def _keyword(call: cst.Call, name: str) -> cst.Arg | None:
    return next((a for a in call.args if a.keyword and a.keyword.value == name), None)


def _replace(call: cst.Call, name: str, value: cst.BaseExpression) -> cst.Call:
    return call.with_changes(
        args=[
            a.with_changes(value=value) if a.keyword and a.keyword.value == name else a
            for a in call.args
        ]
    )


def _pure(node: cst.BaseExpression) -> bool:
    """Whether evaluating ``node`` only reads: names, attributes, subscripts by constants,
    comparisons, `and`/`or`/`not` and constants (an `if` with such a test may go whole)."""
    if isinstance(node, cst.Name | cst.SimpleString | cst.Integer | cst.Float):
        return True
    if isinstance(node, cst.Attribute):
        return _pure(node.value)
    if isinstance(node, cst.Subscript):
        return _pure(node.value) and all(
            isinstance(e.slice, cst.Index) and _pure(e.slice.value) for e in node.slice
        )
    if isinstance(node, cst.Comparison):
        return _pure(node.left) and all(_pure(c.comparator) for c in node.comparisons)
    if isinstance(node, cst.BooleanOperation):
        return _pure(node.left) and _pure(node.right)
    if isinstance(node, cst.UnaryOperation):
        return _pure(node.expression)
    return False


def _switches(test: cst.BaseExpression) -> list[cst.BaseExpression]:
    """The flags an `if` test reads as truth values: `args.compile`, `cfg["G"]["COMPILED"]`,
    each operand of `and`/`or`/`not` (not the operands of a comparison: `m is not None`)."""
    if isinstance(test, cst.BooleanOperation):
        return [*_switches(test.left), *_switches(test.right)]
    if isinstance(test, cst.UnaryOperation):
        return _switches(test.expression)
    return [test] if isinstance(test, cst.Name | cst.Attribute | cst.Subscript) else []


def _is_read(node: cst.CSTNode, parents: dict[cst.CSTNode, cst.CSTNode]) -> bool:
    """Whether ``node`` is an expression read where it stands: not bound by an assignment, not
    the attribute part of `torch.compile`, not a keyword or parameter name."""
    parent = parents.get(node)
    if isinstance(parent, cst.AssignTarget | cst.AnnAssign | cst.AugAssign):
        return getattr(parent, "target", None) is not node
    if isinstance(parent, cst.Attribute) and parent.attr is node:
        return False
    if isinstance(parent, cst.Arg) and parent.keyword is node:
        return False
    return not isinstance(parent, cst.Param | cst.ImportAlias | cst.FunctionDef | cst.ClassDef)


class TorchCompile(Pass):
    name = "torch-compile"
    rules = (CompileOnXla, CompileOnNeuron, CompileTrainedOnXla)
    needles = ("compile",)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # Planned in visit_Module: statements and decorators to drop (a statement -> what takes
        # its place, None to remove it), and the compile calls they hold (TRN154 leaves them).
        self._drops: dict[cst.CSTNode, cst.BaseSmallStatement | None] = {}
        self._dropped: set[cst.CSTNode] = set()

    def visit_Module(self, node: cst.Module) -> None:
        if not self.target.is_xla:
            return  # TorchNeuron's own backend is the path there (TRN155)
        loops = list(find_step_loops(node).values())
        if not any(info.kind == "train" for info in loops):
            return
        parents = self.parents()
        models = TrainedModels(node, loops, parents)
        # A statement on its own line, or the one-line body of `if c: model = ...`.
        for line in find(node, cst.SimpleStatementLine, cst.SimpleStatementSuite):
            if len(line.body) == 1 and isinstance(line.body[0], cst.Assign):
                self._plan_assignment(node, line, line.body[0], models, parents)
        for function in find(node, cst.FunctionDef):
            self._plan_decorator(function, models.trained(node, function.name.value))

    def _plan_assignment(self, module, line, assign, models: TrainedModels, parents) -> None:
        call = assign.value
        if not isinstance(call, cst.Call) or not self.is_any(call.func, _COMPILE):
            return
        if len(assign.targets) != 1:
            return
        name = dotted(assign.targets[0].target)
        scope = scope_of(line, parents)
        if name is None or scope is None or not models.trained(scope, name):
            return
        reason = None
        if len(call.args) != 1 or call.args[0].keyword is not None or call.args[0].star:
            reason = "options are passed to it"
        model = dotted(call.args[0].value) if call.args else None
        if reason is None and model is None:
            reason = "what it compiles is not a name"
        reason = reason or self._kept_by(module, line, name, parents)
        holder: cst.CSTNode = line
        replacement: cst.BaseSmallStatement | None = None
        if model != name:
            replacement = cst.Assign(
                targets=[cst.AssignTarget(cst.parse_expression(name))],
                value=cst.parse_expression(model or name),
            )
        elif isinstance(line, cst.SimpleStatementSuite) or len(parents.get(line).body) < 2:
            # The block's only statement: its `if` goes whole where the test only reads and
            # nothing else hangs on it, otherwise `pass` keeps the block.
            block = line if isinstance(line, cst.SimpleStatementSuite) else parents.get(line)
            owner = parents.get(block) if block is not None else None
            outer = parents.get(owner) if owner is not None else None
            if (
                isinstance(owner, cst.If)
                and owner.body is block
                and owner.orelse is None
                and _pure(owner.test)
                and isinstance(outer, cst.IndentedBlock | cst.Module)
                and len(outer.body) > 1
            ):
                holder = owner
            else:
                replacement = cst.Pass()
        self._decide(call, name, reason, holder, replacement)

    def _kept_by(self, module, line, name: str, parents) -> str | None:
        """Why dropping the compile of ``name`` would change what else the file does, if so:
        the file reads a compiled model's `_orig_mod` (gone without the compile), or the switch
        that turns the compile on is read elsewhere too (srgan's `COMPILED` also chooses how
        checkpoint keys are read: a compiled model's start with `_orig_mod.`)."""
        for attribute in find(module, cst.Attribute):
            if attribute.attr.value == "_orig_mod":
                return f"`_orig_mod` of a compiled model is read at line {self._line(attribute)}"
        scope = scope_of(line, parents)
        child, parent = line, parents.get(line)
        while parent is not None and parent is not scope:
            if isinstance(parent, cst.If) and child is parent.body:
                inside = set(find(parent.test, cst.CSTNode))
                for switch in _switches(parent.test):
                    text = module.code_for_node(switch)
                    for other in find(module, type(switch)):
                        if (
                            other not in inside
                            and _is_read(other, parents)
                            # A bare name is the scope's own; `args.compile`, `cfg["COMPILED"]`
                            # name the same setting wherever the file reads them.
                            and (
                                not isinstance(switch, cst.Name)
                                or scope_of(other, parents) is scope
                            )
                            and module.code_for_node(other) == text
                        ):
                            return (
                                f"the switch that turns it on, `{text}`, is also read at line "
                                f"{self._line(other)}: turn the switch off instead (checkpoint "
                                "code may follow it: a compiled model's `state_dict()` keys "
                                "start with `_orig_mod.`)"
                            )
            child, parent = parent, parents.get(parent)
        return None

    def _line(self, node: cst.CSTNode) -> int:
        return int(self.place(node).rsplit(":", 2)[1])

    def _plan_decorator(self, function: cst.FunctionDef, trained: bool) -> None:
        name = function.name.value
        for decorator in function.decorators:
            expression = decorator.decorator
            bare = isinstance(expression, cst.Name | cst.Attribute)
            target = expression if bare else getattr(expression, "func", None)
            if target is None or not self.is_any(target, _COMPILE) or not trained:
                continue
            reason = None if bare else "options are passed to it"
            self._decide(expression, name, reason, decorator, None)

    def _decide(self, node, name: str, reason: str | None, holder, replacement) -> None:
        measured = (
            "Dynamo training is experimental in torch-xla 2.9, and on a small trainer it ran "
            "4.0 graphs a step and 6 compiles against 1.0 and 1 without the compile"
        )
        if reason is not None:
            self.report(
                node,
                CompileTrainedOnXla,
                f"`{name}` is trained in a loop of this file: drop `torch.compile` on XLA so that "
                f"the lazy tensor traces the whole step ({measured}); not dropped: {reason}",
                False,
            )
            return
        if isinstance(holder, cst.If):
            what = "its `if` removed"
        elif isinstance(replacement, cst.Assign):
            what = f"`{cst.Module([]).code_for_node(replacement)}`"
        elif isinstance(replacement, cst.Pass):
            what = "`pass`"
        else:
            what = "removed"
        if self.report(
            node,
            CompileTrainedOnXla,
            f"`torch.compile` of `{name}`, which is trained in a loop of this file: {what}, so "
            f"that the lazy tensor traces the whole step ({measured})",
            True,
        ):
            self._dropped.add(node)
            self._drops[holder] = replacement

    def leave_If(self, original_node: cst.If, updated_node: cst.If) -> cst.If | cst.RemovalSentinel:
        return cst.RemovalSentinel.REMOVE if original_node in self._drops else updated_node

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> cst.SimpleStatementLine | cst.RemovalSentinel:
        if original_node not in self._drops:
            return updated_node
        replacement = self._drops[original_node]
        if replacement is None:
            return cst.RemovalSentinel.REMOVE
        return updated_node.with_changes(
            body=[replacement],
            trailing_whitespace=cst.TrailingWhitespace(newline=cst.Newline()),
        )

    def leave_SimpleStatementSuite(
        self, original_node: cst.SimpleStatementSuite, updated_node: cst.SimpleStatementSuite
    ) -> cst.SimpleStatementSuite:
        # Planned only with a statement in its place (`pass`, `fast = net`): a suite is a body.
        replacement = self._drops.get(original_node)
        return updated_node.with_changes(body=[replacement]) if replacement else updated_node

    def leave_FunctionDef(
        self, original_node: cst.FunctionDef, updated_node: cst.FunctionDef
    ) -> cst.FunctionDef:
        kept = [
            new
            for old, new in zip(original_node.decorators, updated_node.decorators, strict=True)
            if old not in self._drops
        ]
        if len(kept) == len(updated_node.decorators):
            return updated_node
        return updated_node.with_changes(decorators=kept)

    @classmethod
    def candidate(cls, facts: FileFacts, target: Target) -> bool:
        # Every finding and rewrite is at a call or bare decorator that resolves to
        # torch.compile (leave_Call, leave_Decorator).
        return may_resolve(facts, _COMPILE)

    def report(self, node: cst.CSTNode, rule: type[Rule], message: str, fixed: bool) -> bool:
        reported = super().report(node, rule, message, fixed)
        if reported and not fixed and rule.severity is Severity.BLOCKER:
            flag = self._opt_in(node)
            if flag is not None:
                # `if args.compile:` with the flag off by default: the program a person runs
                # by default does not compile, so this does not keep it off the accelerator.
                last = self.findings[-1]
                self.findings[-1] = replace(
                    last,
                    message=f"{last.message} (opt-in: `{flag}` is off by default)",
                    severity=Severity.WARNING,
                )
        return reported

    def _opt_in(self, node: cst.CSTNode) -> str | None:
        """The test of an `if` around ``node`` that is False on a default run, if any."""
        child, parent = node, self.get_metadata(ParentNodeProvider, node, None)
        while parent is not None:
            if isinstance(parent, cst.If) and child is parent.body:
                module = self._wrapper.module
                facts = self.device_facts(module)
                if facts.truth(parent.test) is False:
                    return cst.Module([]).code_for_node(parent.test)
            child, parent = parent, self.get_metadata(ParentNodeProvider, parent, None)
        return None

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if original_node in self._dropped or not self.is_any(original_node.func, _COMPILE):
            return updated_node
        if any(a.star == "**" for a in original_node.args):
            rule = CompileOnXla if self.target.is_xla else CompileOnNeuron
            self.report(
                original_node,
                rule,
                "`torch.compile` with `**kwargs`: make sure its backend is "
                + (
                    '"openxla"'
                    if self.target.is_xla
                    else '"neuron", with no `mode` and `dynamic=False`'
                ),
                False,
            )
            return updated_node
        if self.target.is_xla:
            return self._xla(original_node, updated_node)
        return self._neuron(original_node, updated_node)

    def leave_Decorator(
        self, original_node: cst.Decorator, updated_node: cst.Decorator
    ) -> cst.Decorator:
        # A bare `@torch.compile`: the call form with the target's arguments.
        decorator = original_node.decorator
        if decorator in self._dropped:
            return updated_node
        if not isinstance(decorator, cst.Name | cst.Attribute) or not self.is_any(
            decorator, _COMPILE
        ):
            return updated_node
        call = cst.Call(func=updated_node.decorator)  # type: ignore[arg-type]
        new = self._xla(decorator, call) if self.target.is_xla else self._neuron(decorator, call)
        return updated_node.with_changes(decorator=new) if new is not call else updated_node

    def _xla(self, node: cst.CSTNode, call: cst.Call) -> cst.Call:
        backend = _keyword(call, "backend")
        value = _string(backend.value) if backend is not None else None
        if value in _XLA_BACKENDS:
            return call
        if backend is not None and value != "inductor":
            self.report(
                node,
                CompileOnXla,
                f"`torch.compile` with backend `{cst.Module([]).code_for_node(backend.value)}`: "
                'on an XLA device use `backend="openxla"` (Inductor and GPU backends cannot '
                "compile for it), or drop `torch.compile`",
                False,
            )
            return call
        what = '`backend="inductor"` → `"openxla"`' if backend else '`backend="openxla"` added'
        if not self.report(
            node,
            CompileOnXla,
            f"Inductor cannot compile for an XLA device: {what} (torch_xla's Dynamo backend; "
            "training through it is experimental, dropping `torch.compile` lets the lazy tensor "
            "compile the whole step)",
            True,
        ):
            return call
        openxla = cst.SimpleString('"openxla"')
        return (
            _replace(call, "backend", openxla)
            if backend
            else append_keyword(call, "backend", openxla)
        )

    def _neuron(self, node: cst.CSTNode, call: cst.Call) -> cst.Call:
        backend = _keyword(call, "backend")
        value = _string(backend.value) if backend is not None else None
        dynamic = _keyword(call, "dynamic")
        dynamic_value = dynamic.value if dynamic is not None else None
        if (backend is not None and value not in ("inductor", "neuron")) or (
            dynamic_value is not None
            and not (
                isinstance(dynamic_value, cst.Name)
                and dynamic_value.value in ("True", "False", "None")
            )
        ):
            self.report(
                node,
                CompileOnNeuron,
                'TorchNeuron compiles with `torch.compile(model, backend="neuron", '
                "dynamic=False)` and no `mode=`: the backend or `dynamic` here is not one this "
                "tool can set for certain",
                False,
            )
            return call
        changes = []
        new = call
        if value != "neuron":
            neuron = cst.SimpleString('"neuron"')
            new = (
                _replace(new, "backend", neuron)
                if backend
                else append_keyword(new, "backend", neuron)
            )
            changes.append('`backend="neuron"`')
        if _keyword(call, "mode") is not None:
            new = without_keyword(new, "mode")
            changes.append("`mode=` removed (only the default mode applies)")
        if not (isinstance(dynamic_value, cst.Name) and dynamic_value.value == "False"):
            false = cst.Name("False")
            new = (
                _replace(new, "dynamic", false)
                if dynamic
                else append_keyword(new, "dynamic", false)
            )
            changes.append("`dynamic=False` (dynamic shapes are rejected)")
        if not changes or not self.report(
            node, CompileOnNeuron, f"TorchNeuron `torch.compile`: {', '.join(changes)}", True
        ):
            return call
        return new
