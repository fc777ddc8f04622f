"""`torch.distributions` objects built every step with argument validation on: the checks read
each parameter and each `log_prob` value on the host ([measured-distribution-validation,
torch-distribution-validation]). `validate_args=False` is added to each such constructor.

Every step: in a training or evaluation loop (``analysis.loops``: its body and the loops nested
in it, not functions or lambdas defined there, not the body of an interval guard), in a function
or method a training step in another function or module runs every step
(``ModuleView.step_functions``: a model's `forward`, an agent's `act`), in a method that steps
an optimizer once per iteration of a loop (``ModuleView.called_steps``), and in a function of the
file these call by name or a method they call on `self`. Never in dataset code (`__getitem__`, a collate function, a
`Dataset`'s methods), where the parameters are host tensors, nor where every argument visibly is
one (`Beta(0.4, 0.4)`, `Uniform(torch.zeros(1), torch.ones(1))`): validating a host tensor
copies nothing. Nothing where the module, or a module the program's run reaches, turns
validation off for the process (`Distribution.set_default_validate_args(False)`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import libcst as cst
from libcst.metadata import ParentNodeProvider

from trncodemod.analysis.distributions import (
    SWITCH,
    VALIDATE_ARGS_POSITION,
    distribution_class,
    turns_validation_off,
)
from trncodemod.analysis.facts import FileFacts
from trncodemod.analysis.loops import dotted, find_step_loops, is_interval_guard
from trncodemod.analysis.nodes import children, find
from trncodemod.analysis.training import import_specs
from trncodemod.findings import Rule, Safety, Severity
from trncodemod.passes import Pass
from trncodemod.rewriting.calls import append_keyword
from trncodemod.targets import Target

_SCOPES = (cst.FunctionDef, cst.ClassDef, cst.Lambda)
# Dataset code runs on the host, in the loader's workers.
_HOST_FUNCTIONS = re.compile(r"collate|^__(getitem|iter|next|len)__$", re.IGNORECASE)
_HOST_CLASSES = re.compile(r"(Dataset|Sampler)$")
# torch factories that make a tensor on the CPU unless given a device.
_FACTORIES = frozenset(
    f"torch.{name}"
    for name in (
        "tensor",
        "as_tensor",
        "from_numpy",
        "zeros",
        "ones",
        "full",
        "eye",
        "arange",
        "linspace",
        "empty",
        "rand",
        "randn",
        "Tensor",
        "FloatTensor",
        "LongTensor",
    )
)


class DistributionValidationInStep(Rule):
    """## What it does
    Adds `validate_args=False` to a `torch.distributions` object built every training or
    evaluation step with no `validate_args` given (`Normal(mu, std)`, `Categorical(logits=x)`,
    `torch.distributions.normal.Normal(...)`, `D.Categorical(...)`, and a class of the file that
    derives from one without its own `__init__`): in the step loop, in a function or `forward`
    the step runs (across modules, with the chain of calls in the finding), in a method that
    steps an optimizer and is called once per iteration of a loop (`agent.update(...)`), or in
    a function of the file these call by name or a method they call on `self`. Left alone: `validate_args` given (by keyword or position),
    `**kwargs` passed on, dataset and collate code, a constructor whose arguments are all
    visibly host values (numbers, torch factories without a device), one built once outside the
    step, and every constructor of a program that calls
    `torch.distributions.Distribution.set_default_validate_args(False)`.

    ## Why
    Validation is on by default (as Python's `assert`: off only under `python -O`)
    [torch-distribution-validation]: building a distribution checks each parameter against its
    constraint and `log_prob` checks its value, each with `torch._is_all_true(...)` read on the
    host: a graph execution and a device-to-host copy each, every step. Measured on XLA:CPU
    [measured-distribution-validation]: a VAE step (q(z|x) and p(z) built in `forward`,
    `Normal(x_tilde, 1).log_prob(x)` in the loop) made 40 graph executions and 35 host copies
    in 5 steps, against 5 and 0 with `validate_args=False` (the same with the global switch),
    and the same weights after them; a policy-gradient update with `Categorical(logits=...)`
    15 and 10 against 5 and 0. `Normal` reads 2 values when built and 1 per `log_prob`,
    `Categorical` 1 and 1.

    It is a `review` fix: it changes what happens on invalid parameters, nothing else
    [measured-distribution-validation]: `Normal(0, scale=0).log_prob(1)` raises `ValueError` with validation and gives `nan` without,
    so a loss that diverges to NaN (a NaN `loc`) no longer stops the run at the distribution;
    check the loss every N steps instead. To keep the constructors as written, turn validation
    off once for the whole program with
    `torch.distributions.Distribution.set_default_validate_args(False)` (the tool then leaves
    every constructor alone), or run with `python -O`.

    ## Example
    ```python
    def forward(self, x):
        mu, logvar = self.encoder(x).chunk(2, dim=1)
        q_z_x = Normal(mu, logvar.mul(0.5).exp())
    ```

    ## Use instead
    ```python
    def forward(self, x):
        mu, logvar = self.encoder(x).chunk(2, dim=1)
        q_z_x = Normal(mu, logvar.mul(0.5).exp(), validate_args=False)
    ```
    """

    code = "TRN128"
    name = "distribution-validation-in-step"
    summary = "`torch.distributions` object built every step validates its arguments on the host"
    fixable = True
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = (
        "measured-distribution-validation",
        "torch-distribution-validation",
        "xla-troubleshoot",
    )


class DistributionValidation(Pass):
    name = "distribution-validation"
    rules = (DistributionValidationInStep,)
    needles = ("distributions",)

    @classmethod
    def candidate(cls, facts: FileFacts, target: Target) -> bool:
        return facts.reaches("torch.distributions")

    def visit_Module(self, node: cst.Module) -> bool:
        self.edits: set[cst.Call] = set()
        if self.run.program.distribution_checks_off or self._switched_off():
            return False
        subclasses = self._subclasses(node)
        seen: set[cst.Call] = set()
        for region, when in self._per_step(node):
            for call in _calls(region):
                if call in seen:
                    continue
                seen.add(call)
                self._check(call, when, subclasses)
        return bool(self.edits)

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.Call:
        if original_node in self.edits:
            return append_keyword(updated_node, "validate_args", cst.Name("False"))
        return updated_node

    # -- where a constructor runs every step ---------------------------------------------------
    def _switched_off(self) -> bool:
        facts = self.run.facts
        if facts is None or SWITCH not in facts.text:
            return False
        imports = import_specs(facts.tree)[0]

        def full_name(reference: str) -> str:
            head, dot, rest = reference.partition(".")
            spec, colon, name = imports.get(head, head).partition(":")
            return (f"{spec}.{name}" if colon else spec) + dot + rest

        return turns_validation_off(facts.tree, full_name)

    def _per_step(self, module: cst.Module) -> Iterator[tuple[cst.CSTNode, str]]:
        """Each region of code that runs every step, with when it runs."""
        functions, methods = _definitions(module)
        called: list[tuple[cst.FunctionDef, str, str]] = []  # (function, its class, when)
        for info in find_step_loops(module).values():
            when = (
                "every training step"
                if info.kind == "train"
                else "every step of a loop that runs the model"
            )
            yield info.node.body, when
            owner = self._class_of(info.node)
            called.extend(
                (functions.get(name) or methods[name], name.rpartition(".")[0], when)
                for name in _called(info.node.body, owner, functions, methods)
            )
        program = self.run.program
        reached = [(q, f"every training step ({chain})") for q, chain in program.step_functions]
        reached += [
            (q, f"every training step (once per iteration of the loop at {loop})")
            for q, loop in program.called_steps
        ]
        for qualname, when in reached:
            function = methods.get(qualname) or functions.get(qualname)
            if function is not None:
                called.append((function, qualname.rpartition(".")[0], when))
        done: set[cst.FunctionDef] = set()
        while called:
            function, owner, when = called.pop(0)
            if function in done or _host_code(function, module):
                continue
            done.add(function)
            yield function.body, when
            for name in _called(function.body, owner, functions, methods):
                found = functions.get(name) or methods[name]
                called.append((found, name.rpartition(".")[0], when))

    def _class_of(self, node: cst.CSTNode) -> str:
        """The class whose method holds ``node`` ("" for none)."""
        parent = self.get_metadata(ParentNodeProvider, node, None)
        while parent is not None and not isinstance(parent, cst.ClassDef):
            parent = self.get_metadata(ParentNodeProvider, parent, None)
        return parent.name.value if parent is not None else ""

    def _subclasses(self, module: cst.Module) -> dict[str, str]:
        """Classes of the file that derive from a torch.distributions class and keep its
        constructor (no `__init__` of their own) -> that class."""
        found = {}
        for statement in module.body:
            if not isinstance(statement, cst.ClassDef) or any(
                isinstance(s, cst.FunctionDef) and s.name.value == "__init__"
                for s in statement.body.body
            ):
                continue
            for base in statement.bases:
                torch_class = self._torch_class(base.value)
                if torch_class is not None:
                    found[statement.name.value] = torch_class
        return found

    def _torch_class(self, func: cst.BaseExpression) -> str | None:
        if not isinstance(func, cst.Name | cst.Attribute):
            return None
        for name in self.qualified_names(func):
            found = distribution_class(name)
            if found is not None:
                return found
        return None

    # -- one constructor -----------------------------------------------------------------------
    def _check(self, call: cst.Call, when: str, subclasses: dict[str, str]) -> None:
        torch_class = self._torch_class(call.func)
        if torch_class is None and isinstance(call.func, cst.Name):
            torch_class = subclasses.get(call.func.value)
        if torch_class is None or not call.args:
            return
        if any(arg.star for arg in call.args):
            return  # `*args` / `**kwargs` may carry validate_args
        if any(
            arg.keyword is not None and arg.keyword.value == "validate_args" for arg in call.args
        ):
            return
        positional = sum(1 for arg in call.args if arg.keyword is None)
        if positional > VALIDATE_ARGS_POSITION[torch_class]:
            return  # given by position
        if all(self._on_host(arg.value) for arg in call.args):
            return
        spelled = dotted(call.func) or torch_class
        kind = "" if spelled.rsplit(".", 1)[-1] == torch_class else f" (a `{torch_class}`)"
        message = (
            f"`{spelled}(...)`{kind} is built {when} with argument validation on: each check "
            "of a parameter, and of each `log_prob` value, executes the graph and copies to the "
            "host (measured on XLA:CPU: a VAE's three took its step from 1 graph execution to "
            "8); `validate_args=False` added, so an invalid parameter (a NaN from a diverged "
            "loss) gives NaN instead of raising `ValueError`; or turn validation off once for "
            "the program with `torch.distributions.Distribution.set_default_validate_args(False)`"
        )
        if self.report(call, DistributionValidationInStep, message, True):
            self.edits.add(call)

    def _on_host(self, node: cst.BaseExpression) -> bool:
        """Visibly a host value: a number, a torch factory given no device, `.cpu()`, or
        arithmetic of those."""
        if isinstance(node, cst.Integer | cst.Float):
            return True
        if isinstance(node, cst.UnaryOperation):
            return self._on_host(node.expression)
        if isinstance(node, cst.BinaryOperation):
            return self._on_host(node.left) and self._on_host(node.right)
        if not isinstance(node, cst.Call):
            return False
        if isinstance(node.func, cst.Attribute) and node.func.attr.value == "cpu":
            return True
        given = {arg.keyword.value for arg in node.args if arg.keyword is not None}
        return "device" not in given and bool(self.qualified_names(node.func) & _FACTORIES)


def _calls(region: cst.CSTNode) -> Iterator[cst.Call]:
    """The calls that run where ``region`` runs: not in functions, classes or lambdas defined
    there, nor under an interval guard (`if step % 100 == 0:`)."""
    stack = [region]
    while stack:
        node = stack.pop()
        if isinstance(node, cst.Call):
            yield node
        for child in reversed(children(node)):
            if isinstance(child, _SCOPES):
                continue
            if isinstance(child, cst.If) and is_interval_guard(child.test):
                stack.append(child.test)
                if child.orelse is not None:
                    stack.append(child.orelse)
                continue
            stack.append(child)


def _definitions(
    module: cst.Module,
) -> tuple[dict[str, cst.FunctionDef], dict[str, cst.FunctionDef]]:
    """The file's top-level functions by name, and its classes' methods as ``Class.method``."""
    functions: dict[str, cst.FunctionDef] = {}
    methods: dict[str, cst.FunctionDef] = {}
    for statement in module.body:
        if isinstance(statement, cst.FunctionDef):
            functions[statement.name.value] = statement
        elif isinstance(statement, cst.ClassDef):
            for inner in statement.body.body:
                if isinstance(inner, cst.FunctionDef):
                    methods[f"{statement.name.value}.{inner.name.value}"] = inner
    return functions, methods


def _called(
    region: cst.CSTNode,
    owner: str,
    functions: dict[str, cst.FunctionDef],
    methods: dict[str, cst.FunctionDef],
) -> list[str]:
    """The file's functions ``region`` calls by name, and in a method of class ``owner`` the
    methods it calls on `self` (`self.forward(s)`, `self(s)`: ``Class.forward``)."""
    found = []
    for call in _calls(region):
        func = call.func
        if isinstance(func, cst.Name):
            if func.value in functions:
                found.append(func.value)
            elif owner and func.value == "self" and f"{owner}.forward" in methods:
                found.append(f"{owner}.forward")
        elif owner and isinstance(func, cst.Attribute) and dotted(func.value) == "self":
            if f"{owner}.{func.attr.value}" in methods:
                found.append(f"{owner}.{func.attr.value}")
    return found


def _host_code(function: cst.FunctionDef, module: cst.Module) -> bool:
    """Dataset code: a collate function, `__getitem__`/`__iter__`, a `Dataset`'s method."""
    if _HOST_FUNCTIONS.search(function.name.value):
        return True
    for statement in module.body:
        if isinstance(statement, cst.ClassDef) and function in find(statement, cst.FunctionDef):
            return any(_HOST_CLASSES.search(dotted(base.value) or "") for base in statement.bases)
    return False
