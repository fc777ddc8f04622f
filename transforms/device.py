"""Device placement: CUDA device choices become the target's device (reference R1, R13)."""

from __future__ import annotations

import re

import libcst as cst
import libcst.matchers as m
from libcst.metadata import ParentNodeProvider, PositionProvider, ScopeProvider
from trncodemod.transforms.device_rules import (
    RULES,
    AcceleratorDevice,
    CpuTrainingDevice,
    CudaAvailabilityCheck,
    CudaAvailabilityChoice,
    CudaDeviceIndex,
    CudaDeviceString,
    CudaMapLocation,
    CudaMethod,
    DeviceGate,
    DeviceIdentityTest,
    RankAsDevice,
    UnresolvedTrainingDevice,
)

from trncodemod.analysis.device import (
    ACCELERATOR,
    DeviceFacts,
    analyse,
    identity_subject,
    is_cuda_string,
)
from trncodemod.analysis.device_scan import may_place_on_rank
from trncodemod.analysis.facts import FileFacts
from trncodemod.analysis.loops import dotted
from trncodemod.analysis.nodes import walk
from trncodemod.analysis.program import ModuleView
from trncodemod.analysis.training import ACCELERATE, HF_TRAINER, LIGHTNING
from trncodemod.passes import Pass, RawFinding, per_tree
from trncodemod.targets import Target

_CUDA = re.compile(r"cuda(:0)?")
_FRAMEWORKS = frozenset({ACCELERATE, LIGHTNING, HF_TRAINER})
_CUDA_INDEXED = re.compile(r"cuda:\d+")
_STRING_PREFIXES = ("", "u", "U")
# A device read from a tensor's own attributes is where it already lives, not a decision.
_DERIVED = frozenset({"dtype", "is_cuda", "is_cpu", "is_floating_point", "grad"})


# -- the first stage ----------------------------------------------------------------------------
# Calls the analysis evaluates as availability or bf16 checks (gates, TRN021; TRN007 for
# torch.cuda.is_available()) and the torch.accelerator calls leave_Call rewrites or reports
# (TRN004).
_CHECKS = (
    "torch.cuda.is_available",
    "torch.accelerator.is_available",
    "torch.cuda.is_bf16_supported",
    "torch.accelerator.current_accelerator",
)


def _string_value(node: cst.BaseExpression) -> str | None:
    if isinstance(node, cst.SimpleString) and node.prefix in _STRING_PREFIXES:
        value = node.evaluated_value
        return value if isinstance(value, str) else None
    return None


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


def _in_parens_of(outer: cst.BaseExpression, inner: cst.BaseExpression) -> cst.BaseExpression:
    """``inner`` standing in for ``outer``, keeping the parentheses ``outer`` had."""
    if outer.lpar and not inner.lpar:
        return inner.with_changes(lpar=outer.lpar, rpar=outer.rpar)
    return inner


def _with_value(node: cst.SimpleString, value: str) -> cst.SimpleString:
    quote = node.quote
    return node.with_changes(value=f"{node.prefix}{quote}{value}{quote}")


class DevicePlacement(Pass):
    name = "device"
    rules = RULES
    needles = ("cuda", "accelerator", "device", "cpu", "rank", "gpu")

    @classmethod
    def candidate(cls, facts: FileFacts, target: Target) -> bool:
        calls = facts.calls
        # The device analysis finds a training device only at a move: `device=`, `.to(x)` or
        # `.cuda(...)` (`_device_argument`; `.cuda()` is in `calls` as "cuda").
        moves = "device" in facts.identifiers or "to" in calls or "cuda" in calls
        return (
            # visit_Module (an unresolved device or a skipped move, TRN026) and the CPU device
            # of leave_SimpleString/leave_Call (TRN022, `_cpu_allowed`) need a training file
            # with a move.
            (facts.profile.trains and moves)
            # "cuda", "cuda:0", f"cuda:{rank}", "cuda:%d" % rank: every string rewrite or report
            # (TRN002/003/005/006/023: a device string, torch.device("cuda"), a
            # cuda-if-available choice, an identity test, map_location, --device defaults, and
            # the index devices of rank_values) starts at one.
            or any(s.startswith("cuda") for s in facts.strings)
            # leave_Call: `.cuda(...)` (TRN001/TRN006/TRN024).
            or "cuda" in calls
            # Availability and bf16 checks (gates TRN021, TRN007), torch.accelerator (TRN004).
            or facts.calls_one_of(*_CHECKS)
            # _leave_choice: `"xla" if test else "cpu"` (a choice migrated already, TRN003).
            or (target.device_string in facts.strings and "cpu" in facts.strings)
            # A device index as the device (rank_devices / rank_values, TRN024).
            or (moves and may_place_on_rank(facts))
        )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.facts = DeviceFacts()
        self._true: set[int] = set()  # ids of the `True` this pass wrote for a resolved check
        self._hoist: dict[cst.CSTNode, str] = {}  # loop -> the device variable bound before it

    # -- the training device (trncodemod.analysis.device) ------------------------------------
    @classmethod
    def asked_by(cls, program: ModuleView) -> bool:
        return bool(program.decisions)  # a device decided here, for modules that train

    def visit_Module(self, node: cst.Module) -> None:
        self.facts = per_tree(node, "device", lambda module: analyse(module, self.module_names))
        program = self.run.program
        if program.is_test:
            return  # a test is not a training program: its CPU reference run is deliberate
        self._report_decisions(program)
        profile = self.run.profile
        if not profile.trains or set(profile.launchers) & _FRAMEWORKS:
            return  # accelerate, Lightning and the HF Trainer choose the device themselves
        for blame, why in self.facts.unresolved.items():
            if self.get_metadata(PositionProvider, blame, None) is None:
                continue  # a node the analysis made up (the call mp.spawn makes)
            if not self._decided_here(blame, program):
                continue
            self.report(
                blame,
                UnresolvedTrainingDevice,
                f"the training device is decided by `{_code(blame)}`, and {why}: on Trainium "
                f'it must be {self.target.device.expr} ("{self.target.device_string}"), or '
                "the script trains on the CPU; set it here, or make sure it is "
                f'"{self.target.device_string}" in every run',
                False,
            )

        for test, why in self.facts.skipped_moves.items():
            self.report(
                test,
                UnresolvedTrainingDevice,
                f"no move to the device runs on Trainium as the script stands: {why}, so the "
                "model and batches stay on the CPU; make it true on the Trainium host (pass the "
                f"flag) or move them to {self.target.device.expr} unconditionally",
                False,
            )

    def _decided_here(self, blame: cst.CSTNode, program: ModuleView) -> bool:
        """Whether the device is decided by ``blame`` in this file: not by the caller of a
        function whose parameter it is, not derived from where a tensor lives or its dtype, and
        not by a name imported from another given module (reported there, once)."""
        if blame in self.facts.parameters:
            return False
        for inner in walk(blame):
            if isinstance(inner, cst.Attribute) and inner.attr.value in _DERIVED:
                return False
        root = blame.func if isinstance(blame, cst.Call) else blame
        return (dotted(root) or "").split(".", 1)[0] not in program.imported_devices

    def _report_decisions(self, program: ModuleView) -> None:
        """A device decided in this module that modules which train import: one blocker here,
        their uses as related places (not one at each use)."""
        rule = UnresolvedTrainingDevice
        for name, (line, column, why, uses) in sorted(program.decisions.items()):
            if not self.enabled(rule) or self.run.suppressions.covers(line, rule.code):
                continue
            where = ", ".join(uses[:3]) + (f" and {len(uses) - 3} more" if len(uses) > 3 else "")
            message = (
                f"the training device of the modules that import `{name}` is decided here: "
                f"{why}; on Trainium it must be {self.target.device.expr} "
                f'("{self.target.device_string}"), or they train on the CPU (used at {where})'
            )
            self.findings.append(RawFinding(line, column, rule, message, False, tuple(uses)))

    def _true_name(self) -> cst.Name:
        true = cst.Name("True")
        self._true.add(id(true))
        return true

    def _is_true(self, node: cst.CSTNode) -> bool:
        return id(node) in self._true

    def _resolves(self, call: cst.Call) -> bool:
        """An availability check this pass makes true: it decides the device on the target."""
        if call not in self.facts.gates:
            return False
        if self.is_any(call.func, {"torch.accelerator.is_available"}) and not self.target.is_xla:
            return False  # TorchNeuron registers as the accelerator: it is true as it is
        parent = self.get_metadata(ParentNodeProvider, call, None)
        # `"cuda" if torch.cuda.is_available() else "cpu"` is rewritten whole (TRN003).
        return not (isinstance(parent, cst.IfExp) and self._kind(parent) == "choice")

    def _gate(self, original: cst.Call) -> cst.BaseExpression | None:
        if self.is_any(original.func, {"torch.cuda.is_bf16_supported"}):
            message = (
                "torch.cuda.is_bf16_supported() is False under torch_xla; Trainium computes in "
                "bf16 → True"
            )
        else:
            message = (
                f"{_code(original)} decides the training device and is False on Trainium → "
                "True (the accelerator is there)"
            )
        if self.report(original, DeviceGate, message, True):
            return self._true_name()
        return None

    def _device_for(self, original: cst.CSTNode) -> cst.BaseExpression:
        """The target's device expression for a rewrite at ``original``; inside a loop, a
        variable bound once before the outermost loop, so no step builds the device again."""
        loop = self._outermost_loop(original)
        if loop is None:
            return self.emit(self.target.device)
        name = self._hoist.get(loop) or self._device_before(loop)
        if name is None:
            name = self._hoist[loop] = self._free_name(loop)
        return cst.Name(name)

    def _device_before(self, loop: cst.CSTNode) -> str | None:
        """A plain variable of the loop's own scope that holds the target's device and is bound
        only before the loop (or is a parameter that receives it): reused as it is."""
        scope = self.get_metadata(ScopeProvider, loop, None)
        evaluator = self.facts.evaluator
        if scope is None or evaluator is None:
            return None
        start = self.get_metadata(PositionProvider, loop).start.line
        for name in sorted(n for n in self.facts.device_names if "." not in n):
            if evaluator.value(cst.Name(name)).kinds != {ACCELERATOR}:
                continue
            assignments = [a for a in scope.assignments[name] if a.scope is scope]
            if assignments and all(
                isinstance(a.node, cst.CSTNode)
                and self.get_metadata(PositionProvider, a.node).start.line < start
                for a in assignments
            ):
                return name
        return None

    def _outermost_loop(self, node: cst.CSTNode) -> cst.CSTNode | None:
        loop = None
        current = self.get_metadata(ParentNodeProvider, node, None)
        while current is not None and not isinstance(
            current, cst.FunctionDef | cst.ClassDef | cst.Lambda | cst.Module
        ):
            if isinstance(current, cst.For | cst.While):
                loop = current
            elif isinstance(current, cst.CompFor):
                return None  # a comprehension: no statement to bind the device before
            current = self.get_metadata(ParentNodeProvider, current, None)
        return loop

    def _free_name(self, loop: cst.CSTNode) -> str:
        scope = self.get_metadata(ScopeProvider, loop, None)
        base = f"{self.target.device_string}_device"
        for candidate in ("device", base, *(f"{base}_{i}" for i in range(2, 100))):
            if scope is None or (candidate not in scope and not scope.accesses[candidate]):
                return candidate
        return base

    def _hoisted(self, original: cst.CSTNode, updated: cst.For | cst.While):
        name = self._hoist.get(original)
        if name is None:
            return updated
        assign = cst.SimpleStatementLine(
            [cst.Assign([cst.AssignTarget(cst.Name(name))], self.emit(self.target.device))],
            leading_lines=updated.leading_lines,
        )
        return cst.FlattenSentinel([assign, updated.with_changes(leading_lines=())])

    def leave_For(self, original_node: cst.For, updated_node: cst.For):
        return self._hoisted(original_node, updated_node)

    def leave_While(self, original_node: cst.While, updated_node: cst.While):
        return self._hoisted(original_node, updated_node)

    def leave_BooleanOperation(
        self, original_node: cst.BooleanOperation, updated_node: cst.BooleanOperation
    ) -> cst.BaseExpression:
        left, right = updated_node.left, updated_node.right
        if isinstance(updated_node.operator, cst.And):
            if self._is_true(right):
                return _in_parens_of(updated_node, left)
            if self._is_true(left):
                return _in_parens_of(updated_node, right)
        elif self._is_true(left) or self._is_true(right):
            return self._true_name()
        return updated_node

    def leave_If(self, original_node: cst.If, updated_node: cst.If):
        if not self._is_true(updated_node.test):
            return updated_node
        parent = self.get_metadata(ParentNodeProvider, original_node, None)
        if isinstance(parent, cst.If) and parent.orelse is original_node:
            return updated_node  # an `elif`: its body cannot stand in for it
        body = updated_node.body
        if isinstance(body, cst.IndentedBlock):
            statements = list(body.body)
        else:
            statements = [cst.SimpleStatementLine(body.body)]
        if not statements:
            return updated_node
        statements[0] = statements[0].with_changes(
            leading_lines=[*updated_node.leading_lines, *statements[0].leading_lines]
        )
        return cst.FlattenSentinel(statements)

    def _cpu_allowed(self) -> bool:
        profile = self.run.profile
        return profile.trains and profile.is_entry_script

    def leave_SimpleString(
        self, original_node: cst.SimpleString, updated_node: cst.SimpleString
    ) -> cst.BaseExpression:
        if original_node in self.facts.cpu_values and self._cpu_allowed():
            if self.report(
                original_node,
                CpuTrainingDevice,
                f'the model and batches are moved to "cpu" in a training script → '
                f'"{self.target.device_string}"',
                True,
            ):
                return self._device_string(updated_node)
        return updated_node

    def _rank_device(self, original: cst.BaseExpression, code: str) -> cst.BaseExpression | None:
        if self.report(
            original,
            RankAsDevice,
            f"`{code}` is a CUDA device index; on Trainium each process has one device → "
            f"{self.target.device.expr}",
            True,
        ):
            return self._device_for(original)
        return None

    # -- classification ----------------------------------------------------------------------
    def _is_cuda_available(self, node: cst.BaseExpression) -> bool:
        return (
            isinstance(node, cst.Call)
            and not node.args
            and self.is_any(node.func, {"torch.cuda.is_available"})
        )

    def _kind(self, node: cst.BaseExpression) -> str | None:
        """What a device value is: 'cuda', 'indexed', 'choice' (cuda-available test), 'other-choice'."""
        value = _string_value(node)
        if value is not None:
            if _CUDA.fullmatch(value):
                return "cuda"
            return "indexed" if _CUDA_INDEXED.fullmatch(value) else None
        if isinstance(node, cst.FormattedString):
            head = node.parts[0] if node.parts else None
            if isinstance(head, cst.FormattedStringText) and head.value.startswith("cuda"):
                return "indexed"
            return None
        if (
            isinstance(node, cst.Call)
            and node.args
            and len(node.args) == 1
            and self.is_any(node.func, {"torch.device"})
            and self._kind(node.args[0].value) == "cuda"
        ):
            return "cuda"
        if isinstance(node, cst.IfExp):
            body, orelse = _string_value(node.body), _string_value(node.orelse)
            if body is not None and _CUDA.fullmatch(body) and orelse == "cpu":
                return "choice" if self._is_cuda_available(node.test) else "other-choice"
        return None

    def _device_role(self, arg: cst.Arg) -> str | None:
        """The role of ``arg`` (an original node) in its call: 'device', 'map_location' or None."""
        call = self.get_metadata(ParentNodeProvider, arg, None)
        if not isinstance(call, cst.Call):
            return None
        keyword = arg.keyword.value if arg.keyword else None
        if keyword == "device":
            return "device"
        if keyword == "map_location":
            return "map_location"
        positional = [a for a in call.args if a.keyword is None and not a.star]
        first = bool(positional) and positional[0] is arg
        if not first:
            return None
        if isinstance(call.func, cst.Attribute) and call.func.attr.value == "to":
            return "device"
        if self.is_any(call.func, {"torch.device", "torch.set_default_device"}):
            return "device"
        return None

    def _reference_roles(self, target: cst.Name) -> list[str | None]:
        scope = self.get_metadata(ScopeProvider, target, None)
        if scope is None:
            return [None]
        roles: list[str | None] = []
        for assignment in scope.assignments[target.value]:
            if getattr(assignment, "node", None) is not target:
                continue
            for access in assignment.references:
                parent = self.get_metadata(ParentNodeProvider, access.node, None)
                if isinstance(parent, cst.ComparisonTarget):
                    parent = self.get_metadata(ParentNodeProvider, parent, None)
                if isinstance(parent, cst.Comparison) and self._compares_identity(parent):
                    roles.append("device")  # rewritten to the target's device type (TRN023)
                    continue
                roles.append(self._device_role(parent) if isinstance(parent, cst.Arg) else None)
        return roles

    # -- rewriting ---------------------------------------------------------------------------
    def _device_string(self, node: cst.SimpleString) -> cst.SimpleString:
        if self.target.is_xla:
            self.add_import("torch_xla")  # registers the "xla" device type
        return _with_value(node, self.target.device_string)

    def _rewrite_value(self, original: cst.BaseExpression, updated: cst.BaseExpression, role: str):
        kind = self._kind(original)
        if kind is None or (isinstance(original, cst.Call) and role != "map_location"):
            return updated  # torch.device(...) calls are rewritten on their own
        if kind == "indexed":
            self.report(
                original,
                CudaDeviceIndex,
                "device with an explicit CUDA index; use the "
                "process's default device on Trainium (one NeuronCore per process)",
                False,
            )
            return updated
        if role == "map_location":
            if kind == "other-choice":
                return updated
            message = 'map_location "cuda" → "cpu"; load_state_dict() copies to the device'
            if self.report(original, CudaMapLocation, message, True):
                return cst.SimpleString('"cpu"')
            return updated
        if kind == "cuda":
            if self.report(
                original, CudaDeviceString, f'"cuda" → "{self.target.device_string}"', True
            ):
                assert isinstance(updated, cst.SimpleString)
                return self._device_string(updated)
        return updated  # choices are rewritten in leave_IfExp

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        func = original_node.func
        if self._resolves(original_node):
            resolved = self._gate(original_node)
            if resolved is not None:
                return resolved
        if original_node in self.facts.rank_values:
            return self._rank_device(original_node, _code(original_node)) or updated_node
        if original_node in self.facts.cpu_values and self._cpu_allowed():
            if self.report(
                original_node,
                CpuTrainingDevice,
                f"the model and batches are moved to the CPU in a training script → "
                f"{self.target.device.expr}",
                True,
            ):
                return self.emit(self.target.device)
        if self._is_cuda_available(original_node):
            parent = self.get_metadata(ParentNodeProvider, original_node, None)
            if not (
                isinstance(parent, cst.IfExp)
                and parent.test is original_node
                and self._kind(parent) == "choice"
            ):
                self.report(
                    original_node,
                    CudaAvailabilityCheck,
                    "torch.cuda.is_available() is "
                    "False on Trainium: the code it guards takes the CPU path",
                    False,
                )
            return updated_node
        if (
            isinstance(func, cst.Attribute)
            and func.attr.value == "cuda"
            and not self.is_any(func, {"torch.cuda"})
        ):
            return self._rewrite_cuda_method(original_node, updated_node)
        if self.is_any(func, {"torch.device"}):
            if self._role_of_expression(original_node) == "map_location":
                return updated_node  # the whole value becomes "cpu"
            replaced = self._rewrite_torch_device(original_node)
            if replaced is not None:
                return replaced
        if self.is_any(func, {"torch.accelerator.current_accelerator"}) and self.target.is_xla:
            if self.report(
                original_node,
                AcceleratorDevice,
                f"torch.accelerator is not the XLA device → {self.target.device.expr}",
                True,
            ):
                return self.emit(self.target.device)
            return updated_node
        if self.is_any(func, {"torch.accelerator.is_available"}) and self.target.is_xla:
            self.report(
                original_node,
                AcceleratorDevice,
                "torch.accelerator.is_available() is "
                "False under torch_xla: do not let it choose the device",
                False,
            )
            return updated_node
        if isinstance(func, cst.Attribute) and func.attr.value == "add_argument":
            return self._rewrite_device_option(original_node, updated_node)
        new_args = []
        for original_arg, updated_arg in zip(original_node.args, updated_node.args, strict=False):
            value = original_arg.value
            if value in self.facts.rank_devices or value in self.facts.rank_values:
                device = self._rank_device(value, _code(value))
                if device is not None:
                    new_args.append(updated_arg.with_changes(value=device))
                    continue
            role = self._device_role(original_arg)
            if role is not None:
                value = self._rewrite_value(original_arg.value, updated_arg.value, role)
                updated_arg = updated_arg.with_changes(value=value)
            new_args.append(updated_arg)
        return updated_node.with_changes(args=new_args)

    def _rewrite_cuda_method(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        allowed = {"non_blocking", "memory_format"}
        first = original.args[0] if original.args else None
        if first is not None and first.keyword is None and first.value in self.facts.rank_devices:
            device = self._rank_device(original, _code(original))
            if device is None:
                return updated
            assert isinstance(updated.func, cst.Attribute)
            rest = list(updated.args[1:])
            return updated.with_changes(
                func=updated.func.with_changes(attr=cst.Name("to")),
                args=[updated.args[0].with_changes(value=device), *rest],
            )
        if any(arg.keyword is None or arg.keyword.value not in allowed for arg in original.args):
            self.report(
                original,
                CudaDeviceIndex,
                ".cuda() with a device index: use the process's default device on Trainium",
                False,
            )
            return updated
        if not self.report(original, CudaMethod, f".cuda() → .to({self.target.device.expr})", True):
            return updated
        assert isinstance(updated.func, cst.Attribute)
        device_arg = cst.Arg(self._device_for(original))
        if updated.args:
            device_arg = device_arg.with_changes(
                comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
            )
        return updated.with_changes(
            func=updated.func.with_changes(attr=cst.Name("to")),
            args=[device_arg, *updated.args],
        )

    def _rewrite_torch_device(self, original: cst.Call) -> cst.BaseExpression | None:
        if not original.args or self._role_of_expression(original) == "map_location":
            return None
        kind = self._kind(original.args[0].value)
        if kind in ("cuda", "choice") and len(original.args) > 1:
            self.report(
                original,
                CudaDeviceIndex,
                'torch.device("cuda", index): use the process\'s default device on Trainium',
                False,
            )
            return original
        if kind == "cuda" and original.args[0].keyword is None:
            rule, message = CudaDeviceString, f'torch.device("cuda") → {self.target.device.expr}'
        elif kind == "choice":
            rule, message = (
                CudaAvailabilityChoice,
                (f"cuda-if-available device choice → {self.target.device.expr}"),
            )
        else:
            return None
        if self.report(original, rule, message, True):
            return self.emit(self.target.device)
        return original

    def _rewrite_device_option(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        names = [_string_value(a.value) for a in original.args if a.keyword is None]
        if not any(name and name.lstrip("-").replace("-", "_") == "device" for name in names):
            return updated
        new_args = []
        for original_arg, updated_arg in zip(original.args, updated.args, strict=False):
            keyword = original_arg.keyword.value if original_arg.keyword else None
            if keyword == "default" and self._kind(original_arg.value) == "cuda":
                if self.report(
                    original_arg.value,
                    CudaDeviceString,
                    f'--device default "cuda" → "{self.target.device_string}"',
                    True,
                ):
                    updated_arg = updated_arg.with_changes(
                        value=self._device_string(updated_arg.value)  # type: ignore[arg-type]
                    )
            elif keyword == "choices" and isinstance(updated_arg.value, (cst.List, cst.Tuple)):
                elements = []
                for element in updated_arg.value.elements:
                    if _string_value(element.value) in ("cuda",) and m.matches(
                        element.value, m.SimpleString()
                    ):
                        element = element.with_changes(
                            value=_with_value(element.value, self.target.device_string)  # type: ignore[arg-type]
                        )
                    elements.append(element)
                updated_arg = updated_arg.with_changes(
                    value=updated_arg.value.with_changes(elements=elements)
                )
            new_args.append(updated_arg)
        return updated.with_changes(args=new_args)

    def leave_IfExp(self, original_node: cst.IfExp, updated_node: cst.IfExp) -> cst.BaseExpression:
        result = self._leave_choice(original_node, updated_node)
        if isinstance(result, cst.IfExp) and self._is_true(result.test):
            return _in_parens_of(result, result.body)
        return result

    def _identity_choice(self, node: cst.IfExp) -> bool:
        """``"cuda" if "cuda" in device else "cpu"``: a device type chosen by a device test."""
        test = node.test
        if not (isinstance(test, cst.Comparison) and len(test.comparisons) == 1):
            return False
        operands = (test.left, test.comparisons[0].comparator)
        return any(is_cuda_string(o) for o in operands) and any(
            identity_subject(o) is not None for o in operands
        )

    def _decided(self, test: cst.BaseExpression) -> bool:
        """The test's value on the target is known, or a blocker already names what decides it."""
        return self.facts.known_tests.get(test) is True or (
            self.run.profile.trains and bool(self.facts.unresolved or self.facts.skipped_moves)
        )

    def _leave_choice(self, original_node: cst.IfExp, updated_node: cst.IfExp):
        if (
            is_cuda_string(original_node.body)
            and _string_value(original_node.orelse) == "cpu"
            and self._identity_choice(original_node)
        ):
            if self.report(
                original_node.body,
                DeviceIdentityTest,
                f'device type chosen by a device test: "cuda" → "{self.target.device_string}"',
                True,
            ):
                assert isinstance(updated_node.body, cst.SimpleString)
                return updated_node.with_changes(body=self._device_string(updated_node.body))
            return updated_node
        kind = self._kind(original_node)
        if kind is None and _string_value(original_node.body) == self.target.device_string:
            if _string_value(original_node.orelse) == "cpu":
                kind = "migrated-choice"
        if kind in ("other-choice", "migrated-choice") and not self._decided(original_node.test):
            condition = cst.Module([]).code_for_node(original_node.test)
            self.report(
                original_node,
                CudaAvailabilityChoice,
                f"device choice depends on "
                f"`{condition}`: make sure it is true on the Trainium host (a "
                "torch.cuda.is_available() behind it is False there)",
                False,
            )
        if kind == "other-choice":
            role = self._role_of_expression(original_node)
            if role == "device" or self._assigned_to_device_name(original_node):
                assert isinstance(updated_node.body, cst.SimpleString)
                if self.report(
                    original_node.body,
                    CudaDeviceString,
                    f'"cuda" → "{self.target.device_string}"',
                    True,
                ):
                    return updated_node.with_changes(body=self._device_string(updated_node.body))
            return updated_node
        if kind != "choice":
            return updated_node
        parent = self.get_metadata(ParentNodeProvider, original_node, None)
        if isinstance(parent, cst.Arg):
            grandparent = self.get_metadata(ParentNodeProvider, parent, None)
            if isinstance(grandparent, cst.Call) and self.is_any(
                grandparent.func, {"torch.device"}
            ):
                return updated_node  # the whole torch.device(...) call is rewritten
            if self._device_role(parent) == "map_location":
                return updated_node  # handled as a map_location value
        message = f'cuda-if-available device choice → "{self.target.device_string}"'
        if self.report(original_node, CudaAvailabilityChoice, message, True):
            assert isinstance(updated_node.body, cst.SimpleString)
            return self._device_string(updated_node.body)
        return updated_node

    def _role_of_expression(self, node: cst.BaseExpression) -> str | None:
        parent = self.get_metadata(ParentNodeProvider, node, None)
        return self._device_role(parent) if isinstance(parent, cst.Arg) else None

    def _assigned_to_device_name(self, node: cst.BaseExpression) -> bool:
        parent = self.get_metadata(ParentNodeProvider, node, None)
        if not (isinstance(parent, cst.Assign) and len(parent.targets) == 1):
            return False
        target = parent.targets[0].target
        if not isinstance(target, cst.Name):
            return False
        roles = self._reference_roles(target)
        return bool(roles) and all(role == "device" for role in roles)

    def leave_Comparison(
        self, original_node: cst.Comparison, updated_node: cst.Comparison
    ) -> cst.BaseExpression:
        # `device.type == "cuda"`, `"cuda" in str(device)`: False on Trainium, so whatever the
        # test enables (AMP's `enabled=`, pinned memory, a fast path) silently switches off.
        identity = self._identity_test(original_node, updated_node)
        if identity is not None:
            return identity
        operands = [original_node.left, *(t.comparator for t in original_node.comparisons)]
        if any(
            _string_value(o) is not None and _CUDA.fullmatch(_string_value(o) or "")
            for o in operands
        ):
            self.report(
                original_node,
                CudaDeviceIndex,
                'compares a device with "cuda": False on Trainium, so what it enables (e.g. '
                "autocast's enabled=, pinned memory) is off; test for the target device instead",
                False,
            )
        return updated_node

    @staticmethod
    def _identity_side(node: cst.Comparison) -> str | None:
        """Which side of ``device.type == "cuda"`` holds the string, when it is such a test."""
        if len(node.comparisons) != 1:
            return None
        left, right = node.left, node.comparisons[0].comparator
        if is_cuda_string(left) and identity_subject(right) is not None:
            return "left"
        if is_cuda_string(right) and identity_subject(left) is not None:
            return "right"
        return None

    def _holds_kept_cuda_string(self, node: cst.Comparison, string_side: str) -> bool:
        """``DEVICE == "cuda"`` where ``DEVICE = "cuda"`` stays as it is (also used as text):
        the test must stay as true as it was."""
        other = node.comparisons[0].comparator if string_side == "left" else node.left
        subject = identity_subject(other)
        if not isinstance(subject, cst.Name):
            return False
        values = self.bound_values(subject) or []
        scope = self.get_metadata(ScopeProvider, subject, None)
        if scope is None or not any(is_cuda_string(v) for v in values):
            return False
        for assignment in scope[subject.value]:
            target = getattr(assignment, "node", None)
            if isinstance(target, cst.Name):
                roles = self._reference_roles(target)
                if not all(role == "device" for role in roles):
                    return True
        return False

    def _compares_identity(self, node: cst.Comparison) -> bool:
        return self._identity_side(node) is not None and self.enabled(DeviceIdentityTest)

    def _identity_test(
        self, original: cst.Comparison, updated: cst.Comparison
    ) -> cst.Comparison | None:
        """``device.type == "cuda"`` → ``device.type == "xla"`` (TRN023)."""
        string_side = self._identity_side(original)
        if string_side is None or self._holds_kept_cuda_string(original, string_side):
            return None
        new = self.target.device_string
        if not self.report(
            original,
            DeviceIdentityTest,
            f'compares the device with "cuda", False on Trainium → "{new}"',
            True,
        ):
            return None
        if string_side == "left":
            assert isinstance(updated.left, cst.SimpleString)
            return updated.with_changes(left=self._device_string(updated.left))
        target = updated.comparisons[0]
        assert isinstance(target.comparator, cst.SimpleString)
        return updated.with_changes(
            comparisons=[target.with_changes(comparator=self._device_string(target.comparator))]
        )

    def leave_Assign(self, original_node: cst.Assign, updated_node: cst.Assign) -> cst.Assign:
        value = original_node.value
        if value in self.facts.rank_values and not isinstance(value, cst.Call):
            device = self._rank_device(value, _code(value))
            if device is not None:
                return updated_node.with_changes(value=device)
        # Only a plain string; `torch.device("cuda")` is rewritten as a call in leave_Call.
        if not isinstance(original_node.value, cst.SimpleString):
            return updated_node
        if self._kind(original_node.value) != "cuda":
            return updated_node
        roles = (
            self._reference_roles(original_node.targets[0].target)
            if len(original_node.targets) == 1
            and isinstance(original_node.targets[0].target, cst.Name)
            else []
        )
        if "device" not in roles:
            return updated_node  # a string that is never used as a device is just text
        if all(role == "device" for role in roles):
            if self.report(
                original_node.value,
                CudaDeviceString,
                f'"cuda" → "{self.target.device_string}" (used only as a device)',
                True,
            ):
                assert isinstance(updated_node.value, cst.SimpleString)
                return updated_node.with_changes(value=self._device_string(updated_node.value))
            return updated_node
        self.report(
            original_node.value,
            CudaDeviceIndex,
            '"cuda" is stored in a variable that '
            "is also used outside device arguments; change it by hand",
            False,
        )
        return updated_node
