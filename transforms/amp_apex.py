"""apex AMP: `amp.initialize` and `amp.scale_loss` → the target's bf16 training, the loss scaling
removed ([neuron-bf16, xla-amp]; the full-bf16 recipe of Neuron's BERT port, human-port benchmark).

Only the spellings whose meaning is certain are rewritten, and only when every use of apex AMP
in the file is one of them: a file is never left half on apex (apex AMP needs CUDA, so a
remaining `amp.initialize` fails on Trainium whatever else was rewritten).
"""

from __future__ import annotations

from dataclasses import replace

import libcst as cst
from libcst.codemod.visitors import RemoveImportsVisitor

from trncodemod.analysis.facts import FileFacts
from trncodemod.analysis.nodes import find
from trncodemod.findings import Rule, Safety, Severity
from trncodemod.passes import Pass
from trncodemod.targets import Target

_INITIALIZE = "apex.amp.initialize"
_SCALE_LOSS = "apex.amp.scale_loss"
# opt_level → what it becomes: O2 and O3 keep the model's weights in half precision, which on
# Trainium is full bf16 (O1 patches functions to autocast: a region only a person can draw).
_FULL_HALF = ("O2", "O3")
# Keywords of amp.initialize that only tune the loss scaling or logging, gone with it.
_SCALING_ONLY = frozenset(
    {"opt_level", "loss_scale", "min_loss_scale", "max_loss_scale", "verbosity"}
)
_CUDA_EXTENSIONS = frozenset({"amp_C", "apex_C", "fused_layer_norm_cuda", "fused_adam_cuda"})
# Handlers that make an import optional: the program runs on without the module.
_IMPORT_ERRORS = frozenset({"ImportError", "ModuleNotFoundError", "Exception", "BaseException"})


class ApexAmp(Rule):
    """## What it does
    Ports apex AMP to bf16, where the spelling is certain:

    - `model, optimizer = amp.initialize(model, optimizer, opt_level="O2")` (or `"O3"`, also
      without the optimizer) becomes `model.to(torch.bfloat16)`: O2/O3 keep the weights in half
      precision, which on Trainium is full bf16 (TRN504 then adds stochastic rounding);
    - `with amp.scale_loss(loss, optimizer) as scaled: scaled.backward()` becomes
      `loss.backward()`: bf16 needs no loss scaling;
    - `from apex import amp` goes when nothing uses it any more.

    Everything else about apex AMP is reported as a blocker, and then nothing in the file is
    rewritten: `opt_level="O1"` (wrap the forward and the loss in
    `torch.autocast("xla", dtype=torch.bfloat16)` instead), an opt_level held in a variable,
    keywords that change the numerics (`keep_batchnorm_fp32`, `cast_model_outputs`),
    `amp.master_params`, `amp.state_dict` and other spellings.

    ## Why
    apex AMP needs CUDA (`amp.initialize` rejects parameters that are not CUDA tensors) and
    apex is not built for Trainium. Trainium trains in bf16 without loss scaling, either by
    autocast or by full bf16 with stochastic rounding, as Neuron's BERT port does
    ([neuron-bf16, xla-amp]).

    ## Example
    ```python
    model, optimizer = amp.initialize(model, optimizer, opt_level="O2")
    with amp.scale_loss(loss, optimizer) as scaled_loss:
        scaled_loss.backward()
    ```

    ## Use instead
    ```python
    model.to(torch.bfloat16)
    loss.backward()
    ```
    """

    code = "TRN503"
    name = "apex-amp"
    summary = 'apex `amp.initialize(opt_level="O2")`/`amp.scale_loss` → full bf16, no loss scaling'
    safety = Safety.REVIEW
    severity = Severity.BLOCKER
    sources = ("neuron-bf16", "xla-amp", "apex-amp")


class ApexCudaExtension(Rule):
    """## What it does
    Reports an import of one of apex's CUDA extension modules (`amp_C`, `apex_C`,
    `fused_layer_norm_cuda`, `fused_adam_cuda`). Nothing is changed.

    ## Why
    They are compiled CUDA kernels (`multi_tensor_applier(amp_C.multi_tensor_l2norm, ...)`):
    they do not exist on Trainium. The torch equivalents are the `torch._foreach_*` ops,
    `torch.nn.utils.clip_grad_norm_`, `torch.nn.LayerNorm` and `torch.optim.AdamW`.

    ## Example
    ```python
    import amp_C
    from apex.multi_tensor_apply import multi_tensor_applier
    ```

    ## Use instead
    ```python
    torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    ```
    """

    code = "TRN505"
    name = "apex-cuda-extension"
    summary = "apex CUDA extension (`amp_C`, `apex_C`, ...) imported (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.BLOCKER
    sources = ("apex-setup",)


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


def _modules_of(imp: cst.Import | cst.ImportFrom) -> list[str]:
    """The absolute modules an import names (none for a relative one)."""
    if isinstance(imp, cst.Import):
        return [_code(alias.name) for alias in imp.names]
    if imp.module is not None and not imp.relative:
        return [_code(imp.module)]
    return []


def _parenthesised(node: cst.BaseExpression) -> cst.BaseExpression:
    if isinstance(node, cst.Name | cst.Attribute | cst.Call | cst.Subscript) or node.lpar:
        return node
    return node.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])


class ApexAmpPass(Pass):
    name = "apex-amp"
    rules = (ApexAmp, ApexCudaExtension)
    needles = ("amp", "apex")

    @classmethod
    def candidate(cls, facts: FileFacts, target: Target) -> bool:
        return facts.reaches("apex.amp") or not facts.imported.isdisjoint(_CUDA_EXTENSIONS)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._to_bf16: dict[cst.BaseSmallStatement, str] = {}  # initialize → the model's name
        self._backward: dict[cst.With, cst.SimpleStatementLine] = {}
        self._optional = False  # every apex import is under `try: ... except ImportError:`

    def report(self, node: cst.CSTNode, rule: type[Rule], message: str, fixed: bool) -> bool:
        reported = super().report(node, rule, message, fixed)
        if reported and not fixed and self._optional:
            # timm's `try: from apex import amp / except ImportError: has_apex = False`: the
            # program runs without apex (its apex path is opt-in), so this does not stop it.
            last = self.findings[-1]
            self.findings[-1] = replace(
                last,
                message=f"{last.message} (apex is optional here: imported under "
                "`try/except ImportError`, so the program runs without it)",
                severity=Severity.WARNING,
            )
        return reported

    @staticmethod
    def _apex_imports(imports: list[cst.Import | cst.ImportFrom]) -> list[cst.CSTNode]:
        roots = {"apex", *_CUDA_EXTENSIONS}
        return [i for i in imports if any(n.split(".")[0] in roots for n in _modules_of(i))]

    @staticmethod
    def _guarded_imports(module: cst.Module) -> set[cst.CSTNode]:
        """The imports in the body of a `try` that catches a failed import."""
        guarded: set[cst.CSTNode] = set()
        for try_ in find(module, cst.Try):
            caught = set()
            for handler in try_.handlers:
                if handler.type is None:
                    caught.add("BaseException")
                else:
                    caught.update(_code(n) for n in find(handler.type, cst.Name))
            if caught & _IMPORT_ERRORS:
                guarded.update(find(try_.body, cst.Import, cst.ImportFrom))
        return guarded

    # -- the plan --------------------------------------------------------------------------
    def visit_Module(self, node: cst.Module) -> bool:
        calls: list[cst.Call] = find(node, cst.Call)
        withs: list[cst.With] = find(node, cst.With)
        lines: list[cst.SimpleStatementLine] = find(node, cst.SimpleStatementLine)
        imports: list[cst.Import | cst.ImportFrom] = find(node, cst.Import, cst.ImportFrom)
        apex = self._apex_imports(imports)
        self._optional = bool(apex) and set(apex) <= self._guarded_imports(node)
        self._report_extensions(imports)
        planned: set[cst.Call] = set()  # the calls decided: rewritten or reported
        blockers: list[tuple[cst.CSTNode, str]] = []
        for line in lines:
            for small in line.body:
                call = small.value if isinstance(small, cst.Assign | cst.Expr) else None
                if isinstance(call, cst.Call) and _INITIALIZE in self.module_names(call.func):
                    model, why = self._initialize(small, call)
                    if model is None:
                        blockers.append((call, why))
                        planned.add(call)
                    else:
                        self._to_bf16[small] = model
                        planned.add(call)
        for with_ in withs:
            for item in with_.items:
                call = item.item
                if isinstance(call, cst.Call) and _SCALE_LOSS in self.module_names(call.func):
                    replacement, why = self._scale_loss(with_, call)
                    if replacement is None:
                        blockers.append((call, why))
                        planned.add(call)
                    else:
                        self._backward[with_] = replacement
                        planned.add(call)
        for call in calls:  # every other apex AMP call
            if call in planned:
                continue
            used = self.module_names(call.func)
            apex = sorted(n for n in used if n.startswith("apex.amp."))
            if apex:
                blockers.append((call, f"`{_code(call.func)}` ({apex[0]}) has no Trainium form"))
        if blockers:
            self._to_bf16.clear()
            self._backward.clear()
            for where, why in blockers:
                self.report(
                    where,
                    ApexAmp,
                    f"apex AMP needs CUDA: {why}; train in bf16 without loss scaling "
                    f'(`torch.autocast("{self.target.device_string}", dtype=torch.bfloat16)` '
                    "around forward and loss, or `model.to(torch.bfloat16)`"
                    + (
                        " with `NEURON_RT_STOCHASTIC_ROUNDING_EN=1` set before the runtime "
                        "starts, so that updates below a bf16 step are not lost"
                        if self.target.is_xla
                        else ""
                    )
                    + ") and drop amp.initialize/amp.scale_loss",
                    False,
                )
            return True
        for small, model in list(self._to_bf16.items()):
            if not self.report(
                small,
                ApexAmp,
                f"apex AMP O2/O3 → full bf16: `{model}.to(torch.bfloat16)` (no loss scaling; "
                "stochastic rounding keeps small updates)",
                True,
            ):
                del self._to_bf16[small]
        for with_ in list(self._backward):
            if not self.report(
                with_,
                ApexAmp,
                "apex `amp.scale_loss` removed: bf16 needs no loss scaling",
                True,
            ):
                del self._backward[with_]
        if self._to_bf16 or self._backward:
            RemoveImportsVisitor.remove_unused_import(self.context, "apex", "amp")
            RemoveImportsVisitor.remove_unused_import(self.context, "apex.amp")
        return True

    def _report_extensions(self, imports: list[cst.Import | cst.ImportFrom]) -> None:
        for imp in imports:
            for name in _modules_of(imp):
                if name.split(".")[0] in _CUDA_EXTENSIONS:
                    self.report(
                        imp,
                        ApexCudaExtension,
                        f"`{name}` is an apex CUDA extension: it does not exist on Trainium; use "
                        "torch ops (`torch._foreach_*`, `clip_grad_norm_`, `nn.LayerNorm`)",
                        False,
                    )

    def _initialize(self, small: cst.BaseSmallStatement, call: cst.Call) -> tuple[str | None, str]:
        """The model's name if ``small`` is a certain O2/O3 `amp.initialize`, else why not."""
        positional = [a for a in call.args if a.keyword is None]
        keywords = {a.keyword.value: a for a in call.args if a.keyword is not None}
        if any(a.star for a in call.args):
            return None, "`amp.initialize` with *args/**kwargs"
        level = keywords.get("opt_level")
        value = level.value if level is not None else None
        if not isinstance(value, cst.SimpleString):
            return None, "`amp.initialize` without a literal opt_level"
        if value.evaluated_value not in _FULL_HALF:
            return None, f"opt_level={_code(value)} (autocast-like: wrap the forward yourself)"
        other = sorted(set(keywords) - _SCALING_ONLY)
        if other:
            return None, f"`amp.initialize` with {', '.join(other)}"
        if not positional or not all(isinstance(a.value, cst.Name) for a in positional):
            return None, "`amp.initialize` of an expression"
        names = [a.value.value for a in positional]  # type: ignore[union-attr]
        if len(names) > 2:
            return None, "`amp.initialize` of several models or optimizers"
        if not isinstance(small, cst.Assign) or len(small.targets) != 1:
            return None, "`amp.initialize` whose result is not assigned back"
        target = small.targets[0].target
        bound = (
            [e.value.value for e in target.elements if isinstance(e.value, cst.Name)]
            if isinstance(target, cst.Tuple | cst.List)
            else [target.value]
            if isinstance(target, cst.Name)
            else []
        )
        if bound != names:
            return None, "`amp.initialize` assigned to other names than it was given"
        return names[0], ""

    def _scale_loss(
        self, with_: cst.With, call: cst.Call
    ) -> tuple[cst.SimpleStatementLine | None, str]:
        """`loss.backward(...)` for a certain `with amp.scale_loss(loss, ...) as s: s.backward()`."""
        positional = [a for a in call.args if a.keyword is None and not a.star]
        body = with_.body
        item = with_.items[0]
        if (
            len(with_.items) != 1
            or with_.asynchronous is not None
            or not positional
            or item.asname is None
            or not isinstance(item.asname.name, cst.Name)
            or not isinstance(body, cst.IndentedBlock)
            or len(body.body) != 1
            or not isinstance(body.body[0], cst.SimpleStatementLine)
            or len(body.body[0].body) != 1
        ):
            return None, "`amp.scale_loss` block other than `as s: s.backward()`"
        statement = body.body[0]
        expr = statement.body[0]
        scaled = item.asname.name.value
        if not (
            isinstance(expr, cst.Expr)
            and isinstance(expr.value, cst.Call)
            and isinstance(expr.value.func, cst.Attribute)
            and expr.value.func.attr.value == "backward"
            and isinstance(expr.value.func.value, cst.Name)
            and expr.value.func.value.value == scaled
        ):
            return None, "`amp.scale_loss` block other than `as s: s.backward()`"
        loss = _parenthesised(positional[0].value)
        backward = expr.value.with_changes(func=expr.value.func.with_changes(value=loss))
        line = statement.with_changes(
            body=[expr.with_changes(value=backward)], leading_lines=with_.leading_lines
        )
        return line, ""

    # -- the edits -------------------------------------------------------------------------
    def leave_Assign(
        self, original_node: cst.Assign, updated_node: cst.Assign
    ) -> cst.BaseSmallStatement:
        model = self._to_bf16.get(original_node)
        if model is None:
            return updated_node
        torch = self.add_import("torch")
        return cst.Expr(cst.parse_expression(f"{model}.to({torch}.bfloat16)"))

    def leave_With(self, original_node: cst.With, updated_node: cst.With) -> cst.BaseStatement:
        line = self._backward.get(original_node)
        return updated_node if line is None else line
