"""Optimizers: CUDA-only optimizers become torch.optim ones, `fused=True` goes, and the
`optimizer` policy picks syncfree or fp32-state AdamW for plain torch.optim (reference R5).

The mappings (signatures, defaults, keywords that may be dropped) are data in
``data/optimizers.toml``; this module interprets them.
"""

from __future__ import annotations

import ast
import re
import sys
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

import libcst as cst
from libcst.codemod.visitors import RemoveImportsVisitor
from libcst.metadata import ParentNodeProvider

from trncodemod.analysis.facts import FileFacts, may_resolve, reaches_module
from trncodemod.analysis.loops import dotted
from trncodemod.analysis.nodes import find
from trncodemod.findings import Rule, Safety, Severity
from trncodemod.passes import Pass
from trncodemod.targets import Api, Target

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

_ANY = "*"
_GRAD_SCALERS = frozenset(
    {
        "torch.cuda.amp.GradScaler",
        "torch.amp.GradScaler",
        "torch.cpu.amp.GradScaler",
        "torch.amp.grad_scaler.GradScaler",
        "torch_xla.amp.GradScaler",
    }
)
_SCALER = re.compile(r"scaler", re.IGNORECASE)
_TORCH_OPTIM = re.compile(r"^torch\.optim(\.[a-z_]+)?\.([A-Z]\w*)$")


# -- rules --------------------------------------------------------------------------------------
class FusedFlag(Rule):
    """## What it does
    Removes `fused=True` from a `torch.optim` optimizer (`Adam`, `AdamW`, `SGD`, ...) on the XLA
    targets. `fused=False`, `foreach=` and `capturable=` are kept. A `fused=` that is not a
    literal is reported. On the `neuron` target `fused=True` is only reported.

    ## Why
    On XLA tensors `torch.optim.AdamW(..., fused=True)` raises `RuntimeError: `fused=True`
    requires all the params to be floating point Tensors of supported devices: [...] but
    torch.float32 and xla`; `foreach=True` and `capturable=True` work (reference R5, measured on
    torch-xla 2.9). The `neuron` device is a `privateuseone` backend, which the check accepts;
    whether a fused kernel exists there is unverified (reference R5, §5).

    ## Example
    ```python
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4, fused=True)
    ```

    ## Use instead
    ```python
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    ```
    """

    code = "TRN111"
    name = "fused-optimizer-flag"
    summary = "`fused=True` on a torch.optim optimizer raises on XLA → removed"
    safety = Safety.SAFE
    severity = Severity.ERROR
    source = "reference R5, §5"


class CudaOnlyOptimizer(Rule):
    """## What it does
    Replaces apex `FusedAdam`/`FusedSGD` and the bitsandbytes Adam, AdamW and SGD optimizers
    (8-bit, 32-bit and paged) with the `torch.optim` class that computes the same update.
    Keyword arguments are carried over; a default that differs is written out, so the
    hyperparameters stay the same:

    - apex `FusedAdam` is AdamW by default (`adam_w_mode=True`) with `weight_decay=0.0`
      (NVIDIA/apex `apex/optimizers/fused_adam.py`), while `torch.optim.AdamW` defaults to
      `weight_decay=1e-2` (torch `torch/optim/adamw.py`): it becomes
      `torch.optim.AdamW(..., weight_decay=0.0)`; with `adam_w_mode=False` (L2 decay) it becomes
      `torch.optim.Adam`.
    - bitsandbytes decays weights decoupled in every Adam variant
      (`csrc/cuda/optimizers.cu`, case `ADAM`: `p *= 1 - lr * weight_decay`), so `Adam8bit`
      becomes `torch.optim.AdamW(..., weight_decay=0)` and `AdamW8bit` plain `torch.optim.AdamW`
      (bitsandbytes' Adam* default to `weight_decay=0`, AdamW* to `1e-2`, like torch's AdamW;
      `bitsandbytes/optim/adam.py`, `adamw.py`).
    - bitsandbytes `SGD*` becomes `torch.optim.SGD` (`bitsandbytes/optim/sgd.py`).

    A keyword with no equivalent (`bias_correction=False`, `optim_bits`, `percentile_clipping`,
    `is_paged=True`, `wd_after_momentum=True`, and `amsgrad=True`/`nesterov=True`/`dampening`,
    which bitsandbytes accepts and ignores), an `adam_w_mode` that is not a literal, `*args` or
    `**kwargs`, or a name that may also be bound to something else is reported, and the call is
    left alone. Other references to these classes (`isinstance`, `opt_cls = bnb.optim.Adam8bit`)
    are reported. Imports that become unused are removed.

    ## Why
    These optimizers run CUDA kernels; they fail on a Trainium host (reference R5, §5). The
    replacement keeps fp32 optimizer state: 8-bit and paged states take about four times less
    memory than that, and apex `FusedSGD(set_grad_none=False)` zeroes gradients where
    `torch.optim` sets them to `None`. Hence the `review` class.

    ## Example
    ```python
    from apex.optimizers import FusedAdam
    import bitsandbytes as bnb
    opt = FusedAdam(model.parameters(), lr=1e-4)
    opt8 = bnb.optim.Adam8bit(model.parameters(), lr=1e-4)
    ```

    ## Use instead
    ```python
    import torch
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4, weight_decay=0.0)
    opt8 = torch.optim.AdamW(model.parameters(), lr=1e-4, weight_decay=0)
    ```
    """

    code = "TRN112"
    name = "cuda-only-optimizer"
    summary = "apex / bitsandbytes optimizers → torch.optim, defaults kept"
    safety = Safety.REVIEW
    severity = Severity.ERROR
    source = "reference R5, §5"


class UnsupportedOptimizer(Rule):
    """## What it does
    Reports CUDA-only optimizers that have no `torch.optim` equivalent: apex `FusedLAMB`,
    `FusedNovoGrad`, `FusedLARS`, `FusedAdagrad`; bitsandbytes LAMB, LARS, Lion, AdEMAMix,
    RMSprop and Adagrad (all precisions and paged forms). Nothing is rewritten.

    ## Why
    They run CUDA kernels (reference R5). LAMB, LARS, Lion and AdEMAMix are not in `torch.optim`,
    and bitsandbytes' RMSprop/Adagrad use other defaults, so any swap changes the training run.

    ## Example
    ```python
    opt = apex.optimizers.FusedLAMB(model.parameters(), lr=1e-3)
    ```

    ## Use instead
    A pure-PyTorch implementation of the same algorithm, or `torch.optim.AdamW` with retuned
    hyperparameters.
    """

    code = "TRN113"
    name = "unsupported-optimizer"
    summary = "CUDA-only optimizer without a torch.optim equivalent (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.ERROR
    source = "reference R5"


class TransformersAdamW(Rule):
    """## What it does
    Replaces `transformers.AdamW` (also `transformers.optimization.AdamW`) with
    `torch.optim.AdamW`, writing out its defaults `eps=1e-6` and `weight_decay=0.0`
    (`src/transformers/optimization.py` in 4.x; torch defaults to `eps=1e-8`,
    `weight_decay=1e-2`). `no_deprecation_warning` is dropped. `correct_bias=False` is reported and
    the call left alone. The import is removed when nothing else uses it.

    ## Why
    `transformers.AdamW` does not exist in transformers 5 (reference R5), and the Neuron samples
    that use it break on upgrade. Its update differs from torch's in the last digits during the
    first steps (eps added before bias correction, decay applied after the step): `review`.

    ## Example
    ```python
    from transformers import AdamW
    optimizer = AdamW(model.parameters(), lr=5e-5)
    ```

    ## Use instead
    ```python
    import torch
    optimizer = torch.optim.AdamW(model.parameters(), lr=5e-5, eps=1e-6, weight_decay=0.0)
    ```
    """

    code = "TRN114"
    name = "transformers-adamw"
    summary = "`transformers.AdamW` (gone in transformers 5) → `torch.optim.AdamW`, defaults kept"
    safety = Safety.REVIEW
    severity = Severity.ERROR
    source = "reference R5"


class TrainerOptimName(Rule):
    """## What it does
    Rewrites a CUDA-only `optim=` of Hugging Face `TrainingArguments` (also
    `Seq2SeqTrainingArguments`, `trl.SFTConfig`), given as a string or as `OptimizerNames.X`:
    `adamw_torch_fused`, `adamw_apex_fused`, `adamw_torch_npu_fused`, `adamw_bnb_8bit`,
    `adamw_8bit`, `paged_adamw_8bit`, `paged_adamw_32bit` become `"adamw_torch_xla"` on the XLA
    targets and `"adamw_torch"` on `neuron`. Lion, AdEMAMix, bitsandbytes RMSprop, torchao 4/8-bit
    and GaLore 8-bit names are reported.

    ## Why
    The Trainer builds these with `fused=True`, apex or bitsandbytes, which fail on Trainium
    (reference R5). `adamw_torch_xla` is `torch_xla.amp.syncfree.AdamW`
    (`src/transformers/trainer.py`, `get_optimizer_cls_and_kwargs`), which without a
    `found_inf` runs the stock `torch.optim.AdamW` step; the Trainer passes lr, betas, eps and
    weight decay explicitly, so the hyperparameters stay. 8-bit and paged states become fp32:
    `review`.

    ## Example
    ```python
    args = TrainingArguments("out", optim="adamw_torch_fused")
    ```

    ## Use instead
    ```python
    args = TrainingArguments("out", optim="adamw_torch_xla")
    ```
    """

    code = "TRN115"
    name = "trainer-optim-name"
    summary = "`TrainingArguments(optim=...)` CUDA-only names → `adamw_torch_xla` / `adamw_torch`"
    safety = Safety.REVIEW
    severity = Severity.ERROR
    source = "reference R5, §5"


class SyncfreeOptimizer(Rule):
    """## What it does
    With `optimizer = "syncfree"`, on the XLA targets, replaces `torch.optim.Adam`, `AdamW` and
    `SGD` with `torch_xla.amp.syncfree.Adam`, `AdamW` and `SGD` (same arguments). When the file
    passes `found_inf=` anywhere or uses a `GradScaler`, nothing is swapped and the optimizer is
    reported. With the default `optimizer = "keep"` this rule never fires.

    ## Why
    With `found_inf=None` the syncfree classes call the stock `torch.optim` step, so the swap
    alone changes nothing; it only matters to code that passes `found_inf` on every step. A
    syncfree optimizer stepped once without `found_inf` and later with it raises
    `KeyError: 'max_exp_avg_sq'` (reference R5, §9.5, measured on torch-xla 2.9), so the tool
    never swaps where a scaler or `found_inf` may drive the optimizer. Available since
    torch-xla 1.11 (reference §1.2); not on `neuron`.

    ## Example
    ```python
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    ```

    ## Use instead
    ```python
    import torch_xla.amp.syncfree
    optimizer = torch_xla.amp.syncfree.AdamW(model.parameters(), lr=1e-3)
    ```
    """

    code = "TRN116"
    name = "syncfree-optimizer"
    summary = '`optimizer = "syncfree"`: torch.optim Adam/AdamW/SGD → torch_xla.amp.syncfree'
    safety = Safety.SAFE
    severity = Severity.INFO
    source = "reference R5, §1.2"


class Fp32StateOptimizer(Rule):
    """## What it does
    With `optimizer = "fp32-states"`, on the XLA targets, replaces `torch.optim.AdamW(X.parameters(),
    ...)` with Neuron's `AdamW_FP32OptimParams` when the file casts `X` to bf16
    (`X.to(torch.bfloat16)`, `X.bfloat16()`), writing out torch's defaults `eps=1e-8` and
    `weight_decay=1e-2` (the Neuron class defaults to `eps=1e-6`, `weight_decay=0.0`,
    `neuronx-distributed/src/neuronx_distributed/utils/adamw_fp32_optim_params.py`). An AdamW
    whose parameters are not visibly cast to bf16, or that passes `amsgrad=True`,
    `maximize=True` or `**kwargs`, is reported and left alone.

    ## Why
    Neuron recommends fp32 optimizer states for models trained in bf16
    (`AdamW_FP32OptimParams`; BERT sample default `--optimizer=AdamW_FP32OptimParams`,
    reference R5, R9). The class follows transformers' AdamW update (eps before bias correction,
    decay after the step), so results differ slightly from torch's: `review`.

    ## Example
    ```python
    model = Net().to(device).to(torch.bfloat16)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    ```

    ## Use instead
    ```python
    from neuronx_distributed.utils.adamw_fp32_optim_params import AdamW_FP32OptimParams
    optimizer = AdamW_FP32OptimParams(model.parameters(), lr=1e-3, eps=1e-8, weight_decay=1e-2)
    ```
    """

    code = "TRN117"
    name = "fp32-optimizer-states"
    summary = '`optimizer = "fp32-states"`: AdamW of a bf16 model → `AdamW_FP32OptimParams`'
    safety = Safety.REVIEW
    severity = Severity.INFO
    source = "reference R5, R9"


# -- the mapping data ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Emit:
    expr: str
    module: str
    obj: str


@dataclass(frozen=True)
class TargetClass:
    name: str
    positional: tuple[str, ...]
    keywords: tuple[str, ...]
    defaults: dict[str, str]
    emit: Emit

    @property
    def parameters(self) -> tuple[str, ...]:
        return self.positional + self.keywords


@dataclass(frozen=True, eq=False)
class Source:
    library: str
    module: str
    classes: tuple[str, ...]
    signature: tuple[str, ...]
    target: str
    defaults: dict[str, str]
    drop: dict[str, tuple[str, ...]]
    notes: dict[str, str]
    switch: dict[str, str] = field(default_factory=dict)
    also: tuple[str, ...] = ()

    def matches(self, qualified: str) -> bool:
        return _class_of(qualified, self.module, self.classes) is not None or qualified in self.also


def _class_of(qualified: str, module: str, classes: tuple[str, ...]) -> str | None:
    """`module.Class` or `module.submodule.Class` for a class in ``classes``."""
    head, _, cls = qualified.rpartition(".")
    if cls not in classes:
        return None
    if head == module or (head.startswith(module + ".") and "." not in head[len(module) + 1 :]):
        return cls
    return None


def _source(row: dict) -> Source:
    drop = {k: tuple(v) if isinstance(v, list) else (v,) for k, v in row.get("drop", {}).items()}
    return Source(
        library=row["library"],
        module=row["module"],
        classes=tuple(row["classes"]),
        signature=tuple(row["signature"]),
        target=row["target"],
        defaults=row.get("defaults", {}),
        drop=drop,
        notes=row.get("notes", {}),
        switch=row.get("switch", {}),
        also=tuple(row.get("also", ())),
    )


@dataclass(frozen=True)
class Table:
    classes: dict[str, TargetClass]
    sources: tuple[Source, ...]
    unsupported: tuple[tuple[str, tuple[str, ...], str], ...]
    trainer: dict
    syncfree: dict[str, Emit]
    fp32_states: Source


@cache
def load_table() -> Table:
    text = resources.files("trncodemod").joinpath("data/optimizers.toml").read_text("utf-8")
    data = tomllib.loads(text)
    classes = {
        name: TargetClass(
            name,
            tuple(row["positional"]),
            tuple(row["keywords"]),
            row["defaults"],
            Emit(**row["emit"]),
        )
        for name, row in data["classes"].items()
    }
    return Table(
        classes=classes,
        sources=tuple(_source(row) for row in data["sources"]),
        unsupported=tuple(
            (row["module"], tuple(row["classes"]), row["why"]) for row in data["unsupported"]
        ),
        trainer=data["trainer"],
        syncfree={name: Emit(**row) for name, row in data["syncfree"].items()},
        fp32_states=_source(data["fp32_states"]),
    )


@cache
def _named_classes() -> tuple[tuple[str, frozenset[str], tuple[str, ...]], ...]:
    """(module, class names, other qualified names) of every source and unsupported row."""
    table = load_table()
    rows = [(s.module, frozenset(s.classes), s.also) for s in table.sources]
    rows += [(module, frozenset(classes), ()) for module, classes, _why in table.unsupported]
    return tuple(rows)


@cache
def _swapped_classes() -> frozenset[str]:
    """The torch.optim class names an `optimizer` setting may swap (syncfree, fp32-states)."""
    table = load_table()
    names = {name.rsplit(".", 1)[-1] for name in table.syncfree}
    return frozenset(names | set(table.fp32_states.classes))


def _literal(node: cst.BaseExpression) -> tuple[bool, object]:
    """(True, value) for a literal (numbers, bools, None, strings, tuples), else (False, None)."""
    try:
        return True, ast.literal_eval(cst.Module([]).code_for_node(node).strip())
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False, None


def _same(text: str, node: cst.BaseExpression) -> bool:
    known, value = _literal(node)
    return known and value == ast.literal_eval(text)


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node).strip()


def _keyword_arg(name: str, value: cst.BaseExpression) -> cst.Arg:
    no_space = cst.SimpleWhitespace("")
    return cst.Arg(
        value=value,
        keyword=cst.Name(name),
        equal=cst.AssignEqual(whitespace_before=no_space, whitespace_after=no_space),
    )


def _outcome(conversion: Conversion, pinned: str) -> str:
    parts = []
    if conversion.pinned:
        parts.append(f"{pinned} {', '.join(conversion.pinned)}")
    if conversion.dropped:
        parts.append(f"dropping {', '.join(conversion.dropped)}")
    return "".join(f", {part}" for part in parts)


def _with_args(call: cst.Call, args: list[cst.Arg]) -> cst.Call:
    """``call`` with ``args``, keeping the separator style and the last argument's comma."""
    if not args:
        return call.with_changes(args=())
    original = list(call.args)
    last_comma = original[-1].comma if original else cst.MaybeSentinel.DEFAULT
    separator: cst.Comma | cst.MaybeSentinel = cst.MaybeSentinel.DEFAULT
    if len(original) >= 2 and isinstance(original[-2].comma, cst.Comma):
        separator = original[-2].comma
    fixed = [arg.with_changes(comma=separator) for arg in args[:-1]]
    fixed.append(args[-1].with_changes(comma=last_comma))
    return call.with_changes(args=fixed)


@dataclass
class Conversion:
    """The outcome of mapping a call onto a target class: new args, or why not."""

    target: TargetClass | None = None
    args: list[cst.Arg] = field(default_factory=list)
    pinned: list[str] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def convert_arguments(call: cst.Call, source: Source, table: Table) -> Conversion:
    """Map the arguments of ``call`` (a ``source`` constructor) onto its target class."""
    out = Conversion()
    named: list[tuple[str, cst.Arg]] = []
    for index, arg in enumerate(call.args):
        if arg.star:
            out.problems.append(f"`{_code(arg)}`: cannot check which keywords it passes")
            continue
        if arg.keyword is not None:
            named.append((arg.keyword.value, arg))
        elif index < len(source.signature):
            named.append((source.signature[index], arg))
        else:
            out.problems.append(f"positional argument `{_code(arg.value)}` matches no parameter")
    target_name = source.target
    if source.switch:
        given = next((a for n, a in named if n == source.switch["keyword"]), None)
        if given is not None:
            known, value = _literal(given.value)
            if not known or str(value) not in source.switch:
                out.problems.append(
                    f"`{_code(given)}` is not a literal True/False, so the target class is unknown"
                )
            else:
                target_name = source.switch[str(value)]
    target = table.classes[target_name]
    out.target = target
    kept: list[tuple[str, cst.Arg]] = []
    for name, arg in named:
        if source.switch and name == source.switch["keyword"]:
            continue
        if name in source.drop:
            allowed = source.drop[name]
            if _ANY in allowed or any(_same(value, arg.value) for value in allowed):
                out.dropped.append(f"{name}={_code(arg.value)}")
                continue
            note = source.notes.get(name, f"{target.name} has no such option")
            out.problems.append(f"`{name}={_code(arg.value)}`: {note}")
        elif name in target.parameters:
            kept.append((name, arg))
        else:
            note = source.notes.get(name, f"{target.name} has no `{name}`")
            out.problems.append(f"`{name}={_code(arg.value)}`: {note}")
    given_names = {name for name, _ in kept}
    for name, text in source.defaults.items():
        if name in given_names or name not in target.parameters:
            continue
        if ast.literal_eval(text) != ast.literal_eval(target.defaults.get(name, "None")):
            out.pinned.append(f"{name}={text}")
            kept.append((name, _keyword_arg(name, cst.parse_expression(text))))
    # Positional arguments stay positional while their position means the same on the target.
    positional_ok = True
    for index, (name, arg) in enumerate(kept):
        is_positional = arg.keyword is None
        if is_positional and positional_ok and index < len(target.positional):
            if target.positional[index] == name:
                out.args.append(arg)
                continue
        positional_ok = False
        if is_positional:
            arg = _keyword_arg(name, arg.value).with_changes(comma=arg.comma)
        out.args.append(arg)
    return out


# -- the pass -----------------------------------------------------------------------------------
class FusedOptimizers(Pass):
    name = "optimizer"
    rules = (
        FusedFlag,
        CudaOnlyOptimizer,
        UnsupportedOptimizer,
        TransformersAdamW,
        TrainerOptimName,
        SyncfreeOptimizer,
        Fp32StateOptimizer,
    )
    needles = ("optim", "apex", "bitsandbytes", "Adam", "SGD", "fused")

    @classmethod
    def candidate(cls, facts: FileFacts, target: Target) -> bool:
        table = load_table()
        # A CUDA-only source (apex, bitsandbytes, transformers' AdamW: rewritten or reported)
        # or an unsupported optimizer (reported), called or used as a value: named
        # `module.Class` or `module.submodule.Class`, or one of the source's other names.
        for module, classes, also in _named_classes():
            if (
                not facts.identifiers.isdisjoint(classes) and reaches_module(facts, module)
            ) or may_resolve(facts, also):
                return True
        # TrainingArguments(optim=...): only its `optim` keyword is rewritten or reported.
        if "optim" in facts.identifiers and may_resolve(facts, table.trainer["arguments"]):
            return True
        # A torch.optim class: `fused=` is stripped or reported, and the `optimizer` setting
        # (which candidate() is not told) may swap some classes for syncfree or fp32-state ones.
        fused = "fused" in facts.identifiers
        swapped = _swapped_classes()
        for name in facts.qualified:
            if name.startswith("torch.optim."):
                match = _TORCH_OPTIM.match(name)
                if match is not None and (fused or match.group(2) in swapped):
                    return True
        # `torch = ...` bound without an import: LibCST names `torch.optim.X` all the same.
        return "torch" in facts.global_names and "optim" in facts.identifiers

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.table = load_table()
        self._in_import = 0
        self._scaler_reason: str | None = None
        self._bf16: set[str] = set()

    # -- what the whole file says ----------------------------------------------------------------
    def visit_Module(self, node: cst.Module) -> None:
        for call in find(node, cst.Call):
            assert isinstance(call, cst.Call)
            if self._scaler_reason is None:
                self._scaler_reason = self._scaler_use(call)
            self._collect_bf16(call)

    def _scaler_use(self, call: cst.Call) -> str | None:
        if any(arg.keyword is not None and arg.keyword.value == "found_inf" for arg in call.args):
            return "the file passes `found_inf=`"
        if self.is_any(call.func, _GRAD_SCALERS):
            return "the file uses a GradScaler"
        if isinstance(call.func, cst.Attribute) and call.func.attr.value == "step" and call.args:
            receiver = dotted(call.func.value)
            if receiver and _SCALER.search(receiver.rsplit(".", 1)[-1]):
                return f"`{receiver}.step(...)` drives an optimizer"
        return None

    def _is_bf16(self, node: cst.BaseExpression) -> bool:
        return self.is_any(node, {"torch.bfloat16"})

    def _collect_bf16(self, call: cst.Call) -> None:
        func = call.func
        if not isinstance(func, cst.Attribute):
            return
        cast = (func.attr.value == "bfloat16" and not call.args) or (
            func.attr.value == "to" and any(self._is_bf16(arg.value) for arg in call.args)
        )
        if not cast:
            return
        receiver = dotted(func.value)
        if receiver:
            self._bf16.add(receiver)
        parent = self.get_metadata(ParentNodeProvider, call, None)
        if isinstance(parent, cst.Assign | cst.AnnAssign):
            targets = (
                [t.target for t in parent.targets]
                if isinstance(parent, cst.Assign)
                else [parent.target]
            )
            self._bf16.update(name for name in map(dotted, targets) if name)

    # -- imports are not references --------------------------------------------------------------
    def visit_Import(self, node: cst.Import) -> None:
        self._in_import += 1

    def leave_Import(self, original_node: cst.Import, updated_node: cst.Import) -> cst.Import:
        self._in_import -= 1
        return updated_node

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        self._in_import += 1

    def leave_ImportFrom(
        self, original_node: cst.ImportFrom, updated_node: cst.ImportFrom
    ) -> cst.ImportFrom:
        self._in_import -= 1
        return updated_node

    # -- classification --------------------------------------------------------------------------
    def _sources_of(self, func: cst.BaseExpression) -> tuple[Source | None, bool]:
        """The CUDA-only source ``func`` names, and whether some binding of it is something else."""
        sources = self.table.sources
        if not any(s.matches(q) for q in self.module_names(func) for s in sources):
            return None, False  # a source is a library's name, never a local's
        names = self.qualified_names(func)
        found = {source for q in names for source in self.table.sources if source.matches(q)}
        if not found:
            return None, False
        matched = {q for q in names if any(s.matches(q) for s in found)}
        return next(iter(found)), len(found) > 1 or matched != names

    def _unsupported_of(self, func: cst.BaseExpression) -> tuple[str, str] | None:
        for q in self.module_names(func):
            for module, classes, why in self.table.unsupported:
                cls = _class_of(q, module, classes)
                if cls is not None:
                    return f"{module}.{cls}", why
        return None

    def _torch_optim(self, func: cst.BaseExpression) -> str | None:
        """``torch.optim.X`` when every binding of ``func`` is that torch.optim class."""
        if not any(_TORCH_OPTIM.match(q) for q in self.module_names(func)):
            return None
        classes = set()
        for q in self.qualified_names(func):
            match = _TORCH_OPTIM.match(q)
            if match is None:
                return None
            classes.add(f"torch.optim.{match.group(2)}")
        return classes.pop() if len(classes) == 1 else None

    def _is_trainer_arguments(self, func: cst.BaseExpression) -> bool:
        return self.is_any(func, self.table.trainer["arguments"])

    # -- references that are not calls ----------------------------------------------------------
    def visit_Name(self, node: cst.Name) -> None:
        self._check_reference(node)

    def visit_Attribute(self, node: cst.Attribute) -> None:
        self._check_reference(node)

    def _check_reference(self, node: cst.Name | cst.Attribute) -> None:
        if self._in_import:
            return
        parent = self.get_metadata(ParentNodeProvider, node, None)
        if isinstance(parent, cst.Call) and parent.func is node:
            return
        if isinstance(parent, cst.Attribute):
            return  # a prefix (`bnb.optim`) or the attribute name of a longer chain
        source, _ = self._sources_of(node)
        if source is not None:
            rule = TransformersAdamW if source.library == "transformers" else CudaOnlyOptimizer
            self.report(
                node,
                rule,
                f"`{_code(node)}` is a {source.library} optimizer used as a value: replace it "
                f"with {source.target} by hand (keep its defaults: {self._defaults_text(source)})",
                False,
            )
            return
        unsupported = self._unsupported_of(node)
        if unsupported is not None:
            self.report(
                node,
                UnsupportedOptimizer,
                f"`{_code(node)}` ({unsupported[0]}) is CUDA-only and {unsupported[1]}: "
                "replace it by hand",
                False,
            )

    def _defaults_text(self, source: Source) -> str:
        return ", ".join(f"{k}={v}" for k, v in source.defaults.items() if k != "lr")

    # -- rewriting -------------------------------------------------------------------------------
    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        func = original_node.func
        if self._is_trainer_arguments(func):
            return self._rewrite_trainer(original_node, updated_node)
        source, ambiguous = self._sources_of(func)
        if source is not None:
            return self._rewrite_cuda_only(original_node, updated_node, source, ambiguous)
        unsupported = self._unsupported_of(func)
        if unsupported is not None:
            self.report(
                original_node,
                UnsupportedOptimizer,
                f"{unsupported[0]} is CUDA-only and {unsupported[1]}: port the algorithm to "
                "PyTorch or switch to torch.optim.AdamW and retune",
                False,
            )
            return updated_node
        torch_class = self._torch_optim(func)
        if torch_class is None:
            return updated_node
        updated_node = self._strip_fused(original_node, updated_node)
        if torch_class in self.table.syncfree and self.settings.optimizer == "syncfree":
            return self._to_syncfree(original_node, updated_node, torch_class)
        if torch_class == "torch.optim.AdamW" and self.settings.optimizer == "fp32-states":
            return self._to_fp32_states(original_node, updated_node)
        return updated_node

    def _emit(self, emit: Emit) -> cst.BaseExpression:
        if not emit.obj:  # through `emit`: a file that binds `torch_xla` gets another name
            return self.emit(Api(emit.expr, emit.module, ""))
        self.add_import(emit.module, obj=emit.obj)
        return cst.parse_expression(emit.expr)

    def _rewrite_cuda_only(
        self, original: cst.Call, updated: cst.Call, source: Source, ambiguous: bool
    ) -> cst.BaseExpression:
        rule = TransformersAdamW if source.library == "transformers" else CudaOnlyOptimizer
        label = _code(original.func)
        if ambiguous:
            self.report(
                original,
                rule,
                f"`{label}` may also name another optimizer here (fallback import?): replace it "
                f"with {source.target} by hand, keeping {self._defaults_text(source)}",
                False,
            )
            return updated
        conversion = convert_arguments(updated, source, self.table)
        assert conversion.target is not None
        if conversion.problems:
            self.report(
                original,
                rule,
                f"`{label}` → {conversion.target.name} left alone: "
                + "; ".join(conversion.problems)
                + ". Change these arguments, or replace the optimizer by hand",
                False,
            )
            return updated
        pinned = _outcome(conversion, "keeping its defaults")
        state = " (fp32, unpaged optimizer state)" if source.library == "bitsandbytes" else ""
        if not self.report(
            original, rule, f"{label} → {conversion.target.name}{pinned}{state}", True
        ):
            return updated
        RemoveImportsVisitor.remove_unused_import_by_node(self.context, original.func)
        call = _with_args(updated, conversion.args)
        return call.with_changes(func=self._emit(conversion.target.emit))

    def _strip_fused(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        index = next(
            (
                i
                for i, arg in enumerate(original.args)
                if arg.keyword is not None and arg.keyword.value == "fused"
            ),
            None,
        )
        if index is None:
            return updated
        arg = original.args[index]
        known, value = _literal(arg.value)
        if known and value in (False, None):
            return updated
        if not self.target.is_xla:
            self.report(
                arg,
                FusedFlag,
                "`fused=True` on the neuron device is accepted by torch's check but unverified: "
                "remove it if the optimizer step fails or falls back to the CPU",
                False,
            )
            return updated
        if not known:
            self.report(
                arg,
                FusedFlag,
                f"`fused={_code(arg.value)}` raises on XLA tensors when it is True: "
                "remove it or pass fused=False",
                False,
            )
            return updated
        if not self.report(arg, FusedFlag, "`fused=True` raises on XLA tensors → removed", True):
            return updated
        args = [a for i, a in enumerate(updated.args) if i != index]
        return _with_args(updated, args)

    def _to_syncfree(self, original: cst.Call, updated: cst.Call, torch_class: str) -> cst.Call:
        short = torch_class.rsplit(".", 1)[-1]
        if not self.target.is_xla:
            self.report(
                original,
                SyncfreeOptimizer,
                f'optimizer = "syncfree" does not apply to the neuron target (no torch_xla): '
                f"{torch_class} kept",
                False,
            )
            return updated
        if self._scaler_reason is not None:
            self.report(
                original,
                SyncfreeOptimizer,
                f"{torch_class} not swapped to syncfree.{short}: {self._scaler_reason}, and a "
                "syncfree optimizer stepped both with and without found_inf raises KeyError "
                "'max_exp_avg_sq'; swap it by hand only if every step() passes found_inf",
                False,
            )
            return updated
        if not self.report(
            original,
            SyncfreeOptimizer,
            f"{torch_class} → torch_xla.amp.syncfree.{short} (same step while found_inf is None)",
            True,
        ):
            return updated
        return updated.with_changes(func=self._emit(self.table.syncfree[torch_class]))

    def _params_owner(self, call: cst.Call) -> str | None:
        first = next(
            (a for a in call.args if a.keyword is None and not a.star),
            next((a for a in call.args if a.keyword and a.keyword.value == "params"), None),
        )
        if first is None:
            return None
        value = first.value
        if (
            isinstance(value, cst.Call)
            and isinstance(value.func, cst.Attribute)
            and value.func.attr.value == "parameters"
        ):
            return dotted(value.func.value)
        return None

    def _to_fp32_states(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        if not self.target.is_xla:
            self.report(
                original,
                Fp32StateOptimizer,
                'optimizer = "fp32-states" uses neuronx-distributed, which is XLA-based; not '
                "applied on the neuron target",
                False,
            )
            return updated
        owner = self._params_owner(original)
        if owner is None or owner not in self._bf16:
            what = f"`{owner}`" if owner else "the optimized parameters"
            self.report(
                original,
                Fp32StateOptimizer,
                f"torch.optim.AdamW kept: {what} is not visibly cast to bf16 in this file; "
                "AdamW_FP32OptimParams only helps bf16 parameters",
                False,
            )
            return updated
        conversion = convert_arguments(updated, self.table.fp32_states, self.table)
        assert conversion.target is not None
        if conversion.problems:
            self.report(
                original,
                Fp32StateOptimizer,
                "torch.optim.AdamW kept: " + "; ".join(conversion.problems),
                False,
            )
            return updated
        pinned = _outcome(conversion, "keeping torch's defaults")
        if not self.report(
            original,
            Fp32StateOptimizer,
            f"torch.optim.AdamW of bf16 `{owner}` → AdamW_FP32OptimParams{pinned}",
            True,
        ):
            return updated
        call = _with_args(updated, conversion.args)
        return call.with_changes(func=self._emit(conversion.target.emit))

    def _rewrite_trainer(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        trainer = self.table.trainer
        index = next(
            (
                i
                for i, arg in enumerate(original.args)
                if arg.keyword is not None and arg.keyword.value == "optim"
            ),
            None,
        )
        if index is None:
            return updated
        value = original.args[index].value
        chosen = trainer["xla"] if self.target.is_xla else trainer["neuron"]
        replace_members = set(trainer["replace"].values())
        unsupported_members = set(trainer["unsupported"].values())
        if isinstance(value, cst.SimpleString):
            known, text = _literal(value)
            if not known or not isinstance(text, str):
                return updated
            if text in trainer["unsupported"]:
                self._report_trainer_unsupported(value, text)
                return updated
            if text not in trainer["replace"]:
                return updated
            if not self.report(
                value, TrainerOptimName, f'optim="{text}" → "{chosen["value"]}"', True
            ):
                return updated
            new_value: cst.BaseExpression = cst.SimpleString(
                f"{value.prefix}{value.quote}{chosen['value']}{value.quote}"
            )
        elif isinstance(value, cst.Attribute) and self.is_any(
            value, {f"{enum}.{member}" for enum in trainer["enum"] for member in replace_members}
        ):
            if not self.report(
                value,
                TrainerOptimName,
                f'optim={_code(value)} → {chosen["member"]} ("{chosen["value"]}")',
                True,
            ):
                return updated
            updated_value = updated.args[index].value
            assert isinstance(updated_value, cst.Attribute)
            new_value = updated_value.with_changes(attr=cst.Name(chosen["member"]))
        elif isinstance(value, cst.Attribute) and self.is_any(
            value,
            {f"{enum}.{member}" for enum in trainer["enum"] for member in unsupported_members},
        ):
            self._report_trainer_unsupported(value, _code(value))
            return updated
        else:
            return updated
        args = list(updated.args)
        args[index] = args[index].with_changes(value=new_value)
        return updated.with_changes(args=args)

    def _report_trainer_unsupported(self, node: cst.BaseExpression, text: str) -> None:
        self.report(
            node,
            TrainerOptimName,
            f"optim={text!r} builds a CUDA-only optimizer with no torch.optim equivalent: choose "
            '"adamw_torch" (or "adamw_torch_xla") and retune',
            False,
        )
