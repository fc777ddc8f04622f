"""torch_xla API history: code already written for torch_xla is brought up to the names of the
chosen target, and what the target removed is reported ([xla-model, xla-api, neuron-pt25]). The
history itself is
data, in ``data/torch_xla_apis.toml``; this module interprets it. Beside it, the one torch API
the XLA device rejects where CUDA and the CPU take it: `torch.inference_mode()`, which becomes
`torch.no_grad()` ([measured-inference-mode])."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import cache
from importlib import resources

import libcst as cst
import libcst.matchers as m
from libcst.codemod.visitors import AddImportsVisitor, RemoveImportsVisitor
from libcst.metadata import ParentNodeProvider, ScopeProvider

from trncodemod.analysis.facts import FileFacts
from trncodemod.analysis.loops import dotted
from trncodemod.findings import Rule, Safety, Severity
from trncodemod.passes import Pass
from trncodemod.targets import Api, Target

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib


class RemovedXlaApi(Rule):
    """## What it does
    Rewrites `xm.xrt_world_size()` to `xr.world_size()` and `xm.get_ordinal()` to
    `xr.global_ordinal()` (with `import torch_xla.runtime as xr`) on every XLA target. A call
    with arguments (`defval=`), a function imported by name (`from torch_xla.core.xla_model
    import get_ordinal`) and a reference that is not called are reported and left alone.

    ## Why
    Both were deprecated in torch-xla 2.5 and removed in 2.7 (`hasattr` is False on 2.9,
    [measured-removed-apis]); the script fails with `AttributeError`. `torch_xla.runtime` has had
    `world_size()` and `global_ordinal()` since 2.1, so the new names work on every target
    ([xla-model, xla-api, neuron-guide, neuron-pt25]).

    ## Example
    ```python
    import torch_xla.core.xla_model as xm
    sampler = DistributedSampler(ds, num_replicas=xm.xrt_world_size(), rank=xm.get_ordinal())
    ```

    ## Use instead
    ```python
    import torch_xla.runtime as xr
    sampler = DistributedSampler(ds, num_replicas=xr.world_size(), rank=xr.global_ordinal())
    ```
    """

    code = "TRN011"
    name = "removed-xla-runtime-api"
    summary = "`xm.xrt_world_size()`/`xm.get_ordinal()` → `xr.world_size()`/`xr.global_ordinal()`"
    safety = Safety.SAFE
    severity = Severity.ERROR
    sources = ("xla-model", "xla-api", "neuron-guide", "neuron-pt25", "measured-removed-apis")


class DeprecatedXlaApi(Rule):
    """## What it does
    On targets at torch-xla 2.8 or later (`xla-2.9`), rewrites `xm.xla_device()` to
    `torch_xla.device()` and `xm.mark_step()` to `torch_xla.sync()`, keeping the arguments
    (`xla_device(n)` → `device(n)`; `devkind=`, which 2.9 ignores, is dropped;
    `mark_step(wait, reset_scope)` → `sync(wait, reset_scope)`). The `xm` import is removed when
    nothing else uses it. Older targets keep the old names, which they do not deprecate.

    ## Why
    torch-xla 2.8 marks both `@deprecated("Use torch_xla.device instead")` /
    `("Use torch_xla.sync instead")`, and Neuron's 2.8 notes ask to switch ([xla-model, xla-api]).
    The old functions only forward to the new ones in 2.9.

    ## Example
    ```python
    device = xm.xla_device()
    xm.mark_step()
    ```

    ## Use instead
    ```python
    device = torch_xla.device()
    torch_xla.sync()
    ```
    """

    code = "TRN012"
    name = "deprecated-xla-api"
    summary = "`xm.xla_device()`/`xm.mark_step()` → `torch_xla.device()`/`torch_xla.sync()` (2.8+)"
    safety = Safety.SAFE
    severity = Severity.WARNING
    sources = ("xla-model", "xla-api")


class MovedXlaModule(Rule):
    """## What it does
    On targets at torch-xla 2.5 or later, rewrites the import of
    `torch_xla.experimental.xla_sharding` (and `xla_sharded_tensor`) to its new home
    `torch_xla.distributed.spmd.*`, in the forms `import old as alias` and
    `from old import name`. An import without an alias (whose uses spell the old path) is
    reported.

    ## Why
    The SPMD API moved to `torch_xla.distributed.spmd` in 2.2 and the old path is gone from later
    releases (absent from the 2.9 wheel, measured; [xla-model, neuron-pt25, measured-removed-apis]).

    ## Example
    ```python
    import torch_xla.experimental.xla_sharding as xs
    ```

    ## Use instead
    ```python
    import torch_xla.distributed.spmd.xla_sharding as xs
    ```
    """

    code = "TRN013"
    name = "moved-xla-module"
    summary = "`torch_xla.experimental.xla_sharding` → `torch_xla.distributed.spmd.xla_sharding`"
    safety = Safety.SAFE
    severity = Severity.ERROR
    sources = ("xla-model", "neuron-pt25", "measured-removed-apis")


class RemovedXlaName(Rule):
    """## What it does
    Reports modules and names that the target's torch-xla no longer has:
    `torch_xla.experimental.pjrt` and `xr.using_pjrt()` (removed in 2.5),
    `torch_xla.amp.GradScaler` (removed in 2.9). Each finding says what to use instead. Nothing
    is rewritten: the replacements are not the same call.

    ## Why
    The import or attribute access fails on the target ([xla-model, xla-api, neuron-pt25]).

    ## Example
    ```python
    from torch_xla.amp import GradScaler
    ```

    ## Use instead
    ```python
    # bf16 autocast needs no gradient scaling ([neuron-bf16, xla-amp])
    ```
    """

    code = "TRN014"
    name = "removed-xla-name"
    summary = "torch_xla module or name removed on the target (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.ERROR
    sources = ("xla-model", "xla-api", "neuron-pt25", "neuron-bf16", "xla-amp")


class DeprecatedXlaEnvVar(Rule):
    """## What it does
    On targets at torch-xla 2.5 or later, reports `XLA_USE_BF16` and `XLA_DOWNCAST_BF16` where
    the script sets or reads them: `os.environ[...]`, `os.environ.get/setdefault/pop(...)`,
    `os.getenv(...)`, `os.putenv(...)`, `"..." in os.environ`, and the key of a dict literal (an
    environment passed to a launcher). Nothing is rewritten: the replacement changes where the
    casts happen.

    ## Why
    Both are "deprecated in PyTorch Neuron 2.5" and print end-of-support warnings through 2.9;
    Neuron's migration note replaces them with `model.to(torch.bfloat16)` plus stochastic rounding,
    or with `torch.autocast("xla", dtype=torch.bfloat16)`
    ([neuron-bf16, xla-amp, xla-model, xla-api]).

    ## Example
    ```python
    os.environ["XLA_USE_BF16"] = "1"
    ```

    ## Use instead
    ```python
    os.environ["NEURON_RT_STOCHASTIC_ROUNDING_EN"] = "1"
    model = model.to(torch.bfloat16)
    ```
    """

    code = "TRN015"
    name = "deprecated-xla-env-var"
    summary = "`XLA_USE_BF16`/`XLA_DOWNCAST_BF16` are deprecated (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = ("neuron-bf16", "xla-amp", "xla-model", "xla-api")


class InferenceModeOnXla(Rule):
    """## What it does
    On the XLA targets, rewrites `torch.inference_mode()` (also `inference_mode(True)`,
    `inference_mode(mode=True)`, a bare `@torch.inference_mode` decorator, and the same class
    reached as `torch.autograd.inference_mode`, `torch.autograd.grad_mode.inference_mode` or
    imported by name) to `torch.no_grad()`, as a `with`, a decorator or wherever it is called,
    and in a choice called with no argument (`(torch.inference_mode if new else torch.no_grad)()`,
    a decorator factory's).
    `inference_mode(False)` turns inference mode off and is left alone. An argument that is not a
    literal (`inference_mode(not training)`), a file that asks `torch.is_inference_mode_enabled()`
    or `Tensor.is_inference()` (the rewrite changes their answer), and `inference_mode` passed
    as a value are reported, with the fix: where they run, the program stops there (a blocker).
    Nothing changes for `--target neuron`.

    ## Why
    Under inference mode, a view (`.t()`, `.view()`, a slice, `.unsqueeze()`) of an XLA tensor
    made outside it raises `RuntimeError: Cannot set version_counter for inference tensor`.
    `nn.Linear` takes such a view of its weight, and a model that slices a buffer (a causal mask)
    does too: a trained model called in an evaluation or sampling function under
    `@torch.inference_mode()` stops the program there, whichever form turns it on (measured on
    torch 2.9.0 + torch-xla 2.9.0: [measured-inference-mode]; a network of convolutions, batch
    norm and ReLU alone runs, and there the rewrite changes nothing but the name).
    `torch.no_grad()` runs the same model, with the values the CPU gives under inference mode and
    `requires_grad` False as there [measured-inference-mode]. PyTorch documents inference mode as
    no_grad without view tracking and version counter bumps, more restrictive about later
    autograd use, and "You can always use no_grad instead" [torch-inference-mode].

    ## Example
    ```python
    @torch.inference_mode()
    def evaluate(model, loader):
        ...
    ```

    ## Use instead
    ```python
    @torch.no_grad()
    def evaluate(model, loader):
        ...
    ```
    """

    code = "TRN054"
    name = "inference-mode-xla"
    summary = "`torch.inference_mode()` → `torch.no_grad()` on XLA (a model called under it raises)"
    safety = Safety.SAFE
    severity = Severity.BLOCKER
    sources = ("torch-inference-mode", "measured-inference-mode")


# -- the table ---------------------------------------------------------------------------------
Version = tuple[int, ...]


def _version(text: str) -> Version | None:
    if not text:
        return None
    return tuple(int(part) for part in text.split(".")[:2])


@dataclass(frozen=True)
class RenamedCall:
    old: str
    new: Api
    rewrite_from: Version
    removed: bool  # removed in some release (else only deprecated)
    params: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class MovedModule:
    old: str
    new: str
    rewrite_from: Version


@dataclass(frozen=True)
class RemovedName:
    name: str
    removed: Version | None
    deprecated: Version | None
    message: str

    def applies(self, version: Version) -> bool:
        return any(v is not None and version >= v for v in (self.removed, self.deprecated))


@dataclass(frozen=True)
class ApiHistory:
    calls: tuple[RenamedCall, ...]
    modules: tuple[MovedModule, ...]
    removed: tuple[RemovedName, ...]
    env: tuple[RemovedName, ...]


@cache
def api_history() -> ApiHistory:
    text = resources.files("trncodemod").joinpath("data/torch_xla_apis.toml").read_text("utf-8")
    data = tomllib.loads(text)
    calls = tuple(
        RenamedCall(
            old=row["old"],
            new=Api(**row["new"]),
            rewrite_from=_version(row["rewrite_from"]) or (0,),
            removed=bool(row["removed"]),
            params=tuple((old, new) for old, new in row["params"]),
        )
        for row in data["calls"]
    )
    modules = tuple(
        MovedModule(row["old"], row["new"], _version(row["rewrite_from"]) or (0,))
        for row in data["modules"]
    )

    def removed(rows: list[dict]) -> tuple[RemovedName, ...]:
        return tuple(
            RemovedName(
                row["name"],
                _version(row.get("removed", "")),
                _version(row.get("deprecated", "")),
                row["message"],
            )
            for row in rows
        )

    return ApiHistory(calls, modules, removed(data["removed"]), removed(data["env"]))


_ENVIRON_CALLS = ("os.environ.get", "os.environ.setdefault", "os.environ.pop", "os.getenv")
_ENVIRON_CALLS += ("os.putenv",)


def _string(node: cst.BaseExpression) -> str | None:
    if isinstance(node, cst.SimpleString):
        value = node.evaluated_value
        return value if isinstance(value, str) else None
    return None


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


def _literal_mode(call: cst.Call) -> bool | None:
    """The mode an `inference_mode(...)` call sets: True without arguments, a literal `True` or
    `False` given as `mode`; None otherwise (a name, an expression, `*args`)."""
    if not call.args:
        return True
    if len(call.args) != 1:
        return None
    arg = call.args[0]
    if arg.star or (arg.keyword is not None and arg.keyword.value != "mode"):
        return None
    value = arg.value
    if isinstance(value, cst.Name) and value.value in ("True", "False"):
        return value.value == "True"
    return None


# torch's inference mode, by every module that names the one class (measured-inference-mode).
_INFERENCE_MODE = frozenset(
    {
        "torch.inference_mode",
        "torch.autograd.inference_mode",
        "torch.autograd.grad_mode.inference_mode",
    }
)
_NO_GRAD = frozenset({name.replace("inference_mode", "no_grad") for name in _INFERENCE_MODE})
# What fails under it on XLA (measured-inference-mode), for the findings.
_RAISES = (
    "a view of an XLA tensor made outside it (an `nn.Linear`'s weight, a slice of a buffer) "
    "raises `RuntimeError: Cannot set version_counter for inference tensor`"
)
# What answers differently once inference mode is no_grad.
_ASKS_INFERENCE = ("is_inference_mode_enabled", "is_inference")


class TorchXlaApis(Pass):
    name = "torch-xla-api"
    rules = (
        RemovedXlaApi,
        DeprecatedXlaApi,
        MovedXlaModule,
        RemovedXlaName,
        DeprecatedXlaEnvVar,
        InferenceModeOnXla,
    )
    needles = ("torch_xla", "XLA_USE_BF16", "XLA_DOWNCAST_BF16", "inference_mode")

    @classmethod
    def applies_to(cls, target: Target) -> bool:
        # TorchNeuron has no torch_xla at all: porting torch_xla code to it is not a rename.
        return target.is_xla and super().applies_to(target)

    @classmethod
    def candidate(cls, facts: FileFacts, target: Target) -> bool:
        history = api_history()
        version = _version(target.torch_xla) or (0,)
        names = facts.qualified
        modules = facts.qualified
        return (
            # leave_Call / visit_Attribute: a renamed function, where the target rewrites it.
            any(row.old in names for row in history.calls if version >= row.rewrite_from)
            # leave_Import / leave_ImportFrom: a moved module imported, or a name under it.
            or any(row.old in modules for row in history.modules if version >= row.rewrite_from)
            or any(
                # visit_Attribute: a removed name used; the imports: a removed module (or a
                # module under it, or a removed name) imported.
                row.name in names
                or any(m == row.name or m.startswith(row.name + ".") for m in modules)
                for row in history.removed
                if row.applies(version)
            )
            # visit_SimpleString: the deprecated variable's name, a whole string.
            or any(row.name in facts.strings for row in history.env if row.applies(version))
            # leave_Call / leave_Decorator / the references: torch's inference mode.
            or not facts.qualified.isdisjoint(_INFERENCE_MODE)
        )

    def __init__(self, context, run) -> None:  # type: ignore[no-untyped-def]
        super().__init__(context, run)
        self.history = api_history()
        self.version: Version = _version(self.target.torch_xla) or (0,)
        # References to inference mode that no_grad replaces (``_inference_mode_reference``).
        self._references: dict[cst.CSTNode, cst.BaseExpression] = {}

    # -- renamed calls ---------------------------------------------------------------------
    def _renamed(self, func: cst.BaseExpression) -> RenamedCall | None:
        names = self.module_names(func)
        return next((row for row in self.history.calls if row.old in names), None)

    @staticmethod
    def _rule(row: RenamedCall) -> type[Rule]:
        return RemovedXlaApi if row.removed else DeprecatedXlaApi

    def _new_args(self, row: RenamedCall, call: cst.Call) -> list[cst.Arg] | None:
        """The arguments of the new call, or None when one cannot be mapped."""
        params = dict(row.params)
        order = [old for old, _new in row.params]
        args: list[cst.Arg] = []
        for index, arg in enumerate(call.args):
            if arg.star:
                return None
            if arg.keyword is None:
                if index >= len(order):
                    return None
                new = params[order[index]]
                if new and (len(args) != index):
                    return None  # an earlier positional argument was dropped
                if new:
                    args.append(arg)
                continue
            if arg.keyword.value not in params:
                return None
            new = params[arg.keyword.value]
            if new:
                args.append(arg.with_changes(keyword=cst.Name(new)))
        if args:
            args[-1] = args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        return args

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if not self.module_names(original_node.func).isdisjoint(_INFERENCE_MODE):
            return self._inference_mode(original_node, updated_node)
        row = self._renamed(original_node.func)
        if row is None or self.version < row.rewrite_from:
            return updated_node
        rule = self._rule(row)
        new_name = row.new.expr
        if not isinstance(original_node.func, cst.Attribute):
            self.report(
                original_node,
                rule,
                f"`{_code(original_node.func)}` is imported by name: call `{new_name}()` "
                f"instead, with `import {row.new.module}"
                + (f" as {row.new.alias}`" if row.new.alias else "`"),
                False,
            )
            return updated_node
        guard = self._guarded_import(original_node.func)
        if guard:
            self.report(
                original_node,
                rule,
                f"`{_code(original_node.func)}` → `{new_name}`, by hand: the module is imported "
                f"{guard}, and the import the new name needs would make it required",
                False,
            )
            return updated_node
        args = self._new_args(row, original_node)
        if args is None:
            self.report(
                original_node,
                rule,
                f"`{_code(original_node)}`: arguments that `{new_name}()` does not take; "
                f"rewrite it to `{new_name}(...)` by hand",
                False,
            )
            return updated_node
        if not self.report(
            original_node, rule, f"`{_code(original_node.func)}` → `{new_name}`", True
        ):
            return updated_node
        RemoveImportsVisitor.remove_unused_import_by_node(self.context, original_node.func)
        return updated_node.with_changes(func=self.emit(row.new), args=args)

    # -- inference mode --------------------------------------------------------------------
    def _inference_mode(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        mode = _literal_mode(original)
        if mode is False:
            return updated  # inference mode off: it runs as no_grad would not (measured)
        spelled = _code(original)
        if mode is None:
            grads = "not ..."
            if len(original.args) == 1:
                value = original.args[0].value
                if m.matches(value, m.UnaryOperation(operator=m.Not())):
                    grads = _code(value.expression)  # type: ignore[attr-defined]
                elif isinstance(value, cst.Name | cst.Attribute):
                    grads = f"not {_code(value)}"
                else:
                    grads = f"not ({_code(value)})"
            self.report(
                original,
                InferenceModeOnXla,
                f"`{spelled}` turns inference mode on where its argument is true, and under it "
                f"{_RAISES}: the program stops there; use `torch.set_grad_enabled({grads})`, "
                "which sets gradients as "
                "`inference_mode` does, or `torch.no_grad()` where it is meant to be on",
                False,
            )
            return updated
        no_grad = self._no_grad(original.func, spelled)
        if no_grad is None:
            return updated
        if not self.report(
            original, InferenceModeOnXla, f"`{spelled}` → `{_code(no_grad)}()`", True
        ):
            return updated
        return updated.with_changes(func=no_grad, args=())

    def leave_Decorator(
        self, original_node: cst.Decorator, updated_node: cst.Decorator
    ) -> cst.Decorator:
        bare = original_node.decorator
        if isinstance(bare, cst.Call) or self.module_names(bare).isdisjoint(_INFERENCE_MODE):
            return updated_node
        spelled = f"@{_code(bare)}"
        no_grad = self._no_grad(bare, spelled)
        if no_grad is None or not self.report(
            original_node, InferenceModeOnXla, f"`{spelled}` → `@{_code(no_grad)}()`", True
        ):
            return updated_node
        return updated_node.with_changes(decorator=cst.Call(func=no_grad))

    def _no_grad(self, func: cst.BaseExpression, spelled: str) -> cst.BaseExpression | None:
        """`no_grad` reached as ``func`` reaches `inference_mode` (`th.inference_mode` gives
        `th.no_grad`; for a name imported by name, `no_grad` imported from torch), or
        None, with the finding that says why not, where the rewrite is not certain."""
        facts = self.run.facts
        why = ""
        if facts is None:
            why = "the file could not be read"
        elif facts.spells(*_ASKS_INFERENCE):
            asks = next(name for name in _ASKS_INFERENCE if facts.spells(name))
            why = f"the file asks `{asks}()`, whose answer the rewrite changes; check that use"
        elif isinstance(func, cst.Attribute):
            return func.with_changes(attr=cst.Name("no_grad"))
        elif isinstance(func, cst.Name):
            table = facts.names
            if table.imports.get("no_grad") in _NO_GRAD:
                return cst.Name("no_grad")
            if "no_grad" not in table.bound and "no_grad" not in table.imported:
                # One class under every name (measured-inference-mode): torch's is the short one.
                AddImportsVisitor.add_needed_import(self.context, "torch", "no_grad")
                RemoveImportsVisitor.remove_unused_import_by_node(self.context, func)
                return cst.Name("no_grad")
            why = "the file binds `no_grad` to something else"
        else:
            why = "it is reached through an expression"
        self.report(
            func,
            InferenceModeOnXla,
            f"`{spelled}`: under inference mode {_RAISES}; use `torch.no_grad()` instead, by "
            f"hand: {why}",
            False,
        )
        return None

    def _inference_mode_reference(self, node: cst.Attribute | cst.Name) -> None:
        """`torch.inference_mode` used other than called, as a decorator or imported: the code
        that calls it is not here."""
        parent = self.get_metadata(ParentNodeProvider, node, None)
        if (
            (isinstance(parent, cst.Call) and parent.func is node)
            or isinstance(parent, cst.Decorator | cst.ImportAlias | cst.ImportFrom)
            or (isinstance(parent, cst.Attribute) and parent.value is node)
            or self.module_names(node).isdisjoint(_INFERENCE_MODE)
        ):
            return
        call = self.get_metadata(ParentNodeProvider, parent, None)
        if (
            isinstance(parent, cst.IfExp)
            and node is not parent.test
            and isinstance(call, cst.Call)
            and call.func is parent
            and not call.args
        ):
            # `(torch.inference_mode if new_torch else torch.no_grad)()`: called with no
            # argument whichever branch is taken, where no_grad takes its place.
            spelled = f"{_code(node)}` in `{_code(call)}"
            no_grad = self._no_grad(node, spelled)
            if no_grad is not None and self.report(
                node, InferenceModeOnXla, f"`{spelled}` → `{_code(no_grad)}`", True
            ):
                self._references[node] = no_grad
            return
        self.report(
            node,
            InferenceModeOnXla,
            f"`{_code(node)}` is used without a call: where it turns inference mode on, "
            f"{_RAISES}; use `torch.no_grad` there",
            False,
        )

    def visit_Name(self, node: cst.Name) -> None:
        if node.value == "inference_mode":
            parent = self.get_metadata(ParentNodeProvider, node, None)
            if not (isinstance(parent, cst.Attribute) and parent.attr is node):
                self._inference_mode_reference(node)

    def leave_Name(self, original_node: cst.Name, updated_node: cst.Name) -> cst.BaseExpression:
        return self._references.get(original_node, updated_node)

    def leave_Attribute(
        self, original_node: cst.Attribute, updated_node: cst.Attribute
    ) -> cst.BaseExpression:
        return self._references.get(original_node, updated_node)

    def _guarded_import(self, func: cst.BaseExpression) -> str:
        """Where the name ``func`` is reached through is imported other than at the top of the
        module (`if is_torch_xla_available(): import torch_xla.core.xla_model as xm`, diffusers'
        pattern; a `try`; a function): the rewrite would add a top-level `import torch_xla`
        that makes an optional dependency required. Empty where every import is top-level, or
        where the file does not keep torch_xla optional (a script's own `if args.tpu:` path,
        or torch_xla imported at the top already: ``FileFacts.xla_optional``)."""
        if self.run.facts is not None and not self.run.facts.xla_optional:
            return ""
        root = func
        while isinstance(root, cst.Attribute):
            root = root.value
        if not isinstance(root, cst.Name):
            return ""
        scope = self.get_metadata(ScopeProvider, root, None)
        for assignment in scope[root.value] if scope is not None else ():
            node = getattr(assignment, "node", None)
            if not isinstance(node, cst.Import | cst.ImportFrom):
                continue
            line = self.get_metadata(ParentNodeProvider, node, None)
            holder = self.get_metadata(ParentNodeProvider, line, None) if line else None
            if not isinstance(holder, cst.Module):
                return "under a guard (not at the top of the module)"
        return ""

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if node.attr.value == "inference_mode":
            self._inference_mode_reference(node)
            return
        row = self._renamed(node)
        parent = self.get_metadata(ParentNodeProvider, node, None)
        if row is not None and self.version >= row.rewrite_from:
            if not (isinstance(parent, cst.Call) and parent.func is node):
                self.report(
                    node,
                    self._rule(row),
                    f"`{_code(node)}` is used without a call: replace it with `{row.new.expr}`",
                    False,
                )
            return
        names = self.module_names(node)
        for removed in self.history.removed:
            if removed.name in names and removed.applies(self.version):
                if not isinstance(parent, cst.Attribute):  # the longest spelling only
                    self.report(node, RemovedXlaName, removed.message, False)

    # -- imports ---------------------------------------------------------------------------
    def _moved(self, module: str) -> MovedModule | None:
        return next(
            (
                row
                for row in self.history.modules
                if row.old == module and self.version >= row.rewrite_from
            ),
            None,
        )

    def _report_removed_module(self, node: cst.CSTNode, module: str) -> None:
        for removed in self.history.removed:
            if removed.applies(self.version) and (
                module == removed.name or module.startswith(removed.name + ".")
            ):
                self.report(node, RemovedXlaName, removed.message, False)

    def leave_Import(self, original_node: cst.Import, updated_node: cst.Import) -> cst.Import:
        aliases = []
        for original, alias in zip(original_node.names, updated_node.names, strict=True):
            module = dotted(original.name) or ""
            self._report_removed_module(original, module)
            moved = self._moved(module)
            if moved is not None:
                if alias.asname is None:
                    self.report(
                        original,
                        MovedXlaModule,
                        f"`{module}` moved to `{moved.new}`: import it as "
                        f"`import {moved.new} as <alias>` and update the uses",
                        False,
                    )
                elif self.report(original, MovedXlaModule, f"`{module}` → `{moved.new}`", True):
                    alias = alias.with_changes(name=cst.parse_expression(moved.new))
            aliases.append(alias)
        return updated_node.with_changes(names=aliases)

    def leave_ImportFrom(
        self, original_node: cst.ImportFrom, updated_node: cst.ImportFrom
    ) -> cst.ImportFrom:
        if original_node.module is None or original_node.relative:
            return updated_node
        module = dotted(original_node.module) or ""
        names = (
            []
            if isinstance(original_node.names, cst.ImportStar)
            else [dotted(alias.name) or "" for alias in original_node.names]
        )
        self._report_removed_module(original_node, module)
        aliases = [] if isinstance(original_node.names, cst.ImportStar) else original_node.names
        for name, alias in zip(names, aliases, strict=True):
            qualified = f"{module}.{name}"
            for removed in self.history.removed:
                if removed.name == qualified and removed.applies(self.version):
                    self.report(alias, RemovedXlaName, removed.message, False)
        moved = self._moved(module)
        if moved is not None:
            if self.report(original_node, MovedXlaModule, f"`{module}` → `{moved.new}`", True):
                return updated_node.with_changes(module=cst.parse_expression(moved.new))
            return updated_node
        submodules = [self._moved(f"{module}.{name}") for name in names]
        if any(submodules):
            if all(submodules) and len({row.new.rsplit(".", 1)[0] for row in submodules}) == 1:  # type: ignore[union-attr]
                new_parent = submodules[0].new.rsplit(".", 1)[0]  # type: ignore[union-attr]
                if self.report(original_node, MovedXlaModule, f"`{module}` → `{new_parent}`", True):
                    return updated_node.with_changes(module=cst.parse_expression(new_parent))
            else:
                self.report(
                    original_node,
                    MovedXlaModule,
                    "this import mixes moved and unmoved modules: import the SPMD modules "
                    "from `torch_xla.distributed.spmd` on a line of their own",
                    False,
                )
        return updated_node

    # -- environment variables -------------------------------------------------------------
    def visit_SimpleString(self, node: cst.SimpleString) -> None:
        value = _string(node)
        row = next((r for r in self.history.env if r.name == value), None)
        if row is None or not row.applies(self.version):
            return
        if names_environment(self, node):
            self.report(node, DeprecatedXlaEnvVar, row.message, False)


def names_environment(pass_: Pass, node: cst.SimpleString) -> bool:
    """Whether ``node`` names an environment variable: a key of ``os.environ``, the first
    argument of ``os.getenv``/``os.environ.get``/..., ``"..." in os.environ``, or a key of a dict
    literal (an environment handed to a launcher)."""
    parent = pass_.get_metadata(ParentNodeProvider, node, None)
    if isinstance(parent, cst.Index):
        subscript = pass_.get_metadata(
            ParentNodeProvider, pass_.get_metadata(ParentNodeProvider, parent), None
        )
        return isinstance(subscript, cst.Subscript) and pass_.is_any(
            subscript.value, {"os.environ"}
        )
    if isinstance(parent, cst.Arg):
        call = pass_.get_metadata(ParentNodeProvider, parent, None)
        return (
            isinstance(call, cst.Call)
            and bool(call.args)
            and call.args[0] is parent
            and pass_.is_any(call.func, _ENVIRON_CALLS)
        )
    if isinstance(parent, cst.Comparison):
        return any(
            m.matches(target.operator, m.In() | m.NotIn())
            and pass_.is_any(target.comparator, {"os.environ"})
            for target in parent.comparisons
        )
    return isinstance(parent, cst.DictElement) and parent.key is node
