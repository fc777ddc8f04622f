"""The rules of the ``optimizer`` pass: CUDA-only optimizers become torch.optim ones, ``fused=True``
goes, and the ``optimizer`` policy picks syncfree or fp32-state AdamW for plain torch.optim
([xla-syncfree, neuron-guide]). Their documentation is what ``trncodemod explain`` prints.
"""

from __future__ import annotations

from trncodemod.findings import Rule, Safety, Severity


class FusedFlag(Rule):
    """## What it does
    Removes `fused=True` from a `torch.optim` optimizer (`Adam`, `AdamW`, `SGD`, ...) on the XLA
    targets. `fused=False`, `foreach=` and `capturable=` are kept. A `fused=` that is not a
    literal is reported. On the `neuron` target `fused=True` is only reported.

    ## Why
    On XLA tensors `torch.optim.AdamW(..., fused=True)` raises `RuntimeError: `fused=True` requires
    all the params to be floating point Tensors of supported devices: [...] but torch.float32 and
    xla`; `foreach=True` and `capturable=True` work ([xla-syncfree, neuron-guide, measured-fused-optimizer], measured on
    torch-xla 2.9). The `neuron` device is a `privateuseone` backend, which the check accepts;
    whether a fused kernel exists there is unverified
    ([xla-syncfree, neuron-guide, torchneuron-overview]).

    ## Example
    ```python
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4, fused=True)
    ```

    ## Use instead
    ```python
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    ```
    """

    code = "TRN111"
    name = "fused-optimizer-flag"
    summary = "`fused=True` on a torch.optim optimizer raises on XLA → removed"
    safety = Safety.SAFE
    severity = Severity.ERROR
    sources = ("xla-syncfree", "neuron-guide", "torchneuron-overview", "measured-fused-optimizer")


class CudaOnlyOptimizer(Rule):
    """## What it does
    Replaces apex `FusedAdam`/`FusedSGD` and the bitsandbytes Adam, AdamW and SGD optimizers
    (8-bit, 32-bit and paged) with the `torch.optim` class that computes the same update.
    Keyword arguments are carried over; a default that differs is written out, so the
    hyperparameters stay the same:

    - apex `FusedAdam` is AdamW by default (`adam_w_mode=True`) with `weight_decay=0.0`
      (NVIDIA/apex `apex/optimizers/fused_adam.py`), while `torch.optim.AdamW` defaults to
      `weight_decay=1e-2` (torch `torch/optim/adamw.py`): it becomes
      `torch.optim.AdamW(..., weight_decay=0.0)`; with `adam_w_mode=False` (L2 decay) it becomes
      `torch.optim.Adam`.
    - bitsandbytes decays weights decoupled in every Adam variant
      (`csrc/cuda/optimizers.cu`, case `ADAM`: `p *= 1 - lr * weight_decay`), so `Adam8bit`
      becomes `torch.optim.AdamW(..., weight_decay=0)` and `AdamW8bit` plain `torch.optim.AdamW`
      (bitsandbytes' Adam* default to `weight_decay=0`, AdamW* to `1e-2`, like torch's AdamW;
      `bitsandbytes/optim/adam.py`, `adamw.py`).
    - bitsandbytes `SGD*` becomes `torch.optim.SGD` (`bitsandbytes/optim/sgd.py`).

    A keyword with no equivalent (`bias_correction=False`, `optim_bits`, `percentile_clipping`,
    `is_paged=True`, `wd_after_momentum=True`, and `amsgrad=True`/`nesterov=True`/`dampening`,
    which bitsandbytes accepts and ignores), an `adam_w_mode` that is not a literal, `*args` or
    `**kwargs`, or a name that may also be bound to something else is reported, and the call is
    left alone. Other references to these classes (`isinstance`, `opt_cls = bnb.optim.Adam8bit`)
    are reported. Imports that become unused are removed.

    ## Why
    These optimizers run CUDA kernels; they fail on a Trainium host
    ([xla-syncfree, neuron-guide, torchneuron-overview]). The replacement keeps fp32 optimizer
    state: 8-bit and paged states take about four times less memory than that, and apex
    `FusedSGD(set_grad_none=False)` zeroes gradients where `torch.optim` sets them to `None`. Hence
    the `review` class.

    ## Example
    ```python
    from apex.optimizers import FusedAdam
    import bitsandbytes as bnb
    opt = FusedAdam(model.parameters(), lr=1e-4)
    opt8 = bnb.optim.Adam8bit(model.parameters(), lr=1e-4)
    ```

    ## Use instead
    ```python
    import torch
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4, weight_decay=0.0)
    opt8 = torch.optim.AdamW(model.parameters(), lr=1e-4, weight_decay=0)
    ```
    """

    code = "TRN112"
    name = "cuda-only-optimizer"
    summary = "apex / bitsandbytes optimizers → torch.optim, defaults kept"
    safety = Safety.REVIEW
    severity = Severity.ERROR
    sources = ("xla-syncfree", "neuron-guide", "torchneuron-overview")


class UnsupportedOptimizer(Rule):
    """## What it does
    Reports CUDA-only optimizers that have no `torch.optim` equivalent: apex `FusedLAMB`,
    `FusedNovoGrad`, `FusedLARS`, `FusedAdagrad`; bitsandbytes LAMB, LARS, Lion, AdEMAMix,
    RMSprop and Adagrad (all precisions and paged forms). Nothing is rewritten.

    ## Why
    They run CUDA kernels ([xla-syncfree, neuron-guide]). LAMB, LARS, Lion and AdEMAMix are not in
    `torch.optim`, and bitsandbytes' RMSprop/Adagrad use other defaults, so any swap changes the
    training run.

    ## Example
    ```python
    opt = apex.optimizers.FusedLAMB(model.parameters(), lr=1e-3)
    ```

    ## Use instead
    A pure-PyTorch implementation of the same algorithm, or `torch.optim.AdamW` with retuned
    hyperparameters.
    """

    code = "TRN113"
    name = "unsupported-optimizer"
    summary = "CUDA-only optimizer without a torch.optim equivalent (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.ERROR
    sources = ("xla-syncfree", "neuron-guide")


class TransformersAdamW(Rule):
    """## What it does
    Replaces `transformers.AdamW` (also `transformers.optimization.AdamW`) with
    `torch.optim.AdamW`, writing out its defaults `eps=1e-6` and `weight_decay=0.0`
    (`src/transformers/optimization.py` in 4.x; torch defaults to `eps=1e-8`,
    `weight_decay=1e-2`). `no_deprecation_warning` is dropped. `correct_bias=False` is reported and
    the call left alone. The import is removed when nothing else uses it.

    ## Why
    `transformers.AdamW` does not exist in transformers 5 ([xla-syncfree, neuron-guide]), and the
    Neuron samples that use it break on upgrade. Its update differs from torch's in the last digits
    during the first steps (eps added before bias correction, decay applied after the step):
    `review`.

    ## Example
    ```python
    from transformers import AdamW
    optimizer = AdamW(model.parameters(), lr=5e-5)
    ```

    ## Use instead
    ```python
    import torch
    optimizer = torch.optim.AdamW(model.parameters(), lr=5e-5, eps=1e-6, weight_decay=0.0)
    ```
    """

    code = "TRN114"
    name = "transformers-adamw"
    summary = "`transformers.AdamW` (gone in transformers 5) → `torch.optim.AdamW`, defaults kept"
    safety = Safety.REVIEW
    severity = Severity.ERROR
    sources = ("xla-syncfree", "neuron-guide")


class TrainerOptimName(Rule):
    """## What it does
    Rewrites a CUDA-only `optim=` of Hugging Face `TrainingArguments` (also
    `Seq2SeqTrainingArguments`, `trl.SFTConfig`), given as a string or as `OptimizerNames.X`:
    `adamw_torch_fused`, `adamw_apex_fused`, `adamw_torch_npu_fused`, `adamw_bnb_8bit`,
    `adamw_8bit`, `paged_adamw_8bit`, `paged_adamw_32bit` become `"adamw_torch_xla"` on the XLA
    targets and `"adamw_torch"` on `neuron`. Lion, AdEMAMix, bitsandbytes RMSprop, torchao 4/8-bit
    and GaLore 8-bit names are reported.

    ## Why
    The Trainer builds these with `fused=True`, apex or bitsandbytes, which fail on Trainium
    ([xla-syncfree, neuron-guide]). `adamw_torch_xla` is `torch_xla.amp.syncfree.AdamW`
    (`src/transformers/trainer.py`, `get_optimizer_cls_and_kwargs`), which without a
    `found_inf` runs the stock `torch.optim.AdamW` step; the Trainer passes lr, betas, eps and
    weight decay explicitly, so the hyperparameters stay. 8-bit and paged states become fp32:
    `review`.

    ## Example
    ```python
    args = TrainingArguments("out", optim="adamw_torch_fused")
    ```

    ## Use instead
    ```python
    args = TrainingArguments("out", optim="adamw_torch_xla")
    ```
    """

    code = "TRN115"
    name = "trainer-optim-name"
    summary = "`TrainingArguments(optim=...)` CUDA-only names → `adamw_torch_xla` / `adamw_torch`"
    safety = Safety.REVIEW
    severity = Severity.ERROR
    sources = ("xla-syncfree", "neuron-guide", "torchneuron-overview")


class SyncfreeOptimizer(Rule):
    """## What it does
    With `optimizer = "syncfree"`, on the XLA targets, replaces `torch.optim.Adam`, `AdamW` and
    `SGD` with `torch_xla.amp.syncfree.Adam`, `AdamW` and `SGD` (same arguments). When the file
    passes `found_inf=` anywhere or uses a `GradScaler`, nothing is swapped and the optimizer is
    reported. With the default `optimizer = "keep"` this rule never fires.

    ## Why
    With `found_inf=None` the syncfree classes call the stock `torch.optim` step, so the swap
    alone changes nothing; it only matters to code that passes `found_inf` on every step. A
    syncfree optimizer stepped once without `found_inf` and later with it raises
    `KeyError: 'max_exp_avg_sq'` ([xla-syncfree, measured-syncfree], torch-xla 2.9), so the tool
    never swaps where a scaler or `found_inf` may drive the optimizer. Available since
    torch-xla 1.11 ([xla-model, xla-api]); not on `neuron`.

    ## Example
    ```python
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    ```

    ## Use instead
    ```python
    import torch_xla.amp.syncfree
    optimizer = torch_xla.amp.syncfree.AdamW(model.parameters(), lr=1e-3)
    ```
    """

    code = "TRN116"
    name = "syncfree-optimizer"
    summary = '`optimizer = "syncfree"`: torch.optim Adam/AdamW/SGD → torch_xla.amp.syncfree'
    safety = Safety.SAFE
    severity = Severity.INFO
    sources = ("xla-syncfree", "neuron-guide", "xla-model", "xla-api", "measured-syncfree")


class Fp32StateOptimizer(Rule):
    """## What it does
    With `optimizer = "fp32-states"`, on the XLA targets, replaces `torch.optim.AdamW(X.parameters(),
    ...)` with Neuron's `AdamW_FP32OptimParams` when the file casts `X` to bf16
    (`X.to(torch.bfloat16)`, `X.bfloat16()`), writing out torch's defaults `eps=1e-8` and
    `weight_decay=1e-2` (the Neuron class defaults to `eps=1e-6`, `weight_decay=0.0`,
    `neuronx-distributed/src/neuronx_distributed/utils/adamw_fp32_optim_params.py`). An AdamW
    whose parameters are not visibly cast to bf16, or that passes `amsgrad=True`,
    `maximize=True` or `**kwargs`, is reported and left alone.

    ## Why
    Neuron recommends fp32 optimizer states for models trained in bf16 (`AdamW_FP32OptimParams`;
    BERT sample default `--optimizer=AdamW_FP32OptimParams`,
    [xla-syncfree, neuron-guide, neuron-bf16, xla-amp]). The class follows transformers' AdamW
    update (eps before bias correction, decay after the step), so results differ slightly from
    torch's: `review`.

    ## Example
    ```python
    model = Net().to(device).to(torch.bfloat16)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    ```

    ## Use instead
    ```python
    from neuronx_distributed.utils.adamw_fp32_optim_params import AdamW_FP32OptimParams
    optimizer = AdamW_FP32OptimParams(model.parameters(), lr=1e-3, eps=1e-8, weight_decay=1e-2)
    ```
    """

    code = "TRN117"
    name = "fp32-optimizer-states"
    summary = '`optimizer = "fp32-states"`: AdamW of a bf16 model → `AdamW_FP32OptimParams`'
    safety = Safety.REVIEW
    severity = Severity.INFO
    sources = ("xla-syncfree", "neuron-guide", "neuron-bf16", "xla-amp")


class CapturableOptimizer(Rule):
    """## What it does
    Adds `capturable=True` to `torch.optim.ASGD(...)` and `torch.optim.Rprop(...)` on the XLA
    targets where the parameters it takes (`model.parameters()`) are on the device when it is
    built: `model` is moved there earlier in the same function or script, on every run (not in a
    loop, not under a condition the tool cannot decide), and not rebound in between. Elsewhere,
    and where `capturable=False`, `foreach=True` or `**kwargs` is passed, it is reported. On the
    xla-2.1 and xla-2.5 targets it is reported too: `capturable=True` stepped on XLA with torch
    2.9 [measured-capturable-optimizers], while earlier single-tensor ASGD (the path XLA takes)
    raises `Capturable not supported with single tensor ASGD` (pytorch/pytorch
    `torch/optim/asgd.py` at commit 00b13f1cc1ca).

    ## Why
    Without `capturable=True`, ASGD and Rprop compute each parameter's step size from its state
    on the host, so every step copies the state from the device and compiles a new graph: 6 steps
    of a small model copied 72 values (ASGD) and 96 (Rprop) to the host and compiled 6 and 48
    graphs; with `capturable=True`, 0 and 2. Adam, AdamW, Adamax, NAdam, RAdam, RMSprop and
    Adadelta read nothing on the host either way ([measured-capturable-optimizers], torch 2.9.0
    + torch-xla 2.9.0). `capturable=True` raises where the parameters are on the CPU, and on
    XLA together with `foreach=True`, so it is added only where both are ruled out. The step is
    the same computation done on the device in the parameters' dtype, hence a review.

    ## Example
    ```python
    model = model.to(device)
    optimizer = torch.optim.ASGD(model.parameters(), lr=args.lr, t0=0, lambd=0.0)
    ```

    ## Use instead
    ```python
    model = model.to(device)
    optimizer = torch.optim.ASGD(model.parameters(), lr=args.lr, t0=0, lambd=0.0, capturable=True)
    ```
    """

    code = "TRN059"
    name = "capturable-optimizer"
    summary = "ASGD/Rprop read their state on the host every step on XLA → `capturable=True`"
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = ("measured-capturable-optimizers",)


RULES: tuple[type[Rule], ...] = (
    FusedFlag,
    CudaOnlyOptimizer,
    UnsupportedOptimizer,
    TransformersAdamW,
    TrainerOptimName,
    SyncfreeOptimizer,
    Fp32StateOptimizer,
    CapturableOptimizer,
)
