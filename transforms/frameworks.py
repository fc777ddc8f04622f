"""Frameworks that own the training loop: Hugging Face `Trainer`, accelerate and Lightning are
ported through their arguments, not their loops (issue 12;
[xla-loader, neuron-guide, xla-recompilation, neuron-emod025, neuron-bf16, xla-amp]; human ports of
HF Trainer scripts use bf16 and drop the last partial batch)."""

from __future__ import annotations

import libcst as cst
from trncodemod.transforms.frameworks_table import (
    ACCELERATE_XLA_TARGETS,
    DISTRIBUTED_TYPE,
    LATEST_OPTIMUM,
    NEURON_NAMES,
    OPTIMUM_MODULE,
    OPTIMUM_NEURON,
    PARSER,
    TRANSFORMERS_TRAINER,
)

from trncodemod.analysis.facts import FileFacts
from trncodemod.analysis.nodes import find
from trncodemod.findings import Rule, Safety, Severity
from trncodemod.passes import Pass
from trncodemod.rewriting.calls import append_keyword
from trncodemod.targets import Target

_INIT_GROUP = ("torch.distributed.init_process_group",)

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
# TrainingArguments options with no meaning (or a CUDA-only one) on Trainium, reported when set
# to anything but their default: why, and what to do.
_HF_CUDA_OPTIONS = {
    "tf32": "TF32 is an Ampere GPU mode: remove it (Trainium matmuls follow the bf16 setting)",
    "ddp_backend": 'a CUDA/CPU collective backend: remove it (on XLA the Trainer uses "xla")',
    "deepspeed": "DeepSpeed needs CUDA: on Trainium use ZeRO-1 through optimum-neuron "
    "(`NeuronTrainingArguments(zero_1=True)`, TRN501) or neuronx-distributed",
}
# fp16 argument → its bf16 twin.
_HF_PRECISION = {"fp16": "bf16", "fp16_full_eval": "bf16_full_eval"}
_LIGHTNING_GPU = ("gpu", "cuda", "mps")
# Neuron-PT-Lightning's guide, at a versioned URL (`/en/latest/` copies move: [xla-loader]).
_PTL_GUIDE = (
    "https://awsdocs-neuron.readthedocs-hosted.com/en/v2.29.0/libraries/neuronx-distributed/"
    "ptl_developer_guide.html"
)
_LIGHTNING_FP16 = (16, "16", "16-mixed", "16-true")


class HfTrainerArguments(Rule):
    """## What it does
    In Hugging Face `TrainingArguments` (also `Seq2SeqTrainingArguments`, `trl.SFTConfig`):
    `fp16=True` becomes `bf16=True` (and `fp16_full_eval=True` `bf16_full_eval=True`), and
    `dataloader_drop_last=True` is added where the argument is not given. A precision or
    drop-last held in a variable, `dataloader_drop_last=False`, `half_precision_backend="apex"`
    and `**kwargs` are reported, and so are the options that mean nothing or need CUDA on
    Trainium: `tf32`, `ddp_backend`, `deepspeed`. The
    optimizer name is TRN115's.

    ## Why
    Trainium trains in bf16 without a loss scaler; fp16 needs a `GradScaler`, which torch_xla
    removed in 2.9, and apex is CUDA-only ([neuron-bf16, xla-amp]; the Trainer's XLA path "supports
    bf16 for tpu, neuroncore", `training_args.py`). A smaller last batch is a new input shape and a
    new compile ([xla-loader, neuron-guide, xla-recompilation, neuron-emod025]); Neuron's Trainer
    ports set both. fp16 → bf16 changes the numerics: `review`.

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
    sources = (
        "xla-loader",
        "neuron-guide",
        "xla-recompilation",
        "neuron-emod025",
        "neuron-bf16",
        "xla-amp",
    )


class AccelerateMixedPrecision(Rule):
    """## What it does
    Rewrites `Accelerator(mixed_precision="fp16")` to `mixed_precision="bf16"`; a precision held
    in a variable is reported. accelerate's own graph cuts are respected by the step-marker pass
    (loaders returned by `accelerator.prepare` are already device loaders on XLA).

    ## Why
    accelerate's fp16 path builds a `GradScaler` for the device, which torch_xla no longer has
    (removed in 2.9), and bf16 needs no scaling on Trainium ([neuron-bf16, xla-amp]). fp16 → bf16
    changes the numerics: `review`.

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
    sources = ("neuron-bf16", "xla-amp")


class LightningTrainerArguments(Rule):
    """## What it does
    Reports a Lightning `Trainer` (or `Fabric`) built with `accelerator="gpu"`/`"cuda"`, a
    `strategy` such as `"ddp"`/`"fsdp"`/`"deepspeed"`, or fp16 `precision`, with what to use on
    the target. Nothing is rewritten: Lightning has no Trainium accelerator of its own.

    ## Why
    On the XLA targets, Lightning trains on Trainium through neuronx-distributed's Lightning
    integration (`NeuronXLAStrategy`, `NeuronXLAPrecisionPlugin`, `NeuronTQDMProgressBar`), with
    bf16 instead of fp16 ([neuron-bf16, xla-amp]); its `NeuronLTModule` supports manual optimization
    only (Neuron's "Developer guide for Neuron-PT-Lightning", `ptl_developer_guide`, which the
    finding links). A CUDA accelerator or a CUDA strategy fails to find a device; which Neuron
    strategy fits (data parallel, tensor parallel) is a design choice.

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
    sources = ("neuron-bf16", "xla-amp", "neuronx-distributed-lightning")


class HfTrainerToNeuronTrainer(Rule):
    """## What it does
    On the XLA targets, a script that imports transformers' trainer API by name
    (`from transformers import Trainer, TrainingArguments`, also `Seq2SeqTrainer`,
    `Seq2SeqTrainingArguments`) gets optimum-neuron's instead, under the same local names, as
    Neuron's and optimum-neuron's own ports of the HF examples do:
    `from optimum.neuron import NeuronTrainer as Trainer`,
    `NeuronTrainingArguments as TrainingArguments`, and `HfArgumentParser` becomes
    `NeuronHfArgumentParser` with them. On xla-2.1 the trainers are optimum-neuron 0.0.28's, on
    xla-2.5 0.2.2's (the releases built for the target's torch-neuronx; `trncodemod doctor`
    checks the pin).

    Reported instead, with what to do: a class that subclasses the trainer (its overrides meet
    optimum-neuron's), `transformers.Trainer` spelled through the module, and every use on
    xla-2.9, for which optimum-neuron has no release. There an entry script that starts no
    process group is also told to start the xla one at import for torchrun
    (`import torch_xla.distributed.xla_backend`; `torch.distributed.init_process_group("xla")`
    when `WORLD_SIZE` is set): accelerate, which the Trainer runs on, starts none for the xla
    backend (`src/accelerate/state.py`, `PartialState.__init__`), and Neuron's samples that keep
    the Trainer start it themselves ([neuron-hf-trainer-torchrun]).

    ## Why
    optimum-neuron's trainers run the HF training loop on Trainium: the XLA device loader, the graph
    cuts, ZeRO-1 and tensor parallelism (`trn_config`), checkpoints moved to the CPU and
    precompilation with `neuron_parallel_compile`. With transformers' own `Trainer` on XLA the
    Neuron samples had to patch `Trainer._wrap_model` and `xm.mesh_reduce` by hand
    ([measured-human-ports]). Each optimum-neuron release pins one torch-neuronx (0.0.28: 2.1.2,
    0.2.2: 2.5.1, 0.3.0: 2.7.0, 0.4.x: 2.8.0, none 2.9); 0.4.0 dropped the Seq2Seq trainers and
    evaluation (`optimum/neuron/trainers/transformers.py`, #938), so the names are certain only with
    the release the target pins.

    ## Example
    ```python
    from transformers import HfArgumentParser, Trainer, TrainingArguments
    ```

    ## Use instead
    ```python
    from optimum.neuron import NeuronHfArgumentParser as HfArgumentParser
    from optimum.neuron import NeuronTrainer as Trainer
    from optimum.neuron import NeuronTrainingArguments as TrainingArguments
    ```
    """

    code = "TRN501"
    name = "hf-trainer-neuron-trainer"
    summary = "HF `Trainer`/`TrainingArguments` → optimum-neuron's `NeuronTrainer`/`NeuronTrainingArguments`"
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = ("optimum-neuron-releases", "measured-human-ports", "neuron-hf-trainer-torchrun")


class AccelerateDistributedTypeXla(Rule):
    """## What it does
    `DistributedType.TPU` (accelerate) becomes `DistributedType.XLA` on xla-2.5 and xla-2.9; on
    xla-2.1 it is reported. The rest of an accelerate script is left to accelerate.

    ## Why
    accelerate named its torch-xla mode `XLA` in 0.28.0 (#2176, `TPU` kept as a deprecated
    alias) and removed `TPU` in 1.0.0 (#3118): with the accelerate Neuron requires for
    torch-xla 2.7+ (1.7) `DistributedType.TPU` raises `AttributeError`, and a comparison with
    it never holds, so the script's XLA branch (padding to one length, for instance) is never
    taken. On Trainium accelerate reports `DistributedType.XLA`.

    ## Example
    ```python
    if accelerator.distributed_type == DistributedType.TPU:
        padding = "max_length"
    ```

    ## Use instead
    ```python
    if accelerator.distributed_type == DistributedType.XLA:
        padding = "max_length"
    ```
    """

    code = "TRN502"
    name = "accelerate-distributed-type-xla"
    summary = "accelerate `DistributedType.TPU` → `DistributedType.XLA`"
    safety = Safety.REVIEW
    severity = Severity.ERROR
    sources = ("accelerate-0-28", "accelerate-1-0")


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


def _from_transformers(node: cst.ImportFrom) -> bool:
    return not node.relative and node.module is not None and _code(node.module) == "transformers"


class Frameworks(Pass):
    name = "frameworks"
    rules = (
        HfTrainerArguments,
        AccelerateMixedPrecision,
        LightningTrainerArguments,
        HfTrainerToNeuronTrainer,
        AccelerateDistributedTypeXla,
    )
    needles = (
        "TrainingArguments",
        "Config(",
        "Accelerator(",
        "Trainer",
        "Fabric(",
        "DistributedType",
    )

    @classmethod
    def may_match(cls, text: str) -> bool:
        # A script driven by accelerate, Lightning or transformers need not name torch itself.
        framework = "accelerate" in text or "lightning" in text or "transformers" in text
        return (framework or super().may_match(text)) and any(n in text for n in cls.needles)

    @classmethod
    def candidate(cls, facts: FileFacts, target: Target) -> bool:
        # Every finding and change is in leave_Call, at a call of one of the three kinds, at an
        # import of transformers' trainer API, or at `DistributedType.TPU`.
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
            # TRN501 and TRN502: the XLA targets only.
            or (
                target.is_xla
                and (
                    not facts.qualified.isdisjoint(TRANSFORMERS_TRAINER)
                    or (facts.spells("DistributedType", "TPU") and facts.reaches("accelerate"))
                )
            )
        )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # `from transformers import X as local` aliases to swap: the alias node → its new object.
        self._swaps: dict[cst.ImportAlias, str] = {}

    def visit_Module(self, node: cst.Module) -> bool:
        if self.target.is_xla:
            self._plan_trainer_swap(node)
        return True

    # -- TRN501: transformers' trainer → optimum-neuron's ---------------------------------------
    def _plan_trainer_swap(self, module: cst.Module) -> None:
        imported: list[tuple[cst.ImportFrom, cst.ImportAlias]] = []
        blockers: list[tuple[cst.CSTNode, str]] = []
        bases: set[cst.CSTNode] = set()
        for node in find(module, cst.ImportFrom, cst.ClassDef, cst.Attribute):
            if isinstance(node, cst.ImportFrom) and _from_transformers(node):
                for alias in node.names if not isinstance(node.names, cst.ImportStar) else ():
                    if _code(alias.name) in NEURON_NAMES or _code(alias.name) in PARSER:
                        imported.append((node, alias))
            elif isinstance(node, cst.ClassDef):
                for base in node.bases:
                    if not self.module_names(base.value).isdisjoint(TRANSFORMERS_TRAINER):
                        blockers.append(
                            (base.value, f"`{node.name.value}` subclasses `{_code(base.value)}`")
                        )
                        bases.add(base.value)
            elif isinstance(node, cst.Attribute) and node.attr.value in NEURON_NAMES:
                if node in bases:  # `class T(transformers.Trainer)`: said once, as a subclass
                    continue
                if not self.module_names(node).isdisjoint(TRANSFORMERS_TRAINER):
                    blockers.append((node, f"`{_code(node)}` is spelled through the module"))
        trainer = [(n, a) for n, a in imported if _code(a.name) in NEURON_NAMES]
        if not trainer and not blockers:
            return
        anchor = trainer[0][1] if trainer else blockers[0][0]
        release = OPTIMUM_NEURON.get(self.target.name)
        if release is None:
            self.report(
                anchor,
                HfTrainerToNeuronTrainer,
                f"optimum-neuron has no release for target {self.target.name} (torch "
                f"{self.target.torch}): the latest, {LATEST_OPTIMUM}, also dropped the Seq2Seq "
                "trainers and evaluation; keep transformers' Trainer (it trains on XLA, with "
                "bf16=True), or port with `--target xla-2.5` and optimum-neuron 0.2.2"
                + self._torchrun_group(module),
                False,
            )
            return
        if blockers:
            for node, why in blockers:
                self.report(
                    node,
                    HfTrainerToNeuronTrainer,
                    f"{why}: use optimum-neuron's trainers by hand (`from optimum.neuron import "
                    f"NeuronTrainer`, `NeuronTrainingArguments`; {release.pin}, built for "
                    f"torch-neuronx {release.torch_neuronx}) and check what it overrides",
                    False,
                )
            return
        names = ", ".join(f"`{_code(a.name)}`" for _, a in imported)
        if not self.report(
            anchor,
            HfTrainerToNeuronTrainer,
            f"{names} → optimum-neuron's (`from {OPTIMUM_MODULE} import ...`, same local names; "
            f"install {release.pin}, built for torch-neuronx {release.torch_neuronx}, with "
            f"transformers{release.transformers})",
            True,
        ):
            return
        for _, alias in imported:
            name = _code(alias.name)
            self._swaps[alias] = NEURON_NAMES.get(name) or PARSER[name]

    def _torchrun_group(self, module: cst.Module) -> str:
        """What an entry script that keeps transformers' Trainer needs to run data parallel
        under torchrun, where it does not start a process group itself: accelerate, under the
        Trainer, starts none for the xla backend, so Neuron's samples that keep the Trainer
        start it at import ([neuron-hf-trainer-torchrun])."""
        if not self.run.profile.is_entry_script or any(
            self.is_any(c.func, _INIT_GROUP) for c in find(module, cst.Call)
        ):
            return ""
        return (
            "; to train on every NeuronCore with torchrun (one process each), start the xla "
            "process group at import, as Neuron's samples that keep the Trainer do: `import "
            'torch_xla.distributed.xla_backend` and, when `os.environ.get("WORLD_SIZE")` is '
            'set, `torch.distributed.init_process_group("xla")`'
        )

    def leave_ImportFrom(
        self, original_node: cst.ImportFrom, updated_node: cst.ImportFrom
    ) -> cst.ImportFrom | cst.RemovalSentinel:
        if not self._swaps or isinstance(original_node.names, cst.ImportStar):
            return updated_node
        kept = []
        for old, new in zip(original_node.names, updated_node.names, strict=True):
            swap = self._swaps.get(old)
            if swap is None:
                kept.append(new)
                continue
            local = old.asname.name.value if old.asname else _code(old.name)  # type: ignore[union-attr]
            self.add_import(OPTIMUM_MODULE, alias=local, obj=swap)
        if len(kept) == len(updated_node.names):
            return updated_node
        if not kept:
            return cst.RemoveFromParent()
        if updated_node.lpar is None:  # no parentheses: no trailing comma
            kept[-1] = kept[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        return updated_node.with_changes(names=kept)

    # -- TRN502: accelerate's DistributedType.TPU ------------------------------------------------
    def leave_Attribute(
        self, original_node: cst.Attribute, updated_node: cst.Attribute
    ) -> cst.Attribute:
        if original_node.attr.value != "TPU" or not self.target.is_xla:
            return updated_node
        if self.module_names(original_node.value).isdisjoint(DISTRIBUTED_TYPE):
            return updated_node
        if self.target.name not in ACCELERATE_XLA_TARGETS:
            self.report(
                original_node,
                AccelerateDistributedTypeXla,
                "`DistributedType.TPU` is gone in accelerate 1.0: use `DistributedType.XLA` "
                "(accelerate 0.28 or later)",
                False,
            )
            return updated_node
        if not self.report(
            original_node,
            AccelerateDistributedTypeXla,
            "`DistributedType.TPU` → `DistributedType.XLA` (TPU is gone in accelerate 1.0; XLA "
            "is the mode on Trainium)",
            True,
        ):
            return updated_node
        return updated_node.with_changes(attr=cst.Name("XLA"))

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
        for option, why in _HF_CUDA_OPTIONS.items():
            arg = _keyword(original, option)
            if arg is not None and _literal(arg.value) not in (None, False):
                self.report(
                    arg.value, HfTrainerArguments, f"`{option}={_code(arg.value)}`: {why}", False
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
                "(`neuronx_distributed.lightning`), bf16, and a `NeuronLTModule` with manual "
                f"optimization; read {_PTL_GUIDE}"
            )
        else:
            what = 'run on the `"neuron"` device with bf16 (TorchNeuron is a PyTorch device)'
        self.report(
            call,
            LightningTrainerArguments,
            f"Lightning on Trainium: {'; '.join(problems)}: {what}",
            False,
        )
