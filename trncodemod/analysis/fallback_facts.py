"""What model and training code visibly says about an expression, for the ``cpu-fallback`` and
``recompilation`` passes: whether it is boolean, an integer tensor, a tensor, or on the host
(following names to the values bound to them in their scope), and which op of the fallback table
a call or a name is (``data/fallback_ops.toml``), with the condition the table puts on it.
"""

from __future__ import annotations

import re

import libcst as cst
import libcst.matchers as m
from libcst.metadata import QualifiedNameProvider, QualifiedNameSource

from trncodemod.analysis.fallback_ops import (
    BOOL_FUNCTIONS,
    BOOL_METHODS,
    HOST_HELPERS,
    HOST_METHODS,
    INT_DTYPES,
    INT_FUNCTIONS,
    INT_METHODS,
    Op,
    fallback_ops,
    op_names,
)
from trncodemod.analysis.fallback_scan import fallback_scan
from trncodemod.analysis.loops import dotted
from trncodemod.passes import Pass

_NOT_TENSOR_FUNCTIONS = re.compile(
    r"^torch\.(Size|device|dtype|is_|get_|set_|cuda\.|distributed\.)"
)
_NON_VALUE_COMPARISONS = (cst.Is, cst.IsNot, cst.In, cst.NotIn)
_DEPTH = 6  # how many name bindings an expression is followed through


def _keyword(call: cst.Call, name: str) -> cst.Arg | None:
    return next((a for a in call.args if a.keyword is not None and a.keyword.value == name), None)


def _positional(call: cst.Call) -> list[cst.Arg]:
    return [a for a in call.args if a.keyword is None and not a.star]


def _sampling_lowered(call: cst.Call, receiver: bool) -> bool:
    """Whether a `multinomial` call is visibly one torch-xla lowers: no `generator=`, and one
    sample or `replacement=True` (v2.9.0 `aten_xla_type.cpp` falls back otherwise; measured)."""
    if _keyword(call, "generator") is not None:
        return False
    args = _positional(call)
    first = 0 if receiver else 1
    samples = _keyword(call, "num_samples") or (args[first] if len(args) > first else None)
    replacement = _keyword(call, "replacement") or (
        args[first + 1] if len(args) > first + 1 else None
    )
    one = samples is not None and m.matches(samples.value, m.Integer("1"))
    replaced = replacement is not None and m.matches(replacement.value, m.Name("True"))
    return one or replaced


# The rank of the weight of each torch module class, for `weight_norm(Conv1d(...), dim=2)`.
_WEIGHT_RANKS = {
    **{f"torch.nn.{name}": 2 for name in ("Linear", "Embedding")},
    **{f"torch.nn.{kind}{n}d": n + 2 for kind in ("Conv", "ConvTranspose") for n in (1, 2, 3)},
}


def _integer(node: cst.BaseExpression) -> int | None:
    """The value of an integer literal, negated or not."""
    sign = 1
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        sign, node = -1, node.expression
    return sign * int(node.value, 0) if isinstance(node, cst.Integer) else None


def number(node: cst.BaseExpression) -> int | float | None:
    """The value of a number literal (`2`, `-2.0`, `1e-3`), negated or not: a BLAS call's
    `alpha`/`beta`."""
    sign = 1
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus | cst.Plus):
        sign, node = (-1 if isinstance(node.operator, cst.Minus) else 1), node.expression
    if isinstance(node, cst.Integer | cst.Float):
        return sign * node.evaluated_value
    return None


def scaled(call: cst.Call, receiver: bool) -> bool:
    """Whether a BLAS-style call (`addmm`) may scale: an `alpha` or `beta` that is not the
    literal 1, or the scalars given by position (the old `addmm(beta, M, alpha, A, B)`)."""
    if len(_positional(call)) > (2 if receiver else 3):
        return True
    return any(
        arg.keyword is not None
        and arg.keyword.value in ("alpha", "beta")
        and number(arg.value) != 1
        for arg in call.args
    )


def method_name(call: cst.Call) -> str | None:
    return call.func.attr.value if isinstance(call.func, cst.Attribute) else None


class Facts:
    """What the code visibly says about an expression (boolean, integer, tensor, on the host),
    following names to the values they are bound to in their scope. Shared by the cpu-fallback
    and recompilation passes; ``owner`` is the pass, for metadata."""

    def __init__(self, owner: Pass) -> None:
        self.owner = owner
        # The names of the code the pass runs on (trncodemod.analysis.facts): what its imports
        # may bind a dotted name to, a superset of what LibCST resolves it to, so that scopes
        # are asked only where a name the pass looks for is among them.
        self.file = owner.run.facts

    def names(self, node: cst.CSTNode) -> set[str]:
        """Qualified names of a dotted name; none for ``f(x).y``, whose qualified name LibCST
        spells as if ``y`` were an attribute of the function ``f``. Every name the pass looks
        for lies under a module (``torch.``, ``numpy.``), so a local's are left out."""
        if isinstance(node, cst.BaseExpression) and dotted(node) is None:
            return set()
        return self.owner.module_names(node)

    def may_name(self, node: cst.CSTNode, functions: frozenset[str], prefixes=()) -> bool:  # type: ignore[no-untyped-def]
        """Whether dotted ``node`` may resolve to one of ``functions`` or a name under one of
        ``prefixes``, by the import table alone (what its first part may be bound to in the
        global scope: an import's name, or itself for another binding), without its scope."""
        name = dotted(node) if isinstance(node, cst.BaseExpression) else None
        if name is None:
            return False  # LibCST names nothing then (Facts.names)
        if self.file is None:
            return True
        head, _, rest = name.partition(".")
        return any(
            full in functions or full.startswith(prefixes)
            for full in (
                f"{base}.{rest}" if rest else base for base in self.file.bindings.get(head, ())
            )
        )

    def imported(self, node: cst.CSTNode) -> bool:
        """``node`` names something from an import (``np.unique``), not a method of a value."""
        name = dotted(node) if isinstance(node, cst.BaseExpression) else ""
        if name is None:
            return False
        if self.file is not None and name.partition(".")[0] not in self.file.imported:
            return False  # only an import gives a name the source IMPORT
        return any(
            q.source is QualifiedNameSource.IMPORT
            for q in self.owner.get_metadata(QualifiedNameProvider, node, set())
        )

    def _through_names(self, node: cst.BaseExpression, test, depth: int) -> bool:
        if depth <= 0:
            return False
        values = self.owner.bound_values(node) if isinstance(node, cst.Name) else None
        return bool(values) and all(test(v, depth - 1) for v in values)

    def is_bool(self, node: cst.BaseExpression, depth: int = _DEPTH) -> bool:
        if isinstance(node, cst.Name) and self.file is not None:
            # Followed through its bindings only where one of its assigned values may be
            # boolean (FallbackScan: a superset), which spares most subscripts' scopes.
            if node.value not in fallback_scan(self.file).names_bool():
                return False
        if isinstance(node, cst.Comparison):
            return not any(isinstance(c.operator, _NON_VALUE_COMPARISONS) for c in node.comparisons)
        if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.BitInvert):
            return self.is_bool(node.expression, depth)
        if isinstance(node, cst.BinaryOperation) and isinstance(
            node.operator, cst.BitAnd | cst.BitOr | cst.BitXor
        ):
            return self.is_bool(node.left, depth) or self.is_bool(node.right, depth)
        if isinstance(node, cst.Call):
            if self.is_any_name(node.func, BOOL_FUNCTIONS):
                return True
            method = method_name(node)
            if method in BOOL_METHODS and not self.imported(node.func):
                return True
            return self._dtype_of_call(node) == "torch.bool"
        return self._through_names(node, self.is_bool, depth)

    def is_int(self, node: cst.BaseExpression, depth: int = _DEPTH) -> bool:
        if isinstance(node, cst.Name) and self.file is not None:
            if node.value not in fallback_scan(self.file).names_int():
                return False  # no value of it may be one (FallbackScan: a superset)
        if isinstance(node, cst.Call):
            if self.is_any_name(node.func, INT_FUNCTIONS):
                return True
            method = method_name(node)
            if method in INT_METHODS and not self.imported(node.func):
                return True
            dtype = self._dtype_of_call(node)
            if dtype is not None:
                return dtype in INT_DTYPES
            if self.is_any_name(node.func, {"torch.arange"}):
                args = _positional(node)
                return bool(args) and all(isinstance(a.value, cst.Integer) for a in args)
            return False
        return self._through_names(node, self.is_int, depth)

    def is_tensor(self, node: cst.BaseExpression, depth: int = _DEPTH) -> bool:
        if isinstance(node, cst.Call):
            names = self.names(node.func)
            if any(n.startswith("torch.") and not _NOT_TENSOR_FUNCTIONS.match(n) for n in names):
                return True
            if method_name(node) in ("to", "cuda", "long", "int", "float", "bool"):
                return not self.imported(node.func)
            return self.is_int(node) or self.is_bool(node)
        return self._through_names(node, self.is_tensor, depth)

    def on_host(self, node: cst.BaseExpression, depth: int = _DEPTH, every: bool = True) -> bool:
        """The value is visibly a host tensor or array: ``.cpu()``, ``.numpy()``, ``.to("cpu")``,
        a NumPy call, somewhere along its receiver chain. With ``every`` False, a name one of
        whose values in its scope is (`g = np.exp(...)` before `g = torch.from_numpy(g)`): the
        value read may be that one."""
        while True:
            if isinstance(node, cst.Call):
                if any(n.split(".")[0] == "numpy" for n in self.names(node.func)):
                    return True
                method = method_name(node)
                if method in HOST_METHODS or (method == "to" and moves_to_cpu(node)):
                    return True
                func = node.func
                if isinstance(func, cst.Name | cst.Attribute) and (
                    (func.value if isinstance(func, cst.Name) else func.attr.value) in HOST_HELPERS
                ):
                    return True
                node = node.func
            elif isinstance(node, cst.Attribute | cst.Subscript):
                node = node.value
            elif (
                isinstance(node, cst.Name)
                and self.file is not None
                and node.value not in fallback_scan(self.file).names_host()
            ):
                return False  # no value of it may be (FallbackScan: a superset)
            elif every:
                return self._through_names(node, self.on_host, depth)
            elif not isinstance(node, cst.Name) or depth <= 0:
                return False
            else:
                # Its assigned values in its scope (`g /= s` beside them binds no new one);
                # where the scope is not settled, a name that may hold one anywhere does.
                found = self.owner.visible_assignments(node)
                if found is None:
                    return True
                return any(
                    self.on_host(s.value, depth - 1, every=False)
                    for s in found
                    if s is not None and s.value is not None
                )

    def is_any_name(self, node: cst.CSTNode, names: frozenset[str] | set[str]) -> bool:
        return self.may_name(node, frozenset(names)) and not self.names(node).isdisjoint(names)

    def _dtype_of_call(self, call: cst.Call) -> str | None:
        """The dtype a call visibly makes: ``dtype=torch.x``, ``.to(torch.x)``, ``.type(torch.x)``."""
        arg = _keyword(call, "dtype")
        if arg is None and method_name(call) in ("to", "type"):
            positional = _positional(call)
            arg = positional[0] if positional else None
        if arg is None:
            return None
        dtypes = {n for n in self.names(arg.value) if n.startswith("torch.")}
        if dtypes & INT_DTYPES:
            return next(iter(dtypes & INT_DTYPES))
        return "torch.bool" if "torch.bool" in dtypes else next(iter(dtypes), None)

    # -- the op table ------------------------------------------------------------------------
    def op_of_call(self, call: cst.Call) -> tuple[Op, str, cst.BaseExpression | None] | None:
        """The table's op for ``call``, how it is spelled, and its main operand."""
        table = op_names()
        names = (
            self.names(call.func)
            if self.may_name(call.func, table.all_functions, table.prefixes)
            else set()
        )
        method = method_name(call)
        if not names and method not in table.all_methods:
            return None
        for op in fallback_ops():
            if op.references:
                continue
            if names & op.functions or any(n.startswith(op.prefixes) for n in names if op.prefixes):
                spelling = min(names & op.functions or names)
                args = _positional(call)
                operand = args[0].value if args else None
                receiver = False
            elif method in op.methods and not self.imported(call.func):
                spelling = f".{method}()"
                operand = call.func.value  # type: ignore[union-attr]
                receiver = True
            else:
                continue
            if self._applies(op, call, receiver):
                return op, spelling, operand
        return None

    def _applies(self, op: Op, call: cst.Call, receiver: bool) -> bool:
        args = _positional(call)
        if op.when == "one-argument":
            return len(call.args) == 1 and len(args) == 1
        if op.when == "tensor-repeats":
            repeats = _keyword(call, "repeats")
            if repeats is None:
                position = 0 if receiver else 1
                if not receiver and len(args) == 1 and _keyword(call, "input") is None:
                    return True  # torch.repeat_interleave(repeats)
                repeats = args[position] if len(args) > position else None
            return repeats is not None and self.is_tensor(repeats.value)
        if op.when == "integer-operand":
            operands = [a.value for a in args[: 1 if op.key == "integer_topk" else 2]]
            if receiver:
                operands.insert(0, call.func.value)  # type: ignore[union-attr]
            if op.key == "integer_topk":
                operands = operands[:1]
            return any(self.is_int(o) for o in operands)
        if op.when == "sparse-keyword":
            sparse = _keyword(call, "sparse")
            return sparse is not None and m.matches(sparse.value, m.Name("True"))
        if op.when == "sampling-fallback":
            return not _sampling_lowered(call, receiver)
        if op.when == "fused-weight-norm":
            return self._fused_weight_norm(call)
        if op.when == "scaled":
            return scaled(call, receiver)
        return True

    def _fused_weight_norm(self, call: cst.Call) -> bool:
        """Whether `dim` may be 0 or the weight's last dimension, where `torch._weight_norm`
        runs the fused kernel torch-xla does not lower (measured): left out (0), not a literal,
        or a literal the weight's rank allows, where the wrapped module is visibly a torch
        layer whose `weight` is normed. `None` (-1) and other dims are written out in lowered
        ops."""
        args = _positional(call)
        dim = _keyword(call, "dim") or (args[2] if len(args) > 2 else None)
        if dim is None:
            return True
        if m.matches(dim.value, m.Name("None")):
            return False
        number = _integer(dim.value)
        if number is None or number == 0:
            return True  # 0, or a dim the pass cannot read
        if number < 0:
            return False
        name = _keyword(call, "name") or (args[1] if len(args) > 1 else None)
        wrapped = args[0].value if args else None
        if not isinstance(wrapped, cst.Call) or (
            name is not None
            and not (
                isinstance(name.value, cst.SimpleString) and name.value.evaluated_value == "weight"
            )
        ):
            return True  # the weight's rank is not visible
        ranks = {_WEIGHT_RANKS[n] for n in self.names(wrapped.func) if n in _WEIGHT_RANKS}
        return not ranks or number + 1 in ranks

    def op_of_reference(self, node: cst.Name | cst.Attribute) -> tuple[Op, str, bool] | None:
        """The table's op that a mention of ``node`` counts for: one with ``references`` (any
        mention), or one with ``values`` (then True: it counts where it is not called)."""
        table = op_names()
        if not self.may_name(node, frozenset(table.references) | table.values):
            return None
        names = self.names(node)
        for op in fallback_ops():
            if (op.references or op.values) and names & op.functions:
                return op, min(names & op.functions), not op.references
        return None

    def is_mask_index(self, node: cst.Subscript) -> bool:
        return any(
            isinstance(element.slice, cst.Index) and self.is_bool(element.slice.value)
            for element in node.slice
        )

    def dynamic_shape(self, node: cst.BaseExpression) -> str | None:
        """How ``node`` gets a data-dependent size, or None: a dynamic-shape op of the table or
        boolean-mask indexing, at the root of a chain of calls, attributes and subscripts."""
        while True:
            if isinstance(node, cst.Call):
                found = self.op_of_call(node)
                if found is not None:
                    op, spelling, operand = found
                    if op.dynamic_shape and not (operand is not None and self.on_host(operand)):
                        return f"`{spelling}`" if spelling.startswith(".") else f"`{spelling}(...)`"
                node = node.func
            elif isinstance(node, cst.Subscript):
                if self.is_mask_index(node) and not self.on_host(node.value):
                    return "boolean-mask indexing"
                node = node.value
            elif isinstance(node, cst.Attribute):
                node = node.value
            else:
                return None


def moves_to_cpu(call: cst.Call) -> bool:
    """``.to("cpu")``, ``.to(device="cpu")``, ``.to(torch.device("cpu"))``."""
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value != "device":
            continue
        value = arg.value
        if m.matches(value, m.Call(func=m.Attribute(attr=m.Name("device")) | m.Name("device"))):
            value = value.args[0].value if value.args else value  # type: ignore[attr-defined]
        if isinstance(value, cst.SimpleString) and value.evaluated_value in ("cpu", "cpu:0"):
            return True
    return False
