"""float64 → float32 where float64 certainly reaches a tensor ([neuron-data-types, xla-dtype]).

Neuron has no FP64: torch_xla silently computes a float64 tensor in f32 on Neuron while PJRT CPU
keeps f64, so the CPU check and the device disagree. The pass rewrites only where the value is
certainly a tensor's dtype (a torch call's ``dtype=``, ``.to``/``.type``, ``.double()``, the
default dtype, a NumPy array that is visibly float64 flowing into a tensor constructor). Values
that stay in NumPy, integer data and dtype comparisons are never touched, and a tensor made on
the CPU in so many words keeps its float64 with a note (TRN209): there it is deliberate.
"""

from __future__ import annotations

import re
from dataclasses import replace

import libcst as cst
import libcst.matchers as m
from libcst.metadata import Assignment, ParentNodeProvider, ScopeProvider
from trncodemod.transforms.float64_host import HostFloat64
from trncodemod.transforms.float64_models import ModelPrecision
from trncodemod.transforms.float64_rules import (
    RULES,
    DeliberateFloat64,
    DoubleMethod,
    DoubleTensorType,
    Float64DefaultDtype,
    Float64DtypeArgument,
    Float64DtypeElsewhere,
    Float64OnHost,
    Float64UnderBf16Downcast,
    ModelDtypeWithInputs,
    NumpyDtypeForTorch,
    NumpyDtypeUnknown,
    NumpyFloat64ToTensor,
)

from trncodemod.analysis import training
from trncodemod.analysis.enabled import never_runs
from trncodemod.analysis.facts import FileFacts, may_resolve, reaches_module
from trncodemod.analysis.float64_scan import has_site
from trncodemod.analysis.nodes import find
from trncodemod.findings import Rule, Severity
from trncodemod.passes import Pass
from trncodemod.rewriting.calls import append_keyword
from trncodemod.targets import Target

_TORCH_F64 = frozenset({"torch.float64", "torch.double"})
_NUMPY_F64 = frozenset({"numpy.float64", "numpy.double", "numpy.float_", "numpy.float"})
_DOUBLE_TENSOR = frozenset({"torch.DoubleTensor"})
_CUDA_DOUBLE_TENSOR = frozenset({"torch.cuda.DoubleTensor"})
_TENSOR_TYPE_STRINGS = {"torch.DoubleTensor": "torch.FloatTensor"}
_CUDA_TENSOR_TYPE_STRINGS = frozenset({"torch.cuda.DoubleTensor"})

# Tensor methods whose ``dtype=`` sets the dtype of the tensor they return.
_TENSOR_DTYPE_METHODS = frozenset(
    {
        "to",
        "type",
        "new_tensor",
        "new_zeros",
        "new_ones",
        "new_empty",
        "new_full",
        "sum",
        "mean",
        "nansum",
        "nanmean",
        "prod",
        "cumsum",
        "cumprod",
        "softmax",
        "log_softmax",
        "norm",
    }
)
# Methods whose positional argument may be a dtype: `x.to(torch.float64)`, `x.type(torch.double)`.
_POSITIONAL_DTYPE_METHODS = frozenset({"to", "type"})
# Methods that already fix the dtype of the tensor they are called on.
_DTYPE_CONVERSIONS = frozenset(
    {"float", "double", "half", "bfloat16", "long", "int", "short", "byte", "char", "bool", "type"}
)
_TORCH_DTYPE_NAMES = frozenset(
    {
        "float",
        "float32",
        "float16",
        "half",
        "bfloat16",
        "float64",
        "double",
        "int",
        "int8",
        "int16",
        "short",
        "int32",
        "int64",
        "long",
        "uint8",
        "bool",
        "complex64",
        "complex128",
    }
)
# Calls that make a tensor from array data: argument 0 is the data, and its dtype is kept.
_TENSOR_SINKS = frozenset({"torch.from_numpy", "torch.tensor", "torch.as_tensor", "torch.asarray"})

# NumPy, as data: how each constructor picks its dtype.
_NUMPY_FLOAT_SAMPLERS = frozenset(
    f"numpy.random.{name}"
    for name in (
        "rand",
        "randn",
        "normal",
        "uniform",
        "random",
        "random_sample",
        "ranf",
        "sample",
        "standard_normal",
        "exponential",
        "lognormal",
        "beta",
        "gamma",
    )
)
_NUMPY_INTEGER_SAMPLERS = frozenset(
    f"numpy.random.{name}" for name in ("randint", "binomial", "poisson", "geometric")
)
# name → (index of a positional dtype, what decides the dtype without one):
# "float64" (the documented default), "fill" (argument 1), "data" (argument 0), "range" (arange).
_NUMPY_CONSTRUCTORS: dict[str, tuple[int, str]] = {
    "numpy.zeros": (1, "float64"),
    "numpy.ones": (1, "float64"),
    "numpy.empty": (1, "float64"),
    "numpy.identity": (1, "float64"),
    "numpy.eye": (3, "float64"),
    "numpy.linspace": (5, "float64"),
    "numpy.logspace": (5, "float64"),
    "numpy.loadtxt": (1, "float64"),
    "numpy.genfromtxt": (1, "float64"),
    "numpy.full": (2, "fill"),
    "numpy.array": (1, "data"),
    "numpy.asarray": (1, "data"),
    "numpy.ascontiguousarray": (1, "data"),
    "numpy.arange": (3, "range"),
}
# Array methods and attributes that keep the dtype of the array they are called on.
_NUMPY_SAME_DTYPE = frozenset(
    {"copy", "reshape", "flatten", "ravel", "squeeze", "transpose", "swapaxes"}
)
_NUMPY_F64_STRINGS = frozenset({"float64", "f8", "<f8", "double", "float", "d", "float_"})
_NUMPY_OTHER_DTYPES = frozenset({"builtins.int", "builtins.bool", "builtins.complex"})
_MAX_DEPTH = 6
# A comment that gives a reason for float64: the author chose it (`# use double for numerical
# stability`, `# fp64 to avoid overflow`). Naming the dtype alone (`# convert to double`) is not.
_DELIBERATE = re.compile(
    r"\b(precision|precise|stab(le|ility)|numeric(s|al|ally)?|overflow|underflow|"
    r"accura(te|cy)|exact(ly|ness)?|deliberate(ly)?|on purpose|intentional(ly)?|round-?off|"
    r"cancellation|ill-?conditioned)\b",
    re.IGNORECASE,
)
# What the pass acts on wherever it is named (Float64ToFloat32.candidate).
_NAMED_ACTS = _NUMPY_F64 | _DOUBLE_TENSOR | _CUDA_DOUBLE_TENSOR | frozenset({"torch.from_numpy"})
_DOUBLE_TENSOR_STRINGS = frozenset(_TENSOR_TYPE_STRINGS) | _CUDA_TENSOR_TYPE_STRINGS

FLOAT64 = "float64"
OTHER = "other"  # a known dtype that is not float64
NUMPY = "numpy"  # a NumPy value whose dtype is not visible here


# Why a float64 buffer a module's `__init__` registers is kept (TRN209).
_KEPT_BUFFER = (
    " kept: this buffer is computed on the host when the module is built, in float64 on "
    "purpose (a schedule, a table); it moves to the device as float64, which Neuron stores and "
    "computes in f32 from the float64 values; float32 here would change those values (to match "
    "on the CPU check, cast each buffer with `.float()` after its host maths)"
)


def _string_value(node: cst.BaseExpression) -> str | None:
    if isinstance(node, cst.SimpleString) and node.prefix in ("", "u", "U"):
        value = node.evaluated_value
        return value if isinstance(value, str) else None
    return None


def _literal_dtype(node: cst.BaseExpression) -> str | None:
    """The dtype NumPy gives a Python literal (nested lists of numbers); None when unknown."""
    if isinstance(node, cst.Float):
        return FLOAT64
    if isinstance(node, cst.Integer) or (
        isinstance(node, cst.Name) and node.value in ("True", "False")
    ):
        return OTHER
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, (cst.Minus, cst.Plus)):
        return _literal_dtype(node.expression)
    if isinstance(node, (cst.List, cst.Tuple)) and node.elements:
        kinds = set()
        for element in node.elements:
            if isinstance(element, (cst.StarredElement,)):
                return None
            kinds.add(_literal_dtype(element.value))
        if None in kinds:
            return None
        return FLOAT64 if FLOAT64 in kinds else OTHER
    return None


def _is_dotted(node: cst.CSTNode) -> bool:
    while isinstance(node, cst.Attribute):
        node = node.value
    return isinstance(node, cst.Name)


def _positional(call: cst.Call) -> list[cst.Arg]:
    return [arg for arg in call.args if arg.keyword is None and not arg.star]


def _keyword(call: cst.Call, name: str) -> cst.Arg | None:
    return next((arg for arg in call.args if arg.keyword and arg.keyword.value == name), None)


class Float64ToFloat32(Pass):
    name = "float64"
    rules = RULES
    needles = ("float64", "double", "Double", "from_numpy", "tensor", "asarray")
    # Per tree (visit_Module): the models kept float64 with their inputs, the host proof.
    _models: ModelPrecision | None = None
    _host: HostFloat64

    @classmethod
    def candidate(cls, facts: FileFacts, target: Target) -> bool:
        # np.float64 as a torch dtype (reported), torch.DoubleTensor/torch.cuda.DoubleTensor
        # called or passed, torch.from_numpy (reported unless its array is visibly not
        # float64): each acts wherever it is named.
        if may_resolve(facts, _NAMED_ACTS):
            return True
        # `.double()` → `.float()` (leave_Call).
        if "double" in facts.calls:
            return True
        # `.type("torch.DoubleTensor")`, set_default_tensor_type("torch.cuda.DoubleTensor").
        if not facts.strings.isdisjoint(_DOUBLE_TENSOR_STRINGS):
            return True
        # torch.float64/torch.double act only as a call's argument, a parameter's default or an
        # assignment's whole value (leave_Arg, visit_Param, _stored_f64), not in `a if c else
        # torch.float64` or a comparison; torch.tensor/as_tensor/asarray only on one positional
        # argument that may be a NumPy value (_convert_array), with `numpy` or `.astype` named.
        f64 = may_resolve(facts, _TORCH_F64)
        sinks = may_resolve(facts, _TENSOR_SINKS) and (
            "astype" in facts.calls or reaches_module(facts, "numpy")
        )
        return (f64 or sinks) and has_site(facts.tree, f64, sinks)

    def report(self, node: cst.CSTNode, rule: type[Rule], message: str, fixed: bool) -> bool:
        """Under BF16 downcast every finding becomes a note and nothing is rewritten: the
        training profile, not the line, decides what float64 means there."""
        # `np.float64` as a torch dtype raises whatever the precision: still reported.
        # TorchNeuron has no such variables ([torchneuron-overview]): only the XLA targets downcast.
        profile = self.run.profile
        if profile.bf16_downcast:
            why = (
                "this file uses XLA_USE_BF16/XLA_DOWNCAST_BF16, under which torch_xla keeps "
                "float64 as f32 and float32 as bf16"
            )
        else:
            #  "NxD deliberately uses torch.double for the running loss"
            # ([neuron-data-types, xla-dtype]).
            why = "neuronx-distributed code keeps its f32 accumulators in torch.double on purpose"
        if rule in (Float64UnderBf16Downcast, NumpyDtypeForTorch) or not (
            self.target.is_xla and (profile.bf16_downcast or training.NXD in profile.parallelism)
        ):
            models = self._models
            with_model = models.region_of(node) if fixed and models is not None else None
            if with_model is not None:
                what = message.split(" (", 1)[0]
                if not with_model.startswith("`"):
                    with_model = f"{what} not applied, {with_model}"
                super().report(node, ModelDtypeWithInputs, with_model, False)
                return False
            comment = self._deliberate_comment(node) if fixed else None
            if comment is None:
                return super().report(node, rule, message, fixed)
            super().report(
                node,
                DeliberateFloat64,
                f"kept ({message.split(' (', 1)[0]} not applied): the code says float64 is "
                f"deliberate here (`{comment}`); Neuron computes float64 in f32 on the device, "
                "so if this precision matters compute it on the host (`.cpu()`) and move the "
                "result",
                False,
            )
            return False
        super().report(
            node,
            Float64UnderBf16Downcast,
            f"kept ({message.split(' (', 1)[0]} not applied): {why}",
            False,
        )
        return False

    def visit_Module(self, node: cst.Module) -> None:
        self._host = HostFloat64(self)
        facts = self.run.facts
        if facts is None or "double" in facts.calls:
            self._models = ModelPrecision(self, node)

    def _casts_to_dtype(self, call: cst.Call) -> bool:
        """`.to(...)` given a torch dtype, positionally or as `dtype=`."""
        return any(
            (arg.keyword is None or arg.keyword.value == "dtype")
            and any(
                name.startswith("torch.") and name.rsplit(".", 1)[-1] in _TORCH_DTYPE_NAMES
                for name in self._names(arg.value)
            )
            for arg in call.args
        )

    def _deliberate_comment(self, node: cst.CSTNode) -> str | None:
        """The comment of the statement holding ``node`` (on its lines, or the comment lines
        right above it) when it gives a reason for float64 (`# use double for numerical
        stability`); None otherwise."""
        statement: cst.CSTNode | None = node
        while statement is not None and not isinstance(statement, cst.SimpleStatementLine):
            statement = self.get_metadata(ParentNodeProvider, statement, None)
        if statement is None:
            return None
        comments = [c.value for c in find(statement, cst.Comment)]  # type: ignore[attr-defined]
        for line in reversed(statement.leading_lines):
            if line.comment is None:
                break
            comments.append(line.comment.value)
        return next((c for c in comments if _DELIBERATE.search(c)), None)

    # -- what a name or call is --------------------------------------------------------------
    def _names(self, node: cst.CSTNode) -> set[str]:
        """Qualified names of a dotted name only: LibCST names `np.random.rand(3).astype` as
        `numpy.random.rand.astype`, which is a method of an array, not a NumPy function."""
        return self.module_names(node) if _is_dotted(node) else set()

    def _is(self, node: cst.CSTNode, names: frozenset[str] | set[str]) -> bool:
        return not self._names(node).isdisjoint(names)

    def _is_torch_f64(self, node: cst.BaseExpression) -> bool:
        return isinstance(node, (cst.Name, cst.Attribute)) and self._is(node, _TORCH_F64)

    def _is_torch_call(self, call: cst.Call) -> bool:
        return any(name.startswith("torch.") for name in self._names(call.func))

    def _method(self, call: cst.Call) -> str | None:
        """The method name of ``x.method(...)`` when ``x`` is not a module (torch, numpy)."""
        if not isinstance(call.func, cst.Attribute):
            return None
        if any(name.startswith(("torch.", "numpy.")) for name in self._names(call.func)):
            return None
        return call.func.attr.value

    def _arg_role(self, call: cst.Call, arg: cst.Arg) -> str | None:
        """What a dtype in ``arg`` does: 'fix' (a tensor's dtype), 'default' (the default dtype),
        'report' (passed out of sight), or None (a query such as torch.finfo)."""
        if arg.star:
            return None
        keyword = arg.keyword.value if arg.keyword else None
        if self._is(call.func, {"torch.set_default_dtype"}):
            return "default"
        torch_call = self._is_torch_call(call)
        method = None if torch_call else self._method(call)
        if keyword == "dtype":
            return "fix" if torch_call or method in _TENSOR_DTYPE_METHODS else "report"
        if keyword is None and method in _POSITIONAL_DTYPE_METHODS:
            return "fix"
        if torch_call or any(n.startswith("builtins.") for n in self._names(call.func)):
            return None  # a query (torch.finfo, print, isinstance): not a tensor's dtype
        return "report"

    def _role_of(self, node: cst.BaseExpression) -> str | None:
        """The role of an original expression that is an argument of a call."""
        arg = self.get_metadata(ParentNodeProvider, node, None)
        if not isinstance(arg, cst.Arg) or arg.value is not node:
            return None
        call = self.get_metadata(ParentNodeProvider, arg, None)
        if not isinstance(call, cst.Call) or arg not in call.args:
            return None
        return self._arg_role(call, arg)

    def _assigned_value(self, name: cst.Name) -> cst.BaseExpression | None:
        """The value of a local variable assigned exactly once in the scope where it is read."""
        facts = self.run.facts
        if facts is not None and name.value not in facts.assigned:
            return None  # no assignment anywhere binds it to a value
        statements = self.own_assignments(name)
        if statements is not None:
            if len(statements) != 1:
                return None
            (statement,) = statements
            if (
                statement is None
                or isinstance(statement, cst.Assign)
                and len(statement.targets) != 1
            ):
                return None
            return statement.value
        scope = self.get_metadata(ScopeProvider, name, None)
        if scope is None:
            return None
        assignments = scope.assignments[name.value]
        if len(assignments) != 1:
            return None
        (assignment,) = assignments
        if not isinstance(assignment, Assignment) or not isinstance(assignment.node, cst.Name):
            return None
        target = assignment.node
        parent = self.get_metadata(ParentNodeProvider, target, None)
        if isinstance(parent, cst.AnnAssign) and parent.target is target:
            return parent.value
        if isinstance(parent, cst.AssignTarget):
            statement = self.get_metadata(ParentNodeProvider, parent, None)
            if isinstance(statement, cst.Assign) and len(statement.targets) == 1:
                return statement.value
        return None

    def _numpy_dtype_value(self, node: cst.BaseExpression) -> str | None:
        """What a NumPy ``dtype=`` value names: FLOAT64, OTHER, or None (cannot tell)."""
        text = _string_value(node)
        if text is not None:
            return FLOAT64 if text in _NUMPY_F64_STRINGS else OTHER
        names = self._names(node)
        if names & (_NUMPY_F64 | {"builtins.float"}):
            return FLOAT64
        if names & _NUMPY_OTHER_DTYPES or any(n.startswith("numpy.") for n in names):
            return OTHER
        return None

    def _array_dtype(self, node: cst.BaseExpression, depth: int = 0) -> str | None:
        """The dtype of a NumPy value: FLOAT64, OTHER, NUMPY (a NumPy value, dtype unknown), or
        None (not visibly a NumPy value)."""
        if depth > _MAX_DEPTH:
            return None
        if isinstance(node, cst.Name):
            value = self._assigned_value(node)
            return None if value is None else self._array_dtype(value, depth + 1)
        if isinstance(node, cst.Subscript):
            return self._array_dtype(node.value, depth + 1)
        if isinstance(node, cst.Attribute):
            return self._array_dtype(node.value, depth + 1) if node.attr.value == "T" else None
        if not isinstance(node, cst.Call):
            return None
        names = self._names(node.func)
        if names & _NUMPY_FLOAT_SAMPLERS:
            return FLOAT64
        if names & _NUMPY_INTEGER_SAMPLERS:
            return OTHER
        if names & _NUMPY_F64:  # np.float64(x): a float64 scalar
            return FLOAT64
        constructor = next(iter(names & _NUMPY_CONSTRUCTORS.keys()), None)
        if constructor is not None:
            return self._constructor_dtype(node, *_NUMPY_CONSTRUCTORS[constructor], depth)
        if any(name.startswith("numpy.") for name in names):
            return NUMPY
        if isinstance(node.func, cst.Attribute):
            method = node.func.attr.value
            if method == "astype":
                dtype_arg = _keyword(node, "dtype") or next(iter(_positional(node)), None)
                if dtype_arg is None:
                    return None
                return self._numpy_dtype_value(dtype_arg.value) or NUMPY
            if method in _NUMPY_SAME_DTYPE:
                return self._array_dtype(node.func.value, depth + 1)
        return None

    def _constructor_dtype(self, call: cst.Call, index: int, default: str, depth: int) -> str:
        positional = _positional(call)
        dtype_arg = _keyword(call, "dtype") or (
            positional[index] if len(positional) > index else None
        )
        if dtype_arg is not None:
            return self._numpy_dtype_value(dtype_arg.value) or NUMPY
        if any(arg.star for arg in call.args):
            return NUMPY
        if default == FLOAT64:
            return FLOAT64
        if default == "fill":
            fill = positional[1].value if len(positional) > 1 else None
            return (fill is not None and _literal_dtype(fill)) or NUMPY
        if default == "range":
            kinds = {_literal_dtype(arg.value) for arg in positional}
            if FLOAT64 in kinds:
                return FLOAT64
            return OTHER if kinds == {OTHER} else NUMPY
        data = positional[0].value if positional else None
        if data is None:
            return NUMPY
        if isinstance(data, cst.Name):
            value = self._assigned_value(data)
            literal = _literal_dtype(value) if value is not None else None
            if literal is not None:
                return literal
        literal = _literal_dtype(data)
        if literal is not None:
            return literal
        inner = self._array_dtype(data, depth + 1)
        return inner if inner in (FLOAT64, OTHER) else NUMPY

    def _dtype_is_set_after(self, call: cst.Call) -> bool:
        """``call`` is the receiver of a conversion that sets the dtype (`.float()`, `.long()`,
        `.to(torch.float16)`): adding a cast before it would change nothing or lose precision."""
        attribute = self.get_metadata(ParentNodeProvider, call, None)
        if not isinstance(attribute, cst.Attribute) or attribute.value is not call:
            return False
        method = attribute.attr.value
        if method in _DTYPE_CONVERSIONS:
            return True
        outer = self.get_metadata(ParentNodeProvider, attribute, None)
        if method != "to" or not isinstance(outer, cst.Call):
            return False
        if _keyword(outer, "dtype") is not None:
            return True
        return any(
            name.startswith("torch.") and name.rsplit(".", 1)[-1] in _TORCH_DTYPE_NAMES
            for arg in _positional(outer)
            for name in self._names(arg.value)
        )

    # -- what replaces what --------------------------------------------------------------------
    def _torch_attr(self, spelled: cst.BaseExpression, attr: str) -> cst.BaseExpression:
        """``torch.<attr>`` spelled with the module alias of ``spelled`` (`th.float64`), or with a
        name imported from torch (`from torch import float32`)."""
        if isinstance(spelled, cst.Attribute):
            return spelled.with_changes(attr=cst.Name(attr))
        self.add_import("torch", obj=attr)
        return cst.Name(attr)

    def _float32_for_call(self, func: cst.BaseExpression) -> cst.BaseExpression:
        if isinstance(func, cst.Attribute):
            return cst.Attribute(value=func.value, attr=cst.Name("float32"))
        self.add_import("torch")
        return cst.parse_expression("torch.float32")

    # -- torch.float64 as an argument ------------------------------------------------------------
    def leave_Arg(self, original_node: cst.Arg, updated_node: cst.Arg) -> cst.Arg:
        value = original_node.value
        call = self.get_metadata(ParentNodeProvider, original_node, None)
        if not isinstance(call, cst.Call):
            return updated_node
        if self._is_torch_f64(value):
            return self._rewrite_f64_arg(original_node, updated_node, call)
        if self._is(value, _NUMPY_F64):
            if self._arg_role(call, original_node) in ("fix", "default") and (
                self._is_torch_call(call) or self._method(call) in _POSITIONAL_DTYPE_METHODS
            ):
                self.report(
                    value,
                    NumpyDtypeForTorch,
                    "np.float64 is not a torch dtype (torch raises TypeError); "
                    "use torch.float32 (Neuron has no float64)",
                    False,
                )
            return updated_node
        if original_node.keyword is None and (
            self._is(call.func, {"torch.set_default_tensor_type"}) or self._method(call) == "type"
        ):
            return self._rewrite_tensor_type_arg(original_node, updated_node, call)
        return updated_node

    def _rewrite_f64_arg(self, original: cst.Arg, updated: cst.Arg, call: cst.Call) -> cst.Arg:
        role = self._arg_role(call, original)
        spelled = cst.Module([]).code_for_node(original.value)
        if role == "fix" and self._on_host(call):
            self.report(
                original.value,
                Float64OnHost,
                f"{spelled} kept: this tensor is made on the CPU, which has float64; cast it "
                "to float32 before it moves to the device",
                False,
            )
            return updated
        if role == "fix" and self._buffer_made_in_init(call):
            self.report(original.value, Float64OnHost, f"{spelled}{_KEPT_BUFFER}", False)
            return updated
        how = self._cast_on_host(call) if role == "fix" else None
        if how is not None:
            self.report(
                original.value,
                Float64OnHost,
                f"{spelled} kept: this tensor is made on the host and never reaches the device "
                f"as float64 ({how}); float32 here would change the values it is cast from",
                False,
            )
            return updated
        if role == "fix":
            rule = Float64DtypeArgument
            message = f"{spelled} → float32 as a tensor dtype (Neuron has no float64)"
        elif role == "default":
            rule = Float64DefaultDtype
            message = f"default dtype {spelled} → float32 (Neuron has no float64)"
        else:
            if role == "report":
                self.report(
                    original.value,
                    Float64DtypeElsewhere,
                    f"{spelled} is passed where the tool cannot tell whether it becomes a "
                    "tensor's dtype; if it does, use torch.float32 (Neuron has no float64)",
                    False,
                )
            return updated
        if self.report(original.value, rule, message, True):
            return updated.with_changes(value=self._torch_attr(updated.value, "float32"))
        return updated

    def _on_host(self, call: cst.Call) -> bool:
        """Whether ``call`` makes its tensor on the CPU in so many words: its device (``device=``,
        or the first argument of ``.to``) is the CPU, or it has no device of another name and
        runs inside ``with torch.device("cpu"):``."""
        device = _keyword(call, "device")
        if device is None and self._method(call) == "to" and call.args and not call.args[0].keyword:
            device = call.args[0]
        if device is not None:
            if self._is_cpu(device.value):
                return True
            if _string_value(device.value) is not None or self._is(
                device.value.func if isinstance(device.value, cst.Call) else device.value,
                {"torch.device"},
            ):
                return False  # another device, spelled out
        node: cst.CSTNode | None = call
        while node is not None and not isinstance(node, (cst.FunctionDef, cst.Lambda)):
            # A function defined in the block may run after it: its body is not the block's.
            node = self.get_metadata(ParentNodeProvider, node, None)
            if isinstance(node, cst.With) and any(
                isinstance(item.item, cst.Call)
                and self._is(item.item.func, {"torch.device"})
                and item.item.args
                and self._is_cpu(item.item.args[0].value)
                for item in node.items
            ):
                return True
        return False

    def _cast_on_host(self, call: cst.Call) -> str | None:
        """How the tensor ``call`` makes on the host is cast before the device (the proof in
        ``float64_host``), or None."""
        host = self._host
        if not host.made_on_host(call):
            return None
        return host.cast_before_device(call)

    def _is_cpu(self, node: cst.BaseExpression) -> bool:
        """`"cpu"`, `"cpu:0"` or `torch.device("cpu")`."""
        if isinstance(node, cst.Call) and self._is(node.func, {"torch.device"}) and node.args:
            node = node.args[0].value
        value = _string_value(node)
        return value is not None and value.split(":", 1)[0] == "cpu"

    def _rewrite_tensor_type_arg(
        self, original: cst.Arg, updated: cst.Arg, call: cst.Call
    ) -> cst.Arg:
        value = original.value
        rule = (
            Float64DefaultDtype
            if self._is(call.func, {"torch.set_default_tensor_type"})
            else DoubleTensorType
        )
        text = _string_value(value)
        if self._is(value, _CUDA_DOUBLE_TENSOR) or text in _CUDA_TENSOR_TYPE_STRINGS:
            self.report(
                value,
                rule,
                "torch.cuda.DoubleTensor is a CUDA float64 type: use "
                ".to(<device>, torch.float32) (Neuron has no float64)",
                False,
            )
            return updated
        if self._is(value, _DOUBLE_TENSOR):
            if self.report(value, rule, "torch.DoubleTensor → torch.FloatTensor", True):
                return updated.with_changes(value=self._torch_attr(updated.value, "FloatTensor"))
            return updated
        if text in _TENSOR_TYPE_STRINGS and isinstance(updated.value, cst.SimpleString):
            new = _TENSOR_TYPE_STRINGS[text]
            if self.report(value, rule, f'"{text}" → "{new}"', True):
                quote = updated.value.quote
                new_value = f"{updated.value.prefix}{quote}{new}{quote}"
                return updated.with_changes(value=updated.value.with_changes(value=new_value))
        return updated

    # -- torch.float64 elsewhere -----------------------------------------------------------------
    def visit_Param(self, node: cst.Param) -> None:
        if node.default is not None and self._is_torch_f64(node.default):
            spelled = cst.Module([]).code_for_node(node.default)
            self.report(
                node.default,
                Float64DtypeElsewhere,
                f"parameter {node.name.value} defaults to {spelled}; if it becomes a tensor's "
                "dtype, default to torch.float32 (Neuron has no float64)",
                False,
            )

    def leave_Assign(self, original_node: cst.Assign, updated_node: cst.Assign) -> cst.Assign:
        target = original_node.targets[0].target if len(original_node.targets) == 1 else None
        value = self._stored_f64(original_node.value, updated_node.value, target)
        return updated_node.with_changes(value=value)

    def leave_AnnAssign(
        self, original_node: cst.AnnAssign, updated_node: cst.AnnAssign
    ) -> cst.AnnAssign:
        if original_node.value is None or updated_node.value is None:
            return updated_node
        value = self._stored_f64(original_node.value, updated_node.value, original_node.target)
        return updated_node.with_changes(value=value)

    def _stored_f64(
        self,
        original: cst.BaseExpression,
        updated: cst.BaseExpression,
        target: cst.BaseExpression | None,
    ) -> cst.BaseExpression:
        """``torch.float64`` assigned to a variable: rewritten when every use of the variable is a
        tensor's dtype, reported when some are."""
        if not self._is_torch_f64(original):
            return updated
        spelled = cst.Module([]).code_for_node(original)
        if not isinstance(target, cst.Name):
            self.report(
                original,
                Float64DtypeElsewhere,
                f"{spelled} is stored where the tool cannot follow it; if it becomes a "
                "tensor's dtype, use torch.float32 (Neuron has no float64)",
                False,
            )
            return updated
        roles, single = self._reference_roles(target)
        dtype_uses = [role for role in roles if role in ("fix", "default")]
        if single and dtype_uses and len(dtype_uses) == len(roles):
            message = f"{spelled} → float32 ({target.value} is used only as a tensor dtype)"
            if self.report(original, Float64DtypeArgument, message, True):
                return self._torch_attr(updated, "float32")
            return updated
        if dtype_uses:
            message = (
                f"{target.value} = {spelled} is used as a tensor dtype and elsewhere (or assigned "
                "again); use torch.float32 by hand where it becomes a tensor's dtype"
            )
        elif "report" in roles:
            message = (
                f"{target.value} = {spelled} is passed where the tool cannot tell whether it "
                "becomes a tensor's dtype; if it does, use torch.float32"
            )
        else:
            return updated  # never a dtype argument: comparisons and the like
        self.report(original, Float64DtypeElsewhere, f"{message} (Neuron has no float64)", False)
        return updated

    def _reference_roles(self, target: cst.Name) -> tuple[list[str | None], bool]:
        """The roles of every read of ``target``, and whether it is assigned only here."""
        scope = self.get_metadata(ScopeProvider, target, None)
        if scope is None:
            return [None], False
        assignments = scope.assignments[target.value]
        roles: list[str | None] = []
        for assignment in assignments:
            if getattr(assignment, "node", None) is not target:
                continue
            for access in assignment.references:
                node = access.node
                roles.append(self._role_of(node) if isinstance(node, cst.Name) else None)
        return roles, len(assignments) == 1

    # -- calls: .double(), torch.DoubleTensor(...), NumPy arrays into tensors ----------------------
    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        func = original_node.func
        if (
            isinstance(func, cst.Attribute)
            and func.attr.value == "double"
            and not original_node.args
            and self._method(original_node) == "double"
        ):
            if self._buffer_made_in_init(original_node):
                self.report(func.attr, Float64OnHost, f".double(){_KEPT_BUFFER}", False)
                return updated_node
            if self.report(func.attr, DoubleMethod, ".double() → .float()", True):
                assert isinstance(updated_node.func, cst.Attribute)
                return updated_node.with_changes(
                    func=updated_node.func.with_changes(attr=cst.Name("float"))
                )
            return updated_node
        if self._is(func, _DOUBLE_TENSOR):
            if self.report(func, DoubleTensorType, "torch.DoubleTensor → torch.FloatTensor", True):
                return updated_node.with_changes(
                    func=self._torch_attr(updated_node.func, "FloatTensor")
                )
            return updated_node
        if self._is(func, _CUDA_DOUBLE_TENSOR):
            if never_runs(self, original_node):
                return updated_node
            # It raises without CUDA, as every CUDA tensor type does ([measured-cuda-tensor-types],
            # TRN317's): the script stops here wherever it runs, a launch-path blocker.
            if self.report(
                func,
                DoubleTensorType,
                "torch.cuda.DoubleTensor(...) makes a CUDA float64 tensor and raises `Found no "
                "NVIDIA driver` on Trainium: use torch.tensor(..., dtype=torch.float32, "
                "device=<device>) (Neuron has no float64)",
                False,
            ):
                self.findings[-1] = replace(self.findings[-1], severity=Severity.BLOCKER)
            return updated_node
        if self._is(func, _TENSOR_SINKS):
            return self._convert_array(original_node, updated_node)
        return updated_node

    def _buffer_made_in_init(self, call: cst.Call) -> bool:
        """`self.register_buffer(name, torch.linspace(...).double())` (or a factory given
        `dtype=torch.float64`) in a module's `__init__`: a tensor made on the host
        (``HostFloat64.made_on_host``) and registered as float64 where the module is built,
        before anything moves it (a diffusion model's noise schedule, whose `cumprod` and square
        roots follow in double)."""
        receiver = call.func.value if self._method(call) == "double" else call
        if not (isinstance(receiver, cst.Call) and self._host.made_on_host(receiver)):
            return False
        argument = self.get_metadata(ParentNodeProvider, call, None)
        register = self.get_metadata(ParentNodeProvider, argument, None) if argument else None
        if not (
            isinstance(argument, cst.Arg)
            and isinstance(register, cst.Call)
            and m.matches(
                register.func, m.Attribute(value=m.Name("self"), attr=m.Name("register_buffer"))
            )
        ):
            return False
        node: cst.CSTNode | None = register
        while node is not None and not isinstance(node, cst.FunctionDef):
            node = self.get_metadata(ParentNodeProvider, node, None)
        return isinstance(node, cst.FunctionDef) and node.name.value == "__init__"

    def _convert_array(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        positional = _positional(original)
        if not positional or positional[0] is not original.args[0]:
            return updated
        from_numpy = self._is(original.func, {"torch.from_numpy"})
        if not from_numpy and (_keyword(original, "dtype") is not None or len(positional) > 1):
            return updated  # the dtype is given
        if any(arg.star for arg in original.args) or self._dtype_is_set_after(original):
            return updated
        kind = self._array_dtype(positional[0].value)
        if kind == OTHER or (kind is None and not from_numpy):
            return updated
        call = "torch.from_numpy(...)" if from_numpy else "a tensor"
        if kind != FLOAT64:
            fix = "append .float()" if from_numpy else "pass dtype=torch.float32"
            self.report(
                original,
                NumpyDtypeUnknown,
                f"the dtype of the NumPy array made into {call} is not visible here; if it can "
                f"be float64, {fix} (Neuron has no float64)",
                False,
            )
            return updated
        how = self._cast_on_host(original)
        if how is not None:
            self.report(
                original,
                Float64OnHost,
                f"float64 NumPy array kept as a float64 tensor: it is made on the host and never "
                f"reaches the device as float64 ({how}); float32 here would change the values "
                "it is cast from",
                False,
            )
            return updated
        if from_numpy:
            message = "float64 NumPy array → torch.from_numpy(...).float() (Neuron has no float64)"
            if self.report(original, NumpyFloat64ToTensor, message, True):
                return cst.Call(func=cst.Attribute(value=updated, attr=cst.Name("float")))
            return updated
        message = "float64 NumPy array → dtype=torch.float32 (Neuron has no float64)"
        if not self.report(original, NumpyFloat64ToTensor, message, True):
            return updated
        return append_keyword(updated, "dtype", self._float32_for_call(updated.func))
