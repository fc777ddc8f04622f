"""The rules of the ``host-sync`` pass: host reads of device values inside a training or
evaluation step are reported
([xla-troubleshoot, neuron-debug, xla-model, neuron-guide, torchneuron-overview]). Their
documentation is what ``trncodemod explain`` prints.
"""

from __future__ import annotations

from trncodemod.findings import Rule, Safety, Severity


class ItemInInnerLoop(Rule):
    """## What it does
    Reports `.item()` in a loop nested inside a training or evaluation step (for example over
    parameters or over the items of a batch). Nothing is rewritten. `.item()` in the step loop's
    own body is the `item-hoist` pass's (TRN121–TRN125).

    ## Why
    Each `.item()` executes the pending graph and copies one value to the host
    ([xla-troubleshoot, neuron-debug]; [measured-host-reads]: one transfer each); inside an inner
    loop that is once per inner iteration, every step. When the value decides a branch, every branch
    combination is also another graph.

    ## Example
    ```python
    for x, y in loader:
        ...
        for name, p in model.named_parameters():
            if p.grad.norm().item() > 10:
                print(name)
    ```

    ## Use instead
    ```python
    norms = torch.stack([p.grad.norm() for p in model.parameters()])   # on the device
    if step % 100 == 0:
        print(norms.max().item())                                      # one read every N steps
    ```
    """

    code = "TRN401"
    name = "item-in-inner-loop"
    summary = "`.item()` in a loop nested in the step: a sync per inner iteration (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = (
        "xla-troubleshoot",
        "neuron-debug",
        "xla-model",
        "neuron-guide",
        "measured-host-reads",
    )


class TolistInStep(Rule):
    """## What it does
    Reports `t.tolist()` on a device tensor inside a training or evaluation step. A reduction's
    `.tolist()` (`x.sum().tolist()`) in the step loop's own body is `item-hoist`'s, and a
    `.tolist()` after `.cpu()` is reported at the `.cpu()`.

    ## Why
    Executes the pending graph and copies the whole tensor to the host every step
    ([xla-troubleshoot, neuron-debug, measured-host-read-ops], measured: 1 execution, 1 transfer).

    ## Example
    ```python
    predictions.extend(logits.argmax(-1).tolist())
    ```

    ## Use instead
    ```python
    predictions.append(logits.argmax(-1))           # on the device
    ...
    predictions = torch.cat(predictions).tolist()   # once, after the loop
    ```
    """

    code = "TRN402"
    name = "tolist-in-step"
    summary = "`.tolist()` of a device tensor every step (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = ("xla-troubleshoot", "neuron-debug", "measured-host-read-ops")


class CopyToHostInStep(Rule):
    """## What it does
    Reports `.cpu()`, `.to("cpu")`, `.to(device="cpu")` and `.to(torch.device("cpu"))` inside a
    training or evaluation step (one finding per chain: `x.detach().cpu().numpy()` is reported at
    `.cpu()`). A loop target that the step never moves to the device is a host batch and is not
    reported, nor is a copy passed straight to a function that would read the tensor element
    by element (TRN447's fix: one copy instead of one per element).

    ## Why
    An explicit device-to-host copy: it executes the pending graph and waits for the transfer, every
    step ([xla-troubleshoot, neuron-debug, measured-host-read-ops], measured: 0–1 executions, 1
    transfer). On TorchNeuron host reads synchronise too ([torchneuron-overview]).

    ## Example
    ```python
    all_preds.append(logits.argmax(-1).cpu())
    ```

    ## Use instead
    ```python
    all_preds.append(logits.argmax(-1))          # keep on the device
    all_preds = torch.cat(all_preds).cpu()       # one copy after the loop
    ```
    """

    code = "TRN403"
    name = "copy-to-host-in-step"
    summary = "`.cpu()` / `.to('cpu')` every step (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = ("xla-troubleshoot", "neuron-debug", "torchneuron-overview", "measured-host-read-ops")


class NumpyOnDevice(Rule):
    """## What it does
    Reports `.numpy()` called directly on a device tensor (no `.cpu()` before it) inside a
    training or evaluation step.

    ## Why
    It raises: `TypeError: can't convert xla:0 device type tensor to numpy. Use Tensor.cpu() to copy
    the tensor to host memory
    first.` ([measured-host-conversions], torch_xla 2.9). Code that ran on the CPU before the
    migration breaks once its tensors live on the device.

    ## Example
    ```python
    scores = torch.sigmoid(logits).detach().numpy()
    ```

    ## Use instead
    ```python
    scores = torch.sigmoid(logits).detach().cpu().numpy()   # better: once, after the loop
    ```
    """

    code = "TRN404"
    name = "numpy-on-device"
    summary = "`.numpy()` on a device tensor raises `TypeError` (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.ERROR
    sources = ("xla-troubleshoot", "neuron-debug", "measured-host-conversions")


class PrintTensorInStep(Rule):
    """## What it does
    Reports a device tensor that a step formats as text: an argument of `print(...)`, a value in
    an f-string, an argument of `str.format(...)`, `str(t)` or `repr(t)`. Printing `.item()` is
    `item-hoist`'s.

    ## Why
    Formatting a tensor reads its value: one execution and one transfer each time
    ([xla-troubleshoot, neuron-debug]; Neuron: "when you explicitly request the value of a tensor
    such as by calling `loss.item()` or `print(loss)`"). On TorchNeuron printing synchronises too
    ([torchneuron-overview]).

    ## Example
    ```python
    print(f"step {step} loss {loss}")
    ```

    ## Use instead
    ```python
    if step % 10 == 0:
        print(f"step {step} loss {loss}")   # on XLA, inside xm.add_step_closure
    ```
    """

    code = "TRN405"
    name = "print-tensor-in-step"
    summary = "printing or formatting a device tensor every step (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = (
        "xla-troubleshoot",
        "neuron-debug",
        "xla-model",
        "neuron-guide",
        "torchneuron-overview",
    )


class TensorTruthInStep(Rule):
    """## What it does
    Reports the truth value of a device tensor taken inside a step: `if t…:`, `while t…:`,
    `assert t…`, `x if t… else y`, `bool(t)`, `not t`, including comparisons with a device tensor
    (`if loss < best:`) and `torch.isnan(...)`, `torch.equal(...)`, `torch.allclose(...)`. A test
    that an interval guard short-circuits (`step % 100 == 0 and torch.isnan(loss).any()`) is not
    reported. `if t.item() …` is `item-hoist`'s (TRN124).

    ## Why
    Python needs the value to go on: the graph executes and one value is copied to the host
    (`aten::_local_scalar_dense`, [xla-troubleshoot, neuron-debug, measured-fallback-ops]), and each
    combination of branches is another graph ([xla-recompile-sources]).

    ## Example
    ```python
    if torch.isnan(loss):
        break
    ```

    ## Use instead
    ```python
    loss = torch.where(torch.isnan(loss), torch.zeros_like(loss), loss)   # stay on the device
    # or check it every N steps: if step % 100 == 0 and torch.isnan(loss): break
    ```
    """

    code = "TRN406"
    name = "tensor-truth-in-step"
    summary = "`if`/`while`/`assert`/`bool()` on a device tensor every step (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = ("xla-troubleshoot", "neuron-debug", "measured-fallback-ops", "xla-recompile-sources")


class ClipGradNonfinite(Rule):
    """## What it does
    Reports `torch.nn.utils.clip_grad_norm_(..., error_if_nonfinite=True)` inside a step.

    ## Why
    The check for a non-finite norm happens on the host [measured-clip-nonfinite]: on torch_xla 2.9,
    2 graph executions and 2 device-to-host transfers per call, against 0 and 0 with the default
    `error_if_nonfinite=False` ([xla-troubleshoot, neuron-debug]).

    ## Example
    ```python
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0, error_if_nonfinite=True)
    ```

    ## Use instead
    ```python
    norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    if step % 100 == 0 and not torch.isfinite(norm):
        raise RuntimeError("non-finite gradient norm")
    ```
    """

    code = "TRN407"
    name = "clip-grad-nonfinite"
    summary = "`clip_grad_norm_(..., error_if_nonfinite=True)` syncs twice per step (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = ("xla-troubleshoot", "neuron-debug", "measured-clip-nonfinite")


class HostReadReachedFromStep(Rule):
    """## What it does
    Reports `.item()`, `.cpu()`, `.numpy()` and `.tolist()` in a function that a training step
    calls, in this module or another one given in the same run, at the line of the read, with
    the chain of calls from the step: `train.py:120 → compute_loss → match → matcher.py:77`.
    The per-file diagnostics see only the step loop's own code; the program model
    (`trncodemod/analysis/program.py`) follows the calls.

    ## Why
    A read to the host executes the pending graph and waits for the transfer, every step, wherever
    in the step's calls it is ([xla-troubleshoot, neuron-debug]). Whether the value is a device
    tensor is not known across the call, so this is a note to check, not a certain cost.

    ## Example
    ```python
    # matcher.py, called by the loss every step
    cost = out.detach().cpu().numpy()
    ```

    ## Use instead
    ```python
    cost = out.detach()   # keep it on the device; read it to the host every N steps
    ```
    """

    code = "TRN802"
    name = "host-read-reached-from-step"
    summary = "host read in a function a training step calls, with the call chain (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = ("xla-troubleshoot", "neuron-debug")


class ElementReadsOfDeviceTensor(Rule):
    """## What it does
    Reports a call in a training or evaluation step that passes a device tensor to a function
    of the program which reads that parameter element by element in a Python loop on the host:
    an element compared and taken as a truth value (`if t[i] != 0`), used as a Python index
    (`self.character[t[i]]`, `for i in t[row]: chars[i]`, `range(length[k])`), or converted
    with `int()`/`float()`/`.item()`. The function is found through the program's calls
    (a method of an instance passed as a parameter, in another module); the tensor must be
    visibly on the device in the step (a model's output, a value computed from one, a batch
    moved with `.to(device)`). Where the tensor is already copied (`.cpu()`) before the call, or
    the function copies it before its loop, nothing is reported. The same read written in the
    step itself, an element of a device tensor as a Python index in a loop inside the step
    (`vocab[preds[k, i]]`, `for i in row: vocab[i]` over a row of one), is reported once per
    loop; an element taken as a truth value there is TRN406's. Nothing is rewritten.

    ## Why
    Each element read executes the pending graph and copies one value to the host
    ([xla-troubleshoot, neuron-debug]); in a loop over the elements that is once per element,
    every step. Measured on XLA:CPU ([measured-element-reads]): deep-text-recognition-benchmark's
    greedy CTC decode of 8x24 indices made 550 graph executions and 550 host copies, its
    attention decode 192; after one `.cpu()` of the indices, 1 each, with the same text.
    Iterating the rows or comparing elements without reading the result costs nothing.

    ## Example
    ```python
    _, preds_index = preds.max(2)
    preds_str = converter.decode(preds_index, preds_size)   # for i in range(l): if t[i] != 0 ...
    ```

    ## Use instead
    ```python
    _, preds_index = preds.max(2)
    preds_str = converter.decode(preds_index.cpu(), preds_size)   # one copy, then host reads
    ```
    """

    code = "TRN447"
    name = "element-reads-of-device-tensor"
    summary = "a device tensor read element by element in a host loop (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = ("xla-troubleshoot", "neuron-debug", "measured-element-reads")


RULES: tuple[type[Rule], ...] = (
    ItemInInnerLoop,
    TolistInStep,
    CopyToHostInStep,
    NumpyOnDevice,
    PrintTensorInStep,
    TensorTruthInStep,
    ClipGradNonfinite,
    HostReadReachedFromStep,
    ElementReadsOfDeviceTensor,
)
