"""A random number drawn on the host at each pass of a loop that runs inside one training step
(teacher forcing in a decoder's time loop: `input = trg[t] if random.random() < ratio else
top1`), whose outcome chooses what the graph computes. Each pattern of draws is another graph,
so a step of T passes can compile up to 2^T graphs. Reported by the ``recompilation`` pass
(TRN442); step loops themselves are not such loops (one draw per step picks one of two graphs,
each compiled once).
"""

from __future__ import annotations

import libcst as cst

from trncodemod.analysis.loops import find_step_loops
from trncodemod.analysis.model_code import model_code, walk
from trncodemod.analysis.nodes import find
from trncodemod.findings import Rule, Safety, Severity
from trncodemod.passes import Pass

# Host draws of a uniform number, the shape a ratio is tested against.
HOST_DRAWS = frozenset(
    {
        "random.random",
        "random.uniform",
        "numpy.random.rand",
        "numpy.random.random",
        "numpy.random.uniform",
        "numpy.random.random_sample",
    }
)


class HostDrawPerTimeStep(Rule):
    """## What it does
    Reports a random number drawn on the host (`random.random()`, `np.random.rand()`, ...) and
    compared, at each pass of a loop inside model or training code that is not the step loop
    itself, where the comparison decides a branch or a conditional expression (directly, or
    through a name bound to it in the loop): teacher forcing in a decoder's time loop is the
    common case. A comparison that is constant (`random.random() < 1.0`) and a draw made once
    before the loop are not reported.

    ## Why
    The branch the draw takes is traced into the step's graph, so every new pattern of draws
    is a new graph to compile. Measured on torch 2.9 + torch-xla 2.9 with an LSTM-cell decoder of
    6 steps [measured-teacher-forcing]: 7 compiles in 8 batches with a draw per time step at
    0.5, 1 with the ratio at 1.0, 2 with one draw per batch outside the time loop, 1 with the
    choice made on the device by `torch.where`. On Trainium each compile takes minutes.

    ## Example
    ```python
    for t in range(1, trg_length):
        output, hidden = self.decoder(input, hidden)
        teacher_force = random.random() < teacher_forcing_ratio
        input = trg[t] if teacher_force else output.argmax(1)
    ```

    ## Use instead
    ```python
    for t in range(1, trg_length):
        output, hidden = self.decoder(input, hidden)
        teacher_force = torch.rand(trg.shape[1], device=trg.device) < teacher_forcing_ratio
        input = torch.where(teacher_force, trg[t], output.argmax(1))
    ```
    """

    code = "TRN442"
    name = "host-draw-per-time-step"
    summary = "a host random draw inside a step's inner loop picks the graph: a compile per pattern"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = ("measured-teacher-forcing",)


def _code(node: cst.CSTNode) -> str:
    return cst.Module(body=[]).code_for_node(node)


def _constant_outcome(comparison: cst.Comparison) -> bool:
    """`random() < 1.0`, `random() > 0`, ...: the draw in [0, 1) against a number outside it
    decides nothing."""
    for target in comparison.comparisons:
        value = target.comparator
        if isinstance(value, cst.Float | cst.Integer):
            number = float(value.value)
            if number >= 1 or number <= 0:
                return True
    return False


def report_host_draws(owner: Pass, module: cst.Module) -> None:
    """TRN442 on ``module`` for the pass ``owner`` (its metadata and findings)."""
    steps = {id(info.node) for info in find_step_loops(module).values()}
    seen: set[int] = set()
    for loop in walk(model_code(owner, module)):
        if not isinstance(loop, cst.For | cst.While) or id(loop) in steps:
            continue
        tests = [
            node.test  # type: ignore[attr-defined]
            for node in find(loop.body, cst.If, cst.IfExp, cst.While)
        ]
        tested = {
            n.value for t in tests for n in [t, *find(t, cst.Name)] if isinstance(n, cst.Name)
        }
        for comparison in find(loop.body, cst.Comparison):
            draw = next(
                (
                    c
                    for c in find(comparison, cst.Call)
                    if owner.qualified_names(c.func) & HOST_DRAWS  # type: ignore[attr-defined]
                ),
                None,
            )
            if draw is None or id(draw) in seen or _constant_outcome(comparison):  # type: ignore[arg-type]
                continue
            parent = owner.get_metadata(cst.metadata.ParentNodeProvider, comparison, None)
            decides = any(comparison is t or _contains(t, comparison) for t in tests) or (
                isinstance(parent, cst.Assign)
                and any(
                    isinstance(a.target, cst.Name) and a.target.value in tested
                    for a in parent.targets
                )
            )
            if not decides:
                continue
            seen.add(id(draw))
            owner.report(
                draw,
                HostDrawPerTimeStep,
                f"`{_code(comparison)}` is drawn on the host at each pass of this loop, inside "
                "one step, and picks what the graph computes: each new pattern of draws is "
                "another graph to compile (measured: 7 compiles in 8 batches of a 6-step decoder "
                "at 0.5, 1 at 1.0); draw on the device instead, `torch.where(torch.rand(B, "
                "device=d) < ratio, trg[t], top1)`, or once per batch before the loop",
                False,
            )


def _contains(root: cst.CSTNode, node: cst.CSTNode) -> bool:
    return any(found is node for found in find(root, type(node)))
