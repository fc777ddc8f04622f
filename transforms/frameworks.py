"""Frameworks that own the training loop: Hugging Face `Trainer`, accelerate and Lightning are
ported through their arguments, not their loops (issue 12; reference R3, R8, R9; human ports of
HF Trainer scripts use bf16 and drop the last partial batch)."""

from __future__ import annotations

import libcst as cst

from trncodemod.analysis.facts import FileFacts
from trncodemod.findings import Rule, Safety, Severity
from trncodemod.passes import Pass
from trncodemod.rewriting.calls import append_keyword
from trncodemod.targets import Target

_TRAINING_ARGUMENTS = frozenset(
    {
        "transformers.TrainingArguments",
        "transformers.Seq2SeqTrainingArguments",
        "transformers.training_args.TrainingArguments",
        "transformers.training_args_seq2seq.Seq2SeqTrainingArguments",
        "trl.SFTConfig",
        "trl.DPOConfig",
    }
)
_ACCELERATOR = frozenset({"accelerate.Accelerator", "accelerate.accelerator.Accelerator"})
_LIGHTNING_TRAINER = frozenset(
    {
        "lightning.Trainer",
        "lightning.pytorch.Trainer",
        "pytorch_lightning.Trainer",
        "lightning.pytorch.trainer.trainer.Trainer",
        "pytorch_lightning.trainer.trainer.Trainer",
        "lightning.Fabric",
        "lightning.fabric.Fabric",
    }
)
# fp16 argument → its bf16 twin.
_HF_PRECISION = {"fp16": "bf16", "fp16_full_eval": "bf16_full_eval"}
_LIGHTNING_GPU = ("gpu", "cuda", "mps")
_LIGHTNING_FP16 = (16, "16", "16-mixed", "16-true")


class HfTrainerArguments(Rule):
    """## What it does
    In Hugging Face `TrainingArguments` (also `Seq2SeqTrainingArguments`, `trl.SFTConfig`):
    `fp16=True` becomes `bf16=True` (and `fp16_full_eval=True` `bf16_full_eval=True`), and
    `dataloader_drop_last=True` is added where the argument is not given. A precision or
    drop-last held in a variable, `dataloader_drop_last=False`, `half_precision_backend="apex"`
    and `**kwargs` are reported. The optimizer name is TRN115's.

    ## Why
    Trainium trains in bf16 without a loss scaler; fp16 needs a `GradScaler`, which torch_xla
    removed in 2.9, and apex is CUDA-only (reference R9; the Trainer's XLA path "supports bf16
    for tpu, neuroncore", `training_args.py`). A smaller last batch is a new input shape and a
    new compile (reference R3, R8); Neuron's Trainer ports set both. fp16 → bf16 changes the
    numerics: `review`.

    ## Example
    ```python
    args = TrainingArguments("out", fp16=True, per_device_train_batch_size=8)
    ```

    ## Use instead
    ```python
    args = TrainingArguments(
        "out", bf16=True, per_device_train_batch_size=8, dataloader_drop_last=True
    )
    ```
    """

    code = "TRN156"
    name = "hf-trainer-arguments"
    summary = "`TrainingArguments`: `fp16` → `bf16`, `dataloader_drop_last=True`"
    safety = Safety.REVIEW
    severity = Severity.ERROR
    source = "reference R3, R8, R9"


class AccelerateMixedPrecision(Rule):
    """## What it does
    Rewrites `Accelerator(mixed_precision="fp16")` to `mixed_precision="bf16"`; a precision held
    in a variable is reported. accelerate's own graph cuts are respected by the step-marker pass
    (loaders returned by `accelerator.prepare` are already device loaders on XLA).

    ## Why
    accelerate's fp16 path builds a `GradScaler` for the device, which torch_xla no longer has
    (removed in 2.9), and bf16 needs no scaling on Trainium (reference R9). fp16 → bf16 changes
    the numerics: `review`.

    ## Example
    ```python
    accelerator = Accelerator(mixed_precision="fp16")
    ```

    ## Use instead
    ```python
    accelerator = Accelerator(mixed_precision="bf16")
    ```
    """

    code = "TRN157"
    name = "accelerate-mixed-precision"
    summary = '`Accelerator(mixed_precision="fp16")` → `"bf16"`'
    safety = Safety.REVIEW
    severity = Severity.ERROR
    source = "reference R9"


class LightningTrainerArguments(Rule):
    """## What it does
    Reports a Lightning `Trainer` (or `Fabric`) built with `accelerator="gpu"`/`"cuda"`, a
    `strategy` such as `"ddp"`/`"fsdp"`/`"deepspeed"`, or fp16 `precision`, with what to use on
    the target. Nothing is rewritten: Lightning has no Trainium accelerator of its own.

    ## Why
    On the XLA targets, Lightning trains on Trainium through neuronx-distributed's Lightning
    integration (`NeuronXLAStrategy`, `NeuronXLAPrecisionPlugin`, `NeuronTQDMProgressBar`), with
    bf16 instead of fp16 (reference R9). A CUDA accelerator or a CUDA strategy fails to find a
    device; which Neuron strategy fits (data parallel, tensor parallel) is a design choice.

    ## Example
    ```python
    trainer = L.Trainer(accelerator="gpu", devices=8, strategy="ddp", precision="16-mixed")
    ```

    ## Use instead
    ```python
    from neuronx_distributed.lightning import NeuronXLAStrategy, NeuronXLAPrecisionPlugin
    trainer = L.Trainer(strategy=NeuronXLAStrategy(), plugins=[NeuronXLAPrecisionPlugin()])
    ```
    """

    code = "TRN158"
    name = "lightning-trainer-arguments"
    summary = "Lightning `Trainer` with a CUDA accelerator, strategy or fp16 (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.BLOCKER
    source = "reference R9; neuronx-distributed lightning"


def _keyword(call: cst.Call, name: str) -> cst.Arg | None:
    return next((a for a in call.args if a.keyword and a.keyword.value == name), None)


def _literal(node: cst.BaseExpression) -> object:
    if isinstance(node, cst.Name) and node.value in ("True", "False", "None"):
        return {"True": True, "False": False, "None": None}[node.value]
    if isinstance(node, cst.SimpleString):
        return node.evaluated_value
    if isinstance(node, cst.Integer):
        return int(node.value)
    return ...  # unreadable


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


class Frameworks(Pass):
    name = "frameworks"
    rules = (HfTrainerArguments, AccelerateMixedPrecision, LightningTrainerArguments)
    needles = ("TrainingArguments", "Config(", "Accelerator(", "Trainer(", "Fabric(")

    @classmethod
    def may_match(cls, text: str) -> bool:
        # A script driven by accelerate or Lightning need not name torch itself.
        framework = "accelerate" in text or "lightning" in text
        return (framework or super().may_match(text)) and any(n in text for n in cls.needles)

    @classmethod
    def candidate(cls, facts: FileFacts, target: Target) -> bool:
        # Every finding and change is in leave_Call, at a call of one of the three kinds.
        return (
            # _training_arguments: acts on any such call (it adds dataloader_drop_last=True).
            facts.calls_one_of(*_TRAINING_ARGUMENTS)
            # _accelerator: nothing without a `mixed_precision=` keyword.
            or ("mixed_precision" in facts.identifiers and facts.calls_one_of(*_ACCELERATOR))
            # _lightning: nothing without an accelerator=, strategy= or precision= keyword.
            or (
                facts.spells("accelerator", "strategy", "precision")
                and facts.calls_one_of(*_LIGHTNING_TRAINER)
            )
        )

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        names = self.module_names(original_node.func)
        if not names.isdisjoint(_TRAINING_ARGUMENTS):
            return self._training_arguments(original_node, updated_node)
        if not names.isdisjoint(_ACCELERATOR):
            return self._accelerator(original_node, updated_node)
        if not names.isdisjoint(_LIGHTNING_TRAINER):
            self._lightning(original_node)
        return updated_node

    def _training_arguments(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        if any(a.star == "**" for a in original.args):
            self.report(
                original,
                HfTrainerArguments,
                "`TrainingArguments` with `**kwargs`: make sure they give `bf16=True` (not fp16) "
                "and `dataloader_drop_last=True`",
                False,
            )
            return updated
        renames: dict[str, str] = {}
        for old, new in _HF_PRECISION.items():
            arg = _keyword(original, old)
            if arg is None:
                continue
            value = _literal(arg.value)
            if value is True:
                renames[old] = new
            elif value is not False and value is not None:
                self.report(
                    arg.value,
                    HfTrainerArguments,
                    f"`{old}={_code(arg.value)}`: train in bf16 on Trainium, "
                    f"`{new}={_code(arg.value)}` and `{old}=False`",
                    False,
                )
        backend = _keyword(original, "half_precision_backend")
        if backend is not None and _literal(backend.value) == "apex":
            self.report(
                backend.value,
                HfTrainerArguments,
                '`half_precision_backend="apex"` needs CUDA: remove it (bf16 uses torch autocast)',
                False,
            )
        drop = _keyword(original, "dataloader_drop_last")
        add_drop = drop is None
        if drop is not None and _literal(drop.value) is not True:
            self.report(
                drop.value,
                HfTrainerArguments,
                f"`dataloader_drop_last={_code(drop.value)}`: a smaller last batch is a new "
                "shape and a new compile; set it to True, or pad the last batch",
                False,
            )
        changes = [f"`{old}=True` → `{new}=True`" for old, new in renames.items()]
        if add_drop:
            changes.append("`dataloader_drop_last=True` added (one batch shape)")
        if not changes or not self.report(
            original, HfTrainerArguments, f"TrainingArguments: {', '.join(changes)}", True
        ):
            return updated
        args = [
            a.with_changes(keyword=cst.Name(renames[a.keyword.value]))
            if a.keyword and a.keyword.value in renames
            else a
            for a in updated.args
        ]
        new = updated.with_changes(args=args)
        if add_drop:
            new = append_keyword(new, "dataloader_drop_last", cst.Name("True"))
        return new

    def _accelerator(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        arg = _keyword(original, "mixed_precision")
        if arg is None:
            return updated
        value = _literal(arg.value)
        if value in ("no", "bf16", None):
            return updated
        if value != "fp16":
            self.report(
                arg.value,
                AccelerateMixedPrecision,
                f'`mixed_precision={_code(arg.value)}`: on Trainium use `"bf16"` (fp16 needs a '
                "GradScaler torch_xla no longer has)",
                False,
            )
            return updated
        if not self.report(
            arg.value, AccelerateMixedPrecision, '`mixed_precision="fp16"` → `"bf16"`', True
        ):
            return updated
        quote = arg.value.quote  # type: ignore[attr-defined]
        return updated.with_changes(
            args=[
                a.with_changes(value=cst.SimpleString(f"{quote}bf16{quote}"))
                if a.keyword and a.keyword.value == "mixed_precision"
                else a
                for a in updated.args
            ]
        )

    def _lightning(self, call: cst.Call) -> None:
        problems = []
        accelerator = _keyword(call, "accelerator")
        if accelerator is not None and _literal(accelerator.value) in _LIGHTNING_GPU:
            problems.append(f"`accelerator={_code(accelerator.value)}` finds no device")
        strategy = _keyword(call, "strategy")
        if strategy is not None and _literal(strategy.value) not in ("auto", ...):
            problems.append(f"`strategy={_code(strategy.value)}` is a CUDA strategy")
        precision = _keyword(call, "precision")
        if precision is not None and _literal(precision.value) in _LIGHTNING_FP16:
            problems.append(f"`precision={_code(precision.value)}` is fp16 (use bf16)")
        if not problems:
            return
        if self.target.is_xla:
            what = (
                "use neuronx-distributed's Lightning integration: "
                "`strategy=NeuronXLAStrategy()`, `plugins=[NeuronXLAPrecisionPlugin()]` "
                "(`neuronx_distributed.lightning`), bf16"
            )
        else:
            what = 'run on the `"neuron"` device with bf16 (TorchNeuron is a PyTorch device)'
        self.report(
            call,
            LightningTrainerArguments,
            f"Lightning on Trainium: {'; '.join(problems)}: {what}",
            False,
        )
