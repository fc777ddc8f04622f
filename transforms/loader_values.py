"""What a loader or a device held in a name may be, followed through the module: a variable's
assignments, the arguments every call of a module-level function passes to its parameter, the
assignments of a `self.` attribute in its class, and the returns of a module-level helper.

Asked by the device-loader pass (TRN131) about the loader a step loop iterates and the device its
batches move to, where pytorch/examples-shaped scripts pass both as parameters
(`train(args, model, device, train_loader, optimizer, epoch)`) and trainers keep them on `self`.
"""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst
import libcst.matchers as m
from libcst.metadata import ParentNodeProvider

from trncodemod.analysis.nodes import find
from trncodemod.passes import Pass

# What makes the XLA device (the device pass writes the first).
_XLA_DEVICE_CALLS = frozenset(
    {"torch_xla.device", "torch_xla.torch_xla.device", "torch_xla.core.xla_model.xla_device"}
)
# How many names, parameters, attributes or helpers a value is followed through.
_DEPTH = 4
_NESTED = (cst.FunctionDef, cst.ClassDef, cst.Lambda)


def _walk_own(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """Every node under ``node`` outside the functions, classes and lambdas it defines."""
    stack = list(node.children)
    while stack:
        child = stack.pop()
        yield child
        if not isinstance(child, _NESTED):
            stack.extend(child.children)


class Values:
    """The values an expression of the tree a pass runs on may hold, as far as they are certain."""

    def __init__(self, owner: Pass) -> None:
        self.owner = owner

    def of(self, node: cst.BaseExpression, depth: int = 0) -> list[cst.BaseExpression] | None:
        """Every value ``node`` may hold, each an expression that is none of a name, a `self.`
        attribute or a call of a module-level helper (those are followed); None where one of
        them is not certain."""
        if depth > _DEPTH:
            return None
        if isinstance(node, cst.Name):
            values = self.owner.bound_values(node)
            if values is None:
                values = self._arguments(node)
        elif m.matches(node, m.Attribute(value=m.Name("self"))):
            values = self._attribute(node)  # type: ignore[arg-type]
        elif isinstance(node, cst.Call) and isinstance(node.func, cst.Name):
            helper = self._function(node.func.value)
            if helper is None:
                return [node]
            values = self._returns(helper)
        else:
            return [node]
        if values is None:
            return None
        leaves: list[cst.BaseExpression] = []
        for value in values:
            found = self.of(value, depth + 1)
            if found is None:
                return None
            leaves.extend(found)
        return leaves

    # -- parameters ----------------------------------------------------------------------------
    def _arguments(self, name: cst.Name) -> list[cst.BaseExpression] | None:
        """What every call in the module passes to the parameter ``name`` reads, where the
        parameter's function is a module-level function the module only calls by name and whose
        body never rebinds it."""
        function = self._around(name)
        if function is None:
            return None
        callee = self._callee(function)
        if callee is None:
            return None
        params = function.params
        ordered = [*params.posonly_params, *params.params]
        slot = next((i for i, p in enumerate(ordered) if p.name.value == name.value), None)
        if slot is None or self._rebinds(function, name.value):
            return None
        param = ordered[slot]
        if callee is not function:
            slot -= 1  # `self`: the class's call passes the rest
            if slot < 0:
                return None
        module = self.owner._wrapper.module  # noqa: SLF001 (the tree the pass runs on)
        spelled = callee.name.value
        uses = [n for n in find(module, cst.Name) if n.value == spelled and n is not callee.name]
        values: list[cst.BaseExpression] = []
        for use in uses:
            call = self._parent(use)
            if (
                (isinstance(call, cst.Attribute) and call.attr is use)
                or (isinstance(call, cst.Arg) and call.keyword is use)
                or self._shadowed(use)
            ):
                continue  # `model.train()`, `f(train=...)`, a local: another name spelled alike
            if not (isinstance(call, cst.Call) and call.func is use):
                return None  # passed on as a value: called from where the tool cannot see
            if any(arg.star for arg in call.args):
                return None
            value = self._argument(call, slot, name.value)
            if value is None:
                value = param.default
            if value is None:
                return None
            values.append(value)
        return values or None

    def _callee(self, function: cst.FunctionDef) -> cst.FunctionDef | cst.ClassDef | None:
        """What the module calls to run ``function``: itself where it is a module-level
        function, its class where it is the `__init__` of a module-level class (a trainer built
        with its loader and device); None otherwise."""
        owner = self._parent(function)
        if isinstance(owner, cst.Module):
            return function if self._function(function.name.value) is function else None
        block = owner
        owner = self._parent(block) if block is not None else None
        if (
            function.name.value == "__init__"
            and isinstance(owner, cst.ClassDef)
            and isinstance(self._parent(owner), cst.Module)
            and self._named(owner.name.value) is owner
        ):
            return owner
        return None

    def _shadowed(self, use: cst.Name) -> bool:
        """Whether a function around ``use`` binds its name itself (a parameter, an
        assignment), so that it is not the module-level function's."""
        current = self._parent(use)
        while current is not None:
            if isinstance(current, cst.FunctionDef):
                params = current.params
                every = (*params.posonly_params, *params.params, *params.kwonly_params)
                if any(p.name.value == use.value for p in every) or self._rebinds(
                    current, use.value
                ):
                    return True
            current = self._parent(current)
        return False

    @staticmethod
    def _argument(call: cst.Call, slot: int, keyword: str) -> cst.BaseExpression | None:
        for arg in call.args:
            if arg.keyword is not None and arg.keyword.value == keyword:
                return arg.value
        positional = [a for a in call.args if a.keyword is None]
        return positional[slot].value if slot < len(positional) else None

    @staticmethod
    def _rebinds(function: cst.FunctionDef, name: str) -> bool:
        targets = m.AssignTarget(target=m.Name(name)) | m.AugAssign(target=m.Name(name))
        loop = m.For(target=m.Name(name)) | m.AnnAssign(target=m.Name(name))
        return bool(m.findall(function.body, targets | loop | m.NamedExpr(target=m.Name(name))))

    # -- attributes ----------------------------------------------------------------------------
    def _attribute(self, node: cst.Attribute) -> list[cst.BaseExpression] | None:
        """Every value assigned to ``self.<attr>`` in the class around ``node``; None where it
        is bound any other way (a tuple target, `+=`, `setattr`)."""
        owner = self._parent(node)
        while owner is not None and not isinstance(owner, cst.ClassDef):
            owner = self._parent(owner)
        if owner is None:
            return None
        attr = node.attr.value
        pattern = m.Attribute(value=m.Name("self"), attr=m.Name(attr))
        values: list[cst.BaseExpression] = []
        for found in m.findall(owner, pattern):
            parent = self._parent(found)
            if isinstance(parent, cst.AssignTarget):
                statement = self._parent(parent)
                assert isinstance(statement, cst.Assign)
                values.append(statement.value)
            elif isinstance(parent, cst.AnnAssign | cst.AugAssign) and parent.target is found:
                return None
            elif isinstance(parent, cst.Element | cst.Tuple | cst.List | cst.StarredElement):
                if self._in_target(parent):
                    return None
        return values or None

    def _in_target(self, node: cst.CSTNode) -> bool:
        while isinstance(node, cst.Element | cst.Tuple | cst.List | cst.StarredElement):
            node = self._parent(node)  # type: ignore[assignment]
        return isinstance(node, cst.AssignTarget | cst.For | cst.CompFor)

    # -- helpers -------------------------------------------------------------------------------
    def _function(self, name: str) -> cst.FunctionDef | None:
        """The module-level function ``name``, where nothing else at module level binds it."""
        found = self._named(name)
        return found if isinstance(found, cst.FunctionDef) else None

    def _named(self, name: str) -> cst.FunctionDef | cst.ClassDef | None:
        """The one module-level function or class ``name``, where nothing else binds it."""
        module = self.owner._wrapper.module  # noqa: SLF001
        found = [
            s
            for s in module.body
            if isinstance(s, cst.FunctionDef | cst.ClassDef) and s.name.value == name
        ]
        facts = self.owner.run.facts
        if len(found) != 1 or (facts is not None and name in facts.assigned):
            return None  # none, several, or also assigned a value somewhere
        return found[0]

    @staticmethod
    def _returns(function: cst.FunctionDef) -> list[cst.BaseExpression] | None:
        returns = [n for n in _walk_own(function.body) if isinstance(n, cst.Return)]
        if not returns or any(r.value is None for r in returns):
            return None
        if any(isinstance(n, cst.Yield) for n in _walk_own(function.body)):
            return None
        return [r.value for r in returns]  # type: ignore[misc]

    def _around(self, node: cst.CSTNode) -> cst.FunctionDef | None:
        current = self._parent(node)
        while current is not None and not isinstance(current, cst.FunctionDef):
            if isinstance(current, cst.ClassDef | cst.Lambda):
                return None
            current = self._parent(current)
        return current

    def _parent(self, node: cst.CSTNode) -> cst.CSTNode | None:
        return self.owner.get_metadata(ParentNodeProvider, node, None)


def is_xla_device(owner: Pass, node: cst.BaseExpression, follow: bool = True) -> bool:
    """Whether ``node`` is certainly the XLA device: `torch_xla.device()`, `xm.xla_device()`,
    `"xla"` or `torch.device` of one, or (``follow``) a name or `self.` attribute that holds
    only such values (``Values``)."""
    if isinstance(node, cst.SimpleString):
        return node.evaluated_value == "xla"
    if isinstance(node, cst.Call):
        if owner.is_any(node.func, _XLA_DEVICE_CALLS):
            return True
        return (
            owner.is_any(node.func, {"torch.device"})
            and len(node.args) == 1
            and is_xla_device(owner, node.args[0].value, follow=False)
        )
    if isinstance(node, cst.Name | cst.Attribute) and follow:
        values = Values(owner).of(node)
        return bool(values) and all(is_xla_device(owner, v, follow=False) for v in values)  # type: ignore[union-attr]
    return False
