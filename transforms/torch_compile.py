"""`torch.compile` on the target: Inductor cannot compile for an XLA device, and TorchNeuron has
its own Dynamo backend with its own limits (issue 12; torch_xla `perf/dynamo.md`; Neuron
`torch/compile/reference-torch-compile`; [torchneuron-overview])."""

from __future__ import annotations

from dataclasses import replace

import libcst as cst
from libcst.metadata import ParentNodeProvider

from trncodemod.analysis.device import analyse
from trncodemod.analysis.facts import FileFacts, may_resolve
from trncodemod.findings import Rule, Safety, Severity
from trncodemod.passes import Pass, per_tree
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


class TorchCompile(Pass):
    name = "torch-compile"
    rules = (CompileOnXla, CompileOnNeuron)
    needles = ("compile",)

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
                facts = per_tree(module, "device", lambda m: analyse(m, self.module_names))
                if facts.truth(parent.test) is False:
                    return cst.Module([]).code_for_node(parent.test)
            child, parent = parent, self.get_metadata(ParentNodeProvider, parent, None)
        return None

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if not self.is_any(original_node.func, _COMPILE):
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
