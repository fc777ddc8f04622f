"""Ops that fall back to the CPU, make shapes depend on the data, or that neuronx-cc rejects, in
model and training code (reference D1, D2, §5). Report only: the op table is data,
``data/fallback_ops.toml``.

Model and training code is: a training or evaluation loop (``trncodemod.analysis.loops``), a class that
derives from ``nn.Module`` (also ``PreTrainedModel``, ``LightningModule``, ``autograd.Function``,
and classes of the file derived from those), a function that calls ``.backward()`` or steps an
optimizer, and every function of the file that this code calls by name. Collate functions and
``__getitem__``/``__iter__`` (dataset code, which runs on the host) never are, and an operand that
is visibly on the host (``.cpu()``, ``.numpy()``, ``.to("cpu")``, a NumPy call, or a name bound
only to one) is skipped.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from importlib import resources

import libcst as cst
import libcst.matchers as m
from libcst.metadata import (
    ParentNodeProvider,
    QualifiedNameProvider,
    QualifiedNameSource,
)

from trncodemod.analysis.facts import FileFacts
from trncodemod.analysis.facts import dotted as ast_dotted
from trncodemod.analysis.loops import (
    dotted,
    find_step_loops,
    is_backward,
    is_optimizer_step,
    own_statements,
)
from trncodemod.analysis.nodes import children, find
from trncodemod.findings import Rule, Safety, Severity
from trncodemod.passes import Pass
from trncodemod.targets import Target

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib


class NonzeroFallback(Rule):
    """## What it does
    Reports `torch.nonzero(x)`, `x.nonzero()`, `torch.argwhere(x)` and `x.argwhere()` (any
    `as_tuple`) in model and training code. Nothing is rewritten.

    ## Why
    The number of results depends on the values, so XLA cannot compile it: it runs on the CPU
    (`aten::nonzero` in the metrics report), which executes the pending graph and copies the input
    to the host, and every new count is a new shape downstream (reference D1, measured on
    torch_xla 2.9: 1 execution, 1 transfer; troubleshoot.md "Direct or indirect uses of `nonzero`
    introduce dynamic shapes"). TorchNeuron also runs unsupported ops on the CPU (reference §5).

    ## Example
    ```python
    idx = torch.nonzero(scores > 0.5).squeeze(1)
    picked = features[idx]
    ```

    ## Use instead
    ```python
    top = scores.topk(k).indices            # a fixed number of positions
    keep = scores.gather(0, top) > 0.5      # and a mask for the ones that count
    picked = features[top] * keep.unsqueeze(1)
    ```
    """

    code = "TRN411"
    name = "nonzero-fallback"
    summary = "`torch.nonzero`/`argwhere` runs on the CPU with a data-dependent shape (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.ERROR
    source = "reference D1, D2, §5"


class BooleanMaskIndex(Rule):
    """## What it does
    Reports indexing with a mask that is visibly boolean — a comparison (`x[x > 0]`), `isnan`,
    `isfinite`, `logical_*`, `.bool()`, `~mask`, `mask & other`, or a name bound only to one of
    these — in model and training code, both reading (`x[mask]`) and writing (`x[mask] = 0`). A
    mask of unknown type is not reported. Nothing is rewritten.

    ## Why
    Boolean-mask indexing is `nonzero` underneath: it runs on the CPU (`aten::nonzero`), copies to
    the host, and the result's size depends on the data (reference D1, measured; writing through
    a mask also falls back). The usual rewrite keeps the full shape: `x[mask].sum()` →
    `(x * mask).sum()`, `x[mask].mean()` → `(x * mask).sum() / mask.sum()`, `x[mask] = v` →
    `x = x.masked_fill(mask, v)`.

    ## Example
    ```python
    loss = per_token_loss[labels != -100].mean()
    ```

    ## Use instead
    ```python
    mask = labels != -100
    loss = (per_token_loss * mask).sum() / mask.sum()
    ```
    """

    code = "TRN412"
    name = "boolean-mask-index"
    summary = "`x[mask]` with a boolean mask runs `nonzero` on the CPU (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.ERROR
    source = "reference D1"


class OneArgumentWhere(Rule):
    """## What it does
    Reports `torch.where(cond)` with one argument in model and training code. The
    three-argument form `torch.where(cond, a, b)` is lowered and not reported.

    ## Why
    One-argument `where` is `nonzero(cond, as_tuple=True)`: it runs on the CPU, copies to the host
    and returns a data-dependent shape (reference D1, measured).

    ## Example
    ```python
    rows, cols = torch.where(adjacency > 0)
    ```

    ## Use instead
    ```python
    weights = torch.where(adjacency > 0, adjacency, 0)   # same shape, no host round trip
    ```
    """

    code = "TRN413"
    name = "one-argument-where"
    summary = "one-argument `torch.where` is `nonzero` on the CPU (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.ERROR
    source = "reference D1"


class MaskedSelect(Rule):
    """## What it does
    Reports `torch.masked_select(x, mask)` and `x.masked_select(mask)` in model and training
    code.

    ## Why
    Runs on the CPU (`aten::masked_select`) with a data-dependent output size (reference D1,
    measured; `XLA_EXPERIMENTAL="nonzero:masked_select"` is experimental and TPU-only).

    ## Example
    ```python
    total = torch.masked_select(loss, valid).sum()
    ```

    ## Use instead
    ```python
    total = torch.where(valid, loss, 0).sum()
    ```
    """

    code = "TRN414"
    name = "masked-select"
    summary = "`masked_select` runs on the CPU with a data-dependent shape (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.ERROR
    source = "reference D1"


class UniqueFallback(Rule):
    """## What it does
    Reports `torch.unique`, `torch.unique_consecutive` and the methods of the same names in model
    and training code.

    ## Why
    Runs on the CPU (`aten::_unique2`, `aten::unique_consecutive`) and copies to the host; the
    number of distinct values is a new shape each time (reference D1, measured;
    `source_of_recompilation.md`: "another example is torch.unique()").

    ## Example
    ```python
    present = torch.unique(labels)
    ```

    ## Use instead
    ```python
    present = torch.zeros(num_classes, device=labels.device).scatter_add_(
        0, labels, torch.ones_like(labels, dtype=torch.float)) > 0
    ```
    """

    code = "TRN415"
    name = "unique-fallback"
    summary = "`torch.unique` runs on the CPU with a data-dependent shape (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.ERROR
    source = "reference D1"


class SamplingAndHistogramFallback(Rule):
    """## What it does
    Reports `torch.multinomial`, `torch.bincount`, `torch.histc` and their method forms in model
    and training code.

    ## Why
    They have no XLA lowering: each runs on the CPU (`aten::multinomial`, `aten::bincount`,
    `aten::histc`) and copies its input to the host every time (reference D1, measured).

    ## Example
    ```python
    next_token = torch.multinomial(probs, 1)
    ```

    ## Use instead
    ```python
    gumbel = -torch.log(-torch.log(torch.rand_like(probs)))
    next_token = (probs.log() + gumbel).argmax(-1, keepdim=True)
    ```
    """

    code = "TRN416"
    name = "sampling-histogram-fallback"
    summary = "`multinomial`/`bincount`/`histc` run on the CPU (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.ERROR
    source = "reference D1"


class RepeatInterleaveTensor(Rule):
    """## What it does
    Reports `repeat_interleave` whose repeats are visibly a tensor (a `torch.*` call, `.long()`,
    `.to(...)`, a name bound only to one) and the one-argument form `torch.repeat_interleave(r)`.
    Repeats given as a Python int are lowered and not reported.

    ## Why
    With tensor repeats the output size depends on the values: it runs on the CPU
    (`aten::repeat_interleave.Tensor`), even when `output_size=` is given (reference D1, measured
    on torch_xla 2.9).

    ## Example
    ```python
    expanded = torch.repeat_interleave(tokens, lengths)
    ```

    ## Use instead
    ```python
    # pad every row to the longest repeat count and carry a mask
    expanded = tokens.unsqueeze(1).expand(-1, max_len)
    mask = torch.arange(max_len, device=tokens.device) < lengths.unsqueeze(1)
    ```
    """

    code = "TRN417"
    name = "repeat-interleave-tensor"
    summary = "`repeat_interleave` with tensor repeats runs on the CPU (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.ERROR
    source = "reference D1"


class FftFallback(Rule):
    """## What it does
    Reports every `torch.fft.*` function and `torch.stft`/`torch.istft` (and the methods) in
    model and training code.

    ## Why
    FFTs run on the CPU (`aten::_fft_r2c`, reference D1, measured) and produce complex tensors,
    which neuronx-cc does not support (EVRF004); Neuron's own analysis tutorial uses
    `torch.fft.fft` as its unsupported-op example.

    ## Example
    ```python
    spec = torch.fft.rfft(frames, dim=-1).abs()
    ```

    ## Use instead
    ```python
    # in the Dataset / collate function, on the host:
    spec = torch.fft.rfft(frames, dim=-1).abs()
    ```
    """

    code = "TRN418"
    name = "fft-fallback"
    summary = "`torch.fft.*`/`stft` run on the CPU and make complex tensors (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.ERROR
    source = "reference D1"


class SparseTensor(Rule):
    """## What it does
    Reports sparse tensors in model and training code: `x.to_sparse*()`, `torch.sparse_*_tensor`,
    `torch.sparse.*`, and `nn.Embedding`/`nn.EmbeddingBag`/`F.embedding` with `sparse=True`.

    ## Why
    The XLA backend has no sparse kernels: moving a sparse tensor to the device raises
    `NotImplementedError: Could not run 'aten::_sparse_coo_tensor_with_dims_and_tensors' with
    arguments from the 'SparseXLA' backend` (reference D1, measured); an embedding with
    `sparse=True` raises the same at `backward()` (measured on torch_xla 2.9).

    ## Example
    ```python
    self.embed = nn.Embedding(vocab, dim, sparse=True)
    ```

    ## Use instead
    ```python
    self.embed = nn.Embedding(vocab, dim)
    ```
    """

    code = "TRN419"
    name = "sparse-tensor"
    summary = "sparse tensors have no XLA kernels: a hard error (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.ERROR
    source = "reference D1"


class ComplexDtype(Rule):
    """## What it does
    Reports complex dtypes (`torch.complex64`, `torch.complex128`, `torch.cfloat`,
    `torch.cdouble`, `torch.complex32`, `torch.chalf`) and `torch.view_as_complex`,
    `torch.complex`, `torch.polar` in model and training code.

    ## Why
    neuronx-cc does not support complex data types (error EVRF004, reference D1 "Neuron-side
    compiler restrictions"): the graph fails to compile on Trainium, whatever the target.

    ## Example
    ```python
    freqs = torch.view_as_complex(x.reshape(*x.shape[:-1], -1, 2))
    ```

    ## Use instead
    ```python
    x1, x2 = x[..., 0::2], x[..., 1::2]          # rotary embedding with real arithmetic
    out = torch.stack((x1 * cos - x2 * sin, x1 * sin + x2 * cos), dim=-1).flatten(-2)
    ```
    """

    code = "TRN421"
    name = "complex-dtype"
    summary = "complex dtypes are rejected by neuronx-cc (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.ERROR
    source = "reference D1 (EVRF004)"


class IntegerTopk(Rule):
    """## What it does
    Reports `topk` on a tensor that is visibly integer: `.long()`, `.int()`, `.to(torch.int64)`,
    `torch.randint(...)`, `argmax`/`argsort` results, a creation call with an integer `dtype=`,
    or a name bound only to one of these. `topk` on a tensor of unknown dtype is not reported.

    ## Why
    neuronx-cc rejects `topk` on int32/int64 inputs (error EVRF013, reference D1): cast to float.
    (torch_xla on the CPU runs it, so the failure only shows on Trainium.)

    ## Example
    ```python
    best = counts.long().topk(5)
    ```

    ## Use instead
    ```python
    best = counts.float().topk(5)   # exact for integers below 2**24
    ```
    """

    code = "TRN422"
    name = "integer-topk"
    summary = "`topk` on an integer tensor is rejected by neuronx-cc (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.ERROR
    source = "reference D1 (EVRF013)"


class IntegerMatmul(Rule):
    """## What it does
    Reports a matrix product (`@`, `torch.matmul`, `mm`, `bmm`, `mv`, `dot` and their methods)
    with an operand that is visibly integer (as for TRN422). Products of unknown dtype are not
    reported.

    ## Why
    neuronx-cc rejects integer matrix multiplication (error EVRF035, reference D1).

    ## Example
    ```python
    counts = one_hot.long() @ transitions.long()
    ```

    ## Use instead
    ```python
    counts = one_hot.float() @ transitions.float()
    ```
    """

    code = "TRN423"
    name = "integer-matmul"
    summary = "integer matmul is rejected by neuronx-cc (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.ERROR
    source = "reference D1 (EVRF035)"


RULES: tuple[type[Rule], ...] = (
    NonzeroFallback,
    BooleanMaskIndex,
    OneArgumentWhere,
    MaskedSelect,
    UniqueFallback,
    SamplingAndHistogramFallback,
    RepeatInterleaveTensor,
    FftFallback,
    SparseTensor,
    ComplexDtype,
    IntegerTopk,
    IntegerMatmul,
)
_BY_CODE = {rule.code: rule for rule in RULES}


# -- the op table (data/fallback_ops.toml) ------------------------------------------------------
@dataclass(frozen=True)
class Op:
    key: str
    rule: type[Rule]
    functions: frozenset[str]
    prefixes: tuple[str, ...]
    methods: frozenset[str]
    when: str
    counter: str
    fix: str
    dynamic_shape: bool
    references: bool
    neuron_counter: str = ""

    def cost(self, target: Target) -> str:
        """What the op costs on ``target``: measured on XLA; on TorchNeuron as documented."""
        return self.neuron_counter if self.neuron_counter and not target.is_xla else self.counter


@cache
def fallback_ops() -> tuple[Op, ...]:
    text = resources.files("trncodemod").joinpath("data/fallback_ops.toml").read_text("utf-8")
    return tuple(
        Op(
            key=key,
            rule=_BY_CODE[row["rule"]],
            functions=frozenset(row.get("functions", ())),
            prefixes=tuple(row.get("prefixes", ())),
            methods=frozenset(row.get("methods", ())),
            when=row.get("when", ""),
            counter=row["counter"],
            fix=row["fix"],
            dynamic_shape=row.get("dynamic_shape", False),
            references=row.get("references", False),
            neuron_counter=row.get("neuron_counter", ""),
        )
        for key, row in tomllib.loads(text)["ops"].items()
    )


# -- what an expression visibly is --------------------------------------------------------------
_INT_DTYPES = frozenset(
    f"torch.{name}"
    for name in ("int", "int8", "int16", "int32", "int64", "long", "short", "uint8", "uint16")
    + ("uint32", "uint64")
)
_INT_METHODS = frozenset({"long", "int", "short", "byte", "char", "argmax", "argmin", "argsort"})
_INT_FUNCTIONS = frozenset(
    f"torch.{name}"
    for name in ("randint", "randint_like", "argmax", "argmin", "argsort", "randperm")
)
_BOOL_NAMES = [
    "isnan",
    "isinf",
    "isfinite",
    "isneginf",
    "isposinf",
    "isin",
    "signbit",
    "logical_and",
    "logical_or",
    "logical_not",
    "logical_xor",
    "eq",
    "ne",
    "gt",
    "ge",
    "lt",
    "le",
    "greater",
    "greater_equal",
    "less",
    "less_equal",
    "not_equal",
]
_BOOL_FUNCTIONS = frozenset(f"torch.{name}" for name in _BOOL_NAMES)
_BOOL_METHODS = frozenset({"bool", *_BOOL_NAMES})
_NOT_TENSOR_FUNCTIONS = re.compile(
    r"^torch\.(Size|device|dtype|is_|get_|set_|cuda\.|distributed\.)"
)
_HOST_METHODS = frozenset({"cpu", "numpy"})
_NON_VALUE_COMPARISONS = (cst.Is, cst.IsNot, cst.In, cst.NotIn)
_DEPTH = 6  # how many name bindings an expression is followed through


def _code(node: cst.CSTNode) -> str:
    return cst.Module(body=[]).code_for_node(node)


def _keyword(call: cst.Call, name: str) -> cst.Arg | None:
    return next((a for a in call.args if a.keyword is not None and a.keyword.value == name), None)


def _positional(call: cst.Call) -> list[cst.Arg]:
    return [a for a in call.args if a.keyword is None and not a.star]


def _method(call: cst.Call) -> str | None:
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
            if self.is_any_name(node.func, _BOOL_FUNCTIONS):
                return True
            method = _method(node)
            if method in _BOOL_METHODS and not self.imported(node.func):
                return True
            return self._dtype_of_call(node) == "torch.bool"
        return self._through_names(node, self.is_bool, depth)

    def is_int(self, node: cst.BaseExpression, depth: int = _DEPTH) -> bool:
        if isinstance(node, cst.Name) and self.file is not None:
            if node.value not in fallback_scan(self.file).names_int():
                return False  # no value of it may be one (FallbackScan: a superset)
        if isinstance(node, cst.Call):
            if self.is_any_name(node.func, _INT_FUNCTIONS):
                return True
            method = _method(node)
            if method in _INT_METHODS and not self.imported(node.func):
                return True
            dtype = self._dtype_of_call(node)
            if dtype is not None:
                return dtype in _INT_DTYPES
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
            if _method(node) in ("to", "cuda", "long", "int", "float", "bool"):
                return not self.imported(node.func)
            return self.is_int(node) or self.is_bool(node)
        return self._through_names(node, self.is_tensor, depth)

    def on_host(self, node: cst.BaseExpression, depth: int = _DEPTH) -> bool:
        """The value is visibly a host tensor or array: ``.cpu()``, ``.numpy()``, ``.to("cpu")``,
        a NumPy call, somewhere along its receiver chain."""
        while True:
            if isinstance(node, cst.Call):
                if any(n.split(".")[0] == "numpy" for n in self.names(node.func)):
                    return True
                method = _method(node)
                if method in _HOST_METHODS or (method == "to" and moves_to_cpu(node)):
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
            else:
                return self._through_names(node, self.on_host, depth)

    def is_any_name(self, node: cst.CSTNode, names: frozenset[str] | set[str]) -> bool:
        return self.may_name(node, frozenset(names)) and not self.names(node).isdisjoint(names)

    def _dtype_of_call(self, call: cst.Call) -> str | None:
        """The dtype a call visibly makes: ``dtype=torch.x``, ``.to(torch.x)``, ``.type(torch.x)``."""
        arg = _keyword(call, "dtype")
        if arg is None and _method(call) in ("to", "type"):
            positional = _positional(call)
            arg = positional[0] if positional else None
        if arg is None:
            return None
        dtypes = {n for n in self.names(arg.value) if n.startswith("torch.")}
        if dtypes & _INT_DTYPES:
            return next(iter(dtypes & _INT_DTYPES))
        return "torch.bool" if "torch.bool" in dtypes else next(iter(dtypes), None)

    # -- the op table ------------------------------------------------------------------------
    def op_of_call(self, call: cst.Call) -> tuple[Op, str, cst.BaseExpression | None] | None:
        """The table's op for ``call``, how it is spelled, and its main operand."""
        table = _table()
        names = (
            self.names(call.func)
            if self.may_name(call.func, table.all_functions, table.prefixes)
            else set()
        )
        method = _method(call)
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
        return True

    def op_of_reference(self, node: cst.Name | cst.Attribute) -> tuple[Op, str] | None:
        if not self.may_name(node, frozenset(_table().references)):
            return None
        names = self.names(node)
        for op in fallback_ops():
            if op.references and names & op.functions:
                return op, min(names & op.functions)
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


# -- where model and training code is -----------------------------------------------------------
_MODEL_BASES = re.compile(r"(^|\.)(Module|PreTrainedModel|LightningModule|Function)$")
_HOST_FUNCTIONS = re.compile(r"collate|^__(getitem|iter|next|len)__$", re.IGNORECASE)


def _steps_itself(function: cst.FunctionDef) -> bool:
    return any(
        isinstance(node, cst.Call) and (is_backward(node) or is_optimizer_step(node))
        for node in own_statements(function.body)
    )


def _may_name_model(owner: Pass, base: cst.BaseExpression) -> bool:
    """Whether LibCST may name ``base`` like a model class where its spelling does not look like
    one: only an import binding it to one can (``from torch.nn import Module as M``); any other
    qualified name ends in the spelled last name."""
    facts = owner.run.facts
    name = dotted(base)
    if facts is None or name is None:
        return True
    head, _, rest = name.partition(".")
    return any(
        _MODEL_BASES.search(f"{bound}.{rest}" if rest else bound)
        for bound in facts.bindings.get(head, ())
    )


def model_code(owner: Pass, module: cst.Module) -> list[cst.CSTNode]:
    """The parts of ``module`` that run as model or training code (see the module docstring)."""
    roots: list[cst.CSTNode] = list(find_step_loops(module))
    classes = {c.name.value: c for c in find(module, cst.ClassDef) if isinstance(c, cst.ClassDef)}
    models: set[str] = set()
    changed = True
    while changed:
        changed = False
        for name, node in classes.items():
            if name in models:
                continue
            for base in node.bases:
                spelled = {_code(base.value)}
                if not any(_MODEL_BASES.search(s) for s in spelled) and _may_name_model(
                    owner, base.value
                ):
                    spelled |= owner.qualified_names(base.value)
                if any(_MODEL_BASES.search(s) for s in spelled) or spelled & models:
                    models.add(name)
                    changed = True
                    break
    roots.extend(classes[name] for name in models)
    functions = {
        s.name.value: s
        for s in module.body
        if isinstance(s, cst.FunctionDef) and not _HOST_FUNCTIONS.search(s.name.value)
    }
    roots.extend(f for f in functions.values() if _steps_itself(f))
    pending = list(roots)
    while pending:
        root = pending.pop()
        for call in (c for c in find(root, cst.Call) if isinstance(c.func, cst.Name)):
            function = functions.get(call.func.value)  # type: ignore[union-attr]
            if function is not None and function not in roots:
                roots.append(function)
                pending.append(function)
    return roots


def walk(roots: list[cst.CSTNode]) -> Iterator[cst.CSTNode]:
    """Every node under ``roots`` once, in source order, imports left out."""
    seen: set[int] = set()
    for root in roots:
        stack = [root]
        while stack:
            node = stack.pop()
            if id(node) in seen or isinstance(node, cst.Import | cst.ImportFrom):
                continue
            seen.add(id(node))
            yield node
            stack.extend(reversed(children(node)))


# -- the first stage: which ops of the table the file can reach -----------------------------------
@dataclass(frozen=True)
class _Table:
    """The op table as the first stage reads it: names whose mention alone may be reported, and
    the names of ops with a condition the candidate test checks itself."""

    references: tuple[str, ...]  # op.references: any mention
    functions: tuple[str, ...]  # ops reported on any call (or with a condition not checked here)
    methods: frozenset[str]
    dynamic_functions: tuple[str, ...]  # dynamic_shape ops (recompilation's TRN431)
    dynamic_methods: frozenset[str]
    where_functions: tuple[str, ...]  # "one-argument"
    integer_functions: tuple[str, ...]  # "integer-operand"
    integer_methods: frozenset[str]
    sparse_functions: tuple[str, ...]  # "sparse-keyword"
    # Every op's functions, prefixes and methods (Facts.op_of_call asks scopes only for these).
    all_functions: frozenset[str] = frozenset()
    prefixes: tuple[str, ...] = ()
    all_methods: frozenset[str] = frozenset()


@cache
def _table() -> _Table:
    references, functions, methods = [], [], set()
    dynamic_functions, dynamic_methods = [], set()
    where_functions, integer_functions, integer_methods, sparse_functions = [], [], set(), []
    for op in fallback_ops():
        names = [*op.functions, *(p.rstrip(".") for p in op.prefixes)]
        if op.dynamic_shape:
            dynamic_functions += names
            dynamic_methods |= op.methods
        if op.references:
            references += names
        elif op.when == "one-argument":
            where_functions += names
            methods |= op.methods
        elif op.when == "integer-operand":
            integer_functions += names
            integer_methods |= op.methods
        elif op.when == "sparse-keyword":
            sparse_functions += names
            methods |= op.methods
        else:  # no condition, or one the first stage does not check ("tensor-repeats")
            functions += names
            methods |= op.methods
    return _Table(
        tuple(references),
        tuple(functions),
        frozenset(methods),
        tuple(dynamic_functions),
        frozenset(dynamic_methods),
        tuple(where_functions),
        tuple(integer_functions),
        frozenset(integer_methods),
        tuple(sparse_functions),
        frozenset(f for op in fallback_ops() for f in op.functions),
        tuple(p for op in fallback_ops() for p in op.prefixes),
        frozenset(name for op in fallback_ops() for name in op.methods),
    )


_AST_NON_VALUE = (ast.Is, ast.IsNot, ast.In, ast.NotIn)
_SIZE_READS = ("size", "numel")
_AST_LEAVES = (ast.expr_context, ast.operator, ast.cmpop, ast.unaryop, ast.boolop)
_AST_BITS = (ast.BitAnd, ast.BitOr, ast.BitXor)


class FallbackScan:
    """What one walk of the ast says for the first stage of cpu-fallback and recompilation:
    the file's imports (every module a name may be bound to), one-argument calls, integer matmul
    operators, and whether a subscript may index with a boolean mask (Facts.is_mask_index, with
    names followed to any value they are assigned anywhere: a superset of bound_values)."""

    def __init__(self, facts: FileFacts) -> None:
        self.imports: dict[str, set[str]] = {}
        self.assigned = facts.assigned  # name -> values, as Facts follows names (a superset)
        self.one_argument: list[ast.Call] = []
        self.matmul = False
        self.matmuls: list[ast.BinOp] = []  # `a @ b`
        self.calls: list[ast.Call] = []
        self.methods: set[str] = set()  # names of methods called (`x.unique()`)
        self.subscripts: list[ast.Subscript] = []
        # What a size is read of (recompilation's _size_of): `v.shape`, `v.size()`,
        # `v.numel()`, `len(v)` (any one-argument call where `builtins` is spelled).
        self.sized: list[ast.expr] = []
        builtins = "builtins" in facts.identifiers
        # ast.walk, at half its cost: fields read directly, operator and context nodes left out.
        stack: list[ast.AST] = [facts.tree]
        pop, push = stack.pop, stack.append
        while stack:
            node = pop()
            for name in node._fields:
                value = getattr(node, name, None)
                if type(value) is list:
                    for item in value:
                        if isinstance(item, ast.AST):
                            push(item)
                elif isinstance(value, ast.AST) and not isinstance(value, _AST_LEAVES):
                    push(value)
            kind = type(node)
            if kind is ast.Subscript:
                self.subscripts.append(node)
            elif kind is ast.Attribute:
                if node.attr == "shape":
                    self.sized.append(node.value)
            elif kind is ast.Call:
                self.calls.append(node)
                func = node.func
                if type(func) is ast.Attribute:
                    self.methods.add(func.attr)
                    if func.attr in _SIZE_READS:
                        self.sized.append(func.value)
                if len(node.args) + len(node.keywords) == 1:
                    if node.args:
                        self.one_argument.append(node)
                    if builtins or (type(func) is ast.Name and func.id == "len"):
                        first = node.args[0] if node.args else node.keywords[0].value
                        self.sized.append(first.value if type(first) is ast.Starred else first)
            elif kind is ast.BinOp:
                if type(node.op) is ast.MatMult:
                    self.matmul = True
                    self.matmuls.append(node)
            elif kind is ast.Import:
                for alias in node.names:
                    if alias.asname:
                        self.imports.setdefault(alias.asname, set()).add(alias.name)
                    else:
                        head = alias.name.split(".", 1)[0]
                        self.imports.setdefault(head, set()).add(head)
            elif kind is ast.ImportFrom and node.module and not node.level:
                for alias in node.names:
                    bound = alias.asname or alias.name
                    self.imports.setdefault(bound, set()).add(f"{node.module}.{alias.name}")
        self._bool_names: set[str] | None = None
        self._int_names: set[str] | None = None
        self._host_names: set[str] | None = None
        self._mask_index: bool | None = None

    @property
    def mask_index(self) -> bool:
        """Whether a subscript may index with a boolean mask (Facts.is_mask_index)."""
        if self._mask_index is None:
            self._mask_index = any(self._indexes_with_mask(s) for s in self.subscripts)
        return self._mask_index

    def names_bool(self) -> set[str]:
        """Names any of whose assigned values may be boolean, to a fixed point: a superset of
        Facts.is_bool's names followed ``_DEPTH`` deep, where every value must be."""
        if self._bool_names is None:
            self._bool_names = set()
            self._grow(self._bool_names, self.is_bool)
        return self._bool_names

    def names_int(self) -> set[str]:
        """Names any of whose values may be an integer tensor (Facts.is_int), as names_bool."""
        if self._int_names is None:
            self._int_names = set()
            self._grow(self._int_names, self.may_be_int)
        return self._int_names

    def names_host(self) -> set[str]:
        """Names any of whose values may be on the host (Facts.on_host), as names_bool."""
        if self._host_names is None:
            self._host_names = set()
            self._grow(self._host_names, self.may_be_on_host)
        return self._host_names

    def _grow(self, names: set[str], test: Callable[[ast.AST], bool]) -> None:
        """Add to ``names`` the names any of whose assigned values pass ``test``, to a fixed
        point (``test`` reads ``names`` as it grows)."""
        changed = True
        while changed:
            changed = False
            for name, values in self.assigned.items():
                if name not in names and any(test(v) for v in values):
                    names.add(name)
                    changed = True

    def may_be_int(self, node: ast.AST) -> bool:
        """A superset of Facts.is_int: a call of an integer-making function, method or dtype
        (any `dtype=`, `.to(...)`, `.type(...)`), or a name one of whose values may be one."""
        kind = type(node)
        if kind is ast.Call:
            func = node.func  # type: ignore[attr-defined]
            if not self.names(func).isdisjoint(_INT_SOURCES):
                return True
            method = func.attr if type(func) is ast.Attribute else None
            return (
                method in _INT_METHODS
                or method in ("to", "type")
                or any(k.arg == "dtype" for k in node.keywords)  # type: ignore[attr-defined]
            )
        if kind is ast.Name and node.id in self.assigned:  # type: ignore[attr-defined]
            return node.id in self.names_int()  # type: ignore[attr-defined]
        return False

    def may_be_on_host(self, node: ast.AST) -> bool:
        """A superset of Facts.on_host: along the receiver chain, a NumPy call, `.cpu()`,
        `.numpy()` or any `.to(...)`, or a name one of whose values may be on the host."""
        while True:
            kind = type(node)
            if kind is ast.Call:
                func = node.func  # type: ignore[attr-defined]
                if any(n.split(".")[0] == "numpy" for n in self.names(func)):
                    return True
                if type(func) is ast.Attribute and (
                    func.attr in _HOST_METHODS or func.attr == "to"
                ):
                    return True
                node = func
            elif kind is ast.Attribute or kind is ast.Subscript:
                node = node.value  # type: ignore[attr-defined]
            elif kind is ast.Name and node.id in self.assigned:  # type: ignore[attr-defined]
                return node.id in self.names_host()  # type: ignore[attr-defined]
            else:
                return False

    def names(self, node: ast.AST) -> set[str]:
        """The qualified names a dotted name may have through the file's imports."""
        name = ast_dotted(node)
        if name is None:
            return set()
        head, _, rest = name.partition(".")
        return {f"{m}.{rest}" if rest else m for m in self.imports.get(head, ())}

    def _indexes_with_mask(self, node: ast.Subscript) -> bool:
        index = node.slice
        elements = index.elts if type(index) is ast.Tuple else [index]
        return any(type(e) is not ast.Slice and self.is_bool(e) for e in elements)

    def is_bool(self, node: ast.AST) -> bool:
        """A superset of Facts.is_bool."""
        kind = type(node)
        if kind is ast.Compare:
            return not any(isinstance(op, _AST_NON_VALUE) for op in node.ops)
        if kind is ast.UnaryOp:
            return type(node.op) is ast.Invert and self.is_bool(node.operand)
        if kind is ast.BinOp:
            return isinstance(node.op, _AST_BITS) and (
                self.is_bool(node.left) or self.is_bool(node.right)
            )
        if kind is ast.Call:
            func = node.func
            if not self.names(func).isdisjoint(_BOOL_FUNCTIONS):
                return True
            method = func.attr if type(func) is ast.Attribute else None
            if method in _BOOL_METHODS:
                return True
            dtype = next((k.value for k in node.keywords if k.arg == "dtype"), None)
            if dtype is None and method in ("to", "type"):
                positional = [a for a in node.args if type(a) is not ast.Starred]
                dtype = positional[0] if positional else None
            return dtype is not None and "torch.bool" in self.names(dtype)
        if kind is ast.Name and node.id in self.assigned:
            # While the fixed point is worked out, the names found so far.
            return node.id in self.names_bool()
        return False

    def dynamic(self, node: ast.AST) -> bool:
        """A superset of Facts.dynamic_shape: a dynamic-shape op of the table (its condition
        not checked) or boolean-mask indexing, at the root of a chain of calls, attributes and
        subscripts."""
        table = _table()
        while True:
            kind = type(node)
            if kind is ast.Call:
                func = node.func
                if (
                    type(func) is ast.Attribute and func.attr in table.dynamic_methods
                ) or not self.names(func).isdisjoint(table.dynamic_functions):
                    return True
                node = func
            elif kind is ast.Subscript:
                if self._indexes_with_mask(node):
                    return True
                node = node.value
            elif kind is ast.Attribute:
                node = node.value
            else:
                return False

    def reads_dynamic_size(self) -> bool:
        """A size read of a data-dependent size (recompilation's TRN431): of a dynamic value, or
        of a name assigned one (its _dynamic follows one name)."""
        for value in self.sized:
            if self.dynamic(value):
                return True
            if type(value) is ast.Name and any(
                self.dynamic(v) for v in self.assigned.get(value.id, ())
            ):
                return True
        return False

    def integer_operand(self) -> bool:
        """Whether an integer-operand op (`@`, `matmul`, `topk`...) may have an integer tensor
        operand (Facts._applies, and `@` in visit_Module): a superset, by may_be_int."""
        table = _table()
        for call in self.calls:
            func = call.func
            method = type(func) is ast.Attribute and func.attr in table.integer_methods
            if not method and self.names(func).isdisjoint(table.integer_functions):
                continue
            operands = [a for a in call.args if type(a) is not ast.Starred][:2]
            if method:
                operands.append(func.value)  # type: ignore[attr-defined]
            if any(self.may_be_int(operand) for operand in operands):
                return True
        return any(self.may_be_int(op.left) or self.may_be_int(op.right) for op in self.matmuls)

    def where_one_argument(self, functions: tuple[str, ...]) -> bool:
        """A one-argument call of one of ``functions`` (`torch.where(cond)`)."""
        return any(not self.names(c.func).isdisjoint(functions) for c in self.one_argument)


_fallback_scan: tuple[ast.Module, FallbackScan] | None = None


def fallback_scan(facts: FileFacts) -> FallbackScan:
    """The FallbackScan of ``facts``' tree, kept for the newest tree asked about."""
    global _fallback_scan
    if _fallback_scan is None or _fallback_scan[0] is not facts.tree:
        _fallback_scan = (facts.tree, FallbackScan(facts))
    return _fallback_scan[1]


# Facts.is_int: what makes an operand visibly an integer tensor.
_INT_SOURCES = (*_INT_FUNCTIONS, *_INT_DTYPES, "torch.arange")


def may_be_int(facts: FileFacts) -> bool:
    """Whether Facts.is_int can hold anywhere in the file: an integer-making function or dtype
    is reached through an import, or an integer method (`.long()`) is called."""
    return facts.reaches(*_INT_SOURCES) or not facts.calls.isdisjoint(_INT_METHODS)


def may_read_dynamic_size(facts: FileFacts) -> bool:
    """Whether the file may read the size of a data-dependent value (recompilation's TRN431):
    a dynamic-shape op or a subscript must be there before the walk."""
    table = _table()
    if not (
        facts.subscripts
        or facts.reaches(*table.dynamic_functions)
        or not facts.calls.isdisjoint(table.dynamic_methods)
    ):
        return False
    return fallback_scan(facts).reads_dynamic_size()


class CpuFallbackDiagnostics(Pass):
    name = "cpu-fallback"
    rules = RULES
    needles = (
        "nonzero",
        "argwhere",
        "where(",
        "[",
        "masked_select",
        "unique",
        "multinomial",
        "bincount",
        "histc",
        "repeat_interleave",
        "fft",
        "stft",
        "sparse",
        "complex",
        "cfloat",
        "cdouble",
        "chalf",
        "polar",
        "topk",
        "@",
        "mm(",
        "mv(",
        "dot(",
        "matmul",
    )

    @classmethod
    def candidate(cls, facts: FileFacts, target: Target) -> bool:
        table = _table()
        # _reference: a mention of a name the table lists with `references` (complex dtypes).
        if facts.reaches(*table.references):
            return True
        # _call (op_of_call): a function of the table through an import, or a method call of
        # that name (receiver not an import); here without the op's own condition, except...
        if facts.reaches(*table.functions):
            return True
        if not facts.calls.isdisjoint(table.methods) and not fallback_scan(
            facts
        ).methods.isdisjoint(table.methods):
            return True
        # ... `sparse=True` (sparse-keyword): the keyword is spelled;
        if "sparse" in facts.identifiers and facts.reaches(*table.sparse_functions):
            return True
        # ... an integer operand (integer-operand, and `@` in visit_Module): Facts.is_int;
        if (
            may_be_int(facts)
            and (
                facts.reaches(*table.integer_functions)
                or not facts.calls.isdisjoint(table.integer_methods)
                or fallback_scan(facts).matmul
            )
            and fallback_scan(facts).integer_operand()
        ):
            return True
        scan = None
        # ... one argument (one-argument: `torch.where(cond)`).
        if facts.reaches(*table.where_functions):
            scan = fallback_scan(facts)
            if scan.where_one_argument(table.where_functions):
                return True
        # _subscript: boolean-mask indexing (Facts.is_mask_index).
        return bool(facts.subscripts) and (scan or fallback_scan(facts)).mask_index

    def visit_Module(self, node: cst.Module) -> bool:
        self.facts = Facts(self)
        for found in walk(model_code(self, node)):
            if isinstance(found, cst.Call):
                self._call(found)
            elif isinstance(found, cst.Subscript):
                self._subscript(found)
            elif isinstance(found, cst.BinaryOperation) and isinstance(
                found.operator, cst.MatrixMultiply
            ):
                if self.facts.is_int(found.left) or self.facts.is_int(found.right):
                    op = next(o for o in fallback_ops() if o.key == "integer_matmul")
                    self.report(found, op.rule, f"`@` {op.cost(self.target)}: {op.fix}", False)
            elif isinstance(found, cst.Name | cst.Attribute):
                self._reference(found)
        return False  # report only: nothing to transform

    def _call(self, call: cst.Call) -> None:
        found = self.facts.op_of_call(call)
        if found is None:
            return
        op, spelling, operand = found
        if operand is not None and self.facts.on_host(operand):
            return
        message = f"`{spelling}` {op.cost(self.target)}"
        if op.dynamic_shape:
            message += ", and its size depends on the data " + (
                "(a new graph for each new size)"
                if self.target.is_xla
                else "(the eager ops after it compile again for each new size; a "
                '`torch.compile(backend="neuron")` region needs static shapes)'
            )
        self.report(call, op.rule, f"{message}: {op.fix}", False)

    def _subscript(self, node: cst.Subscript) -> None:
        if not self.facts.is_mask_index(node) or self.facts.on_host(node.value):
            return
        text = _code(node)
        what = f"`{text}`" if len(text) <= 40 else "boolean-mask indexing"
        parent = self.get_metadata(ParentNodeProvider, node, None)
        grand = self.get_metadata(ParentNodeProvider, parent, None) if parent else None
        reduction = (
            _method(grand)
            if isinstance(parent, cst.Attribute) and isinstance(grand, cst.Call)
            else None
        )
        value, mask, factor = _code(node.value), "mask", "mask"
        if len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index):
            mask_node = node.slice[0].slice.value
            if len(_code(mask_node)) <= 24:
                mask = factor = _code(mask_node)
                if not isinstance(mask_node, cst.Name | cst.Attribute | cst.Call):
                    factor = f"({mask})"
        if isinstance(parent, cst.AugAssign):
            fix = (
                f"update the whole tensor on the device: `{value} = torch.where({mask}, <new "
                f"value>, {value})`"
            )
        elif isinstance(parent, cst.AssignTarget):
            assigned = self.get_metadata(ParentNodeProvider, parent) if parent else None
            new = "v"
            if isinstance(assigned, cst.Assign) and len(_code(assigned.value)) <= 12:
                new = _code(assigned.value)
            fix = (
                f"write through the mask on the device: `{value} = {value}.masked_fill({mask}, "
                f"{new})`"
            )
        elif reduction == "sum":
            fix = f"`({value} * {factor}).sum()` or `torch.where({mask}, {value}, 0).sum()`"
        elif reduction == "mean":
            fix = f"`({value} * {factor}).sum() / {factor}.sum()`"
        else:
            fix = (
                f"keep the full shape, `torch.where({mask}, {value}, 0)`, and carry the mask "
                "into the reduction"
            )
        self.report(
            node,
            BooleanMaskIndex,
            f"{what} indexes with a boolean mask: "
            + (
                "`nonzero` on the CPU (`aten::nonzero`), a copy to the host, and a data-dependent "
                f"size: {fix}"
                if self.target.is_xla
                else "a data-dependent size (the eager ops after it compile again for each new "
                'size; a `torch.compile(backend="neuron")` region needs static shapes) and a '
                f"possible CPU fallback of `nonzero` (unverified on TorchNeuron): {fix}"
            ),
            False,
        )

    def _reference(self, node: cst.Name | cst.Attribute) -> None:
        parent = self.get_metadata(ParentNodeProvider, node, None)
        if isinstance(parent, cst.Attribute) and parent.attr is node:
            return  # the `complex64` of `torch.complex64`: the attribute is the reference
        found = self.facts.op_of_reference(node)
        if found is not None:
            op, spelling = found
            self.report(node, op.rule, f"`{spelling}` {op.cost(self.target)}: {op.fix}", False)
