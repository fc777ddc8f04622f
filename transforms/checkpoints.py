"""Checkpoints: `torch.save` of model and optimizer state becomes `xm.save` after a graph cut
([xla-model, neuron-mnist]).

The contract with the step-marker pass (which runs later): a save outside any training or
evaluation loop gets its own step marker right before it; a save inside such a loop never does,
because a marker that runs only on checkpoint iterations is a conditional marker (TRN103) that
compiles extra graphs and stops the step-marker pass from placing the loop's own marker. An
in-loop save is rewritten only where the loop's one marker per iteration (inserted by TRN101 after
the optimizer step, or already there) runs before it; otherwise it is reported.
"""

from __future__ import annotations

import libcst as cst
from libcst.metadata import ParentNodeProvider, PositionProvider
from trncodemod.transforms.device_loader import DeviceLoader
from trncodemod.transforms.step_marker import (
    EvalLoopStepMarker,
    StepMarker,
    TrainLoopStepMarker,
    accumulation_guard,
    step_holder,
)

from trncodemod.analysis.facts import FileFacts, may_resolve
from trncodemod.analysis.loops import (
    STEP_MARKERS,
    Loop,
    LoopInfo,
    find_step_loops,
    own_statements,
    root_name,
    target_names,
)
from trncodemod.analysis.ranks import mentions_rank
from trncodemod.findings import Rule, Safety, Severity
from trncodemod.passes import Pass
from trncodemod.rewriting.calls import append_keyword
from trncodemod.targets import Target

_SAVE = frozenset({"torch.save", "torch.serialization.save"})
_KEYWORDS = {"obj": "data", "f": "file_or_path"}
_LITERALS = (
    cst.SimpleString,
    cst.ConcatenatedString,
    cst.FormattedString,
    cst.Integer,
    cst.Float,
)


class StateSave(Rule):
    """## What it does
    Rewrites `torch.save(obj, path)` to `xm.save(obj, path)` when `obj` is model or optimizer
    state: a `.state_dict()` call, a dict literal holding one, or a variable assigned only from
    one of those. Outside a training or evaluation loop the target's step marker
    (`torch_xla.sync()`, `xm.mark_step()` on xla-2.1) is inserted right before the save, unless
    the statement before it already cuts the graph. A path built from a rank or ordinal
    (`f"ckpt_{rank}.pt"`) keeps one file per process: `xm.save(..., master_only=False)`.

    Inside a training loop no marker is inserted: the save is rewritten only when it comes after
    the statement holding the optimizer step, where the step-marker pass puts the loop's one
    marker per iteration (TRN101), or after a marker the loop already has. Nothing changes for
    the `neuron` target, which keeps `torch.save` ([torchneuron-overview]).

    ## Why
    `xm.save` moves XLA tensors to the CPU before pickling, so the file loads on any host;
    `torch.save` of an XLA `state_dict` reloads onto `xla:0`
    ([xla-model, neuron-mnist, measured-checkpoint-save]). It writes on the master process only
    (`master_only=True`), where `torch.save` in every process writes the same file. Neuron advises a
    step marker before `xm.save` on torch-neuronx 2.5 and later, so that pending parameter updates
    are not read through aliased buffers (pytorch/xla#8422, [neuron-pt25]). A marker
    that runs only on checkpoint iterations would compile extra graphs
    ([xla-devices, neuron-mnist, xla-recompile-sources]), hence the loop contract.

    ## Example
    ```python
    train(model, optimizer)
    torch.save(model.state_dict(), "model.pt")
    ```

    ## Use instead
    ```python
    import torch_xla
    import torch_xla.core.xla_model as xm

    train(model, optimizer)
    torch_xla.sync()
    xm.save(model.state_dict(), "model.pt")
    ```
    """

    code = "TRN321"
    name = "state-save"
    summary = "`torch.save` of model/optimizer state → `xm.save` after a graph cut"
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = (
        "xla-model",
        "neuron-mnist",
        "neuron-manifest",
        "neuron-pt29",
        "measured-checkpoint-save",
        "xla-devices",
        "xla-recompile-sources",
        "torchneuron-overview",
        "neuron-pt25",
    )


class SaveBeforeCut(Rule):
    """## What it does
    Reports a `torch.save` of model or optimizer state inside a training or evaluation loop that
    no per-iteration step marker precedes: the save sits before (or in the same block as) the
    optimizer step, the loop iterates an `MpDeviceLoader` (which cuts the graph only when it
    fetches the next batch), the loop's only markers are conditional, or the step-marker pass is
    not selected. Nothing is changed.

    ## Why
    `xm.save` reads the parameters; with updates still pending in the lazy graph it runs that graph
    itself, and Neuron advises a cut before it (pytorch/xla#8422, [xla-model, neuron-mnist]). A
    marker added just for the save would run only on checkpoint iterations: a conditional marker
    that compiles extra graphs and that the step-marker pass reports (TRN103) instead of placing the
    loop's own marker ([xla-devices, neuron-mnist, xla-recompile-sources]).

    ## Example
    ```python
    for step, (x, y) in enumerate(loader):
        loss_fn(model(x), y).backward()
        if step % 1000 == 0:
            torch.save(model.state_dict(), "ckpt.pt")
        optimizer.step()
    ```

    ## Use instead
    ```python
    for step, (x, y) in enumerate(loader):
        loss_fn(model(x), y).backward()
        optimizer.step()
        torch_xla.sync()
        if step % 1000 == 0:
            xm.save(model.state_dict(), "ckpt.pt")
    ```
    """

    code = "TRN322"
    name = "save-before-cut"
    summary = "in-loop checkpoint that no per-iteration step marker precedes (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = ("xla-model", "neuron-mnist", "xla-devices", "xla-recompile-sources")


class RankGuardedSave(Rule):
    """## What it does
    Reports a `torch.save` of model or optimizer state under an `if` that tests a rank or ordinal
    (`if rank == 0:`, `if dist.get_rank() == 0:`, `if xm.is_master_ordinal():`). Nothing is
    changed.

    ## Why
    `xm.save` must run on every process: it syncs the graph on each of them, decides itself which
    process writes (`master_only=True`), and on torch-xla 2.1 it ends with a rendezvous that all
    processes must reach, so inside a rank-0 guard it would hang the others
    ([xla-model, neuron-mnist]; `xla_model.py` `save`). Moving the call out of the guard is the fix;
    the guard may hold more than the save, so a person makes it.

    ## Example
    ```python
    if dist.get_rank() == 0:
        torch.save(model.state_dict(), "model.pt")
    ```

    ## Use instead
    ```python
    torch_xla.sync()
    xm.save(model.state_dict(), "model.pt")  # writes on the master only
    ```
    """

    code = "TRN323"
    name = "rank-guarded-save"
    summary = "checkpoint under a rank test: `xm.save` must run on every process (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = ("xla-model", "neuron-mnist")


class UnclassifiedSave(Rule):
    """## What it does
    Reports a `torch.save` whose object the tool cannot tell to be model or optimizer state (a
    tensor, a whole module, a list, a variable assigned elsewhere), or that passes `torch.save`
    options `xm.save` does not take (`pickle_module=`, `pickle_protocol=`, `*args`). A `torch.save`
    of a literal is left alone. Nothing is changed.

    ## Why
    If the object holds XLA tensors, `torch.save` pickles them as XLA tensors, which reload onto
    `xla:0` ([xla-model, neuron-mnist, measured-checkpoint-save]), and every process writes the
    file. If it holds only host objects (a vocabulary, the parsed arguments) `torch.save` is right.
    Only a person can tell.

    ## Example
    ```python
    torch.save(embeddings, "emb.pt")
    ```

    ## Use instead
    ```python
    torch_xla.sync()
    xm.save(embeddings, "emb.pt")  # if `embeddings` lives on the XLA device
    ```
    """

    code = "TRN324"
    name = "unclassified-save"
    summary = "`torch.save` of an object the tool cannot classify (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = ("xla-model", "neuron-mnist", "measured-checkpoint-save")


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


class Checkpoints(Pass):
    name = "checkpoint"
    rules = (StateSave, SaveBeforeCut, RankGuardedSave, UnclassifiedSave)
    needles = ("save",)
    # Whether a save may become `xm.save` hangs on a step marker before it in the loop.
    sees = frozenset({"step-marker"})

    @classmethod
    def candidate(cls, facts: FileFacts, target: Target) -> bool:
        # visit_Module walks nothing on a target without xm.save and a step marker (TorchNeuron);
        # elsewhere every finding and rewrite is at a call that resolves to torch.save.
        if not (target.is_xla and target.api("save") and target.step_marker):
            return False
        return may_resolve(facts, _SAVE)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._loops: dict[Loop, LoopInfo] = {}
        # Planned on the original tree, applied by node identity while leaving.
        self._rewrite: dict[cst.Call, bool] = {}  # save call -> per-rank file (master_only=False)
        self._cut_before: set[cst.Expr] = set()  # statements that get a marker right before them

    def visit_Module(self, node: cst.Module) -> bool:
        if not self.target.is_xla or not self.target.api("save") or not self.target.step_marker:
            return False  # TorchNeuron keeps torch.save ([torchneuron-overview])
        self._loops = find_step_loops(node)
        return True

    # -- classification ----------------------------------------------------------------------
    def _is_state(self, node: cst.BaseExpression, depth: int = 0) -> bool:
        if depth > 3:
            return False
        if isinstance(node, cst.Call):
            func = node.func
            if isinstance(func, cst.Attribute) and func.attr.value == "state_dict":
                return True
            if self.is_any(func, {"builtins.dict"}):
                return any(
                    arg.keyword is not None and self._is_state(arg.value, depth + 1)
                    for arg in node.args
                )
            return False
        if isinstance(node, cst.Dict):
            return any(
                isinstance(element, cst.DictElement) and self._is_state(element.value, depth + 1)
                for element in node.elements
            )
        if isinstance(node, cst.Tuple | cst.List):
            # `(actor.state_dict(), qf1.state_dict())`: xm.save moves nested containers too.
            return any(
                isinstance(element, cst.Element) and self._is_state(element.value, depth + 1)
                for element in node.elements
            )
        if isinstance(node, cst.Name):
            values = self.bound_values(node)
            return values is not None and all(self._is_state(v, depth + 1) for v in values)
        return False

    def _per_rank(self, path: cst.BaseExpression) -> bool:
        qualified = self.module_names
        if mentions_rank(path, qualified):
            return True
        if isinstance(path, cst.Name):
            values = self.bound_values(path)
            return values is not None and any(mentions_rank(v, qualified) for v in values)
        return False

    # -- where the save sits -----------------------------------------------------------------
    def _ancestors(self, node: cst.CSTNode):
        """(child, parent) pairs from ``node`` up to its function, class or module."""
        child = node
        while True:
            parent = self.get_metadata(ParentNodeProvider, child, None)
            if parent is None or isinstance(child, cst.FunctionDef | cst.ClassDef | cst.Lambda):
                return
            yield child, parent
            child = parent

    def _rank_guard(self, call: cst.Call) -> cst.If | None:
        for child, parent in self._ancestors(call):
            if isinstance(parent, cst.If) and child is not parent.test:
                if mentions_rank(parent.test, self.module_names):
                    return parent
        return None

    def _loop_position(self, call: cst.Call) -> tuple[LoopInfo, int] | None:
        """The step loop whose own body runs ``call``, with the index of the loop body's
        top-level statement that holds it; None when the call is outside any step loop."""
        for child, parent in self._ancestors(call):
            if isinstance(parent, cst.For | cst.While):
                info = self._loops.get(parent)
                if info is None or child is not parent.body:
                    return None
                statements = list(parent.body.body)
                for index, statement in enumerate(statements):
                    if any(node is call for node in own_statements(statement)):  # type: ignore[arg-type]
                        return info, index
                return None
        return None

    def _is_cut(self, node: cst.CSTNode) -> bool:
        return (
            isinstance(node, cst.Expr)
            and isinstance(node.value, cst.Call)
            and self.is_any(node.value.func, STEP_MARKERS)
        )

    def _loader_may_be_wrapped(self, info: LoopInfo) -> bool:
        """Whether the device-loader pass, which runs after this one, may turn ``info``'s loop
        into a loop over an MpDeviceLoader: it is selected and the loop moves its batch to a
        device ([xla-loader, neuron-guide]; the condition of TRN131)."""
        loop = info.node
        if not isinstance(loop, cst.For) or not DeviceLoader.applies_to(self.target):
            return False
        if not any(self.enabled(rule) for rule in DeviceLoader.rules):
            return False
        batch = target_names(loop.target)
        return any(
            isinstance(node, cst.Call)
            and isinstance(node.func, cst.Attribute)
            and node.func.attr.value in ("to", "cuda")
            and root_name(node.func.value) in batch
            for node in own_statements(loop.body)
        )

    def _in_loop_verdict(self, info: LoopInfo, index: int, call: cst.Call) -> str | None:
        """None when the loop's per-iteration marker runs before statement ``index`` (or, in a
        gradient-accumulation loop cut once per optimizer step, before ``call`` inside the
        accumulation `if`); else why not and what to do, in words."""
        statements = list(info.node.body.body)
        cuts = [
            position
            for position, statement in enumerate(statements)
            if isinstance(statement, cst.SimpleStatementLine)
            and any(self._is_cut(small) for small in statement.body)
        ]
        has_marker = any(
            isinstance(node, cst.Call) and self.is_any(node.func, STEP_MARKERS)
            for node in own_statements(info.node.body)
        )
        if any(position < index for position in cuts):
            return None
        if has_marker:
            return (
                "the loop's step marker does not run before it in every iteration: call the "
                "marker once per iteration at the loop body's top level after the optimizer "
                "step, and save after it"
            )
        if info.iterates_device_loader:
            return (
                "the loop iterates a device loader, which cuts the graph only when it fetches "
                "the next batch: save at the top of the loop body (the previous step is cut "
                "there) or after the loop"
            )
        if self._loader_may_be_wrapped(info):
            return (
                "the device-loader pass (TRN131) may make this loop iterate an MpDeviceLoader, "
                "which cuts the graph only when it fetches the next batch, and then the loop "
                "gets no step marker: save at the top of the loop body (the previous step is "
                "cut there) or after the loop"
            )
        rule = TrainLoopStepMarker if info.kind == "train" else EvalLoopStepMarker
        if not (StepMarker.applies_to(self.target) and self.enabled(rule)):
            return (
                f"the loop has no step marker and {rule.code} is not selected to add one: select "
                f"it (or add `{self.target.step_marker.expr}` after the optimizer step)"
            )
        if info.kind != "train" or not info.optimizer_steps:
            return (
                "the loop's step marker goes at the end of the loop body, after it: save after "
                "the loop"
            )
        steps = set(info.optimizer_steps)
        last = max(
            position
            for position, statement in enumerate(statements)
            if any(node in steps for node in own_statements(statement))
        )
        anchor = self.get_metadata(PositionProvider, info.optimizer_steps[-1]).start.line
        if self.run.suppressions.covers(anchor, rule.code):
            return (
                f"{rule.code} is suppressed for this loop: add the loop's step marker after the "
                "optimizer step yourself"
            )
        guard = accumulation_guard(info)
        if guard is not None and index == last and self.settings.accumulation_cut != "micro-batch":
            # The marker goes inside the accumulation `if`, after the step (TRN101).
            inner = list(guard.body.body)  # type: ignore[union-attr]
            holder = step_holder(inner, info.optimizer_steps)
            for position, statement in enumerate(inner):
                if any(node is call for node in own_statements(statement)):
                    if position > holder:
                        return None
                    break
        if index <= last:
            step = _code(info.optimizer_steps[-1])
            return (
                f"it runs before the loop's step marker, which goes after the statement that "
                f"holds `{step}`: move the save after that statement"
            )
        return None

    # -- planning ----------------------------------------------------------------------------
    def visit_Call(self, node: cst.Call) -> None:
        if not self.is_any(node.func, _SAVE):
            return
        save = self.target.api("save").expr
        bound: dict[str, cst.Arg] = {}
        plain = not any(arg.star for arg in node.args)
        for index, arg in enumerate(node.args):
            key = arg.keyword.value if arg.keyword else ("obj", "f", "")[min(index, 2)]
            if key not in ("obj", "f") or key in bound:
                plain = False
            bound.setdefault(key, arg)
        if "obj" not in bound or "f" not in bound:
            return  # not a complete call; Python reports it
        obj = bound["obj"].value
        if isinstance(obj, _LITERALS):
            return
        if not plain:
            self.report(
                node,
                UnclassifiedSave,
                f"`{save}` takes only the object and the path: if this saves XLA tensors, drop "
                f"the other torch.save options and use `{save}` after a step marker",
                False,
            )
            return
        if not self._is_state(obj):
            self.report(
                node,
                UnclassifiedSave,
                f"cannot tell whether `{_code(obj)}` holds XLA tensors: if it does, save it with "
                f"`{save}` after a step marker (it moves tensors to the CPU and writes on the "
                "master only); if it holds only host objects, leave torch.save",
                False,
            )
            return
        guard = self._rank_guard(node)
        if guard is not None:
            self.report(
                node,
                RankGuardedSave,
                f"`{save}` must run on every process (it syncs, and writes on the master only; "
                f"on torch-xla 2.1 it waits for all processes): call `{save}(...)` outside "
                f"`if {_code(guard.test)}:`",
                False,
            )
            return
        per_rank = self._per_rank(bound["f"].value)
        suffix = ", master_only=False" if per_rank else ""
        what = f"torch.save of model/optimizer state → `{save}(...{suffix})`"
        position = self._loop_position(node)
        statement = self.get_metadata(ParentNodeProvider, node, None)
        if position is not None:
            reason = self._in_loop_verdict(*position, node)
            if reason is not None:
                self.report(
                    node,
                    SaveBeforeCut,
                    f"checkpoint in a loop without a graph cut before it; {reason}, then use "
                    f"`{save}` (a marker only for the save would compile extra graphs)",
                    False,
                )
                return
            message = f"{what}; the loop's step marker runs before it"
        elif isinstance(statement, cst.Expr):
            marker = self.target.step_marker.expr
            if self._follows_cut(statement):
                message = f"{what} (the graph is cut before it, and nothing runs between)"
            else:
                message = f"{what}, after `{marker}`"
        else:
            self.report(
                node,
                SaveBeforeCut,
                f"checkpoint inside an expression: call `{self.target.step_marker.expr}` and "
                f"then `{save}(...{suffix})` as statements",
                False,
            )
            return
        if not self.report(node, StateSave, message, True):
            return
        self._rewrite[node] = per_rank
        if position is None and isinstance(statement, cst.Expr):
            if not self._follows_cut(statement):
                self._cut_before.add(statement)

    def _follows_cut(self, statement: cst.Expr) -> bool:
        """Whether the statement right before ``statement`` cuts the graph, or is a save this
        pass rewrites after a cut (`torch.save(model...)` then `torch.save(optimizer...)`:
        nothing runs on the device between them, so one marker serves both)."""
        line = self.get_metadata(ParentNodeProvider, statement, None)
        if not isinstance(line, cst.SimpleStatementLine | cst.SimpleStatementSuite):
            return False
        smalls = list(line.body)
        index = smalls.index(statement)
        if index > 0:
            return self._cut_or_save(smalls[index - 1])
        if isinstance(line, cst.SimpleStatementSuite):
            return False
        block = self.get_metadata(ParentNodeProvider, line, None)
        siblings = list(getattr(block, "body", ()))
        position = next((i for i, s in enumerate(siblings) if s is line), 0)
        if position == 0:
            return False
        before = siblings[position - 1]
        return isinstance(before, cst.SimpleStatementLine) and self._cut_or_save(before.body[-1])

    def _cut_or_save(self, node: cst.CSTNode) -> bool:
        return self._is_cut(node) or (
            isinstance(node, cst.Expr)
            and isinstance(node.value, cst.Call)
            and node.value in self._rewrite
        )

    # -- rewriting ---------------------------------------------------------------------------
    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if original_node not in self._rewrite:
            return updated_node
        args = [
            arg.with_changes(keyword=cst.Name(_KEYWORDS[arg.keyword.value]))
            if arg.keyword is not None
            else arg
            for arg in updated_node.args
        ]
        call = updated_node.with_changes(func=self.emit(self.target.api("save")), args=args)
        if self._rewrite[original_node]:
            call = append_keyword(call, "master_only", cst.Name("False"))
        return call

    def _marker(self) -> cst.Expr:
        return cst.Expr(self.emit(self.target.step_marker))

    def _with_markers(self, original, updated) -> list[cst.BaseSmallStatement]:
        body: list[cst.BaseSmallStatement] = []
        for old, new in zip(original.body, updated.body, strict=True):
            if old in self._cut_before:
                body.append(self._marker())
            body.append(new)
        return body

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ):
        if not any(small in self._cut_before for small in original_node.body):
            return updated_node
        if len(original_node.body) > 1:
            return updated_node.with_changes(body=self._with_markers(original_node, updated_node))
        # Comments above the save stay above the marker.
        marker = cst.SimpleStatementLine([self._marker()], leading_lines=updated_node.leading_lines)
        return cst.FlattenSentinel([marker, updated_node.with_changes(leading_lines=())])

    def leave_SimpleStatementSuite(
        self, original_node: cst.SimpleStatementSuite, updated_node: cst.SimpleStatementSuite
    ) -> cst.SimpleStatementSuite:
        if not any(small in self._cut_before for small in original_node.body):
            return updated_node
        return updated_node.with_changes(body=self._with_markers(original_node, updated_node))
