"""The rules of the ``amp`` pass: CUDA autocast becomes bf16 autocast on the target's device,
GradScaler goes, and the Neuron compiler's own auto-cast is switched off
([neuron-bf16, xla-amp, neuron-envvars, neuron-cc-cli, torchneuron-overview]). Their documentation
is what ``trncodemod explain`` prints.
"""

from __future__ import annotations

from trncodemod.findings import Rule, Safety, Severity


class CudaAutocast(Rule):
    """## What it does
    Rewrites CUDA autocast — `torch.cuda.amp.autocast(...)`, `torch.autocast("cuda", ...)`,
    `torch.amp.autocast("cuda")`, `autocast(device_type="cuda", ...)`, in any import form, as a
    context manager, a value or a decorator — to `torch.autocast("xla", dtype=torch.bfloat16)`
    (`"neuron"` for the `neuron` target). `enabled=` and `cache_enabled=` are kept (positional
    arguments become keywords); an fp16 or absent dtype becomes `torch.bfloat16`.

    ## Why
    CUDA autocast around an XLA model is silently inactive: the Linear output stays float32
    ([neuron-bf16, xla-amp, measured-autocast]), so mixed precision is lost without an error. XLA
    autocast on Trainium supports bf16 only ([xla-autocast]); fp16 → bf16 changes
    the numerics (wider range, fewer mantissa bits), hence the `review` class.
    `torch_xla.amp.autocast` is never emitted: it crashes off TPU/Neuron in torch-xla 2.9
    ([neuron-bf16, xla-amp, measured-autocast]). TorchNeuron uses
    `torch.autocast(device_type="neuron")` ([torchneuron-overview]).

    Review a block whose output leaves it before the loss: on torch-xla 2.9 a bf16 output
    that is sliced (`out[:, -n:, :]`, in the model's `forward` too) and meets a float32 target
    outside the block fails the HLO verifier at the step ("mixed precision is disallowed", on
    the slice's backward); `out.float()` before the loss, or the loss inside the block, runs
    ([measured-autocast-sliced-output]). The tool does not see that slice, so it does not
    rewrite for it.

    ## Example
    ```python
    with torch.cuda.amp.autocast(enabled=use_amp):
        loss = criterion(model(x), y)
    ```

    ## Use instead
    ```python
    with torch.autocast("xla", dtype=torch.bfloat16, enabled=use_amp):
        loss = criterion(model(x), y)
    ```
    """

    code = "TRN301"
    name = "cuda-autocast"
    summary = "CUDA autocast → `torch.autocast(<target>, dtype=torch.bfloat16)`"
    safety = Safety.REVIEW
    severity = Severity.ERROR
    sources = (
        "neuron-bf16",
        "xla-amp",
        "torchneuron-overview",
        "measured-autocast",
        "xla-autocast",
        "measured-autocast-sliced-output",
    )


class AutocastRegion(Rule):
    """## What it does
    When a rewritten `with autocast(...):` block also holds the backward pass and the optimizer
    step, moves those statements out of the block, so only forward and loss run under autocast.
    The move is done when the block has one context manager and every statement from the first
    `backward()`/optimizer step on is gradient bookkeeping: `backward()`, optimizer and scheduler
    `step()`, `zero_grad()`, GradScaler calls, `clip_grad_norm_`/`clip_grad_value_`, a step marker,
    or an `if` of only those. Otherwise the region is reported and left as it is.

    ## Why
    Neuron documents "place only the forward-pass … in the `torch.autocast` scope"
    ([neuron-bf16, xla-amp]); PyTorch does not recommend
    backward under autocast, and backward ops run in the dtype of their forward ops anyway. An
    optimizer step under autocast would run its matrix products in bf16, hence the `review` class.

    ## Example
    ```python
    with torch.autocast("xla", dtype=torch.bfloat16):
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
    ```

    ## Use instead
    ```python
    with torch.autocast("xla", dtype=torch.bfloat16):
        loss = criterion(model(x), y)
    loss.backward()
    optimizer.step()
    ```
    """

    code = "TRN302"
    name = "autocast-region"
    summary = "backward and optimizer step moved out of the autocast block"
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = ("neuron-bf16", "xla-amp")


class UnresolvedAutocast(Rule):
    """## What it does
    Reports CUDA autocast the tool cannot rewrite exactly: a dtype that is not a literal
    `torch.float16`/`torch.bfloat16` (a variable, `torch.float32`), `*args`/`**kwargs`, an
    autocast class used without calling it, an fp16 autocast whose device is not a literal, and
    `torch.cuda.amp.custom_fwd`/`custom_bwd`. Nothing is changed.

    ## Why
    CUDA autocast is silently inactive on Trainium, and XLA autocast supports bf16 only
    ([neuron-bf16, xla-amp]): the region must become `torch.autocast("xla", dtype=torch.bfloat16)`,
    which needs a person where the dtype or device is computed.

    ## Example
    ```python
    with torch.autocast("cuda", dtype=amp_dtype):
        loss = model(x)
    ```

    ## Use instead
    ```python
    with torch.autocast("xla", dtype=torch.bfloat16):
        loss = model(x)
    ```
    """

    code = "TRN303"
    name = "unresolved-autocast"
    summary = "CUDA autocast with a computed dtype or device (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.ERROR
    sources = ("neuron-bf16", "xla-amp")


class AutoCastCompilerFlag(Rule):
    """## What it does
    On the XLA targets, when this pass rewrote an autocast in a module, appends ` --auto-cast=none`
    to `NEURON_CC_FLAGS` once, right after the module's imports (or after the last top-level
    assignment of `NEURON_CC_FLAGS`), without overwriting what the launcher set:
    `os.environ["NEURON_CC_FLAGS"] = os.environ.get("NEURON_CC_FLAGS", "") + " --auto-cast=none"`.
    A module that already mentions `--auto-cast` is left alone; one that sets `NEURON_CC_FLAGS`
    inside a function or block is reported instead, because that later assignment would drop the
    flag. Only an entry script (a file that is launched, per the training profile) is changed: in
    a library module the setting would run at import in every program that imports it, so the
    launcher line is reported instead. The compiler-flags pass may append other flags the same
    way; each append is independent.

    ## Why
    With autocast deciding the precision, the compiler must not cast on its own: "turn off compiler
    auto-cast" ([neuron-bf16, xla-amp], migration app note); the docs disagree on its default, so
    the flag is set explicitly ([neuron-bf16, neuron-cc-cli]). Appending keeps flags set by the
    launcher ([neuron-caching]). The compiler reads the variable when a graph is compiled, after
    the imports.

    ## Example
    ```python
    import torch

    with torch.cuda.amp.autocast():
        loss = model(x)
    ```

    ## Use instead
    ```python
    import os
    import torch

    os.environ["NEURON_CC_FLAGS"] = os.environ.get("NEURON_CC_FLAGS", "") + " --auto-cast=none"
    with torch.autocast("xla", dtype=torch.bfloat16):
        loss = model(x)
    ```
    """

    code = "TRN304"
    name = "auto-cast-compiler-flag"
    summary = "`--auto-cast=none` appended to `NEURON_CC_FLAGS` where autocast was rewritten"
    safety = Safety.SAFE
    severity = Severity.WARNING
    sources = ("neuron-bf16", "xla-amp", "neuron-envvars", "neuron-cc-cli", "neuron-caching")


class GradScalerRemoved(Rule):
    """## What it does
    Removes a CUDA `GradScaler` (`torch.cuda.amp.GradScaler(...)`, `torch.amp.GradScaler("cuda")`)
    assigned to a name when every use of that name is a statement of one of these forms:
    `scaler.scale(loss).backward()` → `loss.backward()`, `scaler.step(optimizer)` →
    `optimizer.step()`, `scaler.update()` and `scaler.unscale_(optimizer)` → removed. A block left
    empty gets `pass`. `enabled=` needs no keeping: a disabled scaler makes the same plain calls.

    ## Why
    bf16 has the range of float32, so gradient scaling is "not necessary" ([xla-amp];
    [neuron-bf16, xla-amp]). A removed scaler no longer skips a step whose gradients hold inf/NaN,
    hence the `review` class.

    ## Example
    ```python
    scaler = torch.cuda.amp.GradScaler()
    scaler.scale(loss).backward()
    scaler.step(optimizer)
    scaler.update()
    ```

    ## Use instead
    ```python
    loss.backward()
    optimizer.step()
    ```
    """

    code = "TRN305"
    name = "grad-scaler"
    summary = "CUDA `GradScaler` removed (bf16 needs no loss scaling)"
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = ("neuron-bf16", "xla-amp")


class GradScalerKept(Rule):
    """## What it does
    Keeps a CUDA `GradScaler` that is used in ways the tool cannot drop — saved or loaded with
    `state_dict()`, read with `get_scale()`, passed to a function, stored on an attribute,
    assigned twice — and disables it: `GradScaler()` → `GradScaler(enabled=False)` (an
    `enabled=` already given is replaced). A disabled scaler passes every call through:
    `scale(loss)` returns `loss`, `step(opt)` calls `opt.step()`, `update()` and `unscale_()` do
    nothing, `get_scale()` is 1.0, `state_dict()` is `{}` and `load_state_dict()` ignores a saved
    state. In a file with no CUDA autocast rewritten to bf16 (a scaler made for a model that
    computes in float16 itself), or one whose autocast could not be rewritten or may still run
    in float16, the scaler is only reported.

    ## Why
    bf16 needs no loss scaling ([neuron-bf16, xla-amp]). A CUDA scaler does not disable itself
    on Trainium: with torch_xla installed, `amp_definitely_not_available()` is False, so it stays
    enabled, scales on the XLA device and reads its inf check on the host in every `step()`:
    2.2 graph executions a step against 1.0 disabled, with the same weights after 5 steps
    [measured-grad-scaler-on-xla]. Removing the scaler's uses (a checkpoint's `"scaler"` entry,
    logging of the scale) is left to a person.

    ## Example
    ```python
    scaler = torch.cuda.amp.GradScaler()
    checkpoint = {"model": model.state_dict(), "scaler": scaler.state_dict()}
    ```

    ## Use instead
    ```python
    scaler = torch.cuda.amp.GradScaler(enabled=False)
    checkpoint = {"model": model.state_dict(), "scaler": scaler.state_dict()}
    ```
    """

    code = "TRN306"
    name = "grad-scaler-kept"
    summary = "CUDA `GradScaler` with uses the tool cannot drop → kept, `enabled=False`"
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = ("neuron-bf16", "xla-amp", "measured-grad-scaler-on-xla")


RULES: tuple[type[Rule], ...] = (
    CudaAutocast,
    AutocastRegion,
    UnresolvedAutocast,
    AutoCastCompilerFlag,
    GradScalerRemoved,
    GradScalerKept,
)
