"""A verdict per entry point, from the evaluator's run of it (issue 34): *runs* on the
accelerator (shown: the model's parameters and the step's inputs are on the target's device,
and the step is cut — or a framework known to do so on the target owns the loop), *does not*
(the cause, once), or *cannot tell* (the line the evaluator could not decide; `trncodemod
verify` is the way to know). An entry point that reaches no training step gets no verdict.

A blocker finding left in a module the entry point runs is a cause as well: the entry point
does not run while it is there, whatever the evaluator showed. Another entry point's TRN027 (its
own "does not", as a library module's `__main__` smoke test on the CPU gets) is not: each entry
point's run is judged by its own evaluation.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from trncodemod.analysis.abstract_values import (
    MOVED_BY,
    Device,
    Event,
    ModelCall,
    Trace,
    Unknown,
    Value,
    Why,
)
from trncodemod.analysis.device_facts import Facts
from trncodemod.findings import Rule, Safety, Severity

RUNS = "runs"
DOES_NOT = "does not"
CANNOT_TELL = "cannot tell"
NO_STEP = "no step"
# Blockers of work the XLA device cannot hold (the off-device pass).
_STOPS = frozenset({"TRN028", "TRN029", "TRN062"})
# Blockers that stop the run when a module is imported (a CUDA extension built there, a library
# that needs CUDA imported there), before any line the evaluator judged: the first cause
# whatever the evaluator found.
_AT_IMPORT = frozenset({"TRN050", "TRN051"})


@dataclass(frozen=True)
class EntryVerdict:
    entry: str  # "train.py", or "pkg/cli.py:main" for a console script's function
    value: str  # RUNS, DOES_NOT, CANNOT_TELL or NO_STEP
    where: str  # "path:line": the cause, the line not decided, or the step
    reason: str
    # "Does not" because a framework that owns the loop is decided to train on the CPU (its
    # arguments keep it there): the run trains, on the CPU, and touches no XLA device.
    on_cpu: bool = False

    def to_json(self) -> dict:
        return {"entry": self.entry, "verdict": self.value, "where": self.where, "why": self.reason}


def judge(
    entry: str,
    trace: Trace,
    facts: Facts,
    blockers: Mapping[str, Sequence[tuple[int | str, str, str]]] = {},  # noqa: B006 - read only
) -> EntryVerdict:
    """The verdict of one entry point; ``blockers``: per module, (line, code, message) of each
    blocker left."""
    return with_blockers(evaluate_trace(entry, trace, facts), trace.modules, blockers, facts)


def with_blockers(
    found: EntryVerdict,
    modules: Iterable[str],
    blockers: Mapping[str, Sequence[tuple[int | str, str, str]]],
    facts: Facts,
) -> EntryVerdict:
    """The evaluator's verdict with the blockers left in the modules the entry point runs: one
    is a cause, unless the evaluator already found one of its own. A blocker of work the device
    cannot hold (TRN028, TRN029) is the cause even then: the tool left the program on the CPU
    because of it, so where the evaluator finds the model is only its consequence. A blocker's
    line is a number, or its whole place where a line does not say it
    (``train.ipynb[cell 3]:7``)."""
    if found.value in (RUNS, CANNOT_TELL, DOES_NOT):
        for path in sorted(modules):
            for line, code, message in blockers.get(path, ()):
                if code in _AT_IMPORT:
                    where = line if isinstance(line, str) else f"{path}:{line}"
                    return EntryVerdict(found.entry, DOES_NOT, where, f"{code}: {message}")
    if found.value == DOES_NOT:
        for path in sorted(modules):
            for line, code, message in blockers.get(path, ()):
                if code in _STOPS:
                    where = line if isinstance(line, str) else f"{path}:{line}"
                    return EntryVerdict(found.entry, DOES_NOT, where, f"{code}: {message}")
    if found.value in (RUNS, CANNOT_TELL, NO_STEP):
        for path in sorted(modules):
            for line, code, message in blockers.get(path, ()):
                if found.value == NO_STEP and code != "TRN026":
                    continue
                if code == EntryPointOffAccelerator.code and not message.startswith(
                    f"{found.entry} "
                ):
                    # Another entry point's own verdict (a library module's `__main__` smoke
                    # test on the CPU): this entry point's run is judged by its own evaluation.
                    continue
                where = line if isinstance(line, str) else f"{path}:{line}"
                return EntryVerdict(found.entry, DOES_NOT, where, f"{code}: {message}")
    return found


def evaluate_trace(entry: str, trace: Trace, facts: Facts) -> EntryVerdict:
    """The verdict the evaluator's run shows, before blockers count."""
    return _judge(entry, trace, facts)


def _judge(entry: str, trace: Trace, facts: Facts) -> EntryVerdict:
    unreadable = next((e for e in trace.events if e.kind == "unreadable"), None)
    if unreadable is not None:
        # The run imports a module of the program the tool could not read: a syntax error
        # stops Python there too (`async` as a name on Python 3.7 and later); anything else
        # (too large, undecodable) leaves what it runs unknown.
        path, _, why = unreadable.detail.partition("|")
        if why.startswith("syntax error"):
            return EntryVerdict(
                entry,
                DOES_NOT,
                unreadable.where,
                f"it imports `{path}`, which does not parse: {why}; Python raises SyntaxError "
                "at this import",
            )
        return EntryVerdict(
            entry,
            CANNOT_TELL,
            unreadable.where,
            f"it imports `{path}`, which the tool could not read ({why}); `trncodemod verify` "
            "runs it",
        )
    missing = next((e for e in trace.events if e.kind == "missing-package"), None)
    if missing is not None:
        return EntryVerdict(
            entry,
            DOES_NOT,
            missing.where,
            f"it calls into `{missing.detail}`, a CUDA-only package absent on Trainium, whose import "
            "the program skips when it fails (`except ImportError`): the name is unbound here, "
            "and Python raises NameError; drop the call on Trainium (or keep the option that "
            "leads to it off)",
        )
    broken = next((e for e in trace.events if e.kind == "broken-call"), None)
    if broken is not None:
        return EntryVerdict(
            entry,
            DOES_NOT,
            broken.where,
            f"it calls {broken.detail}, which fails wherever torch_xla imports (at the call, or "
            "for a metric when an engine computes it): the library's XLA backend asks torch_xla "
            "for `xm.xrt_world_size()` and `xm.get_ordinal()`, which torch-xla 2.9 no longer has "
            "(AttributeError); make the call only where the device is not XLA, or, before the "
            "library is imported, give torch_xla those names back "
            "(`xm.xrt_world_size = torch_xla.runtime.world_size`, `xm.get_ordinal = "
            "torch_xla.runtime.global_ordinal`)",
        )
    found = _judge_run(entry, trace, facts)
    if found.value != RUNS:
        return found
    for event in trace.events:
        if event.kind == "undecided":  # a choice the run depends on, left open
            return EntryVerdict(
                entry, CANNOT_TELL, event.where, f"{event.detail}; `trncodemod verify` runs it"
            )
    # A launcher whose process count is not decided may start none: not shown to run.
    for event in trace.events:
        if event.kind == "launch" and event.detail.startswith("open|"):
            return EntryVerdict(
                entry,
                CANNOT_TELL,
                event.where,
                f"{event.detail[5:]}: whether it starts a process is not known; "
                "`trncodemod verify` runs it",
            )
    return found


def _judge_run(entry: str, trace: Trace, facts: Facts) -> EntryVerdict:
    step = _step(trace.events)
    launch = next(
        (e for e in trace.events if e.kind == "launch" and e.detail.startswith("none|")), None
    )
    if step is None and launch is not None:
        return EntryVerdict(
            entry,
            DOES_NOT,
            launch.where,
            f"{launch.detail[5:]}: it starts no process, so the function it launches never runs",
        )
    exited = next((e for e in trace.events if e.kind == "exit"), None)
    if step is None and exited is not None:
        return EntryVerdict(
            entry,
            DOES_NOT,
            exited.where,
            "the program exits here on the target before any training step"
            + (f", where {exited.detail}" if exited.detail else ""),
        )
    if trace.stopped and step is None:
        return EntryVerdict(
            entry, CANNOT_TELL, trace.stopped, "the evaluator's work for one entry point ran out"
        )
    if step is None:
        unfollowed = next((e for e in trace.events if e.kind == "unfollowed"), None)
        # A backward pass that ran once, with no optimizer step (a smoke test), is the run's
        # gradient computation: no training step hides behind the choice.
        once = any(e.kind == "backward" for e in trace.events)
        if unfollowed is not None and trace.trains_nearby and not once:
            # The step may be behind a choice the evaluator left open.
            where, _, why = unfollowed.detail.partition(": ")
            return EntryVerdict(
                entry,
                CANNOT_TELL,
                where or unfollowed.where,
                f"no training step was found, but the launch path calls a value chosen where {why}"
                "; `trncodemod verify` runs it",
            )
        return EntryVerdict(entry, NO_STEP, "", "no training step on the launch path")
    if step.kind == "framework":
        name, _, why = step.detail.lstrip("!?").partition(": ")
        why, _, cause = why.partition("|")  # the model it is handed: where it was decided
        if step.detail.startswith("!"):
            if cause:
                return EntryVerdict(
                    entry, DOES_NOT, cause, f"`{name}` owns the loop, but {why}", step.on_cpu
                )
            return EntryVerdict(
                entry,
                DOES_NOT,
                step.where,
                f"`{name}` owns the loop, and {why}: the CPU",
                step.on_cpu,
            )
        if step.detail in facts.owning_frameworks:
            return EntryVerdict(
                entry, RUNS, step.where, f"`{step.detail}` owns the loop and runs it on the target"
            )
        if cause:
            return EntryVerdict(
                entry,
                CANNOT_TELL,
                cause,
                f"`{name}` owns the loop, but {why}; `trncodemod verify` runs it",
            )
        return EntryVerdict(
            entry,
            CANNOT_TELL,
            step.where,
            f"`{name}` owns the loop; whether it trains on the target is not known",
        )
    # Every step the launch path runs (a pretraining and a finetuning loop, each class an
    # undecided choice may train): the entry point runs when each of them does.
    results = [_judge_step(entry, other, trace, facts) for other in _steps(trace.events)]
    for value in (DOES_NOT, CANNOT_TELL):
        for result in results:
            if result.value == value:
                return result
    stale = next((e for e in trace.events if e.kind == "stale"), None)
    if stale is not None:
        built, _, model = stale.detail.partition("|")
        model = model.strip("`")
        return EntryVerdict(
            entry,
            DOES_NOT,
            built,
            f"the optimizer built here takes `{model}`'s parameters while they are on the CPU, "
            f"and the model is moved to the accelerator after it: on the XLA device `.to()` "
            f"makes new parameters, so the optimizer stepped at {stale.where} updates the old "
            "ones and nothing trains; build the optimizer after the move",
        )
    fed = _fed_from_host(entry, trace)
    if fed is not None:
        return fed
    if trace.other_device is not None:
        where, name = trace.other_device
        return EntryVerdict(
            entry,
            CANNOT_TELL,
            where,
            f"the program imports `{name}`, kernels for another XLA device (TPU): whether the "
            "step calls them is not shown; `trncodemod verify` runs it",
        )
    return results[0]


def _judge_step(entry: str, step: Event, trace: Trace, facts: Facts) -> EntryVerdict:
    loop = step.loops[-1] if step.loops else None
    calls = [c for c in trace.calls if loop is None or loop in c.loops]
    if any(c.trained for c in calls):  # the models an optimizer steps (not a loss module)
        calls = [c for c in calls if c.trained]
    if (
        step.kind == "backward"
        and not trace.trains_parameters
        and not any(e.kind == "optimizer" for e in trace.events)
    ):
        # `y.backward()` to show a gradient (of a tensor's own graph, or of a module's
        # parameters, `print(net[0].weight.grad)`): no code the run reaches builds an optimizer
        # or updates a tensor by its gradient, so nothing trains.
        return EntryVerdict(entry, NO_STEP, "", "no training step on the launch path")
    if not calls:
        return EntryVerdict(
            entry,
            CANNOT_TELL,
            step.where,
            "the step calls no model the evaluator can follow",
        )
    models = [c for c in calls if not c.loss]
    if (
        models
        and all(c.eval_at and not c.trained for c in models)
        and not any(
            e.kind == "optimizer" and (loop is None or loop in e.loops) for e in trace.events
        )
    ):
        # Gradients through models in eval mode that no optimizer steps: an attack or an
        # analysis of the inputs (PGD's `loss.backward()` for `X_pgd.grad`), not training.
        return EntryVerdict(entry, NO_STEP, "", "no training step on the launch path")
    for call in calls:
        problem = _placement(entry, call, trace)
        if problem is not None:
            return problem
    for call in calls:
        if (
            facts.backend == "xla"
            and call.eval_at
            and call.batchnorm
            and _differentiated(call, trace)
        ):
            return EntryVerdict(
                entry,
                DOES_NOT,
                call.where,
                f"`{call.model}` is called in eval mode (`.eval()` at {call.eval_at}) and "
                f"differentiated, and it holds BatchNorm layers ({call.batchnorm}): on "
                'torch-xla 2.9 the backward of BatchNorm with running statistics raises ("the '
                'size of offset factor is 0"); keep the layers in training mode there, or '
                "compute them from their running statistics by hand",
            )
    if facts.needs_cut:
        accumulation = _accumulation_loop(step, trace)
        cut_loop = loop if accumulation is None else accumulation
        cuts = [
            e for e in trace.events if e.kind == "cut" and (cut_loop is None or cut_loop in e.loops)
        ]
        if not cuts:
            return EntryVerdict(
                entry,
                DOES_NOT,
                step.where,
                "the step is never cut into a graph (no `torch_xla.sync()` in its loop): "
                "the graph grows every step",
            )
    return EntryVerdict(
        entry,
        RUNS,
        step.where,
        "the model's parameters and the step's inputs are on the accelerator, and the step is cut",
    )


def _accumulation_loop(step: Event, trace: Trace) -> int | None:
    """The loop that steps the optimizer around ``step``, a ``backward()`` in a micro-batch
    loop that steps none (gradient accumulation): one cut per optimizer step there is the cut
    of the step, and the micro-batch loop needs none."""
    if step.kind != "backward" or not step.loops:
        return None
    inner = step.loops[-1]
    if any(e.kind == "optimizer" and inner in e.loops for e in trace.events):
        return None
    outer = [
        e.loops[-1]
        for e in trace.events
        if e.kind == "optimizer" and e.loops and e.loops == step.loops[: len(e.loops)]
    ]
    return outer[-1] if outer else None


def _differentiated(call: ModelCall, trace: Trace) -> bool:
    """A ``backward()`` or ``torch.autograd.grad`` runs after the call, in the loop the call
    runs in (the evaluator runs a loop's body once, in order: a backward before the call in the
    body differentiates another forward)."""
    return any(
        e.kind in ("backward", "grad") and e.loops == call.loops
        for e in trace.events[call.events_before :]
    )


def _steps(events: Sequence[Event]) -> list[Event]:
    """The first ``backward()`` or optimizer step of each loop that runs one (of the run, when
    none runs in a loop)."""
    found: dict[int, Event] = {}
    for event in events:
        if event.kind in ("backward", "optimizer") and event.loops:
            found.setdefault(event.loops[-1], event)
    if found:
        return list(found.values())
    first = _step(events)
    return [first] if first is not None else []


def _step(events: Sequence[Event]) -> Event | None:
    """The step: the first ``backward()`` (or optimizer step) run in a loop; else the first
    one; else a framework that owns the loop."""
    steps = [e for e in events if e.kind in ("backward", "optimizer")]
    in_loop = [e for e in steps if e.loops]
    if in_loop:
        return in_loop[0]
    if any(e.kind == "optimizer" for e in steps):
        return steps[0]
    # One backward pass and no optimizer step, in no loop (a library module's `__main__` smoke
    # test: a forward, `loss.backward()`, a print): gradients computed once, nothing trained.
    return next((e for e in events if e.kind == "framework"), None)


def _placement(entry: str, call: ModelCall, trace: Trace) -> EntryVerdict | None:
    placed = None
    if not (call.loss and not call.trained):  # a loss module has no parameters to place
        placed = _where(entry, call.place, f"the model `{call.model}`", call, trace)
    if call.wrapped:  # "path:line|why": a wrapper the model cannot train in on the target
        where, _, why = call.wrapped.partition("|")
        decided = _first(call.place.why) if isinstance(call.place, Device) else ""
        if placed is not None and placed.value == DOES_NOT and decided and _before(decided, where):
            # The first cause on the launch path: the model's device is decided above the wrap.
            return replace(placed, where=decided)
        return EntryVerdict(entry, DOES_NOT, where, why)
    if placed is not None:
        return placed
    for spelled, place in call.inputs:
        problem = _where(entry, place, f"the step's input `{spelled}`", call, trace)
        if problem is not None:
            return problem
    return None


def _fed_from_host(entry: str, trace: Trace) -> EntryVerdict | None:
    """A model on the accelerator that the launch path calls with a tensor left on the CPU, off
    the step (an evaluation loop whose batch the training loop's loader moved, or that
    `nn.DataParallel` scattered on CUDA and passes through on the target): its forward raises
    there ("Input type (torch.FloatTensor) and weight type (XLAFloatType) should be the same",
    benchmarks/xla_facts.py `data_parallel_inputs`), so the run stops at that call."""
    for call in trace.calls:
        if call.loss or not (isinstance(call.place, Device) and call.place.kind == "accelerator"):
            continue
        for spelled, place in call.inputs:
            if isinstance(place, Device) and place.kind == "cpu":
                return EntryVerdict(
                    entry,
                    DOES_NOT,
                    call.where,
                    f"the model `{call.model}` is on the accelerator, and `{spelled}` it is fed "
                    f"here is on the CPU{_because(place.why)}: the forward raises on the target; "
                    "move it to the device",
                )
    return None


def _before(first: str, second: str) -> bool:
    """Whether "path:line" ``first`` is above ``second`` in the same module."""
    path, _, line = first.rpartition(":")
    other, _, other_line = second.rpartition(":")
    return path == other and line.isdigit() and other_line.isdigit() and int(line) < int(other_line)


def _where(entry: str, place: Value, what: str, call: ModelCall, trace: Trace):
    if isinstance(place, Device) and place.kind == "accelerator":
        return None
    if isinstance(place, Unknown) or not isinstance(place, Device):
        at = getattr(place, "at", "") or call.where
        reason = getattr(place, "reason", "")
        text = f"where {what} is is not decided"
        if reason and not reason.startswith("prefix:"):
            text += f": {reason}"
        return EntryVerdict(entry, CANNOT_TELL, at, text + "; `trncodemod verify` runs it")
    # The move that sent an input there (`x.to(feat_device)`), last of the decisions behind it.
    moved = place.why[-1] if place.why and place.why[-1].text.startswith(MOVED_BY) else None
    decided = place.why[:-1] if moved is not None else place.why
    if place.kind == "cuda":
        spelled = f" (`{place.spelled.strip('`')}`)" if place.spelled else ""
        return EntryVerdict(
            entry,
            DOES_NOT,
            _last(place.why) or call.where,
            f"{what} is put on CUDA{spelled}, which the target does not have{_because(decided)}",
        )
    where = "the CPU" if place.kind == "cpu" else f"`{place.spelled or place.kind}`"
    on_device = isinstance(call.place, Device) and call.place.kind == "accelerator"
    if moved is not None and on_device:
        # The step sends its input to a device other than the model's (a feature device that
        # is the CPU on the launch path): the cause is that move.
        return EntryVerdict(
            entry,
            DOES_NOT,
            f"{moved.path}:{moved.line}",
            f"{what} is {moved.text} to {where}, away from the model `{call.model}` on the "
            f"accelerator{_because(decided)}",
        )
    skipped = _skipped_move(entry, what, trace)
    if skipped is not None:
        return skipped
    if place.kind == "cpu" and len(place.why) == 1:  # built, and never moved
        built = place.why[0]
        return EntryVerdict(
            entry,
            DOES_NOT,
            f"{built.path}:{built.line}",
            f"{what} is built on the CPU ({built.text}) and nothing on the launch path moves it",
        )
    return EntryVerdict(
        entry,
        DOES_NOT,
        _first(place.why) or call.where,
        f"{what} stays on {where}{_because(place.why)}",
    )


def _skipped_move(entry: str, what: str, trace: Trace) -> EntryVerdict | None:
    """A move of the model (or input) that a decided condition skips: the cause, at the
    condition's own origin."""
    name = what.split("`")[1] if "`" in what else ""
    head = name.split("(")[0].split(".")[0]
    for skipped in trace.skipped:
        receiver = skipped.receiver.split(".")[0]
        if head and receiver == head:
            origin = _first(skipped.why) or skipped.where
            because = f" ({_chain(skipped.why)})" if skipped.why else ""
            return EntryVerdict(
                entry,
                DOES_NOT,
                origin,
                f"{what} stays on the CPU: `{skipped.test}` is {skipped.taken} on the target"
                f"{because}, so `{skipped.code}` at {skipped.where} never runs",
            )
    return None


def _chain(why: Sequence[Why]) -> str:
    return "; ".join(f"{w.path}:{w.line}: {w.text}" for w in why)


def _because(why: Sequence[Why]) -> str:
    return f" ({_chain(why)})" if why else ""


def _first(why: Sequence[Why]) -> str:
    return f"{why[0].path}:{why[0].line}" if why else ""


def _last(why: Sequence[Why]) -> str:
    return f"{why[-1].path}:{why[-1].line}" if why else ""


class EntryPointOffAccelerator(Rule):
    # Raised by the verdict (pipeline/verdicts.py), not by a pass; listed in the device pass's
    # rule table, whose facts it shares.
    """## What it does
    Reports, at its cause, an entry point that the evaluator of the migrated program shows does
    not train on the accelerator, where no other blocker already says so: the model or the
    step's inputs stay on the CPU (a flag that is False on the target, `cuda = True if
    torch.cuda.is_available() else False` and then `if cuda: model.cuda()`), the step is never
    cut, or a framework that owns the loop keeps it on the CPU (a Lightning `Trainer` given
    `accelerator="cpu"`, or a Lightning 1.x `Trainer` given no GPU: `gpus` left out, None, or
    `torch.cuda.device_count()`, which is 0 on the target). The verdict per entry point
    names the same cause; this finding makes it count, as a blocker, in every output and in the
    exit code. Nothing is rewritten: the evaluator knows the program does not run there, not
    which edit the author wants. Where the framework is kept on the CPU, a module that only
    such runs reach is left as given: each XLA rewrite in it is reported as not applied.

    Also where the step differentiates a model that holds BatchNorm layers with running
    statistics while it is in eval mode (`model.eval()`, then an attack's
    `torch.autograd.grad(loss, [x_adv])` or a `backward()` in the same loop, as adversarial
    training does): that backward raises on torch-xla 2.9. Gradients taken only through models
    in eval mode that no optimizer steps (a PGD attack evaluation) are no training step. And
    where the launch path calls into a CUDA-only package (NVIDIA apex) whose import the program
    skips when it fails (`try: import apex` / `except ImportError: pass`): the package is absent
    on Trainium, the name is unbound, and the call raises NameError (a call under a condition
    the launch leaves undecided does not count; a handler that binds the name, `apex = None`,
    lets the program test it).

    ## Why
    `torch.cuda.is_available()` is False under torch-xla on a Trainium host
    ([measured-device-checks]), so a program whose placement hangs on it, or on any value that
    is not the XLA device on the launch path, trains on the CPU or stops; the device it must
    use is `torch_xla.device()` ([xla-devices]). Lightning 1.x trains on the CPU unless its
    `Trainer` is given GPUs or another accelerator ("default used by the Trainer (ie: train on
    CPU)": `gpus=None`, and `gpus=0` is the same; [lightning-1x-trainer]); on Trainium it
    trains through neuronx-distributed's Lightning integration
    ([neuronx-distributed-lightning]). The backward of BatchNorm in eval mode raises
    "the size of offset factor is 0" on the XLA device, for an input's gradient and a weight's,
    1d and 2d, affine or not; without running statistics, or in training mode, it runs
    ([measured-batchnorm-eval-backward]).

    ## Example
    ```python
    cuda = True if torch.cuda.is_available() else False
    if cuda:
        generator.cuda()
    ```

    ## Use instead
    ```python
    device = torch_xla.device()
    generator.to(device)
    ```
    """

    code = "TRN027"
    name = "entry-point-off-accelerator"
    summary = "an entry point the evaluator shows does not train on the accelerator (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.BLOCKER
    sources = (
        "xla-devices",
        "measured-device-checks",
        "lightning-1x-trainer",
        "neuronx-distributed-lightning",
        "measured-batchnorm-eval-backward",
    )
