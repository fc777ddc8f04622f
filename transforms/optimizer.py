"""Optimizers: CUDA-only optimizers become torch.optim ones, `fused=True` goes, and the
`optimizer` policy picks syncfree or fp32-state AdamW for plain torch.optim
([xla-syncfree, neuron-guide]).

The mappings (signatures, defaults, keywords that may be dropped) are data in
``data/optimizers.toml``, read by ``optimizer_table.py``; this module interprets them.
"""

from __future__ import annotations

import re

import libcst as cst
from libcst.codemod.visitors import RemoveImportsVisitor
from libcst.metadata import ParentNodeProvider, PositionProvider
from trncodemod.transforms.optimizer_arguments import Conversion, convert_arguments, literal
from trncodemod.transforms.optimizer_capturable import moved_before
from trncodemod.transforms.optimizer_rules import (
    RULES,
    CapturableOptimizer,
    CudaOnlyOptimizer,
    Fp32StateOptimizer,
    FusedFlag,
    SyncfreeOptimizer,
    TrainerOptimName,
    TransformersAdamW,
    UnsupportedOptimizer,
)
from trncodemod.transforms.optimizer_table import (
    Emit,
    Source,
    class_of,
    load_table,
    named_classes,
    swapped_classes,
)

from trncodemod.analysis.facts import FileFacts, may_resolve, reaches_module
from trncodemod.analysis.loops import dotted
from trncodemod.analysis.nodes import find
from trncodemod.passes import Pass
from trncodemod.targets import Api, Target

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


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node).strip()


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


# -- the pass -----------------------------------------------------------------------------------
class FusedOptimizers(Pass):
    name = "optimizer"
    rules = RULES
    needles = ("optim", "apex", "bitsandbytes", "Adam", "SGD", "fused")

    @classmethod
    def candidate(cls, facts: FileFacts, target: Target) -> bool:
        table = load_table()
        # A CUDA-only source (apex, bitsandbytes, transformers' AdamW: rewritten or reported)
        # or an unsupported optimizer (reported), called or used as a value: named
        # `module.Class` or `module.submodule.Class`, or one of the source's other names.
        for module, classes, also in named_classes():
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
        swapped = swapped_classes()
        for name in facts.qualified:
            if name.startswith("torch.optim."):
                match = _TORCH_OPTIM.match(name)
                if match is None:
                    continue
                if fused or match.group(2) in swapped:
                    return True
                if f"torch.optim.{match.group(2)}" in table.host_reads:
                    return True  # capturable=True (TRN059)
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
                cls = class_of(q, module, classes)
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
        if torch_class in self.table.host_reads:
            return self._make_capturable(original_node, updated_node, torch_class)
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
        known, value = literal(arg.value)
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

    def _make_capturable(self, original: cst.Call, updated: cst.Call, torch_class: str) -> cst.Call:
        """`capturable=True` for an optimizer that reads its state on the host every step
        (optimizer_capturable.py says where its parameters are)."""
        if not self.target.is_xla:
            return updated
        short = torch_class.rsplit(".", 1)[-1]
        keywords = {arg.keyword.value: arg for arg in original.args if arg.keyword is not None}
        why = f"{short} without `capturable=True` copies its state to the host and compiles a new graph every step on XLA"
        problem = None
        if "capturable" in keywords:
            known, value = literal(keywords["capturable"].value)
            if known and value is True:
                return updated
            problem = f"`capturable={_code(keywords['capturable'].value)}` is passed"
        elif any(arg.star == "**" for arg in original.args):
            problem = "`**` arguments may set `capturable`"
        elif "foreach" in keywords and literal(keywords["foreach"].value) not in (
            (True, False),
            (True, None),
        ):
            problem = "`capturable=True` raises on XLA with `foreach=True`: drop `foreach`"
        elif not any(self.target.torch.startswith(v) for v in self.table.capturable_torch):
            problem = (
                f"`capturable=True` was measured on XLA with torch "
                f"{', '.join(self.table.capturable_torch)}, not torch {self.target.torch}: "
                "check it steps there"
            )
        else:
            owner = self._params_owner(original)
            if owner is None or not self._on_device(owner, original):
                what = f"`{owner}`" if owner else "its parameters"
                problem = (
                    f"the tool cannot tell that {what} is on the device when it is built "
                    "(`capturable=True` raises for CPU parameters)"
                )
        if problem is not None:
            self.report(
                original,
                CapturableOptimizer,
                f"{why}: pass `capturable=True` once its parameters are on the device; {problem}",
                False,
            )
            return updated
        if not self.report(original, CapturableOptimizer, f"{why} → `capturable=True` added", True):
            return updated
        keyword = cst.Arg(
            keyword=cst.Name("capturable"),
            value=cst.Name("True"),
            equal=cst.AssignEqual(
                whitespace_before=cst.SimpleWhitespace(""),
                whitespace_after=cst.SimpleWhitespace(""),
            ),
        )
        return _with_args(updated, [*updated.args, keyword])

    def _on_device(self, owner: str, call: cst.Call) -> bool:
        module = self._wrapper.module
        facts = self.device_facts(module)

        def line_of(node: cst.CSTNode) -> int | None:
            position = self.get_metadata(PositionProvider, node, None)
            return None if position is None else position.start.line

        return moved_before(
            owner, call, module, self.parents(), line_of, facts, self.target.device_string
        )

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
            known, text = literal(value)
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
