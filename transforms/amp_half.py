"""fp16 models: `model.half()` → `model.bfloat16()`, with every other `.half()` of the file, so
that the model and its inputs keep one dtype ([neuron-bf16, xla-amp]: Trainium trains in bf16).

All or nothing per file: where the file also names `torch.float16`/`torch.half` or calls
`.half(...)` with arguments, the float16 path is reported and nothing is rewritten.
"""

from __future__ import annotations

import libcst as cst
from trncodemod.transforms.amp_table import FP16

from trncodemod.analysis.facts import FileFacts
from trncodemod.analysis.nodes import find
from trncodemod.findings import Rule, Safety, Severity
from trncodemod.passes import Pass
from trncodemod.targets import Target


class HalfModelToBf16(Rule):
    """## What it does
    Where a module is cast to float16 with `.half()` — a statement `model.half()` or
    `model = ....half()`, `model` being a name whose `.parameters()` the file calls; not
    `model.half().float()` or `deepcopy(model).half()`, which make no fp16 model to train —
    every `.half()` call of the file becomes `.bfloat16()`: the
    model's and the inputs' (`x.half()`), so they keep one dtype. TRN504 then turns on
    stochastic rounding in the entry script.

    Reported instead, and nothing rewritten: a file that also names `torch.float16` or
    `torch.half` (a dtype the rewrite would leave behind), or calls `.half(...)` with arguments.

    ## Why
    Trainium trains in bf16: fp16 training needs loss scaling (`GradScaler`, gone from
    torch_xla 2.9) to keep small gradients from underflowing, while bf16 has fp32's exponent
    range; full bf16 with stochastic rounding is Neuron's recipe for a model kept in half
    precision ([neuron-bf16, xla-amp]). The numerics change:
    `review`.

    ## Example
    ```python
    model = Net().half()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    loss = loss_fn(model(x.half()), y)
    ```

    ## Use instead
    ```python
    model = Net().bfloat16()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    loss = loss_fn(model(x.bfloat16()), y)
    ```
    """

    code = "TRN506"
    name = "half-model-bf16"
    summary = "`model.half()` (and the file's other `.half()`) → `.bfloat16()`"
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = ("neuron-bf16", "xla-amp")


def _receiver(call: cst.Call) -> str | None:
    """``x`` of ``x.<method>(...)``."""
    func = call.func
    if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name):
        return func.value.value
    return None


def _method(call: cst.Call) -> str | None:
    return call.func.attr.value if isinstance(call.func, cst.Attribute) else None


class HalfModel(Pass):
    name = "half-model"
    rules = (HalfModelToBf16,)
    needles = (".half(",)

    @classmethod
    def candidate(cls, facts: FileFacts, target: Target) -> bool:
        return "half" in facts.calls and "parameters" in facts.calls

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._rewrite: set[cst.Call] = set()

    def visit_Module(self, node: cst.Module) -> bool:
        calls = find(node, cst.Call)
        modules = {_receiver(c) for c in calls if _method(c) == "parameters"} - {None}
        halves = [c for c in calls if _method(c) == "half"]
        bound = {
            a.value: a.targets[0].target.value
            for a in find(node, cst.Assign)
            if len(a.targets) == 1 and isinstance(a.targets[0].target, cst.Name)
        }
        # Only a cast that is a statement of its own (`model.half()`) or what a module's name is
        # bound to (`model = Net().half()`): `model.half().float()` rounds through fp16 and
        # `deepcopy(model).half()` makes an fp16 copy (a checkpoint), neither trains in half.
        statements = {e.value for e in find(node, cst.Expr)}
        models = [
            c
            for c in halves
            if (c in statements and _receiver(c) in modules) or bound.get(c) in modules
        ]
        if not models:
            return True
        blockers = [c for c in halves if c.args]
        blockers += [
            a for a in find(node, cst.Attribute) if not self.module_names(a).isdisjoint(FP16)
        ]
        if blockers:
            for where in blockers:
                self.report(
                    where,
                    HalfModelToBf16,
                    "another float16 path of a file whose model is cast with `.half()`: "
                    "train in bf16 on Trainium (`.bfloat16()`, `torch.bfloat16`) throughout",
                    False,
                )
            return True
        for call in halves:
            what = "the model" if call in models else "a tensor of the same program"
            if self.report(call, HalfModelToBf16, f"{what}: `.half()` → `.bfloat16()`", True):
                self._rewrite.add(call)
        return True

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.Call:
        if original_node not in self._rewrite:
            return updated_node
        func = updated_node.func
        assert isinstance(func, cst.Attribute)
        return updated_node.with_changes(func=func.with_changes(attr=cst.Name("bfloat16")))
