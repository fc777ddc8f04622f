"""float64 → float32 where float64 certainly reaches a tensor (reference R7).

Neuron has no FP64: torch_xla silently computes a float64 tensor in f32 on Neuron while PJRT CPU
keeps f64, so the CPU check and the device disagree. The pass rewrites only where the value is
certainly a tensor's dtype (a torch call's ``dtype=``, ``.to``/``.type``, ``.double()``, the
default dtype, a NumPy array that is visibly float64 flowing into a tensor constructor). Values
that stay in NumPy, integer data and dtype comparisons are never touched, and a tensor made on
the CPU in so many words keeps its float64 with a note (TRN209): there it is deliberate.
"""

from __future__ import annotations

import ast

import libcst as cst
from libcst.metadata import Assignment, ParentNodeProvider, ScopeProvider

from trncodemod.analysis import training
from trncodemod.analysis.facts import FileFacts, may_resolve, reaches_module
from trncodemod.findings import Rule, Safety, Severity
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
# What the pass acts on wherever it is named (Float64ToFloat32.candidate).
_NAMED_ACTS = _NUMPY_F64 | _DOUBLE_TENSOR | _CUDA_DOUBLE_TENSOR | frozenset({"torch.from_numpy"})
_DOUBLE_TENSOR_STRINGS = frozenset(_TENSOR_TYPE_STRINGS) | _CUDA_TENSOR_TYPE_STRINGS

FLOAT64 = "float64"
OTHER = "other"  # a known dtype that is not float64
NUMPY = "numpy"  # a NumPy value whose dtype is not visible here


class Float64DtypeArgument(Rule):
    """## What it does
    Rewrites `torch.float64` / `torch.double` to `torch.float32` where it is a tensor's dtype: the
    `dtype=` keyword of a `torch.*` call (`torch.zeros`, `torch.tensor`, `nn.Linear`, ...) or of a
    tensor method that returns a tensor (`.to`, `.type`, `.new_zeros`, `.sum`, ...), the positional
    dtype of `.to(...)` and `.type(...)`, and a variable assigned once whose every use is one of
    those places. The spelling of the module is kept (`th.double` → `th.float32`).

    `torch.float64` anywhere else (`x.dtype == torch.float64`, `torch.finfo(torch.float64)`) is
    not a tensor's dtype and is left alone.

    ## Why
    Neuron has no FP64 (reference R7, `data-types.rst`). torch_xla silently stores float64 as f32
    on Neuron, while PJRT CPU keeps f64 (measured), so a local check and the device compute
    different numbers. The rewrite does what the device already does, and makes the CPU check
    agree with it: `review`, because it changes numerics on the CPU.

    ## Example
    ```python
    x = torch.zeros(8, dtype=torch.float64)
    y = y.to(device, torch.double)
    ```

    ## Use instead
    ```python
    x = torch.zeros(8, dtype=torch.float32)
    y = y.to(device, torch.float32)
    ```
    """

    code = "TRN201"
    name = "float64-dtype-argument"
    summary = "`dtype=torch.float64` / `.to(torch.float64)` → `torch.float32`"
    safety = Safety.REVIEW
    severity = Severity.WARNING
    source = "reference R7"


class DoubleMethod(Rule):
    """## What it does
    Rewrites `x.double()` (no arguments) on a tensor or module to `x.float()`.

    ## Why
    `.double()` makes float64 tensors, which Neuron computes in f32 while PJRT CPU keeps f64
    (reference R7): the rewrite makes the CPU check agree with the device. `review`, because it
    changes numerics on the CPU.

    ## Example
    ```python
    loss = criterion(out.double(), target.double())
    ```

    ## Use instead
    ```python
    loss = criterion(out.float(), target.float())
    ```
    """

    code = "TRN202"
    name = "double-method"
    summary = "`.double()` → `.float()`"
    safety = Safety.REVIEW
    severity = Severity.WARNING
    source = "reference R7"


class Float64DefaultDtype(Rule):
    """## What it does
    Rewrites `torch.set_default_dtype(torch.float64)` to `torch.set_default_dtype(torch.float32)`
    and `torch.set_default_tensor_type(torch.DoubleTensor)` (or `"torch.DoubleTensor"`) to
    `torch.FloatTensor`. A CUDA tensor type (`torch.cuda.DoubleTensor`) is reported.

    ## Why
    A float64 default makes every new floating tensor float64, which Neuron computes in f32 while
    PJRT CPU keeps f64 (reference R7); torch_xla's own MNIST test sets the default to float32.
    `review`, because it changes numerics on the CPU.

    ## Example
    ```python
    torch.set_default_dtype(torch.float64)
    ```

    ## Use instead
    ```python
    torch.set_default_dtype(torch.float32)
    ```
    """

    code = "TRN203"
    name = "float64-default-dtype"
    summary = "`torch.set_default_dtype(torch.float64)` → `torch.float32`"
    safety = Safety.REVIEW
    severity = Severity.WARNING
    source = "reference R7"


class DoubleTensorType(Rule):
    """## What it does
    Rewrites the legacy CPU tensor type `torch.DoubleTensor` to `torch.FloatTensor` where it makes
    or converts a tensor: the constructor `torch.DoubleTensor(...)` and `x.type(torch.DoubleTensor)`
    (also the string `"torch.DoubleTensor"`). Both spellings make a CPU tensor, so only the dtype
    changes. `torch.cuda.DoubleTensor` is reported, not rewritten: it is a CUDA type, and the
    replacement depends on the device. `isinstance(x, torch.DoubleTensor)` is left alone.

    ## Why
    float64 tensors run in f32 on Neuron and in f64 on PJRT CPU (reference R7). `review`, because it
    changes numerics on the CPU.

    ## Example
    ```python
    w = torch.DoubleTensor(3, 4)
    y = x.type(torch.DoubleTensor)
    ```

    ## Use instead
    ```python
    w = torch.FloatTensor(3, 4)
    y = x.type(torch.FloatTensor)
    ```
    """

    code = "TRN204"
    name = "double-tensor-type"
    summary = "`torch.DoubleTensor` → `torch.FloatTensor`"
    safety = Safety.REVIEW
    severity = Severity.WARNING
    source = "reference R7"


class NumpyFloat64ToTensor(Rule):
    """## What it does
    Converts a NumPy array that is visibly float64 where it becomes a tensor:
    `torch.from_numpy(a)` → `torch.from_numpy(a).float()`, and `torch.tensor(a)` /
    `torch.as_tensor(a)` without a dtype → `torch.tensor(a, dtype=torch.float32)`.

    An array is visibly float64 when it is made right there, or by a local variable assigned once
    in the same scope, with a float64 dtype (`np.float64`, `"float64"`, `float`, `np.double`), by
    `np.random.rand/randn/normal/uniform/random`, by `np.zeros/ones/empty/linspace/eye/loadtxt`
    without a dtype, by `np.full` with a float fill value, by `np.arange` with a float argument,
    or by `np.array([...])` of float literals. Integer data (`np.random.randint`, `np.arange(10)`,
    `dtype=np.int64`) is never cast. The NumPy array itself is not changed: host-only statistics
    keep their float64.

    ## Why
    NumPy's default dtype is float64 and `torch.from_numpy` keeps it; Neuron computes the tensor
    in f32 while PJRT CPU keeps f64 (reference R7). A `np.float64` *scalar* times a float32 tensor
    stays float32 (measured), so only arrays matter. `review`, because it changes numerics on the
    CPU, and because the converted tensor is a copy: `torch.from_numpy(a)` and `torch.as_tensor(a)`
    share memory with `a`, so code that writes into `a` (or the tensor) in place and expects the
    other to follow must be changed by hand.

    ## Example
    ```python
    x = torch.from_numpy(np.random.randn(64, 10))
    ```

    ## Use instead
    ```python
    x = torch.from_numpy(np.random.randn(64, 10)).float()
    ```
    """

    code = "TRN205"
    name = "numpy-float64-to-tensor"
    summary = "float64 NumPy array → float32 tensor"
    safety = Safety.REVIEW
    severity = Severity.WARNING
    source = "reference R7"


class NumpyDtypeUnknown(Rule):
    """## What it does
    Notes a NumPy array whose dtype the tool cannot see where it becomes a tensor:
    `torch.from_numpy(load_array())`, or `torch.tensor(np.load(path))`. Nothing is rewritten.

    ## Why
    If the array is float64 (NumPy's default for floating data), the tensor is float64: Neuron
    computes it in f32 while PJRT CPU keeps f64 (reference R7). Guessing would cast integer labels
    and indices to float. This is a note (`info`): nearly every data pipeline has such a call, and
    most are fine.

    ## Example
    ```python
    x = torch.from_numpy(load_features(path))
    ```

    ## Use instead
    ```python
    x = torch.from_numpy(load_features(path)).float()   # only if the features are floating point
    ```
    """

    code = "TRN206"
    name = "numpy-dtype-unknown"
    summary = "NumPy array of unknown dtype becomes a tensor (note only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.INFO
    source = "reference R7"


class Float64DtypeElsewhere(Rule):
    """## What it does
    Reports `torch.float64` / `torch.double` that may become a tensor's dtype out of the tool's
    sight: passed to a function outside `torch` (`make_batch(dtype=torch.float64)`), a parameter
    default (`def f(dtype=torch.double)`), stored in an attribute, or held in a variable that is
    used both as a dtype argument and elsewhere. Nothing is rewritten.

    ## Why
    If it ends up as a tensor's dtype, Neuron computes that tensor in f32 while PJRT CPU keeps f64
    (reference R7). Host-only uses (statistics, comparisons) are fine as they are; only a person
    can tell which it is. NxD, for example, keeps `torch.double` for its running loss on purpose.

    ## Example
    ```python
    batch = make_batch(rows, dtype=torch.float64)
    ```

    ## Use instead
    ```python
    batch = make_batch(rows, dtype=torch.float32)   # if make_batch builds tensors for the device
    ```
    """

    code = "TRN207"
    name = "float64-dtype-elsewhere"
    summary = "`torch.float64` that may become a tensor's dtype (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.WARNING
    source = "reference R7"


class NumpyDtypeForTorch(Rule):
    """## What it does
    Reports `np.float64` (or `np.double`) passed as the dtype of a torch call, such as
    `torch.zeros(3, dtype=np.float64)` or `x.to(np.float64)`. Nothing is rewritten.

    ## Why
    torch does not accept NumPy dtypes: these calls raise `TypeError` (measured on torch 2.9), on
    every device. The intended dtype was float64, which Neuron does not have (reference R7): use
    `torch.float32`.

    ## Example
    ```python
    x = torch.tensor(rows, dtype=np.float64)
    ```

    ## Use instead
    ```python
    x = torch.tensor(rows, dtype=torch.float32)
    ```
    """

    code = "TRN208"
    name = "numpy-dtype-for-torch"
    summary = "`np.float64` used as a torch dtype (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.ERROR
    source = "reference R7"


class Float64OnHost(Rule):
    """## What it does
    Leaves `dtype=torch.float64` (or `torch.double`) as it is where the tensor is made on the
    CPU in so many words, and says so: the call names the CPU as its device
    (`device="cpu"`, `device=torch.device("cpu")`, `.to("cpu", dtype=...)`) or runs inside
    `with torch.device("cpu"):`.

    ## Why
    The CPU has float64, and such code computes on the host in double precision on purpose:
    rotary-embedding frequency tables, schedules, statistics, which are cast to float32 or
    complex64 before they reach the device (diffusers' RoPE helpers build their frequencies this
    way). Rewriting them to float32 changes the numbers the model is given and gains nothing on
    Trainium. What matters is that the tensor is cast before it moves to the device; where it
    moves there as float64, Neuron computes it in f32 (reference R7).

    ## Example
    ```python
    with torch.device("cpu"):
        freqs = 1.0 / theta ** (torch.arange(0, dim, 2, dtype=torch.float64) / dim)
    ```

    ## Use instead
    ```python
    with torch.device("cpu"):
        freqs = 1.0 / theta ** (torch.arange(0, dim, 2, dtype=torch.float64) / dim)
    freqs = freqs.float().to(device)  # cast on the host, then move
    ```
    """

    code = "TRN209"
    name = "float64-on-host"
    summary = "float64 kept where a tensor is made on the CPU in so many words (note)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.INFO
    source = "reference R7"


class Float64UnderBf16Downcast(Rule):
    """## What it does
    On the XLA targets, in a file that names `XLA_USE_BF16` or `XLA_DOWNCAST_BF16`, or that
    trains with neuronx-distributed, leaves every float64 it would otherwise rewrite or report as
    it is, with this note at each place (`np.float64` passed as a torch dtype is still reported:
    it raises).

    ## Why
    With either variable set, torch_xla stores `torch.float32` tensors as bf16 and
    `torch.float64` as f32 on the device: `torch.double` is the documented way to keep an
    accumulator (a running loss, a norm) in f32 in such a script, and NxD's own port keeps it
    (reference R7 "NxD deliberately uses `torch.double` for the running loss", R9). Rewriting it
    to float32 would make it bf16. 9 of 16 float64 fixes on the issue-12 corpus were in such
    files.

    ## Example
    ```python
    os.environ["XLA_USE_BF16"] = "1"
    running_loss = torch.zeros(1, dtype=torch.double, device=device)
    ```

    ## Use instead
    ```python
    os.environ["XLA_USE_BF16"] = "1"
    running_loss = torch.zeros(1, dtype=torch.double, device=device)  # f32 on the device
    ```
    """

    code = "TRN153"
    name = "float64-under-bf16-downcast"
    summary = "float64 kept under `XLA_USE_BF16`/`XLA_DOWNCAST_BF16` or in NxD code (f32 there)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.INFO
    source = "reference R7, R9"


# -- the first stage (Float64ToFloat32.candidate) ------------------------------------------------
_F64_PARTS = frozenset({"float64", "double"})
_SINK_PARTS = frozenset({"tensor", "as_tensor", "asarray"})


def _has_site(tree: ast.Module, f64: bool, sinks: bool) -> bool:
    """Whether the tree has a place where torch.float64 may act (``f64``: a call argument, a
    default, an assignment's value that is a name or attribute spelled like it) or where a
    tensor constructor may take a NumPy value (``sinks``). A plain name counts where it is
    spelled so or an import binds it to such a name (`from torch import float64 as f8`)."""
    names: set[str] = set()  # plain names at such places, resolved against the imports below
    imported: set[str] = set()  # names bound by an import to a `float64`/`tensor`... name
    parts = (_F64_PARTS if f64 else frozenset()) | (_SINK_PARTS if sinks else frozenset())

    def f64_like(value: ast.expr | None) -> bool:
        kind = type(value)
        if kind is ast.Attribute:
            return value.attr in _F64_PARTS  # type: ignore[union-attr]
        if kind is ast.Name:
            names.add(value.id)  # type: ignore[union-attr]
        return False

    for node in ast.walk(tree):
        kind = type(node)
        if kind is ast.Call:
            if f64 and (
                any(f64_like(a.value if type(a) is ast.Starred else a) for a in node.args)  # type: ignore[attr-defined]
                or any(f64_like(k.value) for k in node.keywords)  # type: ignore[attr-defined]
            ):
                return True
            if sinks and _sink_may_convert(node, names):  # type: ignore[arg-type]
                return True
        elif f64 and kind in (ast.Assign, ast.AnnAssign):
            if f64_like(node.value):  # type: ignore[attr-defined]
                return True
        elif f64 and kind is ast.arguments:
            defaults = [*node.defaults, *node.kw_defaults]  # type: ignore[attr-defined]
            if any(f64_like(d) for d in defaults if d is not None):
                return True
        elif kind is ast.Import or kind is ast.ImportFrom:
            for alias in node.names:  # type: ignore[attr-defined]
                if alias.name.rsplit(".", 1)[-1] in parts:
                    imported.add(alias.asname or alias.name.split(".", 1)[0])
    return not names.isdisjoint(imported | parts)


def _sink_may_convert(call: ast.Call, names: set[str]) -> bool:
    """``_convert_array`` may act on ``call`` as torch.tensor/as_tensor/asarray: one positional
    argument, first, no `dtype=` and no unpacking, and the argument a name, subscript, call or
    `.T` (what ``_array_dtype`` may find a NumPy value in). A plain-name callee is added to
    ``names`` (it may be an import alias) instead of deciding here."""
    func = call.func
    if type(func) is ast.Attribute:
        if func.attr not in _SINK_PARTS:  # type: ignore[attr-defined]
            return False
    elif type(func) is not ast.Name:
        return False
    if len(call.args) != 1 or type(call.args[0]) is ast.Starred:
        return False
    if any(k.arg is None or k.arg == "dtype" for k in call.keywords):
        return False
    value = call.args[0]
    kind = type(value)
    if not (
        kind in (ast.Name, ast.Subscript, ast.Call) or (kind is ast.Attribute and value.attr == "T")  # type: ignore[attr-defined]
    ):
        return False
    if type(func) is ast.Name:
        names.add(func.id)  # type: ignore[attr-defined]
        return False
    return True


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
    rules = (
        Float64DtypeArgument,
        DoubleMethod,
        Float64DefaultDtype,
        DoubleTensorType,
        NumpyFloat64ToTensor,
        NumpyDtypeUnknown,
        Float64DtypeElsewhere,
        NumpyDtypeForTorch,
        Float64OnHost,
        Float64UnderBf16Downcast,
    )
    needles = ("float64", "double", "Double", "from_numpy", "tensor", "asarray")

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
        return (f64 or sinks) and _has_site(facts.tree, f64, sinks)

    def report(self, node: cst.CSTNode, rule: type[Rule], message: str, fixed: bool) -> bool:
        """Under BF16 downcast every finding becomes a note and nothing is rewritten: the
        training profile, not the line, decides what float64 means there."""
        # `np.float64` as a torch dtype raises whatever the precision: still reported.
        # TorchNeuron has no such variables (reference §5): only the XLA targets downcast.
        profile = self.run.profile
        if profile.bf16_downcast:
            why = (
                "this file uses XLA_USE_BF16/XLA_DOWNCAST_BF16, under which torch_xla keeps "
                "float64 as f32 and float32 as bf16"
            )
        else:
            # "NxD deliberately uses torch.double for the running loss" (reference R7).
            why = "neuronx-distributed code keeps its f32 accumulators in torch.double on purpose"
        if rule in (Float64UnderBf16Downcast, NumpyDtypeForTorch) or not (
            self.target.is_xla and (profile.bf16_downcast or training.NXD in profile.parallelism)
        ):
            return super().report(node, rule, message, fixed)
        super().report(
            node,
            Float64UnderBf16Downcast,
            f"kept ({message.split(' (', 1)[0]} not applied): {why}",
            False,
        )
        return False

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
            self.report(
                func,
                DoubleTensorType,
                "torch.cuda.DoubleTensor(...) makes a CUDA float64 tensor: use "
                "torch.tensor(..., dtype=torch.float32, device=<device>) (Neuron has no float64)",
                False,
            )
            return updated_node
        if self._is(func, _TENSOR_SINKS):
            return self._convert_array(original_node, updated_node)
        return updated_node

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
        if from_numpy:
            message = "float64 NumPy array → torch.from_numpy(...).float() (Neuron has no float64)"
            if self.report(original, NumpyFloat64ToTensor, message, True):
                return cst.Call(func=cst.Attribute(value=updated, attr=cst.Name("float")))
            return updated
        message = "float64 NumPy array → dtype=torch.float32 (Neuron has no float64)"
        if not self.report(original, NumpyFloat64ToTensor, message, True):
            return updated
        return append_keyword(updated, "dtype", self._float32_for_call(updated.func))
