"""Ops that fall back to the CPU, make shapes depend on the data, or that neuronx-cc rejects, in
model and training code ([xla-troubleshoot, neuron-debug, torchneuron-overview]). Reported, from the
op table ``data/fallback_ops.toml``; two are rewritten: a constant written through a mask that
compares the tensor itself (``x[x < y] = c`` → ``x.masked_fill_(x < y, c)``, TRN424), and a
BLAS-style call torch-xla runs on the CPU written as a matmul (``torch.addmm(M, A, B, alpha=-2.0)``
→ ``M - 2.0 * (A @ B)``, TRN420; ``cpu_fallback_blas``).

Model and training code is what ``trncodemod.analysis.model_code`` finds (loops, model classes,
the functions they call; never dataset code), and an operand that is visibly on the host
(``.cpu()``, ``.numpy()``, ``.to("cpu")``, a NumPy call, or a name bound only to one) is skipped.
"""

from __future__ import annotations

import libcst as cst
import libcst.matchers as m
from libcst.codemod.visitors import RemoveImportsVisitor
from libcst.metadata import ParentNodeProvider
from trncodemod.transforms.cpu_fallback_blas import MatmulForm, matmul_form
from trncodemod.transforms.cpu_fallback_rules import (
    BY_CODE,
    RULES,
    BooleanMaskIndex,
    MaskFillAssignment,
    ScaledBlasFallback,
)

from trncodemod.analysis.facts import FileFacts
from trncodemod.analysis.fallback_facts import Facts, method_name
from trncodemod.analysis.fallback_ops import fallback_ops, op_names
from trncodemod.analysis.fallback_scan import fallback_scan, may_be_int
from trncodemod.analysis.model_code import model_code, walk
from trncodemod.passes import Pass
from trncodemod.targets import Target


def _code(node: cst.CSTNode) -> str:
    return cst.Module(body=[]).code_for_node(node)


_COMPARISONS = (
    cst.LessThan,
    cst.LessThanEqual,
    cst.GreaterThan,
    cst.GreaterThanEqual,
    cst.Equal,
    cst.NotEqual,
)
_SPECIAL_FLOATS = frozenset({"inf", "-inf", "+inf", "nan", "infinity", "-infinity"})


def _self_comparison(target: cst.BaseExpression, mask: cst.BaseExpression) -> bool:
    """``mask`` is one comparison with ``target`` itself on one side (so it has its shape)."""
    if not isinstance(mask, cst.Comparison) or len(mask.comparisons) != 1:
        return False
    other = mask.comparisons[0]
    code = _code(target)
    return isinstance(other.operator, _COMPARISONS) and code in (
        _code(mask.left),
        _code(other.comparator),
    )


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
        "weight_norm",
        "CTCLoss",
        "ctc_loss",
        "addmm",
        "addmv",
        "addbmm",
    )

    @classmethod
    def candidate(cls, facts: FileFacts, target: Target) -> bool:
        table = op_names()
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

    def _constant(self, value: cst.BaseExpression) -> bool:
        """A number, ``True``/``False``, ``float("inf")``-style, ``math.inf``/``math.nan``, or one
        of these negated: what ``masked_fill_`` takes as its value."""
        if isinstance(value, cst.UnaryOperation) and isinstance(
            value.operator, cst.Minus | cst.Plus
        ):
            value = value.expression
        if isinstance(value, cst.Integer | cst.Float) or m.matches(
            value, m.Name("True") | m.Name("False")
        ):
            return True
        if isinstance(value, cst.Attribute | cst.Name):
            return bool(self.module_names(value) & {"math.inf", "math.nan"})
        return (
            isinstance(value, cst.Call)
            and "builtins.float" in self.module_names(value.func)
            and len(value.args) == 1
            and value.args[0].keyword is None
            and isinstance(value.args[0].value, cst.SimpleString)
            and value.args[0].value.evaluated_value.strip().lower() in _SPECIAL_FLOATS
        )

    def _fills(self, node: cst.Subscript, parent: cst.CSTNode | None) -> bool:
        """``x[x < y] = c`` rewritten to ``x.masked_fill_(x < y, c)`` (TRN424), if it is that."""
        if not isinstance(parent, cst.AssignTarget) or not isinstance(
            node.value, cst.Name | cst.Attribute
        ):
            return False
        assign = self.get_metadata(ParentNodeProvider, parent, None)
        if not isinstance(assign, cst.Assign) or len(assign.targets) != 1:
            return False
        if len(node.slice) != 1 or not isinstance(node.slice[0].slice, cst.Index):
            return False
        mask = node.slice[0].slice.value
        if not _self_comparison(node.value, mask) or not self._constant(assign.value):
            return False
        call = f"{_code(node.value)}.masked_fill_({_code(mask)}, {_code(assign.value)})"
        if not self.report(
            node,
            MaskFillAssignment,
            f"`{_code(node)} = ...` writes through a boolean mask (`nonzero` underneath) → `{call}`"
            if len(call) <= 80
            else "a constant written through a boolean mask (`nonzero` underneath) → "
            "`masked_fill_`",
            True,
        ):
            return False
        self._fill[assign] = cst.Expr(cst.parse_expression(call))
        return True

    def leave_Assign(
        self, original_node: cst.Assign, updated_node: cst.Assign
    ) -> cst.BaseSmallStatement:
        return self._fill.get(original_node, updated_node)

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        form = self._matmul.get(original_node)
        if form is None:
            return updated_node
        if isinstance(original_node.func, cst.Name):  # `from torch import addmm` left unused
            RemoveImportsVisitor.remove_unused_import_by_node(self.context, original_node.func)
        return form.expression(updated_node)

    def visit_Module(self, node: cst.Module) -> bool:
        self.facts = Facts(self)
        self._fill: dict[cst.Assign, cst.Expr] = {}
        self._matmul: dict[cst.Call, MatmulForm] = {}
        self._only_training = False
        seen: set[int] = set()
        for found in walk(model_code(self, node), seen):
            if isinstance(found, cst.Call):
                self._call(found)
            elif isinstance(found, cst.Subscript):
                self._subscript(found)
            elif isinstance(found, cst.BinaryOperation) and isinstance(
                found.operator, cst.MatrixMultiply
            ):
                if self.facts.is_int(found.left) or self.facts.is_int(found.right):
                    op = next(o for o in fallback_ops() if o.key == "integer_matmul")
                    self.report(
                        found, BY_CODE[op.code], f"`@` {op.cost(self.target)}: {op.fix}", False
                    )
            elif isinstance(found, cst.Name | cst.Attribute):
                self._reference(found)
        facts = self.run.facts
        if self.run.profile.trains and (facts is None or facts.reaches(*op_names().training)):
            # A script that trains trains what it builds outside its step too (`model =
            # weight_norm(...)` in `main()` or at the top level): its construction-time ops.
            self._only_training = True
            for found in walk([node], seen):
                if isinstance(found, cst.Call):
                    self._call(found)
                elif isinstance(found, cst.Name | cst.Attribute):
                    self._reference(found)
        return bool(self._fill or self._matmul)  # visit the tree only to rewrite (leave_*)

    def _call(self, call: cst.Call) -> None:
        found = self.facts.op_of_call(call)
        if found is None:
            return
        op, spelling, operand = found
        if self._only_training and not op.training_only:
            return
        if operand is not None and self.facts.on_host(operand):
            return
        if op.key == "sparse" and self.target.is_xla:
            return  # a blocker there: the off-device pass reports it (TRN029)
        if op.training_only and self._untrained():
            return
        if op.code == ScaledBlasFallback.code:
            self._blas(call, spelling, op.cost(self.target))
            return
        message = f"`{spelling}` {op.cost(self.target)}"
        if op.dynamic_shape:
            message += ", and its size depends on the data " + (
                "(a new graph for each new size)"
                if self.target.is_xla
                else "(the eager ops after it compile again for each new size; a "
                '`torch.compile(backend="neuron")` region needs static shapes)'
            )
        self.report(call, BY_CODE[op.code], f"{message}: {op.fix}", False)

    def _blas(self, call: cst.Call, spelling: str, cost: str) -> None:
        """TRN420: the call written as a matmul where that is certain (``cpu_fallback_blas``),
        on the XLA targets, where its fallback is measured; elsewhere what to write."""
        receiver = spelling.startswith(".")
        kind = spelling.strip(".()") if receiver else spelling.rpartition(".")[2]
        parent = self.get_metadata(ParentNodeProvider, call, None)
        form = matmul_form(call, kind, receiver, parent)
        if isinstance(form, str):
            self.report(call, ScaledBlasFallback, f"`{spelling}` {cost}: {form}", False)
            return
        text = form.text(call, whole=False)
        if not self.target.is_xla:
            self.report(call, ScaledBlasFallback, f"`{spelling}` {cost}: write `{text}`", False)
            return
        shown = f"`{text}`" if len(text) <= 80 and "\n" not in text else "its matmul form"
        autocast = "" if kind == "addmv" else " (under bf16 autocast its result is float32)"
        if self.report(call, ScaledBlasFallback, f"`{spelling}` {cost} → {shown}{autocast}", True):
            self._matmul[call] = form

    def _untrained(self) -> bool:
        """No training run reaches the module: the program says so (two files or more), or it is
        a script that trains nothing (an evaluation script's CTC loss in its loop) and no given
        module imports it."""
        program, profile = self.run.program, self.run.profile
        return program.untrained or (
            profile.is_entry_script and not profile.trains and not program.imported
        )

    def _subscript(self, node: cst.Subscript) -> None:
        if not self.facts.is_mask_index(node) or self.facts.on_host(node.value, every=False):
            return  # a host array (or one the name may hold: its NumPy value) lowers nothing
        text = _code(node)
        what = f"`{text}`" if len(text) <= 40 else "boolean-mask indexing"
        parent = self.get_metadata(ParentNodeProvider, node, None)
        if self._fills(node, parent):
            return
        grand = self.get_metadata(ParentNodeProvider, parent, None) if parent else None
        reduction = (
            method_name(grand)
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
        found = self.facts.op_of_reference(node)
        if found is None:
            return
        parent = self.get_metadata(ParentNodeProvider, node, None)
        if isinstance(parent, cst.Attribute) and parent.attr is node:
            return  # the `complex64` of `torch.complex64`: the attribute is the reference
        op, spelling, passed_on = found
        if self._only_training and not op.training_only:
            return
        if passed_on:
            if isinstance(parent, cst.Call) and parent.func is node:
                return  # a call: _call reports it, under the op's condition
            if op.training_only and self._untrained():
                return
            spelling += "` (passed on here, called under another name)"
        else:
            spelling += "`"
        self.report(node, BY_CODE[op.code], f"`{spelling} {op.cost(self.target)}: {op.fix}", False)
