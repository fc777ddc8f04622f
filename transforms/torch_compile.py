"""`torch.compile` on the target: Inductor cannot compile for an XLA device, and TorchNeuron has
its own Dynamo backend with its own limits (issue 12; torch_xla `perf/dynamo.md`; Neuron
`torch/compile/reference-torch-compile`; [torchneuron-overview])."""

from __future__ import annotations

from dataclasses import replace

import libcst as cst
from libcst.metadata import ParentNodeProvider

from trncodemod.analysis.facts import FileFacts, may_resolve
from trncodemod.analysis.loops import dotted, find_step_loops, own_statements
from trncodemod.analysis.nodes import find
from trncodemod.findings import Rule, Safety, Severity
from trncodemod.passes import Pass
from trncodemod.rewriting.calls import append_keyword
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
    a bare `@torch.compile` comes off a step function. "Trained" means the compiled name is
    called in the body of a training loop of the file (a loop that calls `.backward()` or steps
    an optimizer). Only where dropping is certain: the compiled name is called in no evaluation
    or sampling loop, and `torch.compile` gets the model and nothing else. Where it is also used
    for inference, or options are passed (`mode=`, `fullgraph=`, a backend), it is reported, and
    TRN154 gives it `backend="openxla"` so that it runs. Nothing changes for `--target neuron`,
    where `torch.compile(model, backend="neuron")` is the path (TRN155).

    ## Why
    Under the lazy tensor, torch_xla traces the whole training step (forward, backward and
    optimizer) into one graph at each cut. Through Dynamo, AOT Autograd splits it into forward,
    backward and optimizer graphs; torch_xla's documentation says "PyTorch/XLA also supports
    Dynamo for training, but it is experimental" ([xla-dynamo]). Measured on XLA:CPU with torch
    2.9.0 and torch-xla 2.9.0 ([measured-compile-trained]: a two-layer trainer, 6 steps): `torch.compile(model, backend="openxla")` gave 4.0 graph
    executions a step and 6 compiles, the same loop without `torch.compile` 1.0 execution a step
    and 1 compile, with the same loss.

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
    sources = ("xla-dynamo", "measured-compile-trained")


def _string(node: cst.BaseExpression) -> str | None:
    if isinstance(node, cst.SimpleString):
        value = node.evaluated_value
        return value if isinstance(value, str) else None
    return None


def _keyword(call: cst.Call, name: str) -> cst.Arg | None:
    return next((a for a in call.args if a.keyword and a.keyword.value == name), None)


def _without(call: cst.Call, name: str) -> cst.Call:
    args = [a for a in call.args if not (a.keyword and a.keyword.value == name)]
    if args and len(args) < len(call.args):
        args[-1] = args[-1].with_changes(comma=call.args[-1].comma)
    return call.with_changes(args=args)


def _replace(call: cst.Call, name: str, value: cst.BaseExpression) -> cst.Call:
    return call.with_changes(
        args=[
            a.with_changes(value=value) if a.keyword and a.keyword.value == name else a
            for a in call.args
        ]
    )


def _called_names(loop: cst.CSTNode) -> set[str]:
    """Dotted names called in ``loop``'s own body: ``model(x)``, ``self.net(x)``."""
    return {
        name
        for node in own_statements(loop.body)  # type: ignore[attr-defined]
        if isinstance(node, cst.Call) and (name := dotted(node.func)) is not None
    }


def _scope(node: cst.CSTNode, parents: dict[cst.CSTNode, cst.CSTNode]) -> cst.CSTNode | None:
    """The function or module whose names ``node`` reads."""
    current = parents.get(node)
    while current is not None and not isinstance(current, cst.FunctionDef | cst.Module):
        current = parents.get(current)
    return current


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

        def uses(scope: cst.CSTNode) -> tuple[set[str], set[str]]:
            """Names called in the training loops, and in the other step loops, that see the
            names of ``scope``: its own loops (a module's: every loop of the file)."""
            own = [i for i in loops if scope is node or _scope(i.node, parents) is scope]
            trained = set().union(*(_called_names(i.node) for i in own if i.kind == "train"))
            inferred = set().union(*(_called_names(i.node) for i in own if i.kind != "train"))
            return trained, inferred

        for line in find(node, cst.SimpleStatementLine):
            if len(line.body) == 1 and isinstance(line.body[0], cst.Assign):
                trained, inferred = uses(_scope(line, parents))
                self._plan_assignment(line, line.body[0], trained, inferred, parents)
        trained, inferred = uses(node)
        for function in find(node, cst.FunctionDef):
            self._plan_decorator(function, trained, inferred)

    def _plan_assignment(self, line, assign, trained, inferred, parents) -> None:
        call = assign.value
        if not isinstance(call, cst.Call) or not self.is_any(call.func, _COMPILE):
            return
        if len(assign.targets) != 1:
            return
        name = dotted(assign.targets[0].target)
        if name is None or name not in trained:
            return
        reason = None
        if name in inferred:
            reason = f"`{name}` is also called in an evaluation or sampling loop"
        elif len(call.args) != 1 or call.args[0].keyword is not None or call.args[0].star:
            reason = "options are passed to it"
        model = dotted(call.args[0].value) if call.args else None
        block = parents.get(line)
        if reason is None and model is None:
            reason = "what it compiles is not a name"
        if reason is None and model == name and len(getattr(block, "body", ())) < 2:
            reason = "it is the only statement of its block"
        self._decide(call, name, reason, line, None if model == name else model)

    def _plan_decorator(self, function: cst.FunctionDef, trained, inferred) -> None:
        name = function.name.value
        for decorator in function.decorators:
            expression = decorator.decorator
            bare = isinstance(expression, cst.Name | cst.Attribute)
            target = expression if bare else getattr(expression, "func", None)
            if target is None or not self.is_any(target, _COMPILE) or name not in trained:
                continue
            reason = None
            if name in inferred:
                reason = f"`{name}` is also called in an evaluation or sampling loop"
            elif not bare:
                reason = "options are passed to it"
            self._decide(expression, name, reason, decorator, None)

    def _decide(self, node, name: str, reason: str | None, holder, kept: str | None) -> None:
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
        what = f"`{name} = {kept}`" if kept else "removed"
        if self.report(
            node,
            CompileTrainedOnXla,
            f"`torch.compile` of `{name}`, which is trained in a loop of this file: {what}, so "
            f"that the lazy tensor traces the whole step ({measured})",
            True,
        ):
            self._dropped.add(node)
            replacement = None
            if kept:
                replacement = cst.Assign(
                    targets=[cst.AssignTarget(cst.parse_expression(name))],
                    value=cst.parse_expression(kept),
                )
            self._drops[holder] = replacement

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
            new = _without(new, "mode")
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
