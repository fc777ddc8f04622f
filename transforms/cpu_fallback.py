"""Ops that fall back to the CPU, make shapes depend on the data, or that neuronx-cc rejects, in
model and training code (reference D1, D2, §5). Report only: the op table is data,
``data/fallback_ops.toml``.

Model and training code is what ``trncodemod.analysis.model_code`` finds (loops, model classes,
the functions they call; never dataset code), and an operand that is visibly on the host
(``.cpu()``, ``.numpy()``, ``.to("cpu")``, a NumPy call, or a name bound only to one) is skipped.
"""

from __future__ import annotations

import libcst as cst
from libcst.metadata import ParentNodeProvider
from trncodemod.transforms.cpu_fallback_rules import BY_CODE, RULES, BooleanMaskIndex

from trncodemod.analysis.facts import FileFacts
from trncodemod.analysis.fallback_facts import Facts, method_name
from trncodemod.analysis.fallback_ops import fallback_ops, op_names
from trncodemod.analysis.fallback_scan import fallback_scan, may_be_int
from trncodemod.analysis.model_code import model_code, walk
from trncodemod.passes import Pass
from trncodemod.targets import Target


def _code(node: cst.CSTNode) -> str:
    return cst.Module(body=[]).code_for_node(node)


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
                    self.report(
                        found, BY_CODE[op.code], f"`@` {op.cost(self.target)}: {op.fix}", False
                    )
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
        self.report(call, BY_CODE[op.code], f"{message}: {op.fix}", False)

    def _subscript(self, node: cst.Subscript) -> None:
        if not self.facts.is_mask_index(node) or self.facts.on_host(node.value):
            return
        text = _code(node)
        what = f"`{text}`" if len(text) <= 40 else "boolean-mask indexing"
        parent = self.get_metadata(ParentNodeProvider, node, None)
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
        op, spelling = found
        self.report(node, BY_CODE[op.code], f"`{spelling}` {op.cost(self.target)}: {op.fix}", False)
