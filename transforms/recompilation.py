"""Sources of recompilation that the rewriting passes leave behind ([xla-recompile-sources, xla-recompilation, neuron-emod025]). Report only.

What other passes own, and this one does not report again: padding to buckets in tokenizers,
collators, `pad_sequence` and `DataLoader(drop_last=...)` is the `buckets` pass's (TRN211–TRN218); a
step marker that runs only on some iterations is the `step-marker` pass's (TRN103); the
data-dependent op itself (`nonzero`, `x[mask]`, ...) is the `cpu-fallback` pass's (TRN411–TRN417).
Changing Python scalars (a learning rate from a scheduler, `x * s`) are *not* a source: torch_xla
passes them as device data ([xla-recompile-sources, measured-python-scalars]), so nothing here looks
at them.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

import libcst as cst
import libcst.matchers as m
from libcst.metadata import PositionProvider
from trncodemod.transforms.drawn_lengths import (
    HostDrawnLength,
    VariableLengthSamples,
    may_report,
    report_lengths,
)
from trncodemod.transforms.drawn_offsets import DrawnOffsetSlice, report_offsets
from trncodemod.transforms.host_draws import HOST_DRAWS, HostDrawPerTimeStep, report_host_draws

from trncodemod.analysis.facts import FileFacts
from trncodemod.analysis.fallback_facts import Facts
from trncodemod.analysis.fallback_scan import may_read_dynamic_size
from trncodemod.analysis.loops import (
    LoopInfo,
    assigned_names,
    dotted,
    find_step_loops,
    own_statements,
)
from trncodemod.analysis.model_code import model_code, walk
from trncodemod.analysis.nodes import find, visit
from trncodemod.analysis.nodes import walk as walk_nodes
from trncodemod.analysis.offset_slices import moved_slices, offset_names, starts_at, step_code
from trncodemod.analysis.offset_slices_scan import loop_offsets
from trncodemod.analysis.program import ModuleView
from trncodemod.analysis.step_scan import step_scan
from trncodemod.findings import Rule, Safety, Severity
from trncodemod.passes import Pass, PlainVisitor, RawFinding
from trncodemod.targets import Target


class DataDependentShapeUse(Rule):
    """## What it does
    Reports `.shape`, `.size()`, `.numel()` and `len()` of a value whose size depends on the
    data — the result of `nonzero`, `argwhere`, one-argument `where`, `masked_select`, `unique`,
    `repeat_interleave` with tensor repeats, or boolean-mask indexing, directly or through a name
    bound only to one — in model and training code (the same code as the `cpu-fallback` pass).

    ## Why
    The size is a new Python number for every batch, and whatever is built from it (a `view`,
    a `torch.zeros(n)`, a loop bound) is traced into the graph as a constant: each distinct count
    compiles another graph ([xla-recompile-sources]). The op itself is
    reported by `cpu-fallback`.

    ## Example
    ```python
    idx = torch.nonzero(mask).squeeze(1)
    out = torch.zeros(idx.shape[0], dim, device=x.device)
    ```

    ## Use instead
    ```python
    out = torch.where(mask.unsqueeze(-1), x, 0)   # a fixed shape; count with mask.sum()
    ```
    """

    code = "TRN431"
    name = "data-dependent-shape-use"
    summary = "`.shape` of a `nonzero`/mask-indexed result: a graph per count (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = ("xla-recompile-sources",)


class ShapeDependentBranch(Rule):
    """## What it does
    Reports an `if`, `while` or conditional expression inside a training or evaluation step
    whose test reads a `.shape` or `.size()`. Not reported: a branch that only leaves the
    iteration (`if x.size(0) < batch_size: continue`, `break`, `raise`, `return` as its last
    statement: it skips a partial batch, which is the fix) and a branch that pads (calls a
    function whose name contains `pad`).

    ## Why
    Shapes are Python numbers while tracing, so each shape that takes the other side traces a
    different graph, compiled on first use ([xla-recompile-sources]: data-dependent control flow).
    With inputs padded to fixed shapes ([xla-recompilation, neuron-emod025]) the branch always goes
    the same way.

    ## Example
    ```python
    if x.shape[1] > 256:
        x = x[:, -256:]
    ```

    ## Use instead
    ```python
    # pad or truncate every batch to the same length in the collate function
    ```
    """

    code = "TRN432"
    name = "shape-dependent-branch"
    summary = "a Python branch on a tensor's shape inside the step (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = ("xla-recompile-sources", "xla-recompilation", "neuron-emod025")


class DataDependentSlice(Rule):
    """## What it does
    Reports slicing inside a training or evaluation step whose bound is read from the data:
    `x[:, :lengths.max()]`, `ids[:, : int(mask.sum(1).max())]`, or a name bound in the step to
    such a value (`.item()`, `.max()`, `.sum()`, `.amax()`, `.count_nonzero()`, `.tolist()`).
    This is the variable input shape that no padding pass can see: the batch is trimmed after it
    was padded.

    ## Why
    Every batch gets the length of its longest sequence, so every new length compiles a new graph
    ([xla-recompilation, neuron-emod025, measured-shape-compiles], measured: 10 lengths → 10
    compiles), and reading the bound syncs ([xla-troubleshoot, neuron-debug]). The `.item()`/`int()`
    itself is reported by `item-hoist`; this finding is about the shape.

    ## Example
    ```python
    longest = int(attention_mask.sum(1).max())
    input_ids = input_ids[:, :longest]
    ```

    ## Use instead
    ```python
    # keep the padded length (one of a few buckets) and pass attention_mask to the model
    ```
    """

    code = "TRN433"
    name = "data-dependent-slice"
    summary = "slicing a batch to a length read from the data (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = (
        "xla-recompilation",
        "neuron-emod025",
        "xla-recompile-sources",
        "xla-troubleshoot",
        "neuron-debug",
        "measured-shape-compiles",
    )


class OffsetSlice(Rule):
    """## What it does
    Reports a slice that starts at the offset of a `for` over `range(...)` in a training or
    evaluation step, `source[i:i + n]`, or at a name the step binds to it (`start = i`,
    `start = i * bs`), written in the step or in a function of the module the
    step calls with the offset (`get_batch(train_data, i)` of pytorch/examples'
    word_language_model). Where the script moves the whole source to the device at its top
    level, the `device` pass keeps it on the host and moves each slice (TRN056). Not reported: a slice that is moved to the device right away
    (`source[i:i + n].to(device)`, or a name bound to it and moved): the source is then on the
    host; a source visibly on the host (`.cpu()`, `.numpy()`, NumPy).

    ## Why
    On XLA a slice's start and end are constants of the graph: slicing a device tensor at a new
    offset every step traces a new graph, compiled on first use, in every step of the epoch
    ([measured-offset-slices]: 6 steps, 6 compiles, against 1 with each slice taken on the
    host and moved; [measured-programs]: word_language_model compiled once per step).
    A slice of a host tensor moved to the device is a device input of a fixed shape: one graph.
    A length that shrinks at the end of the source (`min(bptt, len(source) - 1 - i)`) adds one
    graph for the short last batch of every epoch.

    ## Example
    ```python
    train_data = batchify(corpus.train, batch_size)   # ends with .to(device)
    for batch, i in enumerate(range(0, train_data.size(0) - 1, bptt)):
        seq_len = min(bptt, len(train_data) - 1 - i)
        data = train_data[i:i + seq_len]
    ```

    ## Use instead
    ```python
    train_data = batchify(corpus.train, batch_size)   # kept on the CPU
    for batch, i in enumerate(range(0, train_data.size(0) - 1 - bptt, bptt)):
        data = train_data[i:i + bptt].to(device)       # one shape: the short tail is skipped
    ```
    Skipping the tail changes what is trained on (up to `bptt - 1` rows an epoch): a person
    decides, so the tool reports and rewrites nothing.
    """

    code = "TRN434"
    name = "offset-slice-of-device-tensor"
    summary = (
        "slicing at a `range` loop's offset in the step: a graph per offset on XLA (report only)"
    )
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = ("xla-recompile-sources", "measured-offset-slices", "measured-programs")


_SIZE_METHODS = ("size", "numel")
_CATS = ("cat", "concat", "concatenate")
_CATS_QUALIFIED = frozenset({"torch.cat", "torch.concat", "torch.concatenate"})
_DATA_READS = frozenset({"item", "max", "sum", "amax", "count_nonzero", "tolist"})
_LEAVES = (cst.Continue, cst.Break, cst.Raise, cst.Return)
_SCOPES = (cst.FunctionDef, cst.ClassDef, cst.Lambda)


def _code(node: cst.CSTNode) -> str:
    return cst.Module(body=[]).code_for_node(node)


_DATA_LOADERS = frozenset({"torch.utils.data.DataLoader", "torch.utils.data.dataloader.DataLoader"})


def _unwrap_loader(iterable: cst.BaseExpression) -> cst.BaseExpression:
    """The loader under `enumerate(...)`/`tqdm(...)`/`pl.MpDeviceLoader(..., device)`."""
    wrappers = ("enumerate", "tqdm", "MpDeviceLoader", "ParallelLoader")
    while (
        isinstance(iterable, cst.Call)
        and iterable.args
        and (dotted(iterable.func) or "").rsplit(".", 1)[-1] in wrappers
    ):
        iterable = iterable.args[0].value
    return iterable


def _batch_maxima(function: cst.FunctionDef) -> list[cst.Call]:
    """`max(len(x) for x in batch)`, `max(t.size(0) for t in batch)`, `max([x.shape[0] ...])`:
    a size taken as the largest over the items of a batch (analysis.scopes' `_batch_maxima`)."""
    found = []
    for call in find(function.body, cst.Call):
        if not m.matches(call.func, m.Name("max")):  # type: ignore[attr-defined]
            continue
        for arg in call.args:  # type: ignore[attr-defined]
            if isinstance(arg.value, cst.GeneratorExp | cst.ListComp) and _reads_size(
                arg.value.elt
            ):
                found.append(call)
                break
    return found  # type: ignore[return-value]


def _reads_size(node: cst.BaseExpression) -> bool:
    for inner in walk_nodes(node):
        if isinstance(inner, cst.Attribute) and inner.attr.value == "shape":
            return True
        if isinstance(inner, cst.Call):
            if m.matches(inner.func, m.Attribute(attr=m.Name("size")) | m.Name("len")):
                return True
    return False


class BatchPaddedToItsLargest(Rule):
    """## What it does
    Reports where the collate function of a loader that a training step iterates takes the
    batch's size as the largest of its items' shapes (`max(len(x) for x in batch)`,
    `_max_by_axis([list(img.shape) for img in images])`), in the module that does it, with the
    chain from the step: `engine.py:28 → data_loader → collate_fn → nested_tensor_from_tensor_list
    → util/misc.py:316`. The program model (`trncodemod/analysis/reach.py`) follows the loader
    from the step loop to the `DataLoader(collate_fn=...)` that made it, in any given module.
    Each module is also searched on its own (a script given alone has no program to read): a
    `DataLoader(..., collate_fn=f)` bound to the name a training loop of the module iterates,
    with `f` (or the `__call__` of the class `f` names) defined in the module; and a function
    of the module that the training loop calls every iteration to make its batch itself
    (`x, y = get_batch(train_data)`, no DataLoader) and that pads to the largest item it drew.

    ## Why
    Each batch is padded to its own largest item, so nearly every batch has a new shape, and every
    new shape traces and compiles a new graph ([xla-recompilation, neuron-emod025];
    [measured-shape-compiles]: 10 lengths, 10 compiles; [measured-loader-shapes]: 20 batches of
    lengths 5-60, 12 compiles padded to each batch's longest, 2 padded up to a multiple of 16).
    Padding to fixed sizes (or a few buckets) compiles each once.

    ## Example
    ```python
    def collate_fn(batch):
        size = max(img.shape[-1] for img in batch)   # the largest in this batch
        return torch.stack([F.pad(img, (0, size - img.shape[-1])) for img in batch])
    ```

    ## Use instead
    ```python
    def collate_fn(batch, size=1333):                 # one size (or a few buckets) for all
        return torch.stack([F.pad(img, (0, size - img.shape[-1])) for img in batch])
    ```
    """

    code = "TRN440"
    name = "batch-padded-to-its-largest"
    summary = "a step's collate function or batch maker pads each batch to its own largest item (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = (
        "xla-recompilation",
        "neuron-emod025",
        "xla-recompile-sources",
        "measured-shape-compiles",
        "measured-loader-shapes",
    )


class BucketingIterator(Rule):
    """## What it does
    Reports a bucketing iterator or sampler in a module with a training or evaluation loop:
    torchtext's `BucketIterator(...)`/`BucketIterator.splits(...)`, a `*Bucket*Sampler(...)`
    (torchnlp's `BucketBatchSampler`, a bucket sampler of the script's own). Nothing is changed.

    ## Why
    Bucketing keeps sequences of similar length together, but each batch is still padded to its
    own longest item, so nearly every batch has a new length and compiles a new graph on XLA.
    Measured on XLA:CPU, torch-xla 2.9 ([measured-loader-shapes]: 20 batches of lengths 5-60): padded to each batch's longest, 12 compiles in 20 steps; padded up to the next
    multiple of 16, 2. The fix is the bucketing one of TRN214: pad each batch up to the next of a
    few fixed sizes (`_pad_to_bucket` in the collate function), or to one size (torchtext's
    `Field(fix_length=...)`).

    ## Example
    ```python
    train_iter = BucketIterator(train, batch_size=64, sort_key=lambda ex: len(ex.src))
    ```

    ## Use instead
    ```python
    SRC = Field(fix_length=128)  # or pad each batch up to one of a few bucket lengths
    train_iter = BucketIterator(train, batch_size=64, sort_key=lambda ex: len(ex.src))
    ```
    """

    code = "TRN441"
    name = "bucketing-iterator"
    summary = "bucketing iterator or sampler: each batch padded to its own longest (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = ("xla-recompilation", "measured-loader-shapes")


class GrowingConcatenation(Rule):
    """## What it does
    Reports a tensor concatenated with itself in every iteration of a training, evaluation or
    sampling loop, `x = torch.cat((x, y), dim)` (also `torch.concat`, `torch.concatenate`), at
    the loop's own level: minGPT's `generate` (`idx = torch.cat((idx, idx_next), dim=1)`, a token
    a step), an evaluation loop collecting its outputs (`preds = torch.cat([preds, out])`). Not
    reported: a piece or the tensor visibly on the host (`out.cpu()`), and a concatenation in a
    loop nested in the step (that loop is traced into the step's one graph).

    Outside the step, a loop that grows a tensor it moves to the device and reads a value of
    each iteration on the host (`.item()`, `.tolist()`) is reported too: a greedy decode run in
    validation (`decoder_input = torch.cat([decoder_input, next.to(device)], dim=1)` beside
    `next_word.item()`), where each read runs the iteration's graph at a new length.

    On XLA targets only: TorchNeuron runs eagerly.

    ## Why
    Each iteration of such a loop ends in a graph cut (the step marker), so each iteration is a
    graph of its own, and the tensor is one row longer every time: every iteration has a new shape
    and compiles another graph, as many as the loop has iterations ([measured-shape-compiles],
    XLA:CPU, torch-xla 2.9: 10 compiles in 10 iterations of a one-token-a-step loop; minGPT's
    chargpt samples 500 tokens at its first step and did not get past it in the time we gave it). A
    buffer of the final size written at a Python-int position compiles as often (the position is a
    constant of the graph: 10 in 10); written at a position held in a device tensor, twice.

    ## Example
    ```python
    for _ in range(max_new_tokens):
        logits, _ = self(idx)
        idx_next = torch.multinomial(F.softmax(logits[:, -1, :], dim=-1), num_samples=1)
        idx = torch.cat((idx, idx_next), dim=1)
    ```

    ## Use instead
    ```python
    out = torch.zeros(b, n + max_new_tokens, dtype=idx.dtype, device=idx.device)
    out[:, :n] = idx
    for t in range(n, n + max_new_tokens):
        pos = torch.tensor([t], device=idx.device)   # a device tensor, not a graph constant
        logits, _ = self(out)                        # attend only to positions < t (a mask)
        nxt = logits.index_select(1, pos - 1).argmax(-1)
        out = out.index_copy(1, pos, nxt)
    ```
    Where only the result is needed (an evaluation loop collecting outputs), collect the pieces
    in a list and concatenate once after the loop; or run the loop on the CPU.
    """

    code = "TRN435"
    name = "growing-concatenation"
    summary = (
        "`x = torch.cat((x, y))` in every iteration of a step loop, or of a loop that reads the "
        "host each iteration: a graph per iteration (report only)"
    )
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = ("xla-recompile-sources", "measured-shape-compiles")


class _SizeReads(PlainVisitor):
    """Whether a module spells any read of a size that ``_size_of`` could accept: ``.shape``,
    ``.size(...)``, ``.numel()``, ``len(...)``, or any call at all where ``builtins`` is
    imported (``from builtins import len as n`` is only known from qualified names)."""

    def __init__(self, any_call: bool) -> None:
        self.any_call = any_call
        self.found = False

    def on_visit(self, node: cst.CSTNode) -> bool:
        if self.found:
            return False
        if isinstance(node, cst.Attribute):
            self.found = node.attr.value == "shape"
        elif isinstance(node, cst.Call):
            func = node.func
            self.found = (
                self.any_call
                or (isinstance(func, cst.Attribute) and func.attr.value in _SIZE_METHODS)
                or (dotted(func) or "").rsplit(".", 1)[-1] == "len"
            )
        return not self.found


def _reads_sizes(module: cst.Module) -> bool:
    imports_builtins = any(
        isinstance(node, cst.Import | cst.ImportFrom) and "builtins" in _code(node)
        for line in module.body
        if isinstance(line, cst.SimpleStatementLine)
        for node in line.body
    )
    visitor = _SizeReads(imports_builtins)
    visit(module, visitor)
    return visitor.found


def _leaves_iteration(body: cst.BaseSuite) -> bool:
    statements = body.body if isinstance(body, cst.IndentedBlock) else [body]
    last = statements[-1] if statements else None
    if isinstance(last, cst.SimpleStatementLine | cst.SimpleStatementSuite):
        return isinstance(last.body[-1], _LEAVES)
    return False


def _ast_reads_size(node: ast.AST) -> bool:
    """`.shape`, or a `.size(...)`/`.numel(...)` call (what _branch reports)."""
    kind = type(node)
    if kind is ast.Attribute:
        return node.attr == "shape"
    return kind is ast.Call and type(node.func) is ast.Attribute and node.func.attr in _SIZE_METHODS


def _ast_sized_test(node: ast.AST) -> bool:
    """An `if`/`while`/conditional expression whose test reads a size (_branch)."""
    kind = type(node)
    if kind is not ast.If and kind is not ast.While and kind is not ast.IfExp:
        return False
    return any(_ast_reads_size(n) for n in ast.walk(node.test))


def _ast_data_read(node: ast.AST) -> bool:
    return (
        type(node) is ast.Call
        and type(node.func) is ast.Attribute
        and node.func.attr in _DATA_READS
    )


def _ast_data_slice(region: list[ast.AST]) -> bool:
    """A slice bound that reads the data (_reads_data): a data read in the bound, or a name
    the step assigns, when the step reads data somewhere."""
    reads = None
    assigned: set[str] | None = None
    for node in region:
        if type(node) is not ast.Subscript:
            continue
        index = node.slice
        for element in index.elts if type(index) is ast.Tuple else [index]:
            if type(element) is not ast.Slice:
                continue
            for bound in (element.lower, element.upper, element.step):
                if bound is None:
                    continue
                for found in ast.walk(bound):
                    if _ast_data_read(found):
                        return True
                    if type(found) is ast.Name:
                        if reads is None:
                            reads = any(_ast_data_read(n) for n in region)
                            assigned = {
                                t.id
                                for n in region
                                if type(n) is ast.Assign
                                for t in n.targets
                                if type(t) is ast.Name
                            }
                        if reads and found.id in assigned:  # type: ignore[operator]
                            return True
    return False


class RecompilationDiagnostics(Pass):
    name = "recompilation"
    rules = (
        DataDependentShapeUse,
        ShapeDependentBranch,
        DataDependentSlice,
        OffsetSlice,
        BatchPaddedToItsLargest,
        GrowingConcatenation,
        BucketingIterator,
        HostDrawPerTimeStep,
        HostDrawnLength,
        VariableLengthSamples,
        DrawnOffsetSlice,
    )
    needles = (".shape", ".size(", ".numel(", "len(", ":")

    @classmethod
    def candidate(cls, facts: FileFacts, target: Target) -> bool:
        # TRN431 (_shape_use, in model code): a size read (`.shape`, `.size()`, `.numel()`,
        # `len()`, or any call where `builtins` is spelled) of a data-dependent size.
        reads_size = (
            "shape" in facts.identifiers
            or not facts.calls.isdisjoint(("size", "numel", "len"))
            or "builtins" in facts.identifiers
        )
        if reads_size and may_read_dynamic_size(facts):
            return True
        if facts.loops and facts.reaches(*HOST_DRAWS):
            return True  # TRN442
        if facts.loops and may_report(facts):
            return True  # TRN443, TRN444; TRN448 of a draw in the module
        # TRN432, TRN433 and TRN434 are reported only in the code of a step loop.
        branches = "shape" in facts.identifiers or not facts.calls.isdisjoint(_SIZE_METHODS)
        slices = bool(facts.slices) and not facts.calls.isdisjoint(_DATA_READS)
        offsets = bool(facts.slices) and target.is_xla
        grows = target.is_xla and not facts.calls.isdisjoint(_CATS)
        if any("Bucket" in name for name in facts.identifiers):
            return True  # TRN441, wherever the iterator is built (a data helper module too)
        if facts.loops and (
            "max" in facts.calls and (facts.calls_any("len", "size") or facts.spells("shape"))
        ):
            return True  # TRN440 of a lone module (a collate function, a batch maker)
        if not (branches or slices or offsets or grows) or not facts.loops:
            return False
        for loop in step_scan(facts).step_loops:
            if branches and any(_ast_sized_test(n) for n in loop.region):
                return True
            if slices and _ast_data_slice(loop.region):
                return True
            if offsets and loop_offsets(loop.node):
                return True
            if grows:
                return True
        return False

    @classmethod
    def asked_by(cls, program: ModuleView) -> bool:
        # A step's collate function pads here; a step calls another module's function that
        # slices at its offset (TRN434), or at one it draws, or that returns a draw (TRN448).
        return bool(
            program.step_shapes
            or program.imported_slicers
            or program.imported_drawn_slices
            or program.imported_drawing
        )

    def visit_Module(self, node: cst.Module) -> bool:
        self._report_step_shapes(self.run.program)
        if self.run.facts is None or self.run.facts.reaches(*HOST_DRAWS):
            report_host_draws(self, node)
        loops = find_step_loops(node)
        # A bucketing iterator is the training data's, whichever module builds it (a data
        # helper's `get_data_loaders(...)` returns it to the training script).
        self._report_bucketing(node)
        if loops:
            self._report_own_collates(node, loops.values())
            report_lengths(self, node, loops)
            facts = self.run.facts
            program = self.run.program
            if (
                facts is None
                or may_report(facts)
                or program.imported_drawn_slices
                or program.imported_drawing
            ):
                report_offsets(self, node, loops)
        if not loops and not _reads_sizes(node):
            # Nothing for TRN432/433 (step code only) nor TRN431 (a size read): model code
            # without either is settled without scopes or qualified names.
            return False
        self.facts = Facts(self)
        self.shape_uses: set[int] = set()
        for found in walk(model_code(self, node)):
            self._shape_use(found)
        functions = {
            f.name.value: f for f in node.body if isinstance(f, cst.FunctionDef)
        }  # what a step may call with its offset (TRN434)
        for info in loops.values():
            nodes = list(step_code(info.node, loops))
            bindings = self._bindings(nodes)
            offsets = offset_names(info.node, nodes) if self.target.is_xla else set()
            moved = moved_slices(nodes) if offsets else set()
            for found in nodes:
                if isinstance(found, cst.If | cst.While | cst.IfExp):
                    self._branch(found)
                elif isinstance(found, cst.Subscript):
                    self._slice(found, bindings)
                    if offsets and id(found) not in moved:
                        self._offset_slice(found, found, offsets, bindings, None)
                elif offsets and isinstance(found, cst.Call):
                    self._offset_call(found, offsets, functions)
            for found in own_statements(info.node.body):
                if isinstance(found, cst.Assign):
                    self._growing(found, info)
        if self.target.is_xla:
            for loop in find(node, cst.For | cst.While):
                if loop not in loops:
                    self._growing_read(loop)  # type: ignore[arg-type]
        return False  # report only: nothing to transform

    # -- TRN435 ----------------------------------------------------------------------------------
    def _grown(self, node: cst.Assign, loop: cst.For | cst.While) -> cst.Name | None:
        """`x` where ``node`` is `x = torch.cat((x, y), dim)` at ``loop``'s own level, no piece
        visibly on the host, and `x` bound nowhere else in the iteration: the `x` it extends is
        the last iteration's (diffusers' `noisy_model_input = torch.cat([noisy_model_input] *
        2)`, made anew in each iteration, does not grow)."""
        target = node.targets[0].target if len(node.targets) == 1 else None
        call = node.value
        if not (
            isinstance(target, cst.Name)
            and isinstance(call, cst.Call)
            and call.args
            and call.args[0].keyword is None
            and isinstance(call.args[0].value, cst.List | cst.Tuple)
            and self.facts.is_any_name(call.func, _CATS_QUALIFIED)
        ):
            return None
        pieces = [e.value for e in call.args[0].value.elements]  # type: ignore[attr-defined]
        if not any(isinstance(p, cst.Name) and p.value == target.value for p in pieces):
            return None
        if any(self.facts.on_host(p) for p in pieces):
            return None
        if target.value in assigned_names(loop, skip=node):
            return None
        return target

    def _growing_read(self, loop: cst.For | cst.While) -> None:
        """A loop outside the step that grows a tensor it moved to the device and reads a value
        of the iteration on the host (`.item()`): each read runs the iteration's graph, at a new
        length every time (a greedy decode: `decoder_input = torch.cat([decoder_input,
        torch.empty(1, 1).fill_(next_word.item()).to(device)], dim=1)`). A loop that moves
        nothing to the device, or reads nothing, is left to TRN435's step rule."""
        reads = [
            c
            for c in own_statements(loop.body)
            if isinstance(c, cst.Call)
            and isinstance(c.func, cst.Attribute)
            and c.func.attr.value in ("item", "tolist")
        ]
        if not reads:
            return
        for found in own_statements(loop.body):
            if not isinstance(found, cst.Assign):
                continue
            target = self._grown(found, loop)
            if target is None:
                continue
            moved = any(
                isinstance(c, cst.Call)
                and isinstance(c.func, cst.Attribute)
                and c.func.attr.value in ("to", "cuda", "type_as")
                for c in walk_nodes(found.value)
            )
            if not moved:
                continue
            message = (
                f"`{_code(found)}` makes `{target.value}` longer in every iteration of this loop, "
                f"and `{_code(reads[0])}` reads a value of the iteration on the host: each read "
                "runs the iteration's graph at a new length, which compiles another graph (a "
                "decode of N tokens compiles N); keep the shape fixed (a tensor of the final "
                "length made before the loop, written at a position held in a device tensor, "
                "with a mask), or run the loop on the CPU"
            )
            self.report(found, GrowingConcatenation, message, False)

    def _growing(self, node: cst.Assign, info: LoopInfo) -> None:
        """A growing concatenation (``_grown``) at a step loop's own level."""
        if not self.target.is_xla:
            return  # TorchNeuron runs eagerly: no graph per iteration
        target = self._grown(node, info.node)
        if target is None:
            return
        loop = (
            "sampling loop"
            if info.calls_model
            else f"{'training' if info.kind == 'train' else 'evaluation'} loop"
        )
        iterations = f" (`{_code(info.node.iter)}`)" if isinstance(info.node, cst.For) else ""
        message = (
            f"`{_code(node)}` makes `{target.value}` longer in every iteration of this {loop}"
            f"{iterations}, and each iteration ends in a graph cut: every iteration has a new "
            "shape and compiles another graph; keep the shape fixed (write each piece into a "
            "tensor of the final size made before the loop, at a position held in a device tensor: "
            "`out.index_copy(1, torch.tensor([t], device=...), piece)`; a Python-int position "
            "compiles a graph per position too), or collect the pieces in a list and concatenate "
            "once after the loop, or run the loop on the CPU"
        )
        self.report(node, GrowingConcatenation, message, False)

    # -- TRN434 ----------------------------------------------------------------------------------
    def _report_step_shapes(self, program: ModuleView) -> None:
        rule = BatchPaddedToItsLargest
        for given, column, chain in program.step_shapes:
            line = self.run.from_original(given)  # earlier passes may have added lines
            if not self.enabled(rule) or self.run.suppressions.covers(line, rule.code):
                continue
            message = (
                f"the collate function of the loader a training step iterates pads each batch "
                f"to its own largest item here ({chain}): nearly every batch gets a new shape, "
                "and each new shape compiles a new graph; pad to a fixed size, or to one of a "
                "few buckets"
            )
            self.findings.append(RawFinding(line, column, rule, message, False))

    # -- TRN441 ----------------------------------------------------------------------------------
    def _report_bucketing(self, module: cst.Module) -> None:
        for call in find(module, cst.Call):
            name = dotted(call.func) or ""  # type: ignore[arg-type]
            parts = name.split(".")
            if parts[-1] == "splits" and len(parts) > 1:
                parts = parts[:-1]
            last = parts[-1]
            if "Bucket" not in last or not last.endswith(("Iterator", "Sampler")):
                continue
            self.report(
                call,
                BucketingIterator,
                f"`{last}` groups items of similar length, but each batch is still padded to its "
                "own longest: nearly every batch has a new length and compiles another graph on "
                "XLA; pad each batch up to the next of a few fixed lengths (a collate function "
                "with `_pad_to_bucket`, TRN214), or to one length (torchtext "
                "`Field(fix_length=...)`)",
                False,
            )

    # -- TRN440 in a module read alone -------------------------------------------------------------
    def _report_own_collates(self, module: cst.Module, loops) -> None:
        """TRN440 where no program was read (one module given): the program model follows a
        loader to its collate function across modules, and only when there are two or more.
        Here: a `DataLoader(..., collate_fn=f)` bound to the name a training loop of this module
        iterates, with `f` (or the `__call__` of the class `f` makes) defined in this module."""
        definitions = {
            d.name.value: d for d in module.body if isinstance(d, cst.FunctionDef | cst.ClassDef)
        }
        seen: set[int] = set()
        # What the program model already reported here (lines of the text as given).
        reported = {self.run.from_original(line) for line, _, _ in self.run.program.step_shapes}
        for info in loops:
            if info.kind != "train" or not isinstance(info.node, cst.For):
                continue
            iterable = _unwrap_loader(info.node.iter)
            values = self.bound_values(iterable) if isinstance(iterable, cst.Name) else None
            for value in values or ([iterable] if isinstance(iterable, cst.Call) else []):
                for name, collate in self._collates(value, definitions):
                    for found in _batch_maxima(collate):
                        line = self.get_metadata(PositionProvider, found).start.line
                        if id(found) in seen or line in reported:
                            continue
                        seen.add(id(found))
                        loader = (
                            f"`{_code(iterable)}`" if isinstance(iterable, cst.Name) else "a loader"
                        )
                        chain = f"the training loop over {loader} → `collate_fn={name}`"
                        self.report(
                            found,
                            BatchPaddedToItsLargest,
                            "the collate function of the loader a training step iterates pads "
                            f"each batch to its own largest item here ({chain}): nearly every "
                            "batch gets a new shape, and each new shape compiles a new graph; pad "
                            "to a fixed size, or to one of a few buckets",
                            False,
                        )
            self._report_batch_makers(info, definitions, seen, reported)

    def _report_batch_makers(self, info, definitions: dict, seen: set, reported: set) -> None:
        """TRN440 of a batch made by the step itself: a function of this module that the
        training loop calls every iteration (`x, y = get_batch(train_data)`) and that pads the
        items it draws to their own largest (`max_len = max(len(s) for s in input_ids)`)."""
        for call in own_statements(info.node.body):
            if not isinstance(call, cst.Call) or not isinstance(call.func, cst.Name):
                continue
            function = definitions.get(call.func.value)
            if not isinstance(function, cst.FunctionDef):
                continue
            for found in _batch_maxima(function):
                line = self.get_metadata(PositionProvider, found).start.line
                if id(found) in seen or line in reported:
                    continue
                seen.add(id(found))
                self.report(
                    found,
                    BatchPaddedToItsLargest,
                    f"`{call.func.value}`, which the training loop calls every step to make its "
                    "batch, pads the batch to its own largest item here: nearly every batch "
                    "gets a new shape, and each new shape compiles a new graph; pad to a fixed "
                    "size (the dataset's longest), or to one of a few buckets",
                    False,
                )

    def _collates(
        self, value: cst.BaseExpression, definitions: dict
    ) -> Iterator[tuple[str, cst.CSTNode]]:
        if not isinstance(value, cst.Call) or not self.is_any(value.func, _DATA_LOADERS):
            return
        for arg in value.args:
            if arg.keyword is None or arg.keyword.value != "collate_fn":
                continue
            target = arg.value
            if isinstance(target, cst.Call):  # `collate_fn=PadBatch()`
                target = target.func
            if not isinstance(target, cst.Name) or target.value not in definitions:
                continue
            found = definitions[target.value]
            if isinstance(found, cst.ClassDef):
                found = next(
                    (
                        f
                        for f in found.body.body
                        if isinstance(f, cst.FunctionDef) and f.name.value == "__call__"
                    ),
                    None,
                )
            if found is not None:
                yield target.value, found

    # -- TRN431 ----------------------------------------------------------------------------------

    def _offset_call(
        self, call: cst.Call, offsets: set[str], functions: dict[str, cst.FunctionDef]
    ) -> None:
        """A call of a module function with the loop's offset: its slices that start at the
        parameter the offset is passed as (``get_batch(train_data, i)``)."""
        function = functions.get(call.func.value) if isinstance(call.func, cst.Name) else None
        if function is None and isinstance(call.func, cst.Name):
            self._imported_offset_call(call, offsets)
            return
        if function is None or any(a.keyword or a.star for a in call.args):
            return
        params = [p.name.value for p in function.params.params]
        passed = {params[k]: a.value for k, a in enumerate(call.args) if k < len(params)}
        names = {p for p, v in passed.items() if isinstance(v, cst.Name) and v.value in offsets}
        if not names:
            return
        body = list(walk_nodes(function.body))
        bindings = self._bindings(body)
        moved = moved_slices(body)
        for found in body:
            if isinstance(found, cst.Subscript) and id(found) not in moved:
                source = found.value
                argument = passed.get(source.value) if isinstance(source, cst.Name) else None
                if self._offset_slice(found, call, names, bindings, argument):
                    return

    def _imported_offset_call(self, call: cst.Call, offsets: set[str]) -> None:
        """A call with the loop's offset of a function of another given module that slices a
        parameter at it (``ModuleView.imported_slicers``: TCN's `get_batch(source, i, args)`
        from its `utils.py`)."""
        slicer = self.run.program.imported_slicers.get(call.func.value)  # type: ignore[attr-defined]
        positional = [a.value for a in call.args if a.keyword is None and not a.star]
        if slicer is None or max(slicer[:2]) >= len(positional):
            return
        source, offset = positional[slicer[0]], positional[slicer[1]]
        if not (isinstance(offset, cst.Name) and offset.value in offsets):
            return
        if self.facts.on_host(source):
            return
        self.report(
            call,
            OffsetSlice,
            f"`{_code(call)}` slices `{_code(source)}` at the loop's offset `{offset.value}` "
            f"({slicer[2]}): if `{_code(source)}` is on the device, each offset is a constant of "
            f"the graph and every step compiles a new one; keep `{_code(source)}` on the CPU "
            "and move each slice to the device where that function takes it (`.to(device)` on "
            "what it returns: one graph)",
            False,
        )

    def _offset_slice(
        self,
        node: cst.Subscript,
        at: cst.CSTNode,
        offsets: set[str],
        bindings: dict[str, list[cst.BaseExpression]],
        argument: cst.BaseExpression | None,
    ) -> bool:
        part = starts_at(node, offsets)
        if part is None:
            return False
        source = argument if argument is not None else node.value
        if self.facts.on_host(source):
            return False
        where = "" if at is node else f" (in `{_code(at)}`)"
        tail = (
            "; its length shrinks at the end (`min(...)`): the short last batch compiles one more "
            "graph each epoch, unless the loop stops a full batch before the end (`range(..., "
            "len(source) - 1 - n, n)`), which skips up to n - 1 rows an epoch: decide whether "
            "that may change what is trained on"
            if _shrinking(part, bindings)
            else ""
        )
        self.report(
            at,
            OffsetSlice,
            f"`{_code(node)}`{where} slices at the loop's offset: if `{_code(source)}` is on the "
            "device, each offset is a constant of the graph and every step compiles a new one; "
            f"keep `{_code(source)}` on the CPU and move each slice to the device "
            f"(`{_code(node)}.to(device)`: one graph){tail}",
            False,
        )
        return True

    # -- TRN431 ----------------------------------------------------------------------------------
    def _size_of(self, node: cst.CSTNode) -> cst.BaseExpression | None:
        """The value whose size ``node`` reads: ``v.shape``, ``v.size(...)``, ``v.numel()``,
        ``len(v)``."""
        if m.matches(node, m.Attribute(attr=m.Name("shape"))):
            return node.value  # type: ignore[attr-defined]
        if isinstance(node, cst.Call):
            if m.matches(node.func, m.Attribute(attr=m.OneOf(*map(m.Name, _SIZE_METHODS)))):
                return node.func.value  # type: ignore[attr-defined]
            if self.is_any(node.func, {"builtins.len"}) and len(node.args) == 1:
                return node.args[0].value
        return None

    def _dynamic(self, value: cst.BaseExpression) -> str | None:
        how = self.facts.dynamic_shape(value)
        if how is None and isinstance(value, cst.Name):
            values = self.bound_values(value)
            kinds = [self.facts.dynamic_shape(v) for v in values or ()]
            how = kinds[0] if kinds and all(kinds) else None
        return how

    def _shape_use(self, node: cst.CSTNode) -> None:
        value = self._size_of(node)
        how = self._dynamic(value) if value is not None else None
        if how is None:
            return
        self.shape_uses.add(id(node))
        self.report(
            node,
            DataDependentShapeUse,
            f"`{_code(node)}` is the size of a {how} result, which depends on the data: what is "
            f"built from it {self._recompiles('count')}; keep a fixed shape "
            "(`torch.where` with the mask, `mask.sum()` to count, `topk` with a fixed k)",
            False,
        )

    def _recompiles(self, what: str, branch: bool = False, each: bool = True) -> str:
        """What a new shape costs on the target: another lazy graph on XLA; on TorchNeuron
        (eager), the ops compiled again for it, and a rejected shape in a compiled region
        (`torch.compile(backend="neuron")` needs static shapes, [torchneuron-overview])."""
        if self.target.is_xla:
            if branch:
                return "traces and compiles another graph"
            return (
                f"compiles another graph for every new {what}" if each else "compiles another graph"
            )
        cost = "runs eager ops that TorchNeuron compiles again for each new shape"
        return (
            f'{cost}, and inside `torch.compile(backend="neuron")` it breaks the static shapes '
            "the compiled region needs (`dynamic=False`)"
        )

    # -- TRN432 ----------------------------------------------------------------------------------
    def _branch(self, node: cst.If | cst.While | cst.IfExp) -> None:
        if not isinstance(node, cst.IfExp):
            if isinstance(node, cst.If) and node.orelse is None and _leaves_iteration(node.body):
                return
            if any(
                "pad" in (dotted(call.func) or "").rsplit(".", 1)[-1].lower()
                for call in find(node.body, cst.Call)
                if isinstance(call, cst.Call)
            ):
                return
        for found in m.findall(node.test, m.Attribute(attr=m.Name("shape")) | m.Call()):
            value = self._size_of(found)
            if value is None or not (
                isinstance(found, cst.Attribute) or m.matches(found.func, m.Attribute())  # type: ignore[union-attr]
            ):
                continue  # `len(...)` of a Python list is not a tensor shape
            if id(found) in self.shape_uses or self.facts.on_host(value):
                continue
            keyword = "while" if isinstance(node, cst.While) else "if"
            self.report(
                found,
                ShapeDependentBranch,
                f"`{keyword}` on `{_code(found)}` inside the step: each shape that goes the other "
                f"way {self._recompiles('shape', branch=True)}; pad inputs to fixed shapes (buckets) so "
                "the branch always goes one way, or skip the odd batch with `continue`",
                False,
            )
            return

    # -- TRN433 ----------------------------------------------------------------------------------
    def _bindings(self, nodes: list[cst.CSTNode]) -> dict[str, list[cst.BaseExpression]]:
        bindings: dict[str, list[cst.BaseExpression]] = {}
        for node in nodes:
            if isinstance(node, cst.Assign):
                for target in node.targets:
                    if isinstance(target.target, cst.Name):
                        bindings.setdefault(target.target.value, []).append(node.value)
        return bindings

    def _reads_data(self, node: cst.BaseExpression, bindings: dict, depth: int = 4) -> bool:
        for found in m.findall(node, m.Call(func=m.Attribute()) | m.Name()):
            if isinstance(found, cst.Call):
                if found.func.attr.value in _DATA_READS and not self.facts.imported(found.func):  # type: ignore[attr-defined]
                    return True
            elif depth > 0 and isinstance(found, cst.Name) and found.value in bindings:
                if any(self._reads_data(v, bindings, depth - 1) for v in bindings[found.value]):
                    return True
        return False

    def _slice(self, node: cst.Subscript, bindings: dict) -> None:
        for element in node.slice:
            part = element.slice
            if not isinstance(part, cst.Slice):
                continue
            bounds = [b for b in (part.lower, part.upper, part.step) if b is not None]
            bound = next((b for b in bounds if self._reads_data(b, bindings)), None)
            if bound is None:
                continue
            self.report(
                node,
                DataDependentSlice,
                f"`{_code(node)}` slices to `{_code(bound)}`, a length read from the data: every "
                f"new length {self._recompiles('length', each=False)} (and reading it syncs); keep the padded length "
                "(a few fixed buckets) and let the attention mask hide the padding",
                False,
            )
            return


# -- TRN434 ----------------------------------------------------------------------------------------
def _shrinking(part: cst.Slice, bindings: dict[str, list[cst.BaseExpression]]) -> bool:
    """Whether the slice's end is a ``min(...)``, directly or through a name (a length that
    shrinks at the end of the source)."""
    if part.upper is None:
        return False
    for found in m.findall(part.upper, m.Call(func=m.Name("min")) | m.Name()):
        if isinstance(found, cst.Call):
            return True
        if any(
            m.findall(value, m.Call(func=m.Name("min")))
            for value in bindings.get(found.value, [])  # type: ignore[union-attr]
        ):
            return True
    return False
