"""A device tensor sliced in the step at an offset drawn on the host (TRN448): a random crop of
the batch after `.to(device)`, in the step or in the repository's own augmentation helper
(`random_crop_torch(gt, lr, size, scale)`, which draws `top = random.randint(0, h - p)` and
takes `x[:, :, top:top + p, left:left + p]`). Reported by the ``recompilation`` pass; nothing
is rewritten (where to crop is the author's augmentation). The analysis is
``trncodemod.analysis.drawn_offsets``.
"""

from __future__ import annotations

import ast

import libcst as cst
from libcst.metadata import PositionProvider

from trncodemod.analysis.drawn_offsets import (
    DrawnSlice,
    StepSlice,
    import_resolver,
    module_drawn_slices,
    step_slices,
)
from trncodemod.analysis.loops import Loop, LoopInfo
from trncodemod.analysis.training import import_specs
from trncodemod.findings import Rule, Safety, Severity
from trncodemod.passes import Pass, RawFinding


class DrawnOffsetSlice(Rule):
    """## What it does
    Reports a training or evaluation step that slices a tensor it moved to the device (`x =
    batch.to(device)`, `.cuda()`, or a batch of a device loader) at an offset drawn on the host
    every step (`random.randint`, `np.random.*`, `torch.randint(...).item()`), both bounds
    read from the draw: a random crop, `x[:, :, top:top + p, left:left + p]` or `x.narrow(2,
    top, p)`, or a CutMix window `x[:, :, x1:x2] = ...` (its drawn length is TRN443's too).
    It is found in the step itself, or in a function of the repository the step hands the
    device tensor to (in the module, or imported from another given module, through up to three
    calls of that module), which draws the offset itself or is handed the step's draw. Reported
    at the step's slice or call, with where the slice is. Not reported: a crop of the CPU batch
    before the move (the fix), an offset that is the same every step, or one drawn from a few
    fixed values (`random.choice((0, 16))`). A drawn length is TRN443's, and a `range` loop's
    offset TRN434's.

    ## Why
    On XLA a slice's start is a constant of the graph: each new offset traces and compiles
    another graph ([xla-recompile-sources]). Measured on torch 2.9 + torch-xla 2.9, XLA:CPU
    ([measured-drawn-offsets]: 12 training steps of a super-resolution pair cropped at offsets
    from `random.randint`): 12 compiles, 1 when the same crops are taken of the CPU batch before
    the move, 4 with the offsets drawn from two values a side. An image of some 100 pixels a
    side has thousands of offset pairs, each compiled by neuronx-cc in minutes.

    ## Example
    ```python
    for batch in loader:
        gt = batch["gt"].to(device, non_blocking=True)
        lr = batch["lr"].to(device, non_blocking=True)
        gt, lr = random_crop_torch(gt, lr, gt_size, scale)  # random.randint offsets inside
    ```

    ## Use instead
    ```python
    for batch in loader:
        gt, lr = random_crop_torch(batch["gt"], batch["lr"], gt_size, scale)  # on the CPU
        gt = gt.to(device, non_blocking=True)
        lr = lr.to(device, non_blocking=True)
    ```
    Or crop in the Dataset's `__getitem__`, or draw the offsets from a few fixed values
    (`random.choice(range(0, h - p + 1, 16))`). Nothing is rewritten: the crop is the author's
    augmentation.
    """

    code = "TRN448"
    name = "drawn-offset-slice-of-device-tensor"
    summary = (
        "a device tensor cropped in the step at an offset drawn on the host: a graph per offset "
        "(report only)"
    )
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = ("xla-recompile-sources", "measured-drawn-offsets")


_COST = (
    "on XLA the offset is a constant of the graph, so every new offset compiles another graph "
    "(measured: 12 compiles in 12 steps of a random crop of a device tensor; 1 with the crop "
    "taken of the CPU batch before the move, 4 with two offsets a side)"
)
_FIX = (
    "take the slice on the host, before the move (in the Dataset's `__getitem__`, or of the "
    "CPU batch before `.to(device)`: one input shape, one graph), or draw the offsets from a few "
    "fixed values (`random.choice(range(0, h - p + 1, 16))`); the crop is the author's "
    "augmentation, so nothing is rewritten"
)


def report_offsets(owner: Pass, module: cst.Module, loops: dict[Loop, LoopInfo]) -> None:
    """TRN448 on ``module`` for the ``recompilation`` pass ``owner``: XLA targets only (TorchNeuron
    runs eagerly, a slice's offset is no constant of a graph there)."""
    if not owner.target.is_xla or not owner.enabled(DrawnOffsetSlice):
        return
    facts = owner.run.facts
    if facts is not None:  # the ast of this very code, read once for every pass
        code, tree = facts.text, facts.tree
    else:
        code = module.code
        try:
            tree = ast.parse(code)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return
    resolve = import_resolver(import_specs(tree)[0])
    functions: dict[str, tuple[DrawnSlice, ...]] = dict(module_drawn_slices(tree, resolve, code))
    places = dict.fromkeys(functions, "")
    for local, (path, slices) in owner.run.program.imported_drawn_slices.items():
        if local not in functions:
            functions[local], places[local] = slices, path
    starts = {}
    for info in loops.values():
        start = owner.get_metadata(PositionProvider, info.node).start
        starts[start.line, start.column] = info
    steps = {
        node: starts[node.lineno, node.col_offset]
        for node in ast.walk(tree)
        if isinstance(node, ast.For | ast.While | ast.AsyncFor)
        and (node.lineno, node.col_offset) in starts
    }
    lines = code.splitlines()
    seen: set[int] = set()  # one finding a line: `x[:, a:b] = y[:, a:b]` is one crop
    for loop, info in steps.items():
        for found in step_slices(
            loop,
            resolve,
            functions,
            places,
            skip=lambda n, loop=loop: n in steps and n is not loop,
            device_batches=info.iterates_device_loader,
        ):
            if found.node.lineno in seen:
                continue
            seen.add(found.node.lineno)
            _report(owner, found, lines)


def _report(owner: Pass, found: StepSlice, lines: list[str]) -> None:
    # Lines in "(line N)" are the tree's: the pipeline writes them as the file's.
    line = found.node.lineno
    if owner.run.suppressions.covers(line, DrawnOffsetSlice.code):
        return
    text = lines[line - 1] if line <= len(lines) else ""
    column = len(text.encode("utf-8")[: found.node.col_offset].decode("utf-8", "ignore"))
    sources = " and ".join(f"`{s}`" for s in found.sources)
    moved = (
        f"which this step moved to the device (line {found.moved})"
        if found.moved
        else "which this step has on the device"
    )
    draw = f"`{found.draw}`" if found.draw else "a draw"
    if found.via:
        code = ast.unparse(found.node)
        if len(code) > 60:
            code = f"{found.via.split(' → ')[0]}(...)"
        what = f"`{code}` slices {sources}, {moved}, in `{found.via}` ({found.slice_at})"
    else:
        what = f"`{ast.unparse(found.node)}` slices {sources}, {moved},"
    message = f"{what} at an offset drawn on the host every step ({draw}): {_COST}; {_FIX}"
    owner.findings.append(RawFinding(line, column + 1, DrawnOffsetSlice, message, False))
