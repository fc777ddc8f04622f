"""A model's dtype changes only together with its inputs (TRN220).

`seq.double()` → `seq.float()` makes the model float32; its inputs must become float32 in the same
change, or the first matmul raises "mat1 and mat2 must have the same dtype" (pytorch/examples
`time_sequence_prediction/train.py`: the inputs are `torch.from_numpy` of an array loaded from
disk). The float64 pass converts an input where it sees its dtype (`.double()`, `dtype=`, a
visibly float64 NumPy array); where one input of the model is out of its sight, the model's
`.double()`, the float64 in its class and in the arguments of its calls are all kept, and
reported.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import libcst as cst
from libcst.metadata import ParentNodeProvider, PositionProvider, ScopeProvider

from trncodemod.analysis.nodes import find

if TYPE_CHECKING:
    from trncodemod.transforms.float64 import Float64ToFloat32

# Conversions whose result has a dtype that is not float64 once the pass has run.
_CONVERSIONS = frozenset({"float", "double", "half", "bfloat16", "long", "int", "short", "bool"})
# torch factories that make float32 by default (the pass makes their float64 float32).
_FACTORIES = frozenset(
    f"torch.{name}"
    for name in (
        "zeros",
        "ones",
        "empty",
        "full",
        "rand",
        "randn",
        "arange",
        "linspace",
        "eye",
        "zeros_like",
        "ones_like",
        "randn_like",
        "rand_like",
    )
)
_ARRAY_SINKS = frozenset({"torch.from_numpy", "torch.tensor", "torch.as_tensor", "torch.asarray"})
_MAX_DEPTH = 6


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


@dataclass
class _Model:
    """A model made float64 by ``call`` (``model.double()``, ``Net().double()``)."""

    call: cst.Call
    name: str  # how the code spells it
    classes: list[cst.ClassDef]  # its classes defined in this module
    arguments: list[cst.Arg]  # the arguments of its calls
    sources: list[cst.CSTNode]  # the values its inputs are bound to
    blocked: str | None  # why an input cannot be converted with it


class ModelPrecision:
    """The `.double()` models of one module whose inputs the pass cannot convert with them."""

    def __init__(self, owner: Float64ToFloat32, module: cst.Module) -> None:
        self.owner = owner
        # A kept region (the `.double()` call, the model's class, an argument of a model call,
        # the value an input is bound to) → the message for the float64 found in it.
        self.kept: dict[cst.CSTNode, str] = {}
        models = []
        for call in find(module, cst.Call):
            func = call.func  # type: ignore[attr-defined]
            if isinstance(func, cst.Attribute) and func.attr.value == "double" and not call.args:  # type: ignore[attr-defined]
                model = self._model_double(call)  # type: ignore[arg-type]
                if model is not None:
                    models.append(model)
        # One class, two models: if one keeps the class float64, so does the other.
        kept_classes: set[cst.ClassDef] = set()
        while True:
            for model in models:
                shared = next((c for c in model.classes if c in kept_classes), None)
                if model.blocked is None and shared is not None:
                    model.blocked = (
                        f"its class `{shared.name.value}` stays float64 with another model of it"
                    )
            more = {c for model in models if model.blocked is not None for c in model.classes}
            if more <= kept_classes:
                break
            kept_classes |= more
        for model in models:
            if model.blocked is not None:
                self._keep(model)

    def region_of(self, node: cst.CSTNode) -> str | None:
        """The message when ``node`` lies in a kept region."""
        current: cst.CSTNode | None = node
        while current is not None:
            if current in self.kept:
                return self.kept[current]
            current = self.owner.get_metadata(ParentNodeProvider, current, None)
        return None

    # -- the model ---------------------------------------------------------------------------------
    def _parent(self, node: cst.CSTNode) -> cst.CSTNode | None:
        return self.owner.get_metadata(ParentNodeProvider, node, None)

    def _line(self, node: cst.CSTNode) -> int:
        return self.owner.get_metadata(PositionProvider, node).start.line

    def _model_double(self, call: cst.Call) -> _Model | None:
        receiver = call.func.value  # type: ignore[attr-defined]
        statement = self._parent(call)
        if isinstance(statement, cst.Expr) and isinstance(receiver, cst.Name):
            holder = receiver  # `model.double()`: in place, so a module
        elif (
            isinstance(statement, cst.Assign)
            and len(statement.targets) == 1
            and isinstance(statement.targets[0].target, cst.Name)
        ):
            holder = statement.targets[0].target
        else:
            return None
        made = [receiver]
        if isinstance(receiver, cst.Name):
            made = self.owner.bound_values(receiver) or []
        classes = [c for c in (self._class_of(value) for value in made) if c is not None]
        if not isinstance(statement, cst.Expr) and not classes:
            return None  # `y = x.double()` of a tensor: its own rewrite
        calls, passed = self._uses_of(holder)
        sources: list[cst.CSTNode] = []
        if passed is not None:
            blocked: str | None = (
                f"it is passed to `{_code(passed.func)}(...)` (line {self._line(passed)}), "
                "where the tool does not follow its inputs"
            )
        elif not calls:
            blocked = "its calls are not in this file"
        else:
            blocked = self._unconvertible(calls, sources)
        arguments = [arg for model_call in calls for arg in model_call.args]
        return _Model(call, _code(receiver), classes, arguments, sources, blocked)

    def _keep(self, model: _Model) -> None:
        self.kept[model.call] = (
            f"`{model.name}.double()` kept: a float32 model needs its inputs converted in the "
            f'same change, and {model.blocked}; a float32 model fed float64 raises "mat1 and '
            'mat2 must have the same dtype". Convert the model and every input together '
            "(`.float()`): Neuron has no float64"
        )
        also = (
            f"kept with `{model.name}.double()` (line {self._line(model.call)}): the model stays "
            "float64 until its inputs are converted with it"
        )
        for region in [*model.classes, *model.arguments, *model.sources]:
            self.kept.setdefault(region, also)

    def _class_of(self, value: cst.BaseExpression) -> cst.ClassDef | None:
        """The class a model is made from, where it is defined in this module: `Net()`,
        `Net().to(device)`."""
        while (
            isinstance(value, cst.Call)
            and isinstance(value.func, cst.Attribute)
            and value.func.attr.value in ("to", "cpu", "train", "eval")
        ):
            value = value.func.value
        if not isinstance(value, cst.Call) or not isinstance(value.func, cst.Name):
            return None
        scope = self.owner.get_metadata(ScopeProvider, value.func, None)
        if scope is None:
            return None
        bound = [getattr(a, "node", None) for a in scope[value.func.value]]
        if len(bound) == 1 and isinstance(bound[0], cst.ClassDef) and bound[0].bases:
            return bound[0]
        return None

    def _uses_of(self, holder: cst.Name) -> tuple[list[cst.Call], cst.Call | None]:
        """The calls of the model held by ``holder``, read anywhere its binding reaches, and a
        call it is passed to (its inputs are then out of sight), if any."""
        scope = self.owner.get_metadata(ScopeProvider, holder, None)
        if scope is None:
            return [], None
        calls: list[cst.Call] = []
        for assignment in scope[holder.value]:
            for access in assignment.references:
                parent = self._parent(access.node)
                if isinstance(parent, cst.Call) and parent.func is access.node:
                    if parent not in calls:
                        calls.append(parent)
                elif isinstance(parent, cst.Arg) and parent.value is access.node:
                    passed = self._parent(parent)
                    if isinstance(passed, cst.Call):
                        return calls, passed
        return calls, None

    # -- its inputs --------------------------------------------------------------------------------
    def _unconvertible(self, calls: list[cst.Call], sources: list[cst.CSTNode]) -> str | None:
        """Why one input of the model's calls cannot be converted with it, or None; the values
        its inputs are bound to are added to ``sources`` (kept with the model if it is kept)."""
        why = None
        for call in calls:
            for arg in call.args:
                if arg.star:
                    why = why or f"`{_code(call)}` (line {self._line(call)}) unpacks its arguments"
                    continue
                why = self._input(arg.value, 0, sources) or why
        return why

    def _input(
        self, node: cst.BaseExpression, depth: int, sources: list[cst.CSTNode]
    ) -> str | None:
        """None when ``node`` is float32 (or not floating) once the pass has run; else why not."""
        owner = self.owner
        unknown = f"`{_code(node)}` (line {self._line(node)}) has a dtype the tool cannot see"
        if depth > _MAX_DEPTH:
            return unknown
        if isinstance(node, (cst.Integer, cst.Float)):
            return None
        if isinstance(node, cst.Name):
            if node.value in ("True", "False", "None"):
                return None
            values = owner.bound_values(node)
            if not values:
                return unknown
            sources.extend(values)
            whys = [self._input(value, depth + 1, sources) for value in values]
            return next((why for why in whys if why is not None), None)
        if isinstance(node, cst.BinaryOperation):
            left = self._input(node.left, depth + 1, sources)
            return self._input(node.right, depth + 1, sources) or left
        if not isinstance(node, cst.Call):
            return unknown
        func = node.func
        if isinstance(func, cst.Attribute) and not owner._names(func):
            method = func.attr.value
            if method in _CONVERSIONS and not node.args:
                return None
            if method == "to" and owner._casts_to_dtype(node):
                return None
            if method in ("to", "detach", "clone", "contiguous", "cpu"):
                return self._input(func.value, depth + 1, sources)
            return unknown
        if owner._is(func, _FACTORIES):
            return None
        if owner._is(func, _ARRAY_SINKS):
            keyword = next((a for a in node.args if a.keyword and a.keyword.value == "dtype"), None)
            if keyword is not None or not node.args:
                return None
            kind = owner._array_dtype(node.args[0].value)
            return None if kind in ("float64", "other") else unknown
        return unknown
