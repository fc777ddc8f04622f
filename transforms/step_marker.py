"""Step markers: every training and evaluation loop cuts the lazy graph once per iteration, at the
same position ([xla-devices, neuron-mnist, xla-recompile-sources])."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

import libcst as cst
import libcst.matchers as m
from libcst.metadata import PositionProvider

from trncodemod.analysis import training
from trncodemod.analysis.facts import FileFacts, resolve
from trncodemod.analysis.host_cut import (
    done_reading,
    fetches_prepared_batch,
    first_hand_off,
    first_host_read,
    host_read_cuts,
    own_movers,
    own_readers,
    reading,
    reads_all_on_host,
)
from trncodemod.analysis.loops import (
    STEP_CONTEXTS,
    STEP_MARKERS,
    LoopInfo,
    dotted,
    find_step_loops,
    is_device_loader,
    is_interval_guard,
    is_model_call,
    is_optimizer_step,
    own_statements,
    top_level_expressions,
    unwrap_iterable,
)
from trncodemod.analysis.no_device import own_run_without_device, trains_without_device
from trncodemod.analysis.nodes import children, find, is_main_test, walk
from trncodemod.analysis.step_scan import StepLoop, may_have_step_loop, step_scan
from trncodemod.findings import Rule, Safety, Severity
from trncodemod.passes import Pass
from trncodemod.targets import Api, Target

# What already cuts the graph: the step marker, or the `torch_xla.step()` context manager.
_MARKERS = STEP_MARKERS | STEP_CONTEXTS
_ITERATION_ENDS = (cst.Continue, cst.Break, cst.Return)
_DATA_LOADERS = frozenset({"torch.utils.data.DataLoader", "torch.utils.data.dataloader.DataLoader"})
_KEYWORDS = {
    cst.If: "if",
    cst.Try: "try",
    cst.TryStar: "try",
    cst.With: "with",
    cst.Match: "match",
    cst.For: "for",
    cst.While: "while",
}


# What builds a host sequence (timesteps, index pairs), never a loader.
_SEQUENCES = frozenset({"list", "tuple", "zip", "range", "reversed", "sorted", "enumerate"})


def _host_sequence(value: cst.BaseExpression) -> bool:
    if isinstance(value, cst.List | cst.Tuple | cst.ListComp):
        return True
    return (
        isinstance(value, cst.Call)
        and isinstance(value.func, cst.Name)
        and value.func.value in _SEQUENCES
    )


# Tensor methods a running total may call on what it adds (`total_loss += loss.detach()`).
_TOTAL_METHODS = frozenset({"detach", "float", "sum", "mean", "clone"})


def _running_total(statement: cst.BaseStatement) -> bool:
    """`total += loss.detach()` (item-hoist's TRN121 makes it of `total += loss.item()`): an
    in-place sum with no call but those methods, so nothing in it reads the device. After the
    optimizer step, the marker goes after it: the sum joins the step's graph, and its read at
    log steps transfers the value instead of running a second graph (word_language_model:
    1.33 executions a step before, 1.0 after)."""
    if not isinstance(statement, cst.SimpleStatementLine):
        return False
    for small in statement.body:
        if not m.matches(small, m.AugAssign(target=m.Name(), operator=m.AddAssign())):
            return False
        for node in walk(small.value):  # type: ignore[attr-defined]
            if isinstance(node, cst.Call) and not m.matches(
                node, m.Call(func=m.Attribute(attr=m.OneOf(*map(m.Name, _TOTAL_METHODS))), args=[])
            ):
                return False
    return True


# How far a loop may sit from its mapped line (lines earlier passes added just above it).
_LINE_SLACK = 3


class TrainLoopStepMarker(Rule):
    """## What it does
    Inserts the target's step marker into a training loop (a `for`/`while` whose own body calls
    `.backward()` or steps an optimizer): right after the statement at the top of the loop body that
    holds the last optimizer step (a step nested in `if`/`try`/`with`, as in gradient accumulation,
    gets the marker after that whole statement), or at the end of the body when no optimizer step is
    recognised. A `continue` that would skip the marker gets one right before it, so every iteration
    that goes on to the next one cuts the graph exactly once. Running totals right after the
    optimizer step (`total_loss += loss.detach()`, no other call) go before the marker: the sum is
    computed in the step's graph, and the log step that reads it (`float(total_loss)`) transfers the
    value instead of running a second graph ([measured-programs], measured on pytorch/examples'
    word_language_model: 1.33 graph executions a step before, 1.0 after).

    Values read on the host every iteration after a step move the marker up, before the
    first of them: where they sit between two optimizer steps (a critic's losses read with
    `.item()` after it steps, before the generator's conditional step), the marker goes after
    the first step's statement; where no optimizer step is recognised (a sharpness-aware
    optimizer's `first_step`/`second_step`), right before the statement that reads after the
    last backward pass, inside a `with torch.no_grad():` block that holds it. A marker after
    the reads leaves each read to run the step's graph again ([measured-train-host-read], XLA:CPU,
    8 iterations: 3.25 graph executions an iteration against 1.25 for the critic, 3.0 against
    1.0 for the two-pass step, with the same values read).

    Gradient accumulation gets one cut per optimizer step by default (`accumulation-cut =
    "optimizer-step"`): inside the accumulation `if` (`if (i + 1) % n == 0:`, no `else`, no
    `continue` before it), right after the statement that holds the optimizer step; a micro-batch
    loop (one that calls backward without stepping, nested in the loop that steps) gets none.
    `accumulation-cut = "micro-batch"` cuts after every micro-batch instead: smaller graphs,
    micro-batches + 1 graph executions per optimizer step ([measured-gradient-accumulation]: 3.0
    with two micro-batches in a nested loop, 1.0 with one cut per step). The finding names the
    choice.

    Conditional optimizer steps are not gradient accumulation: where another optimizer steps on
    every iteration outside the `if` (a critic that steps every iteration, a generator under
    `if i % n_critic == 0:`), the marker goes after the `if`, once per iteration. A cut inside
    the generator's `if` leaves `n_critic` critic steps in one graph: on a WGAN stand-in
    ([measured-critic-steps]: 5 critic steps per generator step, 20 iterations, XLA:CPU) it ran
    5 graphs of up to 663 IR nodes and compiled 3, against 20 graphs of at most
    214 nodes and 2 compiles with the cut after the `if`, with the same losses.

    A step in a function called from a loop is that loop's step: a module-level function
    whose own body (outside any loop of its own) steps an optimizer, called by its name from a
    loop of the module that cuts no graph (`def train(epoch): ... optimizer.step()`, then
    `for epoch in range(n): train(epoch)`, also inside `main()`), gets the marker right after the
    statement that holds its last optimizer step. Without it the parameters stay pending and
    each call's graph holds every earlier one: a dense GCN stand-in, 8 epochs, compiled 25
    graphs in 181 s, against 4 in 9.7 s with the cut ([measured-step-function]). A function
    called once, or from a loop that cuts or iterates an MpDeviceLoader, gets none.

    The same holds across modules and for methods, through whatever the program can follow
    (instances, attributes, parameters, imports): a function or method that steps an optimizer
    outside any loop of its own, and that every call found runs once per iteration of a loop
    that cuts no graph, gets the marker after its last optimizer step. An on-policy agent's
    `update(self, rollouts)` that steps once and returns `value_loss.item(), ...`, called as
    `agent.update(rollouts)` in `for j in range(num_updates):` with `agent` built by one of
    several classes, is the loop's step. The cut goes in the method, before its reads, not
    after the call: there it would come after the `.item()`s, each of which runs the forward
    pass first, and it would cut a second time where another class's `update` has a step loop
    of its own with its cut. On an A2C stand-in ([measured-step-method], XLA:CPU, 6 updates)
    without a cut, 1,553 IR lines were pending on a parameter at the end and every update
    compiled 13 graphs (174 s); with the cut in the method, 3 lines and no compile after the
    first two updates (7.3 s); with the cut after the call, 14 graph executions an update
    against 11, since each `.item()` ran a graph of its own. A
    function called once outside any loop, or from a loop that cuts (a marker, a step of its
    own, a device loader, or a loop over device batches whose own cut the marker adds), gets
    none.

    Loops that iterate an `MpDeviceLoader`/`ParallelLoader` (directly, through `enumerate`/`tqdm`,
    or through a variable assigned from one) and loops that already call a marker
    (`xm.mark_step()`, `torch_xla.sync()`, `with torch_xla.step():`,
    `xm.optimizer_step(..., barrier=True)`, any alias) are left alone, and so are loops that take
    every batch from what `accelerator.prepare` returned: iterating it, or with `next(it)` through
    `iter()`/`cycle()` and names or `self.` attributes (accelerate wraps it in an MpDeviceLoader on
    XLA); an iterator handed to `prepare` (`cycle(DataLoader(...))`) comes back as it is, and its
    loop gets the marker. Nothing is inserted for the `neuron` target, whose eager backend has no graph to cut.

    ## Why
    torch_xla records operations lazily; without a cut the graph grows with every iteration and is
    compiled again and again ([xla-troubleshoot]). "Calling `torch_xla.sync()` at the end of each
    training iteration causes XLA to execute its current graph and update the model's parameters"
    ([xla-devices]), and Neuron's MNIST sample calls `xm.mark_step()` right after
    `optimizer.step()` ([xla-devices, neuron-mnist]). The marker's location is part of the compiled
    graph's key, so it must sit at the same place every iteration ([neuron-caching]).
    `torch_xla.sync()` exists from torch-xla 2.4; the `xla-2.1` target gets `xm.mark_step()`
    ([xla-model, xla-api]).

    ## Example
    ```python
    for x, y in loader:
        optimizer.zero_grad()
        loss_fn(model(x), y).backward()
        optimizer.step()
    ```

    ## Use instead
    ```python
    import torch_xla

    for x, y in loader:
        optimizer.zero_grad()
        loss_fn(model(x), y).backward()
        optimizer.step()
        torch_xla.sync()
    ```
    """

    code = "TRN101"
    name = "train-loop-step-marker"
    summary = "training loop without a graph cut → step marker after the optimizer step"
    safety = Safety.SAFE
    severity = Severity.ERROR
    sources = (
        "xla-devices",
        "neuron-mnist",
        "xla-model",
        "xla-api",
        "measured-programs",
        "measured-gradient-accumulation",
        "measured-critic-steps",
        "measured-train-host-read",
        "measured-step-function",
        "measured-step-method",
        "xla-troubleshoot",
        "neuron-caching",
    )


class EvalLoopStepMarker(Rule):
    """## What it does
    Inserts the target's step marker at the end of the body of an evaluation loop (a `for` loop
    without backward or optimizer step that moves its batch to a device with `.to(...)`/`.cuda()`)
    or a sampling loop (a loop that calls the model every iteration from outside `forward`:
    `model(x)`, `self.net(x)`, `self(x)`, or a method of the class that does, as a diffusion
    sampler's `self.p_sample(img, t)`; or a loop over a generator method of the class that
    calls the model and yields each result), and before each `continue` of that loop.

    Never in a loop that builds the loss a later statement of its block differentiates (`loss
    += criterion(output, target[c])` over an RNN's time steps, then `loss.backward()`: the
    step's forward pass, unrolled, whose cut is the step's), a model's `forward`, a generator
    (its consumer's loop is the step), a loop nested
    in another training or evaluation loop (a per-image or per-sample loop: the batch loop's
    cut covers it), or a walk over a model's parameters, buffers, state dict or layers (an EMA
    update is one graph, not one per tensor). Nor in a loop that reads on the host, on every
    iteration, a value it computed in that iteration (`losses[k] = loss.item()`,
    `c[i].item()` in a per-sample loop inside it) and carries no device value to the next one
    (no device accumulator such as `total[0] += ...` on a `torch.zeros(...)`, no tensor rebuilt
    from itself such as `idx = torch.cat((idx, nxt))`) and hands none on (to a meter that sums
    on the device, `top1.update(acc1[0], n)`): the read runs the iteration's graph and
    the rest is dropped with the iteration, so a marker would add an execution for nothing. A
    value handed on is not dropped: without a cut the meter's sum holds one graph over every
    batch's forward pass until it is read ([measured-eval-host-read]: 140 IR nodes pending
    after 8 batches, 15 with the cut before the read; a validation set of 313 batches would
    compile one graph of 313 forward passes where the meter is printed).

    An evaluation loop that reads a value on the host every batch (`.item()`, `.tolist()`,
    `.cpu()`, `.numpy()`, `float(...)`, `int(...)`, `bool(...)`, in an `if` test too, or a
    tensor's `.any()`/`.all()` an `if` or `while` tests (`if is_eos.any(-1).all(): break`), on every
    branch of an `if`/`else`, or a call of a function of the module whose body reads that
    argument so on every call, as a helper that saves each prediction does) gets its marker
    right before the first such read, where it needs one at all: where it carries a
    device value to the next batch, and where it iterates an MpDeviceLoader, whose cut comes when
    the next batch is taken. A cut after the read runs the forward pass a second time for what
    is still alive: measured on XLA:CPU ([measured-eval-host-read]: 8 batches,
    `total += float(loss)`), 2.0 graph executions a batch with the cut after the read or with an
    MpDeviceLoader alone, 1.0 with the cut before the read (with or without the loader) or with
    no cut at all. No cut at all only where one read needs the values a cut before the first
    read would compute: several such reads (`out.cpu()`, `h.cpu()`, `float(loss)`) each run a
    graph over the shared forward pass, 3.0 executions a batch and 4 compiles against 1.0 and 1
    with the cut before the first. A read of a batch only moved to the device (`labels.cpu()`,
    with `labels = labels.to(device)`, or the batch a method of the module returns sliced and
    moved: device data, no graph to run) or of a value made after
    that point (`save_image(...)` of a second sample) does not count: an argmax read beside a
    read of its labels ran 1.0 executions a batch with no cut, 2.0 with the cut before the reads.
    An evaluation loop that reads nothing on the host itself but hands a value it computed by
    a call to another object's method in a statement of its own (`self.metric.add(outputs,
    labels)`, a metric of another module whose `add` reads `outputs.max(1)[1].cpu()`) gets its
    marker right before that call: whatever the method does, the forward pass runs once (a
    method that sums on the device joins the next batch's graph); a marker after it runs the
    forward pass again where the method reads (first-sight batch P, ENet's IoU metric: 0.43 to
    0.62 s of execution an epoch against 1.14 to 1.52 s). A list's `append`, a progress bar's
    postfix and a method of the value itself (`outputs.clamp_(0, 1)`) hand nothing on.
    A name an earlier statement of the iteration assigns (`trg = batch["trg"].to(device)`, then
    `trg = trg[1:].view(-1)`) is not carried; a sum of a tensor computed in the loop
    (`total += loss`) is.

    Nor where the marker could only go at the end of the body, after every read (reads in a
    per-sample loop, a tensor formatted into a string such as `f"{score:0.4f}"`, values handed
    to a decoder), and nothing the iteration computes leaves it but through those reads (printed,
    written as text) or is carried to the next batch: that marker would only run again what is
    still alive and dropped at the next iteration ([measured-eval-host-read]: three reads, 3.0
    executions a batch against 4.0 with the cut after them; a label read and a confidence
    formatted per sample, 9.0 against 10.0). A value handed to a call whose result is dropped
    (`valid_loss_avg.add(cost)`, a meter summing on the device), changed in place or stored into
    something made before the loop (`total.add_(...)`, `bank[i] = out`) keeps the marker.

    A warm-up or timing loop whose body only calls the model and drops what it returns
    (`for i in range(30): model(images)`) keeps each result in a name the function does not use
    (`out = model(images)`): on the lazy device a dropped result is never computed, so a cut
    after it would run nothing and the loop would time only the tracing (a reviewer of
    first-sight batch N counted on XLA:CPU: 80 such calls with a cut each ran 1 graph execution;
    with the result kept, 80).

    Fixed-count loops over tensors are not batch loops: a `for _ in range(n)` that only updates
    tensors it holds (Sinkhorn-Knopp's `Q /= torch.sum(Q, dim=0, keepdim=True)`, a power
    iteration), with no batch taken (`next(it)`, `get_batch(...)`) and no model called, is part
    of the step that calls it; so is every loop in a collate function or in dataset code (a
    class derived from a `*Dataset`, `__getitem__`, `__iter__`), and every loop in a model's
    `forward` or in a method `forward` calls (`self.refine(x)` running the encoder n times).
    None gets a marker. Measured
    on a SwAV-style stand-in ([measured-fixed-count-loops]: 10 training steps,
    3 Sinkhorn iterations each, XLA:CPU): a cut in the Sinkhorn loop gave 39 graph executions
    and 4 compiles, the step's cut alone 9 executions and 1 compile.

    ## Why
    "Every loop over device batches needs a cut, including eval loops; otherwise the graph grows
    with the loop" ([xla-devices, neuron-mnist, xla-troubleshoot]). A sampler that runs the model
    1,000 times without a cut records all 1,000 calls in one graph.

    ## Example
    ```python
    with torch.no_grad():
        for x, y in test_loader:
            x, y = x.to(device), y.to(device)
            correct += (model(x).argmax(1) == y).sum()
    ```

    ## Use instead
    ```python
    with torch.no_grad():
        for x, y in test_loader:
            x, y = x.to(device), y.to(device)
            correct += (model(x).argmax(1) == y).sum()
            torch_xla.sync()
    ```
    """

    code = "TRN102"
    name = "eval-loop-step-marker"
    summary = "evaluation or sampling loop without a graph cut → step marker at its end"
    safety = Safety.SAFE
    severity = Severity.WARNING
    sources = (
        "xla-devices",
        "neuron-mnist",
        "xla-troubleshoot",
        "measured-eval-host-read",
        "measured-fixed-count-loops",
    )


class ConditionalStepMarker(Rule):
    """## What it does
    Reports a step marker in a training or evaluation loop that runs only on some iterations:
    inside an `if`/`else`, an `except` handler, a conditional expression or a `match` case (a
    marker right before a `continue`, `break` or `return` ends that iteration and is not
    reported). Also reports a loop whose only markers sit on such early-exit paths, so the
    iterations that run to the end have no cut. Nothing is changed.

    ## Why
    The location of the marker is part of the compiled graph's key: "Conditional syncs create extra
    graphs", each combination of branches between two cuts is a new graph to compile
    ([xla-devices, neuron-mnist, xla-recompile-sources, neuron-caching]). Moving the marker is
    a change of the program's structure that a person should make.

    ## Example
    ```python
    for step, (x, y) in enumerate(loader):
        loss_fn(model(x), y).backward()
        optimizer.step()
        if step % 10 == 0:
            xm.mark_step()
    ```

    ## Use instead
    ```python
    for step, (x, y) in enumerate(loader):
        loss_fn(model(x), y).backward()
        optimizer.step()
        xm.mark_step()
    ```
    """

    code = "TRN103"
    name = "conditional-step-marker"
    summary = "step marker that runs only on some iterations (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = ("xla-devices", "neuron-mnist", "xla-recompile-sources", "neuron-caching")


class UnplaceableStepMarker(Rule):
    """## What it does
    Reports a training or evaluation loop that needs a step marker when a `continue` of that loop
    sits in a `finally` block before the marker's place. Nothing is changed.

    ## Why
    Each iteration must reach exactly one marker, at the same place
    ([xla-devices, neuron-mnist, xla-recompile-sources]). A `finally` block runs after a `continue`
    in its `try` body, so a marker before each of the two `continue`s would run twice in one
    iteration, and a marker after the `try` is skipped. The loop has to be restructured by a person.

    ## Example
    ```python
    for x, y in loader:
        try:
            if x is None:
                continue
            loss_fn(model(x), y).backward()
            optimizer.step()
        finally:
            optimizer.zero_grad()
            if skip_rest_of_step():
                continue
        log_step()
    ```

    ## Use instead
    ```python
    for x, y in loader:
        try:
            if x is not None:
                loss_fn(model(x), y).backward()
                optimizer.step()
        finally:
            optimizer.zero_grad()
        torch_xla.sync()
        if x is None or skip_rest_of_step():
            continue
        log_step()
    ```
    """

    code = "TRN104"
    name = "unplaceable-step-marker"
    summary = "loop needs a step marker the tool cannot place safely (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = ("xla-devices", "neuron-mnist", "xla-recompile-sources")


@dataclass(frozen=True)
class _Marker:
    call: cst.Call
    conditional: bool  # runs only on some iterations
    ends_iteration: bool  # directly followed by `continue`, `break` or `return`


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


def _loop_continues(
    node: cst.CSTNode, in_finally: bool = False
) -> Iterator[tuple[cst.Continue, bool]]:
    """The ``continue`` statements in ``node`` (a statement of a loop body) that belong to that
    loop, each with whether it sits in a ``finally`` block. A nested loop's body has its own
    ``continue``s, but its ``else`` clause runs in this loop's iteration."""
    if isinstance(node, cst.FunctionDef | cst.ClassDef | cst.Lambda):
        return
    if isinstance(node, cst.Continue):
        yield node, in_finally
        return
    if isinstance(node, cst.For | cst.While):
        if node.orelse is not None:
            yield from _loop_continues(node.orelse, in_finally)
        return
    in_finally = in_finally or isinstance(node, cst.Finally)
    for child in children(node):
        yield from _loop_continues(child, in_finally)


# What a loop body may do before a `continue` that skips the step, with nothing run on the
# device: clear the gradients (`set_to_none` by default since torch 2.0), take the next batch,
# and read its shape.
_HOST_ONLY_CALLS = frozenset({"zero_grad", "next", "__next__", "size", "len", "dim", "numel"})


def _host_only(node: cst.CSTNode) -> bool:
    """Every call in ``node`` is one of ``_HOST_ONLY_CALLS`` (by its last name), and ``node``
    holds no loop, ``with`` or function: it clears gradients, takes a batch or reads a shape."""
    for child in walk(node):
        if isinstance(child, cst.For | cst.While | cst.With | cst.FunctionDef | cst.Lambda):
            return False
        if isinstance(child, cst.Call):
            name = dotted(child.func) or ""
            if name.rsplit(".", 1)[-1] not in _HOST_ONLY_CALLS:
                return False
    return True


def _runs_once(body: cst.BaseSuite) -> bool:
    """The loop body's last statement leaves the loop on every iteration (`break`, `return`,
    `raise`): the loop runs once (a script's "take one batch" evaluation), no loop of batches to
    cut, and a marker at its end would follow the exit and never run."""
    statements = body.body if isinstance(body, cst.IndentedBlock) else [body]
    last = statements[-1] if statements else None
    if isinstance(last, cst.SimpleStatementLine | cst.SimpleStatementSuite) and last.body:
        return isinstance(last.body[-1], cst.Break | cst.Return | cst.Raise)
    return False


def _only_exit(suite: cst.BaseSuite) -> bool:
    """``suite`` is a lone ``continue`` or ``break`` (``if x:`` then ``continue``, or ``: continue``
    on the line of the ``if``)."""
    if isinstance(suite, cst.IndentedBlock):
        if len(suite.body) != 1 or not isinstance(suite.body[0], cst.SimpleStatementLine):
            return False
        suite = suite.body[0]
    return len(suite.body) == 1 and isinstance(suite.body[0], cst.Continue | cst.Break)


def _skips_before_device_work(before: list[cst.BaseStatement], statement: cst.CSTNode) -> bool:
    """``statement`` is ``if <test>: continue`` (or ``break``) whose test, like every statement
    of the loop body before it, only clears gradients, takes a batch or reads its shape: the
    author's skip of a short batch (``if images.size()[0] != batch_size: continue``). Nothing of
    the iteration ran on the device, so the `continue` needs no cut of its own."""
    if not (
        isinstance(statement, cst.If) and statement.orelse is None and _only_exit(statement.body)
    ):
        return False
    return _host_only(statement.test) and all(_host_only(s) for s in before)


class StepMarker(Pass):
    name = "step-marker"
    rules = (TrainLoopStepMarker, EvalLoopStepMarker, ConditionalStepMarker, UnplaceableStepMarker)
    needles = (
        "backward",
        "step",
        ".to(",
        ".cuda(",
        "DeviceLoader",
        "ParallelLoader",
        "no_grad",
        "inference_mode",
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # Planned on the original tree in visit_Module, applied by node identity while leaving:
        # the suite of a loop body -> index of the statement after which the marker goes, and
        # the `continue` statements that need a marker right before them.
        self._after: dict[cst.BaseSuite, int] = {}
        self._placed_read: cst.Call | None = None  # the host read `_placement` put a cut before
        # The `try` that holds the step, and the index in its body of the step's statement,
        # where `_placement` put the cut inside it.
        self._placed_in_try: tuple[cst.Try, int] | None = None
        self._before: set[cst.Continue] = set()
        # Model calls whose dropped result is kept in a name, so that the cut after them runs
        # the forward pass (a timing loop's `model(images)` → `out = model(images)`).
        self._kept: dict[cst.Expr, str] = {}
        self._marker_api: Api | None = None
        # Micro-batch loops (a loop that calls backward without stepping, nested in a loop that
        # steps the optimizer) -> the loop that steps.
        self._micro_batches: dict[cst.CSTNode, LoopInfo] = {}

    @classmethod
    def candidate(cls, facts: FileFacts, target: Target) -> bool:
        # visit_Module plans nothing for an eager target (or one without a marker).
        if not target.is_xla or not target.step_marker:
            return False
        # A function that steps an optimizer may be called from a loop (_plan_step_functions).
        if {"step", "optimizer_step"} & set(facts.calls):
            return True
        # Every other finding and insertion is about a loop of find_step_loops ...
        if not may_have_step_loop(facts):
            return False
        # ... that is not already cut once per iteration by `xm.mark_step()` (_plan).
        imports = facts.bindings
        return not all(_marked(loop, imports) for loop in step_scan(facts).step_loops)

    # -- planning ----------------------------------------------------------------------------
    def visit_Module(self, node: cst.Module) -> None:
        if not self.target.is_xla or not self.target.step_marker:
            return  # eager backend: no graph to cut ([torchneuron-overview])
        if trains_without_device(self.run.program, self.run.profile, lambda: self.run.facts):
            # Nothing in the program places anything on a device (a CPU smoke test in
            # `__main__`; device-missing's TRN804 says so, or has moved the model and batches,
            # and then this module places something): no XLA tensor, no graph to cut.
            return
        self._marker_api = self._marker_in_scope(node, self.target.step_marker)
        loops = find_step_loops(node)
        if own_run_without_device(self.run.program, self.run.profile, lambda: self.run.facts):
            # Its `__main__` block runs on the CPU by the author's choice: nothing that run
            # reaches places anything on a device, whatever the entry points that import it do.
            on_cpu = {id(n) for guard in _main_guards(node) for n in walk(guard)}
            loops = {loop: info for loop, info in loops.items() if id(loop) not in on_cpu}
        for info in loops.values():
            if info.kind == "train" and info.optimizer_steps:
                for inner in _nested_loops(info.node.body):
                    found = loops.get(inner)
                    if found is not None and found.kind == "train" and not found.optimizer_steps:
                        self._micro_batches[inner] = info
        # A function of the module that reads a parameter on the host on every call is the
        # host read of a loop that calls it (`save_output(name, pred, folder)`).
        token = reading(own_readers(node), own_movers(node))
        try:
            for info in loops.values():
                self._plan(info)
        finally:
            done_reading(token)
        self._plan_step_functions(node, loops)
        self._plan_called_steps(node)
        self._plan_engine_steps(node)

    # -- a step function called from a loop -----------------------------------------------------
    def _plan_step_functions(self, module: cst.Module, loops: Mapping) -> None:
        """A module-level function whose own body (outside any loop of its own) steps an
        optimizer, called by its plain name from a loop of the module (`def train(epoch): ...
        optimizer.step()`, then `for epoch in range(n): train(epoch)`): the call is the loop's
        step, and nothing cuts it, so the parameters stay pending and the graph grows by one call
        each iteration. The cut goes in the function, right after the statement that holds its
        last optimizer step. Not where the function or the calling loop already cuts, where the
        loop iterates a device loader, or where the loop is a training loop the marker covers."""
        functions = {
            statement.name.value: statement
            for statement in module.body
            if isinstance(statement, cst.FunctionDef)
            and isinstance(statement.body, cst.IndentedBlock)
        }
        # A method of one of the module's classes, called on an object (`agent.learn()` in the
        # episode loop of the same script): where one class alone defines a method of that name.
        methods: dict[str, list[tuple[str, cst.FunctionDef]]] = {}
        for statement in module.body:
            if not isinstance(statement, cst.ClassDef):
                continue
            for member in statement.body.body:
                if isinstance(member, cst.FunctionDef) and isinstance(
                    member.body, cst.IndentedBlock
                ):
                    methods.setdefault(member.name.value, []).append(
                        (f"{statement.name.value}.{member.name.value}", member)
                    )
        owned = {name: found[0] for name, found in methods.items() if len(found) == 1}
        callers: dict[str, cst.For | cst.While] = {}  # function or "Class.method" -> its loop
        for loop in walk(module):
            if not isinstance(loop, cst.For | cst.While) or loop in loops:
                continue
            if isinstance(loop, cst.For) and is_device_loader(unwrap_iterable(loop.iter)):
                continue
            if self._markers(loop):
                continue
            for node in own_statements(loop.body):
                if not isinstance(node, cst.Call):
                    continue
                if isinstance(node.func, cst.Name) and node.func.value in functions:
                    callers.setdefault(node.func.value, loop)
                elif (
                    isinstance(node.func, cst.Attribute)
                    and node.func.attr.value in owned
                    and node.func.attr.value not in functions
                    # An optimizer wrapper's own `step()` is the optimizer's step, not a step
                    # function: a loop that only steps it trains nothing.
                    and not is_optimizer_step(node)
                    # The object is certainly of that class (`agent = Agent()`), not another
                    # with a method of the name (`env.step(action)`).
                    and self._made_by(node.func.value, owned[node.func.attr.value][0])
                ):
                    qualname, method = owned[node.func.attr.value]
                    callers.setdefault(qualname, loop)
                    functions.setdefault(qualname, method)
        for name, loop in callers.items():
            function = functions[name]
            if function in (f for _, f in _enclosing_functions(module, loop)):
                continue  # a recursive or enclosing call: not a step taken from a loop
            steps = self._steps_to_cut(function)
            if not steps:
                continue
            statements = list(function.body.body)
            last = step_holder(statements, steps)
            assert self._marker_api is not None
            line = self.run.to_original(self.get_metadata(PositionProvider, loop).start.line)
            if not self.report(
                steps[-1],
                TrainLoopStepMarker,
                f"`{name}` steps the optimizer and is called once per iteration of the loop at "
                f"line {line}, which cuts no graph: `{self._marker_api.expr}` inserted after "
                "the optimizer step in the function (otherwise the graph grows by one call each "
                "iteration)",
                True,
            ):
                continue
            self._after[function.body] = last

    def _made_by(self, receiver: cst.BaseExpression, qualname: str) -> bool:
        """Whether every binding of the name ``receiver`` is a call of the class of
        ``qualname`` ("Agent.learn": `agent = Agent(...)`)."""
        if not isinstance(receiver, cst.Name):
            return False
        values = self.bound_values(receiver)
        owner = qualname.split(".", 1)[0]
        return bool(values) and all(
            isinstance(v, cst.Call) and isinstance(v.func, cst.Name) and v.func.value == owner
            for v in values  # type: ignore[union-attr]
        )

    def _plan_called_steps(self, module: cst.Module) -> None:
        """A function or method of this module that steps the optimizer outside any loop of its
        own, and that the program finds called once per iteration of loops that cut no graph,
        here or in other modules (``ModuleView.called_steps``: `agent.update(rollouts)` in the
        entry script's `for j in range(num_updates):`, `agent` built by one of several
        classes): the cut goes in the function, after the statement that holds its last
        optimizer step, before what it reads or returns. A cut after the call instead would
        come after the function's `.item()` reads, which run the forward pass once more, and
        would cut a second time where another class's `update` cuts in its own loop."""
        if not self.run.program.called_steps:
            return
        functions = dict(_definitions(module))
        assert self._marker_api is not None
        for qualname, loop in self.run.program.called_steps:
            function = functions.get(qualname)
            if function is None or function.body in self._after:
                continue  # not found as summarised, or already cut by _plan_step_functions
            self._cut_after_step(
                function,
                f"`{qualname}` steps the optimizer and is called once per iteration of the loop "
                f"at {loop}, which cuts no graph: `{self._marker_api.expr}` inserted after the "
                "optimizer step, before what the function reads or returns (otherwise the "
                "graph grows by one step each iteration)",
            )

    def _cut_after_step(self, function: cst.FunctionDef, message: str) -> None:
        """Plan the cut after the last optimizer step of ``function``'s own body (none where it
        has none, or cuts already), reported with ``message``."""
        steps = self._steps_to_cut(function)
        if steps and self.report(steps[-1], TrainLoopStepMarker, message, True):
            statements = list(function.body.body)  # type: ignore[union-attr]
            self._after[function.body] = step_holder(statements, steps)

    def _plan_engine_steps(self, module: cst.Module) -> None:
        """A function of the module handed to ignite's `Engine` as its process function
        (`trainer = Engine(step)`), whose own body steps the optimizer: `Engine.run` calls it
        once per batch, and nothing cuts it (ignite's own supervised step calls
        `xm.optimizer_step`; a function of the program's does what it says). The cut goes after
        its optimizer step, before what it reads or returns (`errD.item()`), as for a step
        function called from a loop."""
        assert self._marker_api is not None
        facts = self.run.facts
        if facts is not None and "Engine" not in facts.calls:
            return  # no call spelled `Engine(...)`: no walk of the module
        for call in find(module, cst.Call):
            if not (call.args and self.is_any(call.func, _ENGINES)):
                continue
            handed = call.args[0].value
            if call.args[0].keyword is not None or not isinstance(handed, cst.Name):
                continue
            functions = [
                f
                for f in find(module, cst.FunctionDef)
                if f.name.value == handed.value and isinstance(f.body, cst.IndentedBlock)
            ]
            if len(functions) != 1 or functions[0].body in self._after:
                continue  # several of that name (which one is handed is not said), or cut
            self._cut_after_step(
                functions[0],
                f"`{handed.value}` steps the optimizer and is ignite's process function "
                f"(`{_code(call)}` runs it once per batch), which cuts no graph: "
                f"`{self._marker_api.expr}` inserted after the optimizer step, before what the "
                "function reads or returns (otherwise the graph grows by one step each batch)",
            )

    def _stepped_elsewhere(self, loop: cst.CSTNode) -> bool:
        """A loop whose step is a function of the program that it calls once per iteration
        (``ModuleView.stepped_loops``), cut after that function's optimizer step."""
        stepped = self.run.program.stepped_loops
        if not stepped:
            return False
        # Earlier passes may have added lines at or above the loop (`device = torch_xla.device()`
        # before it), which the line map pairs up in order: near the mapped line, and calling
        # the function by its name in its own iteration, is the loop.
        line = self.get_metadata(PositionProvider, loop).start.line
        called = {
            node.func.value if isinstance(node.func, cst.Name) else node.func.attr.value
            for node in own_statements(loop.body)  # type: ignore[attr-defined]
            if isinstance(node, cst.Call) and isinstance(node.func, cst.Name | cst.Attribute)
        }
        return any(
            name in called and abs(self.run.from_original(given) - line) <= _LINE_SLACK
            for given, name in stepped
        )

    def _steps_to_cut(self, function: cst.FunctionDef) -> tuple[cst.Call, ...]:
        """The optimizer steps of a step function's own body (outside its loops); none where
        the function already calls a marker."""
        steps = tuple(
            node
            for node in own_statements(function.body)
            if isinstance(node, cst.Call) and is_optimizer_step(node)
        )
        if any(
            isinstance(node, cst.Call) and self._is_marker(node) for node in walk(function.body)
        ):
            return ()
        return steps

    def _marker_in_scope(self, module: cst.Module, api: Api) -> Api:
        """``api`` spelled with the alias the module already imports its module under (``import
        torch_xla.core.xla_model as xmm`` → ``xmm.mark_step()``), so no second import is added."""
        head = api.alias or api.module
        if not api.expr.startswith(head + "."):
            return api
        for statement in module.body:
            if not isinstance(statement, cst.SimpleStatementLine):
                continue
            for small in statement.body:
                bound = self._binding_of(small, api.module)
                if bound is not None:
                    if bound == head:
                        return api
                    return Api(bound + api.expr[len(head) :], "", "")
        return api

    @staticmethod
    def _binding_of(small: cst.BaseSmallStatement, module: str) -> str | None:
        if isinstance(small, cst.Import):
            for alias in small.names:
                if dotted(alias.name) == module and alias.asname is not None:
                    return dotted(alias.asname.name)  # type: ignore[arg-type]
        if isinstance(small, cst.ImportFrom) and not isinstance(small.names, cst.ImportStar):
            parent = "." * len(small.relative) + (dotted(small.module) if small.module else "")
            for alias in small.names:
                if f"{parent}.{dotted(alias.name)}" == module:
                    bound = alias.asname.name if alias.asname else alias.name
                    return dotted(bound)  # type: ignore[arg-type]
        return None

    def _is_marker(self, call: cst.Call) -> bool:
        if self.is_any(call.func, _MARKERS):
            return True
        if m.matches(call.func, m.Attribute(attr=m.Name("mark_step"))):
            return True  # `xm` bound in a way the scope analysis cannot follow
        if self.is_any(call.func, {"torch_xla.core.xla_model.optimizer_step"}) or m.matches(
            call.func, m.Attribute(value=m.Name("xm"), attr=m.Name("optimizer_step"))
        ):
            return any(
                arg.keyword is not None
                and arg.keyword.value == "barrier"
                and m.matches(arg.value, m.Name("True"))
                for arg in call.args
            )
        return False

    def _markers(self, loop: cst.For | cst.While) -> list[_Marker]:
        found: list[_Marker] = []
        ending: set[cst.Call] = set()
        for node in own_statements(loop.body):
            if isinstance(
                node, cst.IndentedBlock | cst.SimpleStatementSuite | cst.SimpleStatementLine
            ):
                ending |= self._markers_before_exit(node)
        self._walk_markers(loop.body, False, ending, found)
        return found

    def _markers_before_exit(self, node: cst.CSTNode) -> set[cst.Call]:
        """Marker calls directly followed by ``continue``/``break``/``return`` in ``node``'s list."""
        calls: set[cst.Call] = set()
        items = list(node.body)  # type: ignore[attr-defined]
        for current, following in zip(items, items[1:], strict=False):
            if isinstance(current, cst.SimpleStatementLine):
                current = current.body[-1]
            if isinstance(following, cst.SimpleStatementLine):
                following = following.body[0]
            if (
                isinstance(current, cst.Expr)
                and isinstance(current.value, cst.Call)
                and isinstance(following, _ITERATION_ENDS)
                and self._is_marker(current.value)
            ):
                calls.add(current.value)
        return calls

    def _walk_markers(
        self, node: cst.CSTNode, conditional: bool, ending: set[cst.Call], found: list[_Marker]
    ) -> None:
        if isinstance(node, cst.FunctionDef | cst.ClassDef | cst.Lambda | cst.For | cst.While):
            return  # another scope or another loop's iterations
        if isinstance(node, cst.Call) and self._is_marker(node):
            found.append(_Marker(node, conditional, node in ending))
        if isinstance(node, cst.If):
            self._walk_markers(node.test, conditional, ending, found)
            # `if XLA_AVAILABLE:` / `if is_torch_xla_available():` is the same every iteration.
            branch = conditional if _xla_flag(node.test) and node.orelse is None else True
            self._walk_markers(node.body, branch, ending, found)
            if node.orelse is not None:
                self._walk_markers(node.orelse, True, ending, found)
            return
        if isinstance(node, cst.IfExp):
            self._walk_markers(node.test, conditional, ending, found)
            self._walk_markers(node.body, True, ending, found)
            self._walk_markers(node.orelse, True, ending, found)
            return
        if isinstance(node, cst.BooleanOperation):
            self._walk_markers(node.left, conditional, ending, found)
            self._walk_markers(node.right, True, ending, found)
            return
        branch = isinstance(
            node, cst.ExceptHandler | cst.ExceptStarHandler | cst.MatchCase | cst.CompFor
        )
        for child in children(node):
            self._walk_markers(child, conditional or branch, ending, found)

    def _placement(self, info: LoopInfo) -> tuple[int, cst.CSTNode, str]:
        """Where one iteration's marker goes: the index of the loop body's top-level statement
        it follows, the node a finding points at, and the place in words."""
        loop = info.node
        statements = list(loop.body.body)
        self._placed_read = None
        self._placed_in_try = None
        if info.kind == "train" and info.optimizer_steps:
            index = step_holder(statements, info.optimizer_steps)
            first = step_holder(statements, info.optimizer_steps[:1])
            read = first_host_read(loop, after=first)
            self._placed_read = read[1] if read is not None and read[0] <= index else None
            if read is not None and read[0] <= index:
                # Values read on the host every iteration between two steps (a critic's losses,
                # read after it steps and before the generator's conditional step): a cut after
                # the last step leaves each read to run the step's graph again.
                step = info.optimizer_steps[0]
                return (
                    read[0] - 1,
                    step,
                    f"after `{_code(step)}`, before `{_code(read[1])}`, the first value the "
                    "loop reads on the host every iteration after the step (a cut after the "
                    "read runs the step's graph a second time)",
                )
            step = info.optimizer_steps[-1]
            holder = statements[index]
            inside = self._read_after_step_in_try(loop, holder, step)
            if inside is not None:
                # `try: ...; optimizer.step(); loss_hist.append(float(loss))`: the cut goes into
                # the `try` right after the step, before the reads that would each run the
                # step's graph again (RetinaNet: 16 executions an iteration against 20).
                self._placed_in_try = (holder, inside[0])
                return (
                    index,
                    step,
                    f"after `{_code(step)}`, inside the `try` block that holds it, before "
                    f"`{_code(inside[1])}`, the first value read on the host after the step (a "
                    "cut after the read runs the step's graph a second time)",
                )
            if isinstance(holder, cst.BaseCompoundStatement):
                keyword = _KEYWORDS.get(type(holder), "block")
                where = f"after the `{keyword}` block that holds `{_code(step)}`"
            else:
                where = f"after `{_code(step)}`"
            totals = []
            while index + 1 < len(statements) and _running_total(statements[index + 1]):
                index += 1
                totals.append(_code(statements[index]).strip())
            if totals:
                added = ", ".join(f"`{t}`" for t in totals)
                where += (
                    f" and the running total{'s' if len(totals) > 1 else ''} after it ({added}): "
                    "computed in the step's graph, a read at log steps finds it done"
                )
            return index, step, where
        if info.kind == "train":
            # No optimizer step the tool knows (`optimizer.second_step()` of a sharpness-aware
            # optimizer): before the first value read on the host every iteration after the
            # last backward, else at the end of the body.
            backward = info.backward_calls[-1]
            read = first_host_read(loop, after=step_holder(statements, (backward,)))
            self._placed_read = read[1] if read is not None else None
            if read is not None:
                return (
                    read[0] - 1,
                    backward,
                    f"before `{_code(read[1])}`, the first value the loop reads on the host "
                    "every iteration after the backward pass (a cut after the read runs the "
                    "step's graph a second time)",
                )
            return len(statements) - 1, backward, "at the end of the loop body"
        anchor = loop.iter if isinstance(loop, cst.For) else loop
        read = first_host_read(loop)
        if read is not None and read[0] > 0:
            # Into the `with` block that holds the read, when it computes first what it reads
            # (`with torch.no_grad(): out = net(x); pool.append(out.cpu())`): a cut before the
            # block would cut only the batch's copy and leave each read its own forward.
            self._placed_read = read[1]
            return (
                read[0] - 1,
                anchor,
                f"before `{_code(read[1])}`, the first value the loop reads on the host every "
                "iteration (a cut after the read runs the forward pass a second time)",
            )
        handed = first_hand_off(loop) if read is None else None
        if handed is not None and handed[0] > 0:
            return (
                handed[0] - 1,
                anchor,
                f"before `{_code(handed[1].func)}(...)`, which hands the iteration's values to "
                "code that may read them on the host (a cut after such a read runs the forward "
                "pass a second time)",
            )
        return len(statements) - 1, anchor, "at the end of the loop body"

    def _cut_elsewhere(self, info: LoopInfo) -> bool:
        """The loop's batches come from a loader that cuts the graph itself: an MpDeviceLoader
        (also behind a helper or a reassignment anywhere in the file), what `accelerator.prepare`
        returned (accelerate wraps it in an MpDeviceLoader on XLA), or NxD's pipeline engine,
        whose `run_train`/`run_eval` runs the step with its cut (training profile)."""
        if info.iterates_device_loader:
            return True
        profile = self.run.profile
        if isinstance(info.node, cst.For):
            iterable = unwrap_iterable(info.node.iter)
            name = dotted(iterable.func if isinstance(iterable, cst.Call) else iterable)
            if name is not None and name in profile.device_loaders:
                return True
        if training.ACCELERATE_PREPARE in profile.already_xla and isinstance(info.node, cst.For):
            # Loaders reach an accelerate loop prepared, through parameters and helpers alike;
            # only one built right here from a plain DataLoader is certainly not.
            iterable = unwrap_iterable(info.node.iter)
            facts = self.run.facts
            if isinstance(iterable, cst.Name):
                values = self.bound_values(iterable) or []
                if values and all(_host_sequence(v) for v in values):
                    return False  # timesteps or pairs of a sampling loop, not a loader
                if facts is not None and not facts.may_be_call_of(iterable.value, *_DATA_LOADERS):
                    return True  # no assignment anywhere binds it to a DataLoader
                return not any(
                    isinstance(v, cst.Call) and self.is_any(v.func, _DATA_LOADERS) for v in values
                )
        if training.ACCELERATE_PREPARE in profile.already_xla and fetches_prepared_batch(
            info.node, self._scope_of(info.node), self._wrapper.module
        ):
            return True
        if training.NXD_STEP in profile.already_xla:
            return any(
                isinstance(node, cst.Call)
                and m.matches(node.func, m.Attribute(attr=m.Name("run_train") | m.Name("run_eval")))
                for node in own_statements(info.node.body)
            )
        return False

    def _plan(self, info: LoopInfo) -> None:
        loop = info.node
        if info.kind != "train" and self._stepped_elsewhere(loop):
            return  # the step it calls cuts after its optimizer step (``_plan_called_steps``)
        if _runs_once(loop.body):
            return  # its body ends in `break`: one iteration, and nothing after the exit runs
        read = first_host_read(loop) if info.kind != "train" else None
        if self._cut_elsewhere(info):
            # MpDeviceLoader syncs at every batch ([xla-devices, neuron-mnist, xla-loader,
            # neuron-guide]): no marker to add, and one the script calls on some iterations only
            # does not add graphs of its own; unless the loop reads a value on the host every
            # batch: the loader's cut comes after the read and runs the forward pass a second
            # time, so the marker goes before the read.
            if read is None or read[0] == 0 or self._markers(loop):
                return
        elif info.kind != "train" and host_read_cuts(loop, self._scope_of(loop)):
            return  # its host read runs the iteration's graph, and nothing carries over
        elif (
            info.kind != "train"
            and (read is None or read[0] == 0)
            and reads_all_on_host(loop, self._scope_of(loop))
        ):
            return  # the cut would go after every read: it would only rerun dead values
        per_micro_batch = self.settings.accumulation_cut == "micro-batch"
        markers = self._markers(loop)
        if markers:
            self._report_conditional(info, markers)
            return
        if info.kind != "train" and info.calls_model and _drops_every_result(loop):
            self._keep_results(loop)
            return
        if loop in self._micro_batches and not per_micro_batch:
            return  # the loop that steps the optimizer cuts once per optimizer step
        assert self._marker_api is not None
        expr = self._marker_api.expr
        guard = accumulation_guard(info)
        if guard is not None and not per_micro_batch:
            self._plan_accumulation(info, guard, expr)
            return
        last, anchor, where = self._placement(info)
        continues: list[cst.Continue] = []
        body = list(loop.body.body)
        for index, statement in enumerate(body[: last + 1]):
            if _skips_before_device_work(body[:index], statement):
                continue  # nothing of the iteration ran on the device: no graph to cut
            for node, in_finally in _loop_continues(statement):
                if in_finally:
                    self.report(
                        node,
                        UnplaceableStepMarker,
                        f"this loop needs `{expr}` once per iteration, {where}, but this "
                        "`continue` in a `finally` block runs after any `continue` in its `try` "
                        "(one iteration could reach two markers) and skips a marker after it: "
                        f"restructure the loop so that every iteration reaches exactly one `{expr}`",
                        False,
                    )
                    return
                continues.append(node)
        rule = TrainLoopStepMarker if info.kind == "train" else EvalLoopStepMarker
        kind = (
            "training loop"
            if info.kind == "train"
            else "loop that calls the model every iteration"
            if info.calls_model
            else "loop over device batches"
        )
        also = ""
        if continues:
            count = len(continues)
            also = f" and before {count} `continue`" + ("s" if count > 1 else "")
        message = f"{kind} without a graph cut: `{expr}` inserted {where}{also}"
        if read is not None and self._cut_elsewhere(info):
            message = (
                "loop whose loader cuts the graph when it takes the next batch, after the "
                f"loop's host read: `{expr}` inserted {where}{also}"
            )
        message += self._accumulation_note(info, guard) + _conditional_step_note(info)
        if not self.report(anchor, rule, message, True):
            return
        if self._placed_in_try is not None:
            holder, at = self._placed_in_try
            block = holder.body
        else:
            block, at = self._into_with(loop.body, last)
        self._after[block] = at
        self._before.update(continues)

    @staticmethod
    def _read_after_step_in_try(
        loop: cst.For | cst.While, holder: cst.CSTNode, step: cst.Call
    ) -> tuple[int, cst.Call] | None:
        """Where ``holder``, a top-level statement of ``loop``'s body, is a `try` whose own body
        holds ``step`` in one of its statements and reads a value on the host after it every
        iteration: that statement's index in the `try` body, and the read."""
        if not isinstance(holder, cst.Try) or not isinstance(holder.body, cst.IndentedBlock):
            return None
        inner = list(holder.body.body)
        at = next((k for k, s in enumerate(inner) if any(n is step for n in walk(s))), None)
        if at is None or at + 1 >= len(inner):
            return None
        if isinstance(inner[at], cst.BaseCompoundStatement):
            return None  # the step under an `if` of its own: the step's own placement decides
        shadow = loop.with_changes(body=holder.body)  # the try body, read as the loop's
        read = first_host_read(shadow, after=at)
        return (at, read[1]) if read is not None else None

    def _into_with(self, block: cst.IndentedBlock, last: int) -> tuple[cst.BaseSuite, int]:
        """Where a cut placed before a loop's first host read goes: into the `with`
        block that holds the read (`with torch.no_grad():`, which runs every iteration), right
        before the statement that reads, so that what the block computes first (an accuracy
        from the step's outputs) is in the step's graph and not a graph of its own."""
        read = self._placed_read
        statements = list(block.body)
        following = statements[last + 1] if last + 1 < len(statements) else None
        while (
            read is not None
            and isinstance(following, cst.With)
            and isinstance(following.body, cst.IndentedBlock)
        ):
            inner = list(following.body.body)
            holder = next((k for k, s in enumerate(inner) if any(n is read for n in walk(s))), None)
            if not holder:
                break  # not found, or the block's first statement: before the block it is
            block, last, following = following.body, holder - 1, inner[holder]
        return block, last

    def _scope_of(self, node: cst.CSTNode) -> cst.CSTNode:
        parents = self.parents()
        current = parents.get(node)
        while current is not None and not isinstance(current, cst.FunctionDef | cst.Module):
            current = parents.get(current)
        return current if current is not None else node

    def _accumulation_note(self, info: LoopInfo, guard: cst.If | None) -> str:
        """Which cut a gradient-accumulation loop got, and why ([measured-gradient-accumulation]: a cut per
        micro-batch gives micro-batches + 1 graph executions per optimizer step, one cut per
        optimizer step gives 1 on a graph that holds every micro-batch)."""
        per_micro_batch = self.settings.accumulation_cut == "micro-batch"
        inner = [
            loop
            for loop, stepping in self._micro_batches.items()
            if stepping is info and not isinstance(loop.body, cst.SimpleStatementSuite)
        ]
        if info.node in self._micro_batches or (guard is not None and per_micro_batch):
            return (
                '; one cut per micro-batch (`accumulation-cut = "micro-batch"`): smaller '
                "graphs, micro-batches + 1 graph executions per optimizer step"
            )
        if inner and per_micro_batch:
            return '; its micro-batch loop cuts too (`accumulation-cut = "micro-batch"`)'
        if inner:
            return (
                "; one cut per optimizer step, none in the micro-batch loop "
                '(`accumulation-cut = "optimizer-step"`): 1 graph execution per optimizer '
                'step, one graph that holds every micro-batch; `"micro-batch"` cuts in the '
                "micro-batch loop instead (smaller graphs, micro-batches + 1 executions)"
            )
        return ""

    def _plan_accumulation(self, info: LoopInfo, guard: cst.If, expr: str) -> None:
        """One cut per optimizer step: inside the accumulation boundary, after the statement
        that holds the last optimizer step ([measured-gradient-accumulation]: 1 graph execution per
        optimizer
        step; a cut per micro-batch gives micro-batches + 1)."""
        body = list(guard.body.body)  # type: ignore[union-attr]
        last = step_holder(body, info.optimizer_steps)
        step = info.optimizer_steps[-1]
        inner = [loop for loop, stepping in self._micro_batches.items() if stepping is info]
        rule = TrainLoopStepMarker
        message = (
            f"training loop with gradient accumulation without a graph cut: `{expr}` inserted "
            f"after `{_code(step)}` inside the accumulation `if`, one cut per optimizer step "
            '(`accumulation-cut = "optimizer-step"`): 1 graph execution per optimizer step, '
            'one graph that holds every micro-batch; `"micro-batch"` cuts after each '
            "micro-batch instead (smaller graphs, micro-batches + 1 executions)"
        )
        if inner:
            message = message.replace("after each micro-batch", "in the micro-batch loop")
        if self.report(step, rule, message, True):
            self._after[guard.body] = last

    def _report_conditional(self, info: LoopInfo, markers: list[_Marker]) -> None:
        _, anchor, where = self._placement(info)
        guard = accumulation_guard(info)
        if guard is not None:
            # A marker at the top of the accumulation boundary's block runs once per optimizer
            # step, in the same place: what `accumulation-cut = "optimizer-step"` inserts.
            boundary = top_level_expressions(guard.body)
            markers = [marker for marker in markers if marker.call not in boundary]
            if not markers:
                return
        for marker in markers:
            if marker.conditional and not marker.ends_iteration:
                self.report(
                    marker.call,
                    ConditionalStepMarker,
                    f"`{_code(marker.call)}` runs only on some iterations, and each combination "
                    "of branches between two cuts compiles another graph: call it once per "
                    f"iteration at the loop body's top level, {where}",
                    False,
                )
        if all(marker.ends_iteration for marker in markers):
            self.report(
                anchor,
                ConditionalStepMarker,
                f"the loop's only `{_code(markers[0].call)}` runs just before leaving an "
                "iteration early, so the iterations that run to the end have no graph cut: "
                f"add one at the loop body's top level, {where}",
                False,
            )

    def _keep_results(self, loop: cst.For | cst.While) -> None:
        """A warm-up or timing loop whose body only calls the model and drops what it returns:
        on the lazy device a dropped result is never computed, so a cut after it runs nothing.
        Each model call's result is kept in a name the function does not use, and the cut goes
        at the end of the body, where it runs that forward pass."""
        assert self._marker_api is not None and isinstance(loop.body, cst.IndentedBlock)
        calls = [
            small
            for statement in loop.body.body
            for small in statement.body  # type: ignore[attr-defined]
            if is_model_call(small.value, lambda name: False)
        ]
        if len(calls) != 1:
            # Two dropped results would share the name, and the first would be dropped again
            # before the cut: a person keeps each.
            self.report(
                loop,
                EvalLoopStepMarker,
                "this loop calls the model and drops what it returns: on the lazy XLA device a "
                "dropped result is never computed, so a cut here would run nothing; keep each "
                f"result in a name and cut after them with `{self._marker_api.expr}`",
                False,
            )
            return
        scope = self._scope_of(loop)
        used = {node.value for node in walk(scope) if isinstance(node, cst.Name)}
        name = next((n for n in ("out", "output", "_out", "_output") if n not in used), None)
        if name is None:
            return
        expr = self._marker_api.expr
        if not self.report(
            loop,
            EvalLoopStepMarker,
            f"loop that calls the model and drops what it returns (a warm-up or timing loop): "
            f"on the lazy XLA device a dropped result is never computed, so the result is kept "
            f"in `{name}` and `{expr}` inserted at the end of the loop body, where it runs the "
            "forward pass; read a clock only after `xm.wait_device_ops()`",
            True,
        ):
            return
        for small in calls:
            self._kept[small] = name
        self._after[loop.body] = len(loop.body.body) - 1

    def leave_Expr(self, original_node: cst.Expr, updated_node: cst.Expr) -> cst.BaseSmallStatement:
        name = self._kept.get(original_node)
        if name is None:
            return updated_node
        return cst.Assign(targets=[cst.AssignTarget(cst.Name(name))], value=updated_node.value)

    # -- rewriting ---------------------------------------------------------------------------
    def _marker(self) -> cst.Expr:
        assert self._marker_api is not None
        if self._marker_api.module:
            return cst.Expr(self.emit(self._marker_api))
        return cst.Expr(cst.parse_expression(self._marker_api.expr))

    def _small_statements(
        self, original: cst.BaseSuite | cst.SimpleStatementLine, updated_body: list
    ) -> list:
        """``a; continue`` → ``a; <marker>; continue``, and the marker after the planned index of
        a one-line loop body."""
        after = self._after.get(original, -1) if isinstance(original, cst.BaseSuite) else -1
        body = []
        for index, (old, new) in enumerate(zip(original.body, updated_body, strict=True)):
            if old in self._before:
                body.append(self._marker())
            body.append(new)
            if index == after:
                body.append(self._marker())  # a default semicolon renders as "; " between
        return body

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> cst.SimpleStatementLine:
        if len(original_node.body) == 1 or not any(s in self._before for s in original_node.body):
            return updated_node  # a line that is only `continue` gets its marker on its own line
        return updated_node.with_changes(
            body=self._small_statements(original_node, list(updated_node.body))
        )

    def leave_SimpleStatementSuite(
        self, original_node: cst.SimpleStatementSuite, updated_node: cst.SimpleStatementSuite
    ) -> cst.SimpleStatementSuite:
        if original_node not in self._after and not any(
            s in self._before for s in original_node.body
        ):
            return updated_node
        return updated_node.with_changes(
            body=self._small_statements(original_node, list(updated_node.body))
        )

    def leave_IndentedBlock(
        self, original_node: cst.IndentedBlock, updated_node: cst.IndentedBlock
    ) -> cst.IndentedBlock:
        after = self._after.get(original_node, -1)
        lone_continue = [
            isinstance(s, cst.SimpleStatementLine)
            and len(s.body) == 1
            and s.body[0] in self._before
            for s in original_node.body
        ]
        if after < 0 and not any(lone_continue):
            return updated_node
        body: list[cst.BaseStatement] = []
        for index, new in enumerate(updated_node.body):
            if lone_continue[index]:
                # Comments above the `continue` stay above the marker.
                body.append(
                    cst.SimpleStatementLine([self._marker()], leading_lines=new.leading_lines)
                )
                new = new.with_changes(leading_lines=())
            body.append(new)
            if index == after:
                body.append(cst.SimpleStatementLine([self._marker()]))
        return updated_node.with_changes(body=body)


def _drops_every_result(loop: cst.For | cst.While) -> bool:
    """Every statement of ``loop``'s body is a call whose result is dropped (`model(images)` in
    a warm-up or timing loop): nothing it computes is alive at the end of the iteration."""
    body = loop.body.body if isinstance(loop.body, cst.IndentedBlock) else ()
    return bool(body) and all(
        isinstance(statement, cst.SimpleStatementLine)
        and all(
            isinstance(small, cst.Expr) and isinstance(small.value, cst.Call)
            for small in statement.body
        )
        for statement in body
    )


def _main_guards(module: cst.Module) -> Iterator[cst.If]:
    """The module's `if __name__ == "__main__":` blocks."""
    for statement in module.body:
        if isinstance(statement, cst.If) and is_main_test(statement.test):
            yield statement


# ignite's engine class, which calls its process function once per batch.
_ENGINES = ("ignite.engine.Engine", "ignite.engine.engine.Engine")


def _definitions(module: cst.Module) -> Iterator[tuple[str, cst.FunctionDef]]:
    """The module's top-level functions and methods with an indented body, by qualname
    (``Class.method``), as ``analysis.scopes`` names them."""
    for statement in module.body:
        if isinstance(statement, cst.FunctionDef):
            if isinstance(statement.body, cst.IndentedBlock):
                yield statement.name.value, statement
        elif isinstance(statement, cst.ClassDef):
            for item in statement.body.body:
                if isinstance(item, cst.FunctionDef) and isinstance(item.body, cst.IndentedBlock):
                    yield f"{statement.name.value}.{item.name.value}", item


def _enclosing_functions(
    module: cst.Module, node: cst.CSTNode
) -> Iterator[tuple[int, cst.FunctionDef]]:
    """The module-level functions whose body holds ``node``."""
    for index, statement in enumerate(module.body):
        if isinstance(statement, cst.FunctionDef) and any(n is node for n in walk(statement)):
            yield index, statement


def step_holder(statements: list, steps: tuple[cst.Call, ...]) -> int:
    """The index of the last of ``statements`` that holds one of ``steps``."""
    found = set(steps)
    return max(
        (
            position
            for position, statement in enumerate(statements)
            if any(node in found for node in own_statements(statement))
        ),
        default=len(statements) - 1,
    )


def accumulation_guard(info: LoopInfo) -> cst.If | None:
    """The `if` at the top of a training loop's body that holds its last optimizer step when
    it is a gradient-accumulation boundary (`if (i + 1) % accumulation_steps == 0:`, or a test
    that names the accumulation) that every iteration reaches: no `else`, no `continue` before
    it. Only then is a cut inside it one per optimizer step, on a graph that holds the same
    number of micro-batches every time (where `accumulation-cut = "optimizer-step"` puts it).

    Not when an optimizer also steps outside the `if`: a critic that steps every iteration
    beside a generator that steps every k (adversarial training) is no accumulation, and a cut
    inside the `if` would leave k critic steps in one graph (see `conditional_steps`)."""
    if info.kind != "train" or not info.optimizer_steps:
        return None
    statements = list(info.node.body.body)
    index = step_holder(statements, info.optimizer_steps)
    holder = statements[index]
    if not isinstance(holder, cst.If) or holder.orelse is not None:
        return None
    if not isinstance(holder.body, cst.IndentedBlock):
        return None
    if conditional_steps(info, holder):
        return None
    names = {n.value.lower() for n in walk(holder.test) if isinstance(n, cst.Name)}
    if not is_interval_guard(holder.test) and not any(
        "accum" in name or name == "sync_gradients" for name in names
    ):
        return None
    for statement in statements[:index]:
        if any(True for _ in _loop_continues(statement)):
            return None
    return holder


def conditional_steps(info: LoopInfo, guard: cst.If) -> bool:
    """Whether the optimizer steps under ``guard`` are steps some iterations take beside an
    optimizer step that every iteration takes (a statement of the loop body outside ``guard``):
    the generator's `if i % n_critic == 0: ... optimizer_G.step()` of a critic that steps every
    iteration. Measured in benchmarks/step_shapes/critic_steps.py (WGAN stand-in, 5 critic steps
    per generator step, 20 iterations on XLA:CPU): a cut inside the `if` ran 5 graphs of 663 IR
    nodes (3 compiles), a cut after it 20 graphs of at most 214 (2 compiles)."""
    inside = {id(node) for node in walk(guard)}
    return any(id(step) not in inside for step in info.optimizer_steps)


def _conditional_step_note(info: LoopInfo) -> str:
    """Why a loop whose last optimizer step sits under an interval `if` gets its cut after that
    `if`: another optimizer steps every iteration, so the `if` is no accumulation boundary."""
    if info.kind != "train" or not info.optimizer_steps:
        return ""
    statements = list(info.node.body.body)
    holder = statements[step_holder(statements, info.optimizer_steps)]
    if not isinstance(holder, cst.If) or not conditional_steps(info, holder):
        return ""
    inside = {id(node) for node in walk(holder)}
    every = next(step for step in info.optimizer_steps if id(step) not in inside)
    return (
        f"; `{_code(info.optimizer_steps[-1])}` steps on some iterations beside "
        f"`{_code(every)}` on every one: not gradient accumulation, so one cut per iteration "
        "(a cut inside the `if` would put every step in between in one graph)"
    )


def _xla_flag(test: cst.BaseExpression) -> bool:
    """A test of whether torch_xla is there (`XLA_AVAILABLE`, `is_torch_xla_available()`,
    `self.use_xla`): a name or call without arguments that says "xla", constant through a loop."""
    if isinstance(test, cst.Call):
        if test.args:
            return False
        test = test.func
    name = dotted(test)
    return name is not None and "xla" in name.rsplit(".", 1)[-1].lower()


def _nested_loops(body: cst.BaseSuite) -> Iterator[cst.For | cst.While]:
    """The loops inside ``body`` at any depth, not inside functions, classes or lambdas."""
    stack: list[cst.CSTNode] = [body]
    while stack:
        node = stack.pop()
        if isinstance(node, cst.For | cst.While):
            yield node
        stack.extend(
            c
            for c in children(node)
            if not isinstance(c, cst.FunctionDef | cst.ClassDef | cst.Lambda)
        )


_ENDS = (ast.Continue, ast.Break, ast.Return)


def _marked(loop: StepLoop, imports: Mapping[str, frozenset[str]]) -> bool:
    """Whether _plan neither inserts nor reports in ``loop``: its own statements have a marker,
    and every call that may be one (_is_marker: `.mark_step()`, `.optimizer_step(...)`, or a
    name reached through a torch_xla import) is a `.mark_step()` statement at the top of the
    loop body, not followed by `continue`/`break`/`return` (unconditional, not ending the
    iteration: nothing for _report_conditional)."""
    body = loop.node.body  # type: ignore[attr-defined]
    top = {
        id(statement.value)
        for position, statement in enumerate(body)
        if type(statement) is ast.Expr
        and type(statement.value) is ast.Call
        and not (position + 1 < len(body) and isinstance(body[position + 1], _ENDS))
    }
    found = False
    for node in loop.own:
        if type(node) is not ast.Call:
            continue
        func = node.func
        if type(func) is ast.Attribute and func.attr == "mark_step":
            if id(node) not in top:
                return False
            found = True
        elif (type(func) is ast.Attribute and func.attr == "optimizer_step") or any(
            name.split(".", 1)[0] == "torch_xla" for name in resolve(imports, func)
        ):
            return False
    return found
