"""Mixed precision: CUDA autocast becomes bf16 autocast on the target's device, GradScaler goes,
and the Neuron compiler's own auto-cast is switched off ([neuron-bf16, xla-amp, neuron-envvars, neuron-cc-cli, torchneuron-overview])."""

from __future__ import annotations

import libcst as cst
import libcst.matchers as m
from libcst.codemod.visitors import RemoveImportsVisitor
from libcst.metadata import ParentNodeProvider, PositionProvider, ScopeProvider
from trncodemod.transforms.amp_rules import (
    RULES,
    AutoCastCompilerFlag,
    AutocastRegion,
    CudaAutocast,
    GradScalerKept,
    GradScalerRemoved,
    UnresolvedAutocast,
)
from trncodemod.transforms.amp_table import (
    ACTS_WHEREVER_NAMED,
    AUTOCAST,
    BF16,
    CLIP,
    CUDA_AUTOCAST,
    CUDA_PARAMS,
    CUDA_SCALER,
    FP16,
    PARAMS,
    SCALER,
)

from trncodemod.analysis.amp_calls import calls_and_withs, may_name
from trncodemod.analysis.facts import FileFacts, may_resolve
from trncodemod.analysis.loops import dotted, is_optimizer_step, root_name
from trncodemod.analysis.nodes import find
from trncodemod.passes import Pass, per_tree
from trncodemod.rewriting.calls import append_keyword, keyword
from trncodemod.rewriting.statements import DropsStatements, is_dropped
from trncodemod.targets import Target

_FLAG = " --auto-cast=none"
_FLAG_STATEMENT = (
    'os.environ["NEURON_CC_FLAGS"] = os.environ.get("NEURON_CC_FLAGS", "") + "' + _FLAG + '"'
)


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


def _string(node: cst.BaseExpression) -> str | None:
    if isinstance(node, cst.SimpleString) and node.prefix in ("", "u", "U"):
        value = node.evaluated_value
        return value if isinstance(value, str) else None
    return None


def _atom(node: cst.BaseExpression) -> cst.BaseExpression:
    """``node`` safe to put before ``.attr``."""
    if node.lpar or isinstance(node, cst.Name | cst.Attribute | cst.Subscript | cst.Call):
        return node
    return node.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])


class MixedPrecision(DropsStatements, Pass):
    name = "amp"
    rules = RULES
    needles = ("autocast", "GradScaler", "amp")

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._rewritten: list[cst.Call] = []  # autocast calls rewritten, in source order
        self._drop: set[cst.BaseSmallStatement] = set()
        self._backward: set[cst.Call] = set()  # scaler.scale(x).backward() → x.backward()
        self._step: set[cst.Call] = set()  # scaler.step(opt) → opt.step()
        self._scalers: set[cst.Call] = set()  # constructors of removed scalers
        self._disable: set[cst.Call] = set()  # constructors of kept scalers, made disabled
        self._bf16_here = False  # this file's CUDA autocast is all rewritten to bf16
        self._narrow: dict[cst.With, int] = {}  # autocast blocks → first statement to move out
        self._cleanup: set[cst.BaseExpression] = set()  # funcs whose imports may become unused
        self._imported: set[str] = set()  # names bound by an import (see may_name)

    # -- autocast classification -------------------------------------------------------------
    def _dtype(self, node: cst.BaseExpression | None) -> str:
        """'absent', 'fp16', 'bf16' or 'other'."""
        if node is None:
            return "absent"
        names = self.module_names(node)
        if not names.isdisjoint(FP16):
            return "fp16"
        return "bf16" if not names.isdisjoint(BF16) else "other"

    def _bound(self, call: cst.Call, params: tuple[str, ...]) -> dict[str, cst.Arg] | None:
        """Arguments by parameter name; None with ``*args``/``**kwargs`` or unknown keywords."""
        bound: dict[str, cst.Arg] = {}
        for index, arg in enumerate(call.args):
            if arg.star:
                return None
            name = (
                arg.keyword.value if arg.keyword else (params[index] if index < len(params) else "")
            )
            if name not in params:
                return None
            bound[name] = arg
        return bound

    def _autocast_kind(self, call: cst.Call) -> tuple[str, str] | None:
        """('rewrite', '') for CUDA autocast this pass rewrites, ('report', why) for CUDA autocast
        it cannot, None for anything else."""
        cuda_form = self.is_any(call.func, CUDA_AUTOCAST)
        if not cuda_form and not self.is_any(call.func, AUTOCAST):
            return None
        bound = self._bound(call, CUDA_PARAMS if cuda_form else PARAMS)
        if bound is None:
            return ("report", "its arguments are unpacked with */**") if cuda_form else None
        dtype = self._dtype(bound["dtype"].value if "dtype" in bound else None)
        if not cuda_form:
            device = bound.get("device_type")
            value = _string(device.value) if device is not None else None
            if value is None:
                if device is not None and dtype == "fp16":
                    return "report", "its device is computed and its dtype is float16"
                return None
            if value != "cuda":
                return None
        if dtype == "other":
            code = _code(bound["dtype"].value)
            return "report", f"its dtype `{code}` is not a literal float16/bfloat16"
        return "rewrite", ""

    # -- the first stage ------------------------------------------------------------------------
    @classmethod
    def candidate(cls, facts: FileFacts, target: Target) -> bool:
        # CUDA autocast (rewritten, or TRN303 where it cannot be, or used without a call),
        # torch.cuda.amp.custom_fwd/custom_bwd (TRN303), a CUDA GradScaler (TRN305 or TRN306,
        # whatever the autocast): each acts wherever it is named.
        if may_resolve(facts, ACTS_WHEREVER_NAMED):
            return True
        # torch.autocast/torch.amp.autocast is CUDA autocast only with a literal "cuda" device;
        # with a computed one it is reported only when its dtype is float16 (_autocast_kind).
        # The regions, the compiler flag and the imports follow from a rewritten autocast.
        return may_resolve(facts, AUTOCAST) and (
            "cuda" in facts.strings or may_resolve(facts, FP16)
        )

    # -- planning on the original tree ---------------------------------------------------------
    def visit_Module(self, node: cst.Module) -> None:
        # Only a call whose name may resolve to an autocast or a scaler is looked at: the other
        # calls' qualified names, worked out one by one, cost more than the rest of the pass.
        found = per_tree(node, "amp: calls and withs", calls_and_withs)
        self._imported = found.imported
        calls = [c for c in found.calls if may_name(c.func, found.imported)]
        scalers = [c for c in calls if self._is_cuda_scaler(c)]
        if scalers:  # what follows is asked only for scalers (and reads the device analysis)
            kinds = [kind for c in calls if (kind := self._autocast_kind(c)) is not None]
            unresolved = any(kind[0] == "report" for kind in kinds)
            # Kept scalers are disabled only where this file's autocast is made bf16: a scaler
            # beside no autocast serves a float16 model (`GradScaler() if dtype == float16`).
            self._bf16_here = bool(kinds) and not unresolved
            fp16 = self._float16_autocast(calls, node)
            for call in scalers:
                if fp16 is not None and not self._disabled_on_target(call, node):
                    self._keep_scaler(call, fp16, disable=False)  # float16 may need it
                    continue
                self._plan_scaler(call, unresolved)
        for with_node in found.withs:
            item = with_node.items[0].item if len(with_node.items) == 1 else None
            if isinstance(item, cst.Call) and may_name(item.func, found.imported):
                self._plan_region(with_node)

    def _float16_autocast(self, calls: list[cst.Call], module: cst.Module) -> str | None:
        """Why an autocast left as it is may still run in float16 on the target, if one may: its
        dtype is computed (`dtype=ptdtype`) and the device analysis cannot show it is bf16 there
        (nanoGPT's `ptdtype` is, once `torch.cuda.is_bf16_supported()` is resolved). A scaler
        must then stay (issue 11: no scaler removed while an fp16 path remains)."""
        facts = self.device_facts(module)
        for call in calls:
            if not self.is_any(call.func, AUTOCAST | CUDA_AUTOCAST):
                continue
            bound = self._bound(
                call, CUDA_PARAMS if self.is_any(call.func, CUDA_AUTOCAST) else PARAMS
            )
            dtype = bound.get("dtype") if bound else None
            if dtype is None or self._dtype(dtype.value) != "other":
                continue  # literal dtypes are rewritten to bf16 or reported (TRN301, TRN303)
            held = facts.dtype(dtype.value)
            if held != "bfloat16":
                shown = f"`{held}`" if held else "not known"
                return (
                    f"the autocast at line {self._line(call)} computes its dtype "
                    f"(`{_code(dtype.value)}`, {shown} on Trainium), so a float16 path remains (make it bfloat16 first)"
                )
        return None

    def _disabled_on_target(self, call: cst.Call, module: cst.Module) -> bool:
        """``GradScaler(enabled=dtype == "float16")`` where that is False on the target."""
        enabled = next((a for a in call.args if a.keyword and a.keyword.value == "enabled"), None)
        if enabled is None:
            return False
        facts = self.device_facts(module)
        return facts.truth(enabled.value) is False

    def _is_cuda_scaler(self, call: cst.Call) -> bool:
        if self.is_any(call.func, CUDA_SCALER):
            return True
        if not self.is_any(call.func, SCALER):
            return False
        device = next(
            (
                a
                for i, a in enumerate(call.args)
                if (a.keyword is None and i == 0 and not a.star)
                or (a.keyword is not None and a.keyword.value == "device")
            ),
            None,
        )
        return device is None or _string(device.value) == "cuda"

    def _plan_scaler(self, call: cst.Call, unresolved: bool) -> None:
        assign = self.get_metadata(ParentNodeProvider, call, None)
        name = (
            assign.targets[0].target
            if isinstance(assign, cst.Assign) and len(assign.targets) == 1
            else None
        )
        if unresolved:
            self._keep_scaler(
                call, "an autocast in this file could not be rewritten", disable=False
            )
            return
        if not isinstance(name, cst.Name):
            self._keep_scaler(call, "it is not assigned to a plain variable")
            return
        if any(find(a.value, cst.Call) for a in call.args):
            self._keep_scaler(call, "its arguments call functions")
            return
        scope = self.get_metadata(ScopeProvider, name, None)
        assignments = list(scope.assignments[name.value]) if scope is not None else []
        if len(assignments) != 1:
            self._keep_scaler(call, f"`{name.value}` is assigned more than once")
            return
        backward: set[cst.Call] = set()
        step: set[cst.Call] = set()
        drop: set[cst.BaseSmallStatement] = set()
        for access in assignments[0].references:
            use = self._scaler_use(access.node)
            if use is None:
                parent = self.get_metadata(ParentNodeProvider, access.node, None)
                shown = parent if isinstance(parent, cst.Attribute) else access.node
                self._keep_scaler(
                    call, f"`{_code(shown)}` is used at line {self._line(access.node)}"
                )
                return
            kind, node = use
            {"backward": backward, "step": step}.get(kind, set()).add(node)  # type: ignore[arg-type]
            if kind == "drop":
                drop.add(node)  # type: ignore[arg-type]
        message = (
            f"GradScaler `{name.value}` removed: bf16 needs no loss scaling; "
            "scale(loss).backward() → loss.backward(), step(opt) → opt.step(), "
            "update()/unscale_() dropped"
        )
        if not self.report(call, GradScalerRemoved, message, True):
            return
        self._backward |= backward
        self._step |= step
        self._drop |= drop | {assign}
        self._scalers.add(call)
        self._cleanup.add(call.func)

    def _line(self, node: cst.CSTNode) -> int:
        return self.get_metadata(PositionProvider, node).start.line

    def _keep_scaler(self, call: cst.Call, why: str, disable: bool = True) -> None:
        """A scaler whose uses the tool cannot drop. Where the file's CUDA autocast is rewritten
        to bf16 and none may still run in float16 (``disable``), it is kept disabled
        (`enabled=False`): with torch_xla
        installed a CUDA GradScaler stays enabled and reads its inf check on the host every
        step, while a disabled one passes each call through (`scale` returns the loss, `step`
        steps, `state_dict()` is `{}`, `load_state_dict` ignores a saved state)."""
        remove = (
            "remove it by hand (scale(loss).backward() → loss.backward(), step(opt) → "
            "opt.step(), drop update(), unscale_(), get_scale() and its state_dict save/load)"
        )
        enabled = next((a for a in call.args if a.keyword and a.keyword.value == "enabled"), None)
        if enabled is not None and m.matches(enabled.value, m.Name("False")):
            return  # disabled already: every call passes through
        if disable and self._bf16_here and not any(a.star for a in call.args):
            message = (
                f"GradScaler kept because {why}, and disabled (`enabled=False`): bf16 needs no "
                "loss scaling, and with torch_xla installed a CUDA GradScaler stays enabled and "
                "reads its inf check on the host every step (2.2 graph executions a step "
                f"against 1.0); its calls now pass through; {remove}"
            )
            if self.report(call, GradScalerKept, message, True):
                self._disable.add(call)
            return
        self.report(
            call,
            GradScalerKept,
            f"GradScaler kept because {why}: bf16 needs no loss scaling, so {remove}",
            False,
        )

    def _scaler_use(self, name: cst.CSTNode) -> tuple[str, cst.CSTNode] | None:
        attribute = self.get_metadata(ParentNodeProvider, name, None)
        if not (isinstance(attribute, cst.Attribute) and attribute.value is name):
            return None
        call = self.get_metadata(ParentNodeProvider, attribute, None)
        if not (isinstance(call, cst.Call) and call.func is attribute):
            return None
        method = attribute.attr.value
        positional = [a for a in call.args if a.keyword is None and not a.star]
        if method == "scale":
            outer = self.get_metadata(ParentNodeProvider, call, None)
            backward = self.get_metadata(ParentNodeProvider, outer, None) if outer else None
            if (
                len(call.args) == 1
                and len(positional) == 1
                and m.matches(outer, m.Attribute(attr=m.Name("backward")))
                and isinstance(backward, cst.Call)
                and backward.func is outer
                and self._statement(backward) is not None
            ):
                return "backward", backward
            return None
        statement = self._statement(call)
        if statement is None:
            return None
        if method == "step" and positional and call.args[0] is positional[0]:
            return "step", call
        if method in ("update", "unscale_"):
            return "drop", statement
        return None

    def _statement(self, call: cst.Call) -> cst.Expr | None:
        parent = self.get_metadata(ParentNodeProvider, call, None)
        return parent if isinstance(parent, cst.Expr) and parent.value is call else None

    def _plan_region(self, node: cst.With) -> None:
        if len(node.items) != 1 or not isinstance(node.items[0].item, cst.Call):
            return
        kind = self._autocast_kind(node.items[0].item)
        if kind is None or kind[0] != "rewrite":
            return
        if not isinstance(node.body, cst.IndentedBlock):
            if m.findall(node.body, m.Call(func=m.Attribute(attr=m.Name("backward")))):
                self._narrow[node] = -1
            return
        statements = list(node.body.body)
        first = next((i for i, s in enumerate(statements) if self._grad_work(s)), None)
        if first is None:
            return
        exact = (
            first > 0
            and not node.asynchronous
            and all(self._bookkeeping(s) for s in statements[first:])
        )
        self._narrow[node] = first if exact else -1

    def _grad_work(self, statement: cst.CSTNode) -> bool:
        return any(
            isinstance(c, cst.Call)
            and (m.matches(c.func, m.Attribute(attr=m.Name("backward"))) or is_optimizer_step(c))
            for c in find(statement, cst.Call)
        )

    def _bookkeeping_call(self, call: cst.BaseExpression) -> bool:
        if not isinstance(call, cst.Call):
            return False
        if self.is_any(call.func, CLIP) or is_optimizer_step(call):
            return True
        if not isinstance(call.func, cst.Attribute):
            return False
        method = call.func.attr.value
        receiver = (root_name(call.func.value) or "").lower()
        if method in ("backward", "zero_grad", "mark_step", "sync"):
            return True
        if method == "step" and "sched" in (dotted(call.func.value) or "").lower():
            return True
        return method in ("update", "unscale_") and "scaler" in receiver

    def _bookkeeping(self, statement: cst.CSTNode) -> bool:
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                if isinstance(small, cst.Expr) and self._bookkeeping_call(small.value):
                    continue
                if isinstance(small, cst.Assign) and self._bookkeeping_call(small.value):
                    continue
                if isinstance(small, cst.Pass):
                    continue
                return False
            return True
        if isinstance(statement, cst.If):
            if find(statement.test, cst.Call):
                return False
            blocks = [statement.body]
            if statement.orelse is not None:
                blocks.append(statement.orelse.body)
                if isinstance(statement.orelse, cst.If):
                    return self._bookkeeping(statement.orelse) and self._bookkeeping_block(
                        statement.body
                    )
            return all(self._bookkeeping_block(b) for b in blocks)
        return False

    def _bookkeeping_block(self, block: cst.BaseSuite) -> bool:
        if isinstance(block, cst.SimpleStatementSuite):
            return self._bookkeeping(cst.SimpleStatementLine(body=block.body))
        return all(self._bookkeeping(s) for s in block.body)

    # -- rewriting calls ---------------------------------------------------------------------
    def visit_Import(self, node: cst.Import) -> bool:
        return False

    def visit_ImportFrom(self, node: cst.ImportFrom) -> bool:
        return False

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if original_node in self._disable:
            kept = [
                a for a in updated_node.args if not (a.keyword and a.keyword.value == "enabled")
            ]
            if (
                kept
                and len(kept) < len(updated_node.args)
                and kept[-1] is not updated_node.args[-1]
            ):
                kept[-1] = kept[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
            return append_keyword(
                updated_node.with_changes(args=kept), "enabled", cst.Name("False")
            )
        if original_node in self._backward:
            inner = updated_node.func.value  # type: ignore[attr-defined]
            loss = _atom(inner.args[0].value)
            return updated_node.with_changes(
                func=updated_node.func.with_changes(value=loss)  # type: ignore[attr-defined]
            )
        if original_node in self._step:
            optimizer = _atom(updated_node.args[0].value)
            rest = list(updated_node.args[1:])
            return updated_node.with_changes(
                func=cst.Attribute(value=optimizer, attr=cst.Name("step")), args=rest
            )
        if not may_name(original_node.func, self._imported):
            return updated_node  # neither custom_fwd/custom_bwd nor an autocast
        if self.is_any(
            original_node.func, {"torch.cuda.amp.custom_fwd", "torch.cuda.amp.custom_bwd"}
        ):
            self._report_custom(original_node)
            return updated_node
        kind = self._autocast_kind(original_node)
        if kind is None:
            return updated_node
        if kind[0] == "report":
            self.report(
                original_node,
                UnresolvedAutocast,
                f"CUDA autocast is silently inactive on Trainium and {kind[1]}: write "
                f"{self._autocast_expr()} by hand",
                False,
            )
            return updated_node
        return self._rewrite_autocast(original_node, updated_node)

    def _autocast_expr(self) -> str:
        return f'torch.autocast("{self.target.device_string}", dtype=torch.bfloat16)'

    def _rewrite_autocast(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        device = self.target.device_string
        cuda_form = self.is_any(original.func, CUDA_AUTOCAST)
        params = CUDA_PARAMS if cuda_form else PARAMS
        bound = self._bound(updated, params)
        assert bound is not None
        original_bound = self._bound(original, params) or {}
        dtype = self._dtype(original_bound["dtype"].value if "dtype" in original_bound else None)
        # `torch` spelled as the call spells it (`th.autocast` → `th.bfloat16`), else imported.
        alias = self._torch_alias(original.func)
        torch_name = alias or "torch"
        old_dtype = bound.get("dtype")
        if old_dtype is not None and isinstance(old_dtype.value, cst.Attribute):
            bf16: cst.BaseExpression = old_dtype.value.with_changes(attr=cst.Name("bfloat16"))
        else:
            bf16 = cst.parse_expression(f"{torch_name}.bfloat16")
        if cuda_form:
            args = [cst.Arg(cst.SimpleString(f'"{device}"')), keyword("dtype", bf16)]
            for name, arg in bound.items():
                if name != "dtype":
                    args.append(keyword(name, arg.value))
            func = cst.parse_expression(f"{torch_name}.autocast")
            new = updated.with_changes(func=func, args=args)
        else:
            args = []
            for arg in updated.args:
                if arg is bound["device_type"]:
                    quoted = arg.value
                    assert isinstance(quoted, cst.SimpleString)
                    value = quoted.with_changes(
                        value=f"{quoted.prefix}{quoted.quote}{device}{quoted.quote}"
                    )
                    arg = arg.with_changes(value=value)
                    if "dtype" not in bound:
                        args.append(
                            arg.with_changes(
                                comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
                            )
                        )
                        args.append(keyword("dtype", bf16, comma=arg.comma))
                        continue
                elif arg is old_dtype:
                    arg = arg.with_changes(value=bf16)
                args.append(arg)
            new = updated.with_changes(args=args)
        numerics = " (fp16 → bf16 changes numerics)" if dtype in ("fp16", "absent") else ""
        message = (
            f"CUDA autocast is silently inactive on Trainium: {_code(original)} → "
            f"{_code(new)}{numerics}"
        )
        if not self.report(original, CudaAutocast, message, True):
            return updated
        if alias is None and (
            cuda_form or not isinstance(getattr(old_dtype, "value", None), cst.Attribute)
        ):
            self.add_import("torch")
        self._rewritten.append(original)
        self._cleanup.add(original.func)
        return new

    def _torch_alias(self, func: cst.BaseExpression) -> str | None:
        """The name ``torch`` is bound to where ``func`` (``th.autocast``) is written, if any."""
        head = func
        while isinstance(head, cst.Attribute):
            head = head.value
        if isinstance(head, cst.Name) and self.qualified_names(head) == {"torch"}:
            return head.value
        return None

    def _report_custom(self, node: cst.CSTNode) -> None:
        self.report(
            node,
            UnresolvedAutocast,
            "torch.cuda.amp.custom_fwd/custom_bwd are CUDA autocast decorators: use "
            f'torch.amp.custom_fwd(device_type="{self.target.device_string}") / '
            f'torch.amp.custom_bwd(device_type="{self.target.device_string}")',
            False,
        )

    def visit_Decorator(self, node: cst.Decorator) -> None:
        if (
            not isinstance(node.decorator, cst.Call)
            and may_name(node.decorator, self._imported)
            and self.is_any(
                node.decorator, {"torch.cuda.amp.custom_fwd", "torch.cuda.amp.custom_bwd"}
            )
        ):
            self._report_custom(node.decorator)

    def _bare_reference(self, node: cst.Name | cst.Attribute) -> None:
        if not may_name(node, self._imported) or not self.is_any(node, CUDA_AUTOCAST):
            return
        parent = self.get_metadata(ParentNodeProvider, node, None)
        if isinstance(parent, cst.Call) and parent.func is node:
            return
        self.report(
            node,
            UnresolvedAutocast,
            f"CUDA autocast used without a call is silently inactive on Trainium: call "
            f"{self._autocast_expr()} where it is entered",
            False,
        )

    def visit_Name(self, node: cst.Name) -> None:
        self._bare_reference(node)

    def visit_Attribute(self, node: cst.Attribute) -> None:
        self._bare_reference(node)

    # -- regions -----------------------------------------------------------------------------
    def leave_With(
        self, original_node: cst.With, updated_node: cst.With
    ) -> cst.BaseStatement | cst.FlattenSentinel[cst.BaseStatement]:
        first = self._narrow.get(original_node)
        if first is None or original_node.items[0].item not in self._rewritten:
            return updated_node
        if first < 0:
            self.report(
                original_node.items[0].item,
                AutocastRegion,
                "this autocast block also runs the backward pass or optimizer step with "
                "statements the tool cannot move: keep only forward and loss inside it",
                False,
            )
            return updated_node
        statements = list(original_node.body.body)  # type: ignore[union-attr]
        if not self.report(
            statements[first],
            AutocastRegion,
            f"{len(statements) - first} statement(s) from the backward pass on moved out of the "
            "autocast block (forward and loss only)",
            True,
        ):
            return updated_node
        # Lines whose statements were all dropped are gone from the updated body.
        first -= sum(is_dropped(s, self._drop) for s in statements[:first])
        body = list(updated_node.body.body)  # type: ignore[union-attr]
        inner = updated_node.body.with_changes(body=body[:first])  # type: ignore[union-attr]
        return cst.FlattenSentinel([updated_node.with_changes(body=inner), *body[first:]])

    # -- the module: compiler flag and imports -------------------------------------------------
    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        body = list(updated_node.body)
        for func in self._cleanup:
            self._schedule_import_cleanup(func)
        if self._rewritten and self.target.is_xla:
            body = self._with_compiler_flag(original_node, body)
        return updated_node.with_changes(body=body)

    def _with_compiler_flag(self, original: cst.Module, body: list) -> list:
        if any(
            "--auto-cast" in (s.evaluated_value or "")  # type: ignore[operator]
            for s in find(original, cst.SimpleString)
            if isinstance(s, cst.SimpleString) and isinstance(s.evaluated_value, str)
        ):
            return body  # the module already decides the compiler's auto-cast
        anchor = self._rewritten[0]
        nested = [
            a
            for a in find(original, cst.Assign)
            if isinstance(a, cst.Assign) and self._sets_cc_flags(a) and not self._top_level(a)
        ]
        if nested:
            self.report(
                anchor,
                AutoCastCompilerFlag,
                "autocast needs the compiler's auto-cast off, and NEURON_CC_FLAGS is set at "
                f'line {self._line(nested[0])} inside a block: append "{_FLAG}" there',
                False,
            )
            return body
        if not self.run.profile.is_entry_script:
            # Compiler flags are the launched script's business: set at import time in a library
            # module, they would change every program that imports it (issue 12).
            self.report(
                anchor,
                AutoCastCompilerFlag,
                "autocast needs the compiler's auto-cast off; this module is imported, not "
                f'launched, so set it where the job starts: NEURON_CC_FLAGS="$NEURON_CC_FLAGS '
                f'{_FLAG.strip()}" in the launcher, or in the entry script before training',
                False,
            )
            return body
        index = self._flag_index(body)
        message = f'"{_FLAG.strip()}" appended to NEURON_CC_FLAGS after the imports: autocast decides the precision'
        if not self.report(anchor, AutoCastCompilerFlag, message, True):
            return body
        self.add_import("os")
        statement = cst.parse_statement(_FLAG_STATEMENT)
        return [*body[:index], statement, *body[index:]]

    @staticmethod
    def _sets_cc_flags(node: cst.Assign) -> bool:
        return any(
            m.matches(
                t.target,
                m.Subscript(slice=[m.SubscriptElement(m.Index(m.SimpleString()))]),
            )
            and "NEURON_CC_FLAGS" in _code(t.target)
            for t in node.targets
        )

    def _top_level(self, node: cst.Assign) -> bool:
        line = self.get_metadata(ParentNodeProvider, node, None)
        return isinstance(self.get_metadata(ParentNodeProvider, line, None), cst.Module)

    def _flag_index(self, body: list) -> int:
        """After the leading imports, or after the last top-level NEURON_CC_FLAGS assignment."""
        index = 0
        for position, statement in enumerate(body):
            if isinstance(statement, cst.SimpleStatementLine) and all(
                isinstance(s, cst.Import | cst.ImportFrom)
                or (
                    position == 0
                    and isinstance(s, cst.Expr)
                    and isinstance(s.value, cst.SimpleString)
                )
                for s in statement.body
            ):
                index = position + 1
                continue
            break
        for position, statement in enumerate(body):
            if isinstance(statement, cst.SimpleStatementLine) and any(
                isinstance(s, cst.Assign) and self._sets_cc_flags(s) for s in statement.body
            ):
                index = max(index, position + 1)
        return index

    def _schedule_import_cleanup(self, func: cst.BaseExpression) -> None:
        """Remove the import that bound ``func``'s first name once nothing uses it."""
        head = root_name(func)
        if head is None or head == "torch":
            return
        scope = self.get_metadata(ScopeProvider, func if isinstance(func, cst.Name) else func, None)
        if scope is None:
            return
        for assignment in scope[head]:
            node = getattr(assignment, "node", None)
            if isinstance(node, cst.ImportFrom) and not node.relative and node.module is not None:
                if isinstance(node.names, cst.ImportStar):
                    continue
                for alias in node.names:
                    bound = alias.asname.name.value if alias.asname else alias.name.value  # type: ignore[union-attr]
                    if bound == head and isinstance(alias.name, cst.Name):
                        RemoveImportsVisitor.remove_unused_import(
                            self.context,
                            dotted(node.module) or "",
                            alias.name.value,
                            alias.asname.name.value if alias.asname else None,  # type: ignore[union-attr]
                        )
            elif isinstance(node, cst.Import):
                for alias in node.names:
                    if alias.asname is not None and alias.asname.name.value == head:  # type: ignore[union-attr]
                        RemoveImportsVisitor.remove_unused_import(
                            self.context, dotted(alias.name) or "", asname=head
                        )
