"""Which names of a file hold a model that its training loops train, followed through the calls
and returns of the file's own functions.

A model is often built in one function and trained in another: `g, ema, d = build_model(cfg)`
in `main`, then `train(g, ema, d, ...)` whose loop calls `g(x)` and steps an optimizer. A pass
that asks "is the model compiled here trained?" must follow it from the helper that returns it,
through the caller that binds it, into the function whose loop calls it. Names are matched as
the file spells them (`model`, `self.net`); functions are the file's own module-level ones.
"""

from __future__ import annotations

import libcst as cst

from trncodemod.analysis.loops import LoopInfo, dotted, own_statements
from trncodemod.analysis.nodes import find

_DEPTH = 6  # calls followed from the binding; a helper chain deeper than this is not followed


def scope_of(node: cst.CSTNode, parents: dict[cst.CSTNode, cst.CSTNode]) -> cst.CSTNode | None:
    """The function or module whose names ``node`` reads."""
    current = parents.get(node)
    while current is not None and not isinstance(current, cst.FunctionDef | cst.Module):
        current = parents.get(current)
    return current


def _called_names(loop: cst.CSTNode) -> set[str]:
    """Dotted names called in ``loop``'s own body: ``model(x)``, ``self.net(x)``."""
    return {
        name
        for node in own_statements(loop.body)  # type: ignore[attr-defined]
        if isinstance(node, cst.Call) and (name := dotted(node.func)) is not None
    }


def _parameter(function: cst.FunctionDef, index: int | None, keyword: str | None) -> str | None:
    """The name of ``function``'s parameter that a positional ``index`` or ``keyword`` fills."""
    params = function.params
    positional = [*params.posonly_params, *params.params]
    if keyword is not None:
        names = {p.name.value for p in (*positional, *params.kwonly_params)}
        return keyword if keyword in names else None
    if index is not None and index < len(positional):
        return positional[index].name.value
    return None


class TrainedModels:
    """Asks, for a name bound in a scope of ``module``, whether a training loop of the file
    calls the model it holds, in that scope or in one the model reaches by the file's calls."""

    def __init__(
        self,
        module: cst.Module,
        loops: list[LoopInfo],
        parents: dict[cst.CSTNode, cst.CSTNode],
    ) -> None:
        self._module = module
        self._parents = parents
        self._functions = {
            statement.name.value: statement
            for statement in module.body
            if isinstance(statement, cst.FunctionDef)
        }
        self._trained: dict[cst.CSTNode, set[str]] = {}
        # Calls made by a training loop each step: a function they hand the model to runs it
        # in the step (`loss = forward_loss(model, x, y)`).
        self._step_calls: set[cst.Call] = set()
        for info in loops:
            if info.kind != "train":
                continue
            names = _called_names(info.node)
            self._step_calls.update(
                node
                for node in own_statements(info.node.body)  # type: ignore[attr-defined]
                if isinstance(node, cst.Call)
            )
            # A module-level name may be called in any loop of the file, a function's in its own.
            for where in {scope_of(info.node, parents), module}:
                if where is not None:
                    self._trained.setdefault(where, set()).update(names)
        self._calls: dict[cst.CSTNode, list[cst.Call]] = {}
        self._returns: dict[cst.CSTNode, list[cst.Return]] = {}
        for node in find(module, cst.Call, cst.Return):
            scope = scope_of(node, parents)
            if scope is None:
                continue
            table = self._calls if isinstance(node, cst.Call) else self._returns  # type: ignore[assignment]
            table.setdefault(scope, []).append(node)

    def trained(self, scope: cst.CSTNode, name: str) -> bool:
        """Whether the model ``name`` holds in ``scope`` is called in a training loop."""
        return self._follow(scope, name, 0, set(), False)

    def _follow(self, scope: cst.CSTNode, name: str, depth: int, seen: set, step: bool) -> bool:
        """``step``: ``scope`` is a function a training loop calls each step with the model."""
        key = (id(scope), name, step)
        if key in seen or depth > _DEPTH:
            return False
        seen.add(key)
        if name in self._trained.get(scope, set()):
            return True
        if step and any(dotted(call.func) == name for call in self._calls.get(scope, [])):
            return True
        # Handed to a function of the file: `train(model, loader)`, `train(model=model)`.
        for call in self._calls.get(scope, []):
            callee = self._functions.get(dotted(call.func) or "")
            if callee is None:
                continue
            for index, arg in enumerate(call.args):
                if arg.star:
                    break
                if dotted(arg.value) != name:
                    continue
                keyword = arg.keyword.value if arg.keyword else None
                parameter = _parameter(callee, None if keyword else index, keyword)
                in_step = step or call in self._step_calls
                if parameter and self._follow(callee, parameter, depth + 1, seen, in_step):
                    return True
        # Returned to the callers: `return g, ema, d` bound by `g, ema, d = build_model(...)`.
        if isinstance(scope, cst.FunctionDef):
            for position in self._positions(scope, name):
                for caller, target in self._bindings(scope.name.value, position):
                    if self._follow(caller, target, depth + 1, seen, False):
                        return True
        return False

    def _positions(self, function: cst.FunctionDef, name: str) -> set[int | None]:
        """Where ``function`` returns ``name``: None for `return name`, an index in a tuple."""
        found: set[int | None] = set()
        for statement in self._returns.get(function, []):
            value = statement.value
            if value is not None and dotted(value) == name:
                found.add(None)
            elif isinstance(value, cst.Tuple):
                found.update(i for i, e in enumerate(value.elements) if dotted(e.value) == name)
        return found

    def _bindings(self, function: str, position: int | None) -> list[tuple[cst.CSTNode, str]]:
        """The scopes and names that a call of ``function`` binds its ``position`` result to."""
        found = []
        for assign in find(self._module, cst.Assign):
            call = assign.value
            if not isinstance(call, cst.Call) or dotted(call.func) != function:
                continue
            scope = scope_of(assign, self._parents)
            for target in assign.targets:
                bound = target.target
                if position is None:
                    name = dotted(bound)
                elif isinstance(bound, cst.Tuple | cst.List) and position < len(bound.elements):
                    name = dotted(bound.elements[position].value)
                else:
                    name = None
                if name is not None and scope is not None:
                    found.append((scope, name))
        return found
