"""A training step with no device (issue 22, item 4): a loop that calls ``backward()`` or an
optimizer's ``step()`` in a program where nothing places anything on a device (no ``.to(...)``,
``.cuda()``, ``device=``, torch_xla, or a framework that moves the model). Such a program trains
on the CPU on any machine; on Trainium too, however the rest is migrated.

Where it is certain what to move, the step is given the device: the model (the plain name whose
``.parameters()`` the optimizer is built from, bound once in the step's scope to a constructor
call) is moved where it is built, and the batch (the plain names the loop binds, each passed
straight to a call in the loop) at the top of the loop body. Everywhere else one blocker says
that the program trains on the CPU, at the step.
"""

from __future__ import annotations

import libcst as cst
import libcst.matchers as m

from trncodemod.analysis.evaluate import ast_of, names_training
from trncodemod.analysis.facts import FileFacts, facts_of_text
from trncodemod.analysis.loops import LoopInfo, find_step_loops, own_statements, target_names
from trncodemod.analysis.no_device import places_nothing, trains_without_device
from trncodemod.analysis.nodes import find, walk
from trncodemod.analysis.program import ModuleView
from trncodemod.findings import Rule, Safety, Severity
from trncodemod.passes import Pass
from trncodemod.targets import Target

_OPTIMIZER_PREFIXES = ("torch.optim.",)


class StepWithoutDevice(Rule):
    """## What it does
    Finds a training step (a loop that calls `backward()` or an optimizer's `step()`) in a
    program where nothing is ever placed on a device: no `.to(...)`, `.cuda()`, `device=`,
    torch_xla, DeepSpeed, accelerate or Lightning anywhere in the files given, or, for a
    training script no other module imports, in the files its own run reaches (a tutorial
    collection's CPU script beside scripts that use the GPU is a program of its own). Where the model
    is a plain name built once in the step's scope (`model = Net()`) and passed to the optimizer
    (`optim.SGD(model.parameters())`), and the loop binds its batch to plain names that it
    passes straight to a call, the model is moved to the target's device where it is built and
    the batch at the top of the loop body. Otherwise the step is reported as a blocker, and the
    step-marker pass adds no graph cut to it: the step runs on the CPU, where a cut executes
    nothing (a smoke test in `__main__` that trains a model on `torch.randn` inputs). A
    `backward()` with no optimizer step in its loop, in a module that names no optimizer,
    module parameters or trainer and updates no tensor by its gradient, only shows gradients: no
    step, no finding.

    ## Why
    A program with no device trains on the CPU, on a GPU machine and on Trainium alike: the port
    does not use the accelerator at all ([xla-devices, neuron-guide]). Moving the model once and
    each batch in the loop is what every device-aware training script does.

    ## Example
    ```python
    model = Net()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for data, target in loader:
        loss = F.nll_loss(model(data), target)
        loss.backward()
        optimizer.step()
    ```

    ## Use instead
    ```python
    model = Net().to(torch_xla.device())
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for data, target in loader:
        data, target = data.to(torch_xla.device()), target.to(torch_xla.device())
        ...
    ```
    """

    code = "TRN804"
    name = "step-without-device"
    summary = "a training step in a program that places nothing on a device → moved (or reported)"
    safety = Safety.REVIEW
    severity = Severity.BLOCKER
    sources = ("xla-devices", "neuron-guide")


class DeviceMissing(Pass):
    name = "device-missing"
    rules = (StepWithoutDevice,)
    needles = ("backward", "step")

    @classmethod
    def candidate(cls, facts: FileFacts, target: Target) -> bool:
        return places_nothing(facts)

    @classmethod
    def asked_by(cls, program: ModuleView) -> bool:
        return False

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._models: dict[cst.Call, str] = {}  # constructor call -> the model's name
        self._batches: dict[cst.BaseSuite, list[str]] = {}  # loop body -> the batch's names

    def visit_Module(self, node: cst.Module) -> bool:
        # The module's own text is asked here too (the first stage's test), so the result never
        # depends on whether the stage ran.
        profile = self.run.profile
        if not trains_without_device(
            self.run.program, profile, lambda: facts_of_text(node.code, profile)
        ):
            return False
        steps = [
            info
            for info in find_step_loops(node).values()
            if info.kind == "train" and isinstance(info.node, cst.For)
        ]
        if not steps:
            return False
        facts = self.run.facts  # the module's ast, parsed once for every pass
        tree = facts.tree if facts is not None else ast_of(node.code)
        if not any(info.optimizer_steps for info in steps) and not names_training(tree):
            return False  # `loss.backward()` to show a gradient: nothing is trained
        self._plan(node, steps)
        return True

    def _plan(self, module: cst.Module, steps: list[LoopInfo]) -> None:
        """One finding per file (one cause): fixed when every step can be given the device."""
        plans = [self._plan_step(module, info) for info in steps]
        first = steps[0].node
        if all(plan is not None for plan in plans):
            names = sorted({p[1] for p in plans if p is not None})
            device = self.target.device.expr
            if self.report(
                first,
                StepWithoutDevice,
                "nothing in the program places the training on a device, so it trains on the "
                f"CPU → the model ({', '.join(f'`{n}`' for n in names)}) and each batch are "
                f"moved to {device}",
                True,
            ):
                for plan in plans:
                    assert plan is not None
                    call, name, body, batch = plan
                    self._models[call] = name
                    self._batches[body] = batch
            return
        self.report(
            first,
            StepWithoutDevice,
            "nothing in the program places the model or its batches on a device (no `.to(...)`, "
            "`.cuda()` or `device=` in any file its run reaches), so this step trains on the CPU "
            "and gets "
            f"no graph cut; move the model to {self.target.device.expr} once and each batch in "
            "the loop, then run trncodemod again to cut the step's graph",
            False,
        )

    def _plan_step(
        self, module: cst.Module, info: LoopInfo
    ) -> tuple[cst.Call, str, cst.BaseSuite, list[str]] | None:
        loop = info.node
        assert isinstance(loop, cst.For)
        if not isinstance(loop.body, cst.IndentedBlock):
            return None
        scope = self._scope(module, loop)
        if scope is None:
            return None
        model = self._model(scope, info)
        if model is None:
            return None
        name, call = model
        if not self._built_before(scope, call, loop):
            return None
        batch = self._batch(loop, name, info)
        if not batch:
            return None
        return call, name, loop.body, batch

    def _scope(self, module: cst.Module, loop: cst.For) -> cst.CSTNode | None:
        """The function that holds ``loop`` (its innermost), or the module in an entry script."""
        holder: cst.CSTNode | None = None
        for function in find(module, cst.FunctionDef):
            if loop in walk(function.body):
                holder = function  # later ones are nested deeper
        if holder is None and self.run.profile.is_entry_script:
            return module
        if isinstance(holder, cst.FunctionDef) and holder.params.params:
            first = holder.params.params[0].name.value
            if first in ("self", "cls"):
                return None  # a method: the model is an attribute, moved elsewhere or not
        return holder

    def _model(self, scope: cst.CSTNode, info: LoopInfo) -> tuple[str, cst.Call] | None:
        """The model: `M` in `optimizer = torch.optim.X(M.parameters(), ...)` in ``scope``, bound
        there exactly once, to a call."""
        names = set()
        for call in find(scope, cst.Call):
            if not any(n.startswith(_OPTIMIZER_PREFIXES) for n in self.module_names(call.func)):
                continue
            for arg in call.args[:1]:
                if m.matches(
                    arg.value,
                    m.Call(func=m.Attribute(value=m.Name(), attr=m.Name("parameters")), args=[]),
                ):
                    names.add(arg.value.func.value.value)  # type: ignore[attr-defined]
        if len(names) != 1:
            return None
        (name,) = names
        bindings = [
            assign
            for assign in find(scope, cst.Assign, cst.AnnAssign, cst.AugAssign)
            if any(isinstance(t, cst.Name) and t.value == name for t in _targets(assign))
        ]
        params = find(scope, cst.Param) if isinstance(scope, cst.FunctionDef) else []
        if len(bindings) != 1 or any(p.name.value == name for p in params):
            return None
        (binding,) = bindings
        if not isinstance(binding, cst.Assign) or len(binding.targets) != 1:
            return None
        if not isinstance(binding.value, cst.Call):
            return None
        return name, binding.value

    def _built_before(self, scope: cst.CSTNode, call: cst.Call, loop: cst.For) -> bool:
        """The model is built before the loop, outside any loop (moved once)."""
        for other in find(scope, cst.For, cst.While):
            if call in walk(other):
                return False
        position = {id(n): i for i, n in enumerate(walk(scope))}
        return position.get(id(call), 1 << 60) < position.get(id(loop), -1)

    def _batch(self, loop: cst.For, model: str, info: LoopInfo) -> list[str]:
        """The names the loop binds its batch to, each passed straight to a call in the loop
        body (at least one to the model); [] where the target is not plain names."""
        target = loop.target
        if info.counter is not None and m.matches(loop.iter, m.Call(func=m.Name("enumerate"))):
            if not (isinstance(target, cst.Tuple) and len(target.elements) == 2):
                return []
            target = target.elements[1].value
        elements = target.elements if isinstance(target, cst.Tuple) else [cst.Element(target)]
        if not all(isinstance(e, cst.Element) and isinstance(e.value, cst.Name) for e in elements):
            return []
        names = [e.value.value for e in elements]  # type: ignore[attr-defined]
        if len(set(names)) != len(names) or model in names:
            return []
        passed: set[str] = set()
        to_model: set[str] = set()
        rebound = set()
        for statement in own_statements(loop.body):
            if isinstance(statement, cst.Assign | cst.AugAssign | cst.AnnAssign):
                rebound |= {t.value for t in _targets(statement) if isinstance(t, cst.Name)}
        for call in find(loop.body, cst.Call):
            args = {
                a.value.value for a in call.args if isinstance(a.value, cst.Name) and not a.star
            }
            passed |= args
            if m.matches(call.func, m.Name(model)):
                to_model |= args
        if set(names) - passed or not set(names) & to_model or set(names) & rebound:
            return []
        # A name read as a container (`batch["x"]`, `batch.text`, `**batch`, `len(batch)`) may
        # not be a tensor: `.to()` is not certain on it.
        for node in find(loop.body, cst.Subscript, cst.Attribute, cst.Arg):
            inner = node.value
            if isinstance(node, cst.Arg) and not node.star:
                continue
            if isinstance(inner, cst.Name) and inner.value in names:
                return []
        if target_names(loop.target) - set(names) - ({info.counter} if info.counter else set()):
            return []
        return names

    # -- the rewrite ---------------------------------------------------------------------------
    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if original_node not in self._models:
            return updated_node
        return cst.Call(
            func=cst.Attribute(value=updated_node, attr=cst.Name("to")),
            args=[cst.Arg(self.emit(self.target.device))],
        )

    def leave_IndentedBlock(
        self, original_node: cst.IndentedBlock, updated_node: cst.IndentedBlock
    ) -> cst.IndentedBlock:
        batch = self._batches.get(original_node)
        if not batch:
            return updated_node
        device = self.emit(self.target.device)
        moved = [
            cst.Call(
                func=cst.Attribute(value=cst.Name(n), attr=cst.Name("to")), args=[cst.Arg(device)]
            )
            for n in batch
        ]
        if len(batch) == 1:
            statement = cst.Assign(targets=[cst.AssignTarget(cst.Name(batch[0]))], value=moved[0])
        else:
            statement = cst.Assign(
                targets=[
                    cst.AssignTarget(
                        cst.Tuple([cst.Element(cst.Name(n)) for n in batch], lpar=[], rpar=[])
                    )
                ],
                value=cst.Tuple([cst.Element(e) for e in moved], lpar=[], rpar=[]),
            )
        line = cst.SimpleStatementLine(body=[statement])
        return updated_node.with_changes(body=[line, *updated_node.body])


def _targets(statement: cst.CSTNode) -> list[cst.BaseExpression]:
    if isinstance(statement, cst.Assign):
        found: list[cst.BaseExpression] = []
        for target in statement.targets:
            value = target.target
            if isinstance(value, cst.Tuple | cst.List):
                found += [e.value for e in value.elements]
            else:
                found.append(value)
        return found
    if isinstance(statement, cst.AnnAssign | cst.AugAssign):
        return [statement.target]
    return []
