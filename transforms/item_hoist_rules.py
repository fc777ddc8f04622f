"""The rules of the ``item-hoist`` pass: per-step ``.item()`` syncs in training and evaluation loops
are kept on the device and read only at log steps
([xla-model, neuron-guide, xla-troubleshoot, neuron-debug, torchneuron-overview]), and the ones it
cannot move are reported. Their documentation is what ``trncodemod explain`` prints.
"""

from __future__ import annotations

from trncodemod.findings import Rule, Safety, Severity


class ItemAccumulator(Rule):
    """## What it does
    Rewrites a per-step accumulation of a host value (`total += loss.item()`,
    `losses.append(loss.item())`, `correct += pred.eq(y).sum().item()`) to accumulate on the
    device (`total += loss.detach()`), and turns the accumulator back into a Python number once,
    right after the loop (`total = float(total)`, `correct = int(correct)`,
    `losses = torch.stack(losses).flatten().tolist() if losses else []`). Reads of a running
    total in logging inside the loop become `float(total)`, and so do its reads in the body of
    a logging-interval guard (`if batch % log_interval == 0 and batch > 0: cur_loss = total /
    log_interval`, pytorch/examples' word_language_model), which run once an interval.

    Only done when it is certain: the accumulator is set to a number (or `[]`) before the loop in
    the same function, and inside the loop it is only accumulated, reset to a number, or read by
    logging that this pass guards or under a logging-interval guard. Whether it ends as an `int` or a `float` must be known: a
    comparison count (`.eq(...).sum()`) is an `int`; a tensor that `.backward()` is called on, a
    `.mean()`, a loss function's result or a `float(...)` is a `float`.

    Never half a port: the loop must get its graph cut (an MpDeviceLoader, a marker at the top
    of its body, or the one TRN101/TRN102 adds). Where the cut is declined - the loop's only
    marker runs on some iterations (TRN103), or TRN101/TRN102 is not selected or is suppressed
    on the loop - the `.item()` stays and TRN125 says why: summed on the device with no cut, the
    pending graph grows by one forward pass a batch. Measured on XLA:CPU
    ([measured-half-port]: 16 evaluation batches that also read the predictions
    with `.tolist()`): 181 IR nodes pending in the sum at the end of the loop without a cut,
    1 with the cut, the same loss.

    ## Why
    `.item()`, `float(t)` and `int(t)` execute the pending graph and copy the value to the host
    ([xla-troubleshoot, neuron-debug, measured-host-read-ops], measured: one device-to-host transfer
    each). Summing on the device removes that sync from every step ([xla-model, neuron-guide];
    [xla-mnist]). The sum is now done in the tensor's dtype (float32
    rather than Python's float64, bf16 if the loss is bf16; Neuron keeps running losses in fp32,
    [xla-model, neuron-guide]), and an empty loop leaves `float(0)`: review the last digits of
    printed averages.

    ## Example
    ```python
    correct = 0
    for data, target in loader:
        correct += output.argmax(1).eq(target).sum().item()
    ```

    ## Use instead
    ```python
    correct = 0
    for data, target in loader:
        correct += output.argmax(1).eq(target).sum()
    correct = int(correct)
    ```
    """

    code = "TRN121"
    name = "item-accumulator"
    summary = "per-step `.item()` accumulation → on-device accumulator, read once after the loop"
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = (
        "xla-model",
        "neuron-guide",
        "xla-troubleshoot",
        "neuron-debug",
        "measured-host-read-ops",
        "xla-mnist",
        "measured-half-port",
    )


class ItemLogInterval(Rule):
    """## What it does
    Guards logging that reads a device value every step (`print`, `logging`/`logger.*`,
    `tqdm.set_postfix`, `writer.add_scalar`, `wandb.log`, `accelerator.log`, ...) with an
    interval on the loop's own counter: `if step % args.log_interval == 0:` when the script has a
    `log_interval` argument, else the configured `log-interval`. For XLA targets the guarded call
    runs in `xm.add_step_closure`, with the values it reads passed as `args` (closures bind late),
    when a sync follows it in the same iteration (`torch_xla.sync()`, `xm.mark_step()`, or a
    device loader without `break`); otherwise it reads the value directly at log steps. For the
    `neuron` target it reads directly: TorchNeuron has no step closures ([torchneuron-overview]).

    A value read only to be logged (`lossf = loss.item() * accumulation_steps` right before the
    `print`, read nowhere else in the loop nor after it) moves under the guard with the logging
    that reads it; a value also used otherwise stays and is reported (TRN124/TRN125). A value
    read only for a log further down, where the tensor it reads may be rebound in between
    (dcgan's `D_x = output.mean().item()`, with `output` rebound twice before the print), stays where it
    is as a tensor, `D_x = output.mean().detach()`, where that prints the same text: the read is
    the whole value, `.item()` of a whole reduction (`.mean()`, `.sum()`, `.std()`, ... with no
    argument: a new 0-d tensor nothing else holds to change in place), and every read of the
    name is formatted as a float (`%.4f` of a `%` tuple,
    `{D_x:.4f}`; a 0-d tensor formats through its `.item()` there, not with `%s`, `{}` or
    `str()`). Otherwise nothing is guarded where the step reads other values on the host every
    step anyway (another `.item()`, or a `.cpu()` copy after the backward, `correct =
    pred.eq(target).cpu().sum()`, which runs a graph of its own every step): the log would thin and the syncs stay, so TRN125 says to keep them all as
    tensors and read them together. A `for`
    loop without a counter gets one (`for x in loader:` → `for step, x in enumerate(loader):`);
    a `while` loop without one is reported (TRN125). The finding says how often the output
    now appears.

    ## Why
    Every read of a device value syncs ([xla-troubleshoot, neuron-debug]); "it is advised to
    throttle the printing/reporting events once every N steps" (`xm.add_step_closure` docstring,
    [xla-model, neuron-guide]). The log now appears every N steps instead of every step: this is the
    point of the fix, and why it is `review`.

    ## Example
    ```python
    for step, (x, y) in enumerate(loader):
        ...
        print(f"step {step} loss {loss.item():.4f}")
    ```

    ## Use instead
    ```python
    for step, (x, y) in enumerate(loader):
        ...
        if step % 10 == 0:
            def _log(step, loss):
                print(f"step {step} loss {loss.item():.4f}")
            xm.add_step_closure(_log, args=(step, loss))
    ```
    """

    code = "TRN122"
    name = "item-log-interval"
    summary = "per-step logging of a device value → every N steps (in a step closure on XLA)"
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = (
        "xla-model",
        "neuron-guide",
        "xla-troubleshoot",
        "neuron-debug",
        "torchneuron-overview",
    )


class ItemLogClosure(Rule):
    """## What it does
    Moves logging that already runs under an interval guard (`if step % N == 0:`) and reads a
    device value into `xm.add_step_closure`, passing the values as `args`, when a sync follows in
    the same iteration. Only for XLA targets; nothing changes for `neuron`.

    ## Why
    "The printing of lazy tensors should be wrapped using `xm.add_step_closure()` to avoid
    unnecessary compilation-and-executions" (Neuron programming guide, [xla-model, neuron-guide]).
    The log lines are the same, but they are printed at the sync that follows, after the step's
    graph ran: output written in between now comes first, hence `review`. During
    `neuron_parallel_compile` graph extraction the values are not real
    (`NEURON_EXTRACT_GRAPHS_ONLY`, [xla-model, neuron-guide]).

    ## Example
    ```python
    if step % 10 == 0:
        print(f"loss {loss.item():.4f}")
    torch_xla.sync()
    ```

    ## Use instead
    ```python
    if step % 10 == 0:
        def _log(loss):
            print(f"loss {loss.item():.4f}")
        xm.add_step_closure(_log, args=(loss,))
    torch_xla.sync()
    ```
    """

    code = "TRN123"
    name = "item-log-closure"
    summary = "interval-guarded logging of a device value → `xm.add_step_closure`"
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = ("xla-model", "neuron-guide")


class ItemControlFlow(Rule):
    """## What it does
    Reports a per-step `.item()` (or `float(t)`, `int(t)`) whose value drives control flow or
    host logic in the same step: `if loss.item() > limit`, a NaN check that `break`s,
    `math.isnan(...)`, `scheduler.step(val)`, early stopping. Nothing is rewritten.

    ## Why
    The value is needed before the step can go on, so moving it would change what the program does
    ([xla-model, neuron-guide]). Each such read executes the graph and copies to the host
    ([xla-troubleshoot, neuron-debug]); a data-dependent branch also compiles a graph per branch
    combination.

    ## Example
    ```python
    if torch.isnan(loss).item():
        break
    ```

    ## Use instead
    ```python
    # compute with tensor ops (torch.where) or check every N steps:
    if step % 100 == 0 and torch.isnan(loss).item():
        break
    ```
    """

    code = "TRN124"
    name = "item-control-flow"
    summary = "per-step `.item()` that drives control flow (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = ("xla-model", "neuron-guide", "xla-troubleshoot", "neuron-debug")


class ItemPerStepSync(Rule):
    """## What it does
    Reports a per-step `.item()` (or `float(t)`, `int(t)`, `.tolist()`) in a training or
    evaluation loop that the pass could not move with certainty; the message says why (no loop
    counter to guard logging with, an accumulator that is used for something else, a value kept
    in a variable, ...), or that is guarded by a logging interval of 1 (`if step %
    log_interval == 0:` with `log_interval = 1` the module's only binding of it, or the literal),
    which holds every step. Nothing is rewritten.

    ## Why
    Each read executes the pending graph and copies the value to the host, every step
    ([xla-troubleshoot, neuron-debug, measured-fallback-ops]).

    ## Example
    ```python
    for x, y in loader:
        ...
        print(loss.item())
    ```

    ## Use instead
    ```python
    for step, (x, y) in enumerate(loader):
        ...
        if step % 10 == 0:
            print(loss.item())
    ```
    """

    code = "TRN125"
    name = "item-per-step-sync"
    summary = "per-step `.item()` the pass could not move (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = (
        "xla-model",
        "neuron-guide",
        "xla-troubleshoot",
        "neuron-debug",
        "measured-fallback-ops",
    )


class ItemMeter(Rule):
    """## What it does
    Hands a meter the loss tensor instead of its host value: `losses.update(loss.item(), n)` →
    `losses.update(loss.detach(), n)`, where `losses` is an instance of a class (of this module
    or one it imports) whose method only does arithmetic with the value and stores it
    (pytorch/examples' `AverageMeter.update`: `self.val = val; self.sum += val * n; self.avg =
    self.sum / self.count`), and whose attributes holding it are only formatted
    (`'{val:.4e}'.format(**self.__dict__)`, `f"{self.avg:.3f}"`), put in `torch.tensor([...])`,
    or used in more such arithmetic. Such a class computes the same numbers from a 0-d tensor
    and prints the same text (a 0-d tensor formats through its `.item()`), read at log steps
    only. The same script already hands that meter device tensors (`top1.update(acc1[0], n)`).

    Only done when it is certain: the value read is the loss `backward()` is called on, bound
    in the loop by a call of a loss function or criterion (a 0-d tensor) and never changed in
    place (`loss.div_(n)` would change the meter's `loss.detach()` with it); the meter is bound in
    the function only by the class's constructor; it is used there only through its methods
    and its other attributes, or handed to print/str/format or to a function or class of this
    module; and nothing in the module reads a holding attribute of an object that may be it
    (`meter.avg` of a meter list's element, `self.losses.avg`). Otherwise TRN125 reports the read.

    ## Why
    `loss.item()` before `backward()` executes the forward graph and copies the loss to the host
    every step ([xla-troubleshoot, neuron-debug]): the step runs as two graphs and one transfer. On
    the device, the meter's sums join the step's graph and are read only when the progress is
    printed. The sums are now done in the loss's dtype (float32, not Python's float64): the last
    digits of printed averages may differ.

    ## Example
    ```python
    losses = AverageMeter("Loss", ":.4e")
    for i, (images, target) in enumerate(loader):
        loss = criterion(model(images), target)
        losses.update(loss.item(), images.size(0))
        loss.backward()
    ```

    ## Use instead
    ```python
    losses = AverageMeter("Loss", ":.4e")
    for i, (images, target) in enumerate(loader):
        loss = criterion(model(images), target)
        losses.update(loss.detach(), images.size(0))
        loss.backward()
    ```
    """

    code = "TRN126"
    name = "item-meter"
    summary = "`meter.update(loss.item(), n)` → `meter.update(loss.detach(), n)` for an arithmetic meter class"
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = ("xla-troubleshoot", "neuron-debug", "xla-model", "neuron-guide")


class ItemMeterPrints(Rule):
    """## What it does
    Reports a print of meters that hold device tensors where one print reads two or more values:
    after TRN126 hands a meter the loss tensor, each value its class's `__str__` formats (`{val}`,
    `{avg}`) is read from the device by a transfer of its own when the meter is printed, and so is
    every value of the other meters printed with it that the loop hands tensors
    (`top1.update(acc1[0], n)`). A print is `print`/`str`/`format` of the meter, a function of
    the module handed it (`display(i, [losses, top1])`), or a method of an object of the
    module's classes constructed with it (`progress.display(i)` of pytorch/examples'
    `ProgressMeter`). The finding counts the transfers, says which are certain, and stands at
    the print.

    ## Why
    The step itself no longer reads anything (TRN126), but a log step of pytorch/examples' ImageNet
    trainer reads six values one at a time (three meters, value and average each): six transfers
    where one would do, and each value that is a view (`acc1[0]`) runs a one-op graph to be read
    ([measured-value-reads], on XLA:CPU, torch-xla 2.9: a 0-d tensor computed in the step costs 1
    transfer and no execution; a view of one, 1 and 1). Stacked in the step, before its graph cut,
    they are computed by the step's graph (the same graph every step, whether it logs or not) and
    read by one transfer ([measured-programs], on the ImageNet trainer: 1 graph a step, 1 transfer a
    log step, down from 1 to 3 graphs and 6 transfers). That changes the script's own logging code,
    which the tool does not rewrite.

    ## Example
    ```python
    for i, (images, target) in enumerate(loader):
        ...
        losses.update(loss.detach(), images.size(0))
        top1.update(acc1[0], images.size(0))
        optimizer.step()
        torch_xla.sync()
        if i % print_freq == 0:
            progress.display(i + 1)
    ```

    ## Use instead
    ```python
    for i, (images, target) in enumerate(loader):
        ...
        losses.update(loss.detach(), images.size(0))
        top1.update(acc1[0], images.size(0))
        shown = torch.stack([losses.val, losses.avg, top1.val, top1.avg])
        optimizer.step()
        torch_xla.sync()
        if i % print_freq == 0:
            losses.val, losses.avg, top1.val, top1.avg = shown.cpu().tolist()
            progress.display(i + 1)
    ```
    """

    code = "TRN127"
    name = "item-meter-prints"
    summary = "a print of device meters reads each value by its own transfer (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = (
        "xla-model",
        "neuron-guide",
        "xla-troubleshoot",
        "neuron-debug",
        "measured-value-reads",
        "measured-programs",
    )


RULES: tuple[type[Rule], ...] = (
    ItemAccumulator,
    ItemLogInterval,
    ItemLogClosure,
    ItemControlFlow,
    ItemPerStepSync,
    ItemMeter,
    ItemMeterPrints,
)
