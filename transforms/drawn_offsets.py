"""A device tensor sliced in the step at an offset drawn on the host (TRN448): a random crop of
the batch after `.to(device)`, in the step or in the repository's own augmentation helper
(`random_crop_torch(gt, lr, size, scale)`, which draws `top = random.randint(0, h - p)` and
takes `x[:, :, top:top + p, left:left + p]`), and a box pasted into it at drawn bounds (CutMix:
`bbx1, bby1, bbx2, bby2 = rand_bbox(input.size(), lam)`, then `input[:, :, bbx1:bbx2,
bby1:bby2] = input[rand_index, :, bbx1:bbx2, bby1:bby2]`). Reported by the ``recompilation``
pass; nothing is rewritten (where to crop or paste is the author's augmentation). The analysis
is ``trncodemod.analysis.drawn_offsets``.
"""

from __future__ import annotations

import ast

import libcst as cst
from libcst.metadata import PositionProvider

from trncodemod.analysis.drawn_offsets import (
    DrawnSlice,
    StepSlice,
    drawing_functions,
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
    top, p)`, or a box pasted into it, `x[:, :, x1:x2, y1:y2] = x[index, :, x1:x2, y1:y2]`
    (CutMix) or `x[:, :, t:t + h, l:l + w] = 0` (random erasing). The bounds may come from a
    function of the repository that returns them (CutMix's `rand_bbox(input.size(), lam)`,
    drawing `np.random.randint` centres clipped with `np.clip`, in the module, imported from
    another given module, or a method of the step's class called as `self.rand_bbox(...)`), or
    from one handed the step's draw (`box_of(size, lam)`). The slice
    is found in the step itself, or in a function of the repository the step hands the device
    tensor to (in the module, or imported from another given module, through up to three calls
    of that module), which draws the offset itself or is handed the step's draw. Reported at the
    step's slice or call, with where the slice is. Not reported: a crop or box of the CPU batch
    before the move (the fix), bounds that are the same every step or derived from the shape
    only, or bounds drawn from a few fixed values (`random.choice((0, 16))`). A drawn length
    alone is TRN443's, and a `range` loop's offset TRN434's.

    ## Why
    On XLA a slice's start is a constant of the graph: each new offset traces and compiles
    another graph ([xla-recompile-sources]). Measured on torch 2.9 + torch-xla 2.9, XLA:CPU
    ([measured-drawn-offsets]: 12 training steps of a super-resolution pair cropped at offsets
    from `random.randint`): 12 compiles, 1 when the same crops are taken of the CPU batch before
    the move, 4 with the offsets drawn from two values a side. An image of some 100 pixels a
    side has thousands of offset pairs, each compiled by neuronx-cc in minutes. A pasted box is
    the same ([measured-drawn-boxes]: 12 CutMix steps of clovaai/CutMix-PyTorch's `rand_bbox`
    and slice assignment): 12 compiles; 1 when the box is pasted through a mask of a fixed
    shape whose bounds are moved as one tensor, or pasted into the CPU batch before the move;
    5 with the mask's bounds given as Python ints (0 and 1 are constants of the graph).

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
    (`random.choice(range(0, h - p + 1, 16))`). A box pasted into the batch keeps the batch's
    shape through a mask:
    ```python
    bbx1, bby1, bbx2, bby2 = rand_bbox(input.size(), lam)
    b = torch.tensor([bbx1, bbx2, bby1, bby2]).to(input.device)  # one tensor: one graph
    rows = torch.arange(input.shape[-2], device=input.device)[:, None]
    cols = torch.arange(input.shape[-1], device=input.device)
    box = (rows >= b[0]) & (rows < b[1]) & (cols >= b[2]) & (cols < b[3])
    input = torch.where(box, input[rand_index], input)
    ```
    Nothing is rewritten: the crop or box is the author's augmentation.
    """

    code = "TRN448"
    name = "drawn-offset-slice-of-device-tensor"
    summary = (
        "a device tensor cropped in the step at an offset drawn on the host, or a box pasted "
        "into it at drawn bounds (CutMix): a graph per offset (report only)"
    )
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = ("xla-recompile-sources", "measured-drawn-offsets", "measured-drawn-boxes")


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


_BOX_COST = (
    "on XLA the box's bounds are constants of the graph, so every new box compiles another "
    "graph (measured: 12 compiles in 12 CutMix steps pasting the box by slice assignment; 1 with "
    "a mask of a fixed shape whose bounds are moved as one tensor)"
)
_BOX_FIX = (
    "paste through a mask of the tensor's own shape, with the bounds moved as one tensor (`b = "
    "torch.tensor([x1, x2, y1, y2]).to(x.device)`; `rows = torch.arange(x.shape[-2], "
    "device=x.device)[:, None]`; `cols = torch.arange(x.shape[-1], device=x.device)`; `box = "
    "(rows >= b[0]) & (rows < b[1]) & (cols >= b[2]) & (cols < b[3])`; `x = torch.where(box, "
    "x[index], x)`, or `0` in place of `x[index]` for an erasing: one graph for every box; "
    "bounds given as Python ints make 0 and 1 constants of the graph, a few graphs more), or "
    "paste the box into the CPU batch before `.to(device)`; the box is the author's "
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
    drawing = {**owner.run.program.imported_drawing, **drawing_functions(tree, resolve)}
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
            drawing=drawing,
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
    verb = "pastes a box into" if found.writes else "slices"
    if found.via:
        code = ast.unparse(found.node)
        if len(code) > 60:
            code = f"{found.via.split(' → ')[0]}(...)"
        what = f"`{code}` {verb} {sources}, {moved}, in `{found.via}` ({found.slice_at})"
    else:
        written = " = ..." if found.writes else ""
        what = f"`{ast.unparse(found.node)}{written}` {verb} {sources}, {moved},"
    if found.writes:
        message = f"{what} at bounds drawn on the host every step ({draw}): {_BOX_COST}; {_BOX_FIX}"
    else:
        message = f"{what} at an offset drawn on the host every step ({draw}): {_COST}; {_FIX}"
    owner.findings.append(RawFinding(line, column + 1, DrawnOffsetSlice, message, False))
