"""Pad inputs to a few fixed shapes, so that each shape compiles once (reference R8, R3, D4).

The sizes come from configuration: ``buckets`` (an explicit list) or ``bucket-multiple``
(default 64). Hugging Face tokenizers and collators learn ``pad_to_multiple_of`` or
``padding="max_length"``; ``pad_sequence`` in a collate function pads up to the next bucket
through a small helper added once per module; training loaders get ``drop_last=True`` so the last
batch has the same size. Padding changes what the model sees, so every fix is ``review``, and
where a mask or the loss's ignore index is missing the pass says so.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

import libcst as cst
import libcst.matchers as m
from libcst.metadata import ParentNodeProvider, PositionProvider, ScopeProvider

from trncodemod.analysis.facts import FileFacts
from trncodemod.analysis.loops import dotted, find_step_loops
from trncodemod.analysis.nodes import find
from trncodemod.findings import Rule, Safety, Severity
from trncodemod.passes import Pass
from trncodemod.rewriting.calls import append_keyword
from trncodemod.targets import Target


class TokenizerPadding(Rule):
    """## What it does
    On a Hugging Face tokenizer call (`tokenizer(...)`, `.encode_plus`, `.batch_encode_plus`,
    `.pad`) that pads to the longest sequence (`padding=True` or `"longest"`, and `.pad()` by
    default), adds `pad_to_multiple_of=<bucket-multiple>`. A call that sets its own `max_length=`
    and truncates (explicitly, or implicitly: `max_length` without `padding` or `truncation`
    truncates) gets `padding="max_length"` instead: one shape, as Neuron's samples do; where the
    truncation was implicit, `truncation=True` is added to keep it (HF turns it off once `padding`
    is set). A tokenizer is a name bound from `AutoTokenizer.from_pretrained(...)` or
    `<Any>Tokenizer<Fast>.from_pretrained(...)`, or a name (or attribute) called `tokenizer` or
    `tok`.

    Reported and left alone: a padding value the tool cannot read (a variable, `**kwargs`,
    positional padding), and, with an explicit `buckets` list, any pad-to-longest call:
    `pad_to_multiple_of` cannot express a list, so pad in the collate function to the next
    bucket or use `padding="max_length"` with the largest bucket. `.pad()` with `max_length` keeps
    `pad_to_multiple_of`: it never truncates, so `"max_length"` could leave a ragged batch.

    ## Why
    "XLA recompiles when input shape changes"; the fix is to normalize input shapes to one or a
    few buckets (reference R8: `perf/recompilation.md`; measured: 10 lengths → 10 compiles,
    bucketed to 3 sizes → 3 graphs). Neuron's compiler needs static shapes (EMOD025).

    ## Example
    ```python
    batch = tokenizer(texts, padding=True, return_tensors="pt")
    enc = tokenizer(texts, padding=True, truncation=True, max_length=128)
    ```

    ## Use instead
    ```python
    batch = tokenizer(texts, padding=True, return_tensors="pt", pad_to_multiple_of=64)
    enc = tokenizer(texts, padding="max_length", truncation=True, max_length=128)
    ```
    """

    code = "TRN211"
    name = "tokenizer-padding"
    summary = 'tokenizer pads to the longest → `pad_to_multiple_of` or `padding="max_length"`'
    safety = Safety.REVIEW
    severity = Severity.WARNING
    source = "reference R8"


class TokenizerUnpadded(Rule):
    """## What it does
    Reports a tokenizer call that does not pad and has no `max_length`, in a file where no later
    padding step (a Hugging Face data collator, `tokenizer.pad`, `pad_sequence`) was found.
    Nothing is rewritten: `pad_to_multiple_of` alone does nothing while `padding=False`, and
    without a length there is no fixed size to pad to.

    ## Why
    The sequences keep their own lengths and are padded somewhere else — for example by a
    `Trainer` given the tokenizer, which pads each batch to its longest sequence — so every batch
    can have a new shape and compile a new graph (reference R8).

    ## Example
    ```python
    enc = tokenizer(batch["text"], truncation=True)
    ```

    ## Use instead
    ```python
    enc = tokenizer(batch["text"], truncation=True, padding="max_length", max_length=128)
    # or pad later with DataCollatorWithPadding(tokenizer, pad_to_multiple_of=64)
    ```
    """

    code = "TRN212"
    name = "tokenizer-unpadded"
    summary = "tokenizer call without padding and no bucketed padding later (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.WARNING
    source = "reference R8"


class CollatorPadding(Rule):
    """## What it does
    Adds `pad_to_multiple_of=<bucket-multiple>` to `transformers.DataCollatorWithPadding`,
    `DataCollatorForSeq2Seq` and `DataCollatorForLanguageModeling`, unless the collator already
    pads to a fixed length (`padding="max_length"`), sets `pad_to_multiple_of`, or does not pad
    (`padding=False`). With an explicit `buckets` list, or when the arguments cannot be read
    (`**kwargs`, a padding variable), the collator is reported and left alone.

    ## Why
    These collators pad each batch to its longest sequence, a new shape for nearly every batch;
    `pad_to_multiple_of` limits the shapes to multiples of the bucket size (reference R8, "after
    B": `DataCollatorWithPadding(tok, padding="longest", pad_to_multiple_of=64)`).

    ## Example
    ```python
    collator = DataCollatorWithPadding(tokenizer)
    ```

    ## Use instead
    ```python
    collator = DataCollatorWithPadding(tokenizer, pad_to_multiple_of=64)
    ```
    """

    code = "TRN213"
    name = "collator-padding"
    summary = "HF data collator pads to the longest → `pad_to_multiple_of`"
    safety = Safety.REVIEW
    severity = Severity.WARNING
    source = "reference R8"


class PadSequenceBucket(Rule):
    """## What it does
    In a collate function (a function or lambda passed as `collate_fn=`, a function whose name
    contains `collate`, or a method of a class whose name contains `Collat`), replaces
    `torch.nn.utils.rnn.pad_sequence(seqs, batch_first, padding_value)` with `_pad_to_bucket(...)`,
    a helper added once per module that calls `pad_sequence` and then pads the time dimension
    (dim 1 with `batch_first=True`, else dim 0; trailing feature dims are kept) with the same
    `padding_value` up to the next multiple of `bucket-multiple` or the next size in `buckets`.
    A sequence longer than the largest bucket keeps its length (one more shape, never truncated).
    `pad_sequence` elsewhere, or called with other arguments (`padding_side`, `*args`), is
    reported and left alone.

    ## Why
    `pad_sequence` pads to the longest sequence of the batch, so the shape changes from batch to
    batch and XLA compiles a graph for each (reference R8, "after C": pad to
    `min(b for b in BUCKETS if b >= longest)`).

    ## Example
    ```python
    def collate(batch):
        return pad_sequence([x for x, _ in batch], batch_first=True, padding_value=0)
    ```

    ## Use instead
    ```python
    def collate(batch):
        return _pad_to_bucket([x for x, _ in batch], batch_first=True, padding_value=0)
    ```
    """

    code = "TRN214"
    name = "pad-sequence-bucket"
    summary = "`pad_sequence` in a collate function → pad up to the next bucket"
    safety = Safety.REVIEW
    severity = Severity.WARNING
    source = "reference R8"


class TrainLoaderDropLast(Rule):
    """## What it does
    Adds `drop_last=True` to a training `torch.utils.data.DataLoader` that batches (a
    `batch_size` other than 1) and does not set `drop_last` or `batch_sampler`. A loader is a
    training loader when a training loop of the file iterates it — followed back through
    `enumerate(...)`, `tqdm(...)`, `MpDeviceLoader(...)`, `ParallelLoader(...)` and variables —
    or, when no loop of the file iterates it, when its variable (or else its dataset argument) is
    named like a training one (`train_loader`, `train_ds`). A loader whose call has `**kwargs` is
    reported and left alone.

    ## Why
    A smaller last batch is a new shape and compiles a new graph (reference R3: "Keep
    `drop_last=True` (or pad) on train loaders"; D4). Up to `batch_size - 1` samples per epoch
    are skipped (different ones each epoch when shuffled): review that this is acceptable.

    ## Example
    ```python
    train_loader = DataLoader(train_ds, batch_size=32, shuffle=True)
    ```

    ## Use instead
    ```python
    train_loader = DataLoader(train_ds, batch_size=32, shuffle=True, drop_last=True)
    ```
    """

    code = "TRN215"
    name = "train-loader-drop-last"
    summary = "training DataLoader → `drop_last=True`"
    safety = Safety.REVIEW
    severity = Severity.WARNING
    source = "reference R3, R8, D4"


class EvalLoaderPartialBatch(Rule):
    """## What it does
    Reports an evaluation `DataLoader` (iterated only by evaluation loops, or named like one:
    `val_loader`, `test_dl`) that batches and does not set `drop_last`. Nothing is rewritten.

    ## Why
    Its last, smaller batch compiles one more graph (reference R3, D4), but `drop_last=True` would
    leave samples out of the evaluation and change the metric. Pad the evaluation set to a
    multiple of the batch size (and mask the padded samples), or accept the one extra compile.

    ## Example
    ```python
    val_loader = DataLoader(val_ds, batch_size=64)
    ```

    ## Use instead
    ```python
    val_loader = DataLoader(val_ds, batch_size=64)  # len(val_ds) padded to a multiple of 64
    ```
    """

    code = "TRN216"
    name = "eval-loader-partial-batch"
    summary = "evaluation DataLoader's last partial batch compiles once more (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.WARNING
    source = "reference R3, D4"


class PaddingWithoutMask(Rule):
    """## What it does
    Reports a tokenizer call that pads but asks for no attention mask
    (`return_attention_mask=False`). Nothing is rewritten.

    ## Why
    Padding changes the results unless the model is given the `attention_mask` (reference R8
    caveats): pad tokens are attended to and pooled. Bucketing adds more padding than before.

    ## Example
    ```python
    ids = tokenizer(texts, padding=True, return_attention_mask=False)["input_ids"]
    ```

    ## Use instead
    ```python
    enc = tokenizer(texts, padding=True, pad_to_multiple_of=64)
    out = model(enc["input_ids"], attention_mask=enc["attention_mask"])
    ```
    """

    code = "TRN217"
    name = "padding-without-mask"
    summary = "padded batch without an attention mask (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.ERROR
    source = "reference R8"


class LabelPaddingNotIgnored(Rule):
    """## What it does
    Reports labels padded with a value the loss does not ignore: `DataCollatorForSeq2Seq` with a
    `label_pad_token_id`, or `pad_sequence` over a name containing `label` or `target`, whose
    constant padding value differs from every `ignore_index` of the file's `CrossEntropyLoss`,
    `NLLLoss`, `cross_entropy` and `nll_loss` (default -100). Nothing is rewritten.

    ## Why
    Padded label positions then count in the loss and change the gradients (reference R8
    caveats: "labels padded with -100 … or the loss must ignore pad positions"); padding to
    buckets adds such positions.

    ## Example
    ```python
    labels = pad_sequence(labels, batch_first=True)          # pads with 0
    loss = nn.CrossEntropyLoss()(logits.transpose(1, 2), labels)
    ```

    ## Use instead
    ```python
    labels = pad_sequence(labels, batch_first=True, padding_value=-100)
    ```
    """

    code = "TRN218"
    name = "label-padding-not-ignored"
    summary = "labels padded with a value the loss does not ignore (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.ERROR
    source = "reference R8"


# -- the data the pass interprets -------------------------------------------------------------

# Tokenizer method → (position of `padding` when passed positionally, default padding).
_TOKENIZER_METHODS = {
    "__call__": (5, False),
    "encode_plus": (3, False),
    "batch_encode_plus": (2, False),
    "pad": (1, True),
}
_TOKENIZER_NAMES = ("tokenizer", "tok")
_TOKENIZER_CLASS = re.compile(r"Tokenizer")

# Collator → (position of `padding` or None, position of `pad_to_multiple_of`, safe positionals).
_COLLATORS = {
    "DataCollatorWithPadding": (1, 3, 3),
    "DataCollatorForSeq2Seq": (2, 4, 4),
    # pad_to_multiple_of's position moved between transformers releases.
    "DataCollatorForLanguageModeling": (None, None, 3),
}
_COLLATOR_MODULES = ("transformers", "transformers.data.data_collator")

_PAD_SEQUENCE = {"torch.nn.utils.rnn.pad_sequence"}
_PAD_SEQUENCE_PARAMS = ("sequences", "batch_first", "padding_value")
_DATALOADER = {"torch.utils.data.DataLoader", "torch.utils.data.dataloader.DataLoader"}
# DataLoader(dataset, batch_size, shuffle, sampler, batch_sampler, num_workers, collate_fn,
#            pin_memory, drop_last, ...)
_LOADER_POSITIONS = {"batch_size": 1, "batch_sampler": 4, "drop_last": 8}
_LOSSES = {
    "torch.nn.CrossEntropyLoss",
    "torch.nn.NLLLoss",
    "torch.nn.functional.cross_entropy",
    "torch.nn.functional.nll_loss",
}
_DEFAULT_IGNORE_INDEX = -100
# Calls a loop iterates that hand out the batches of their first argument.
_LOADER_WRAPPERS = ("enumerate", "tqdm", "MpDeviceLoader", "ParallelLoader")

_TRAIN_NAME = re.compile(r"train", re.IGNORECASE)
_EVAL_NAME = re.compile(
    r"(^|_)(val|valid|validation|eval|evaluation|test|testing|dev)(_|loader|dl|data|set|ds|$)",
    re.IGNORECASE,
)
_LABELS = re.compile(r"label|target", re.IGNORECASE)
HELPER = "_pad_to_bucket"
_HELPER_MARK = "trncodemod"


def helper_source(buckets: tuple[int, ...], multiple: int) -> str:
    """The module-level helper that replaces ``pad_sequence`` (it needs ``import torch``)."""
    if buckets:
        sizes = ", ".join(str(size) for size in buckets)
        choose = f"bucket = next((size for size in {buckets!r} if size >= length), length)"
        what = f"the next of {sizes} (a longer batch keeps its length)"
    else:
        choose = f"bucket = -(-length // {multiple}) * {multiple}"
        what = f"the next multiple of {multiple}"
    return f'''def {HELPER}(sequences, batch_first=False, padding_value=0.0):
    """pad_sequence, then pad the time dimension with padding_value
    up to {what}.

    Batch shapes repeat, so each compiles once ({_HELPER_MARK} TRN214, reference R8).
    """
    padded = torch.nn.utils.rnn.pad_sequence(
        sequences, batch_first=batch_first, padding_value=padding_value
    )
    time_dim = 1 if batch_first else 0
    length = padded.shape[time_dim]
    {choose}
    if bucket == length:
        return padded
    widths = (0, 0) * (padded.dim() - 1 - time_dim) + (0, bucket - length)
    return torch.nn.functional.pad(padded, widths, value=padding_value)
'''


# -- small readers of call arguments -----------------------------------------------------------


def _argument(call: cst.Call, keyword: str, position: int | None) -> cst.Arg | None:
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == keyword:
            return arg
    positional = [a for a in call.args if a.keyword is None and not a.star]
    if position is not None and position < len(positional):
        return positional[position]
    return None


def _positional_count(call: cst.Call) -> int:
    return sum(1 for a in call.args if a.keyword is None and not a.star)


def _has_star(call: cst.Call, star: str) -> bool:
    return any(a.star == star for a in call.args)


_UNKNOWN = object()


def _literal(node: cst.BaseExpression | None) -> object:
    """The value of a constant argument (bool, None, str, int), else ``_UNKNOWN``."""
    if node is None:
        return _UNKNOWN
    if isinstance(node, cst.Name) and node.value in ("True", "False", "None"):
        return {"True": True, "False": False, "None": None}[node.value]
    if isinstance(node, cst.SimpleString):
        return node.evaluated_value
    if isinstance(node, cst.Integer):
        return int(node.value)
    if (
        isinstance(node, cst.UnaryOperation)
        and isinstance(node.operator, cst.Minus)
        and isinstance(node.expression, cst.Integer)
    ):
        return -int(node.expression.value)
    return _UNKNOWN


def _padding_kind(value: object) -> str:
    """'longest', 'max_length', 'none' or 'unknown' for a `padding=` value."""
    if value is True or value == "longest":
        return "longest"
    if value == "max_length":
        return "max_length"
    if value is False or value == "do_not_pad" or value is None:
        return "none"
    return "unknown"


def _truncates(value: object) -> bool:
    return value is True or (isinstance(value, str) and value != "do_not_truncate")


def _setkeyword(call: cst.Call, original: cst.Arg, value: cst.BaseExpression) -> cst.Call:
    """Replace the value of ``original`` (an arg of the original call, same index in ``call``)."""
    name = original.keyword.value if original.keyword else None
    return call.with_changes(
        args=[
            arg.with_changes(value=value) if arg.keyword and arg.keyword.value == name else arg
            for arg in call.args
        ]
    )


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


_COLLATOR_NAMES = tuple(f"{module}.{name}" for module in _COLLATOR_MODULES for name in _COLLATORS)


def _loader_names(tree: ast.Module) -> set[str]:
    """Names a DataLoader class may be called by: its own, and any alias an import binds."""
    names = {"DataLoader"}
    for node in ast.walk(tree):
        if type(node) is ast.Import or type(node) is ast.ImportFrom:
            for alias in node.names:
                if alias.asname and alias.name.rsplit(".", 1)[-1] == "DataLoader":
                    names.add(alias.asname)
    return names


def _is_one_or_none(node: ast.expr) -> bool:
    """``_literal(node) in (1, None)``: ``1``, ``True`` or ``None`` written as such."""
    return type(node) is ast.Constant and (
        node.value is None or (type(node.value) in (int, bool) and node.value == 1)
    )


def _may_need_drop_last(tree: ast.Module) -> bool:
    """Whether a call of a DataLoader passes what _loader_call needs to report: no
    ``drop_last`` (keyword or ninth positional), and a batch size other than 1 or *args/**kwargs
    (the loader's role is not checked here)."""
    names = _loader_names(tree)
    for node in ast.walk(tree):
        if type(node) is not ast.Call:
            continue
        func = node.func
        last = (
            func.id if type(func) is ast.Name else func.attr if type(func) is ast.Attribute else ""
        )
        if last not in names:
            continue
        if any(k.arg == "drop_last" for k in node.keywords):
            continue
        positional = [a for a in node.args if type(a) is not ast.Starred]
        if len(positional) > _LOADER_POSITIONS["drop_last"]:
            continue
        unreadable = len(positional) < len(node.args) or any(k.arg is None for k in node.keywords)
        if not unreadable:
            size = next((k.value for k in node.keywords if k.arg == "batch_size"), None)
            if size is None and len(positional) > _LOADER_POSITIONS["batch_size"]:
                size = positional[_LOADER_POSITIONS["batch_size"]]
            if size is None or _is_one_or_none(size):
                continue
        return True
    return False


class PadToBuckets(Pass):
    name = "buckets"
    rules = (
        TokenizerPadding,
        TokenizerUnpadded,
        CollatorPadding,
        PadSequenceBucket,
        TrainLoaderDropLast,
        EvalLoaderPartialBatch,
        PaddingWithoutMask,
        LabelPaddingNotIgnored,
    )
    needles = ("tok", "Tok", "DataCollator", "pad_sequence", "DataLoader")

    @classmethod
    def candidate(cls, facts: FileFacts, target: Target) -> bool:
        # Every finding and edit is made in leave_Call on one of four calls (visit_Module only
        # reads; leave_Module adds the helper only after a pad_sequence rewrite).
        # A tokenizer (_is_tokenizer): a name or attribute `tokenizer`/`tok` called itself or
        # through a padding method, or a name assigned from `<...Tokenizer...>.from_pretrained`.
        if not facts.calls.isdisjoint(_TOKENIZER_NAMES):
            return True
        if facts.spells(*_TOKENIZER_NAMES) and not facts.calls.isdisjoint(_TOKENIZER_METHODS):
            return True
        if "from_pretrained" in facts.calls and any(
            "Tokenizer" in name for name in facts.identifiers
        ):
            return True
        # A collator or pad_sequence, by qualified name (aliases are imports, so reached).
        if facts.reaches(*_COLLATOR_NAMES, *_PAD_SEQUENCE):
            return True
        # A DataLoader call that _loader_call does not leave alone by its arguments.
        return facts.reaches(*_DATALOADER) and _may_need_drop_last(facts.tree)

    def _one_more_shape(self) -> str:
        """What one more batch shape costs on the target: a lazy graph on XLA; on TorchNeuron
        (eager) its ops compile again, and a `torch.compile(backend="neuron")` region, which
        needs static shapes, compiles once more (reference §5)."""
        if self.target.is_xla:
            return "compiles one more graph"
        return (
            "is one more shape: its eager ops compile again, and a compiled region "
            '(`torch.compile(backend="neuron", dynamic=False)`) compiles once more'
        )

    # -- what the module holds, found before any rewrite -----------------------------------------
    def visit_Module(self, node: cst.Module) -> None:
        self._loader_roles: dict[cst.Call, tuple[str, str]] = {}
        self._collate_names: set[str] = set()
        self._collate_lambdas: set[cst.Lambda] = set()
        self._ignore_indices: set[int] = set()
        self._padding_later = False
        self._helper_state = "absent"  # absent | present | taken
        self._helper_needed = False
        for statement in node.body:
            if isinstance(statement, cst.FunctionDef) and statement.name.value == HELPER:
                doc = statement.get_docstring() or ""
                self._helper_state = "present" if _HELPER_MARK in doc else "taken"
        for call in find(node, cst.Call):
            self._scan_call(call)
        # Text cut into fixed-length blocks after tokenizing (`group_texts` in HF's run_clm):
        # every sequence has the block's length, whatever the tokenizer did.
        self._padding_later = self._padding_later or _makes_fixed_blocks(node)
        for loop in find_step_loops(node).values():
            if loop.iterable is None:
                continue
            line = self.get_metadata(PositionProvider, loop.node).start.line
            for loader in self._loaders_of(loop.iterable, depth=0):
                if self._loader_roles.get(loader, ("",))[0] != "train":
                    kind = "training" if loop.kind == "train" else "evaluation"
                    why = f"iterated by the {kind} loop at line {line}"
                    self._loader_roles[loader] = (loop.kind, why)
        if not self._ignore_indices:
            self._ignore_indices.add(_DEFAULT_IGNORE_INDEX)

    def _scan_call(self, call: cst.Call) -> None:
        for arg in call.args:
            if arg.keyword is not None and arg.keyword.value == "collate_fn":
                if isinstance(arg.value, cst.Name):
                    self._collate_names.add(arg.value.value)
                elif isinstance(arg.value, cst.Lambda):
                    self._collate_lambdas.add(arg.value)
        if self.is_any(call.func, _LOSSES):
            index = _argument(call, "ignore_index", None)
            value = _literal(index.value) if index else _DEFAULT_IGNORE_INDEX
            if isinstance(value, int) and not isinstance(value, bool):
                self._ignore_indices.add(value)
        if (
            self._collator(call)
            or self.is_any(call.func, _PAD_SEQUENCE)
            or self._tokenizer_method(call) == "pad"
        ):
            self._padding_later = True

    # -- classification ----------------------------------------------------------------------
    def _collator(self, call: cst.Call) -> str | None:
        for name in _COLLATORS:
            if self.is_any(call.func, {f"{module}.{name}" for module in _COLLATOR_MODULES}):
                return name
        return None

    def _tokenizer_method(self, call: cst.Call) -> str | None:
        func = call.func
        if isinstance(func, cst.Attribute) and func.attr.value in _TOKENIZER_METHODS:
            method, receiver = func.attr.value, func.value
        else:
            method, receiver = "__call__", func
        return method if self._is_tokenizer(receiver) else None

    def _is_tokenizer(self, node: cst.BaseExpression) -> bool:
        name = dotted(node)
        if name is None:
            return False
        if name.rsplit(".", 1)[-1] in _TOKENIZER_NAMES:
            return True
        if not isinstance(node, cst.Name):
            return False
        for value in self._assigned_values(node):
            if isinstance(value, cst.Call) and m.matches(
                value.func, m.Attribute(attr=m.Name("from_pretrained"))
            ):
                names = {dotted(value.func.value) or ""} | self.qualified_names(value.func)  # type: ignore[union-attr]
                if any(_TOKENIZER_CLASS.search(name) for name in names):
                    return True
        return False

    def _assigned_values(self, name: cst.Name) -> Iterator[cst.BaseExpression]:
        """The values assigned (``x = value``) to the variable ``name`` refers to."""
        facts = self.run.facts
        if facts is not None and name.value not in facts.assigned:
            return  # no assignment anywhere binds it to a value
        found = self.visible_assignments(name)
        if found is not None:
            yield from (statement.value for statement in found if statement is not None)  # type: ignore[misc]
            return
        scope = self.get_metadata(ScopeProvider, name, None)
        if scope is None:
            return
        for assignment in scope[name.value]:
            target = getattr(assignment, "node", None)
            parent = self.get_metadata(ParentNodeProvider, target, None) if target else None
            owner = self.get_metadata(ParentNodeProvider, parent, None) if parent else None
            if isinstance(parent, cst.AssignTarget) and isinstance(owner, cst.Assign):
                yield owner.value
            elif isinstance(parent, cst.AnnAssign) and parent.value is not None:
                yield parent.value

    def _loaders_of(self, node: cst.BaseExpression, depth: int) -> list[cst.Call]:
        """The DataLoader calls a loop's iterable comes from."""
        if depth > 6:
            return []
        if isinstance(node, cst.Call):
            if self.is_any(node.func, _DATALOADER):
                return [node]
            func = node.func
            if isinstance(func, cst.Attribute) and func.attr.value == "per_device_loader":
                return self._loaders_of(func.value, depth + 1)
            name = dotted(func) or ""
            if name.rsplit(".", 1)[-1] in _LOADER_WRAPPERS and node.args:
                return self._loaders_of(node.args[0].value, depth + 1)
            return []
        if isinstance(node, cst.Name):
            found: list[cst.Call] = []
            for value in self._assigned_values(node):
                found += self._loaders_of(value, depth + 1)
            return found
        return []

    def _role_by_name(self, call: cst.Call) -> tuple[str, str] | None:
        """A loader's role from its variable's name, else from its dataset argument's name."""
        parent = self.get_metadata(ParentNodeProvider, call, None)
        candidates: list[tuple[str, cst.BaseExpression]] = []
        if isinstance(parent, cst.Assign) and len(parent.targets) == 1:
            candidates.append(("named", parent.targets[0].target))
        elif isinstance(parent, cst.AnnAssign):
            candidates.append(("named", parent.target))
        dataset = _argument(call, "dataset", 0)
        if dataset is not None:
            candidates.append(("its dataset is", dataset.value))
        for label, node in candidates:
            last = (dotted(node) or "").rsplit(".", 1)[-1]
            train, evaluation = bool(_TRAIN_NAME.search(last)), bool(_EVAL_NAME.search(last))
            if train != evaluation:
                return ("train" if train else "eval"), f"{label} `{last}`"
        return None

    def _in_collate_function(self, node: cst.CSTNode) -> bool | None:
        """True inside a collate function, None inside the helper itself, else False."""
        current = self.get_metadata(ParentNodeProvider, node, None)
        while current is not None:
            if isinstance(current, cst.Lambda) and current in self._collate_lambdas:
                return True
            if isinstance(current, cst.FunctionDef):
                name = current.name.value
                if name == HELPER:
                    return None
                if "collate" in name.lower() or name in self._collate_names:
                    return True
            if isinstance(current, cst.ClassDef) and "collat" in current.name.value.lower():
                return True
            current = self.get_metadata(ParentNodeProvider, current, None)
        return False

    # -- rewriting ---------------------------------------------------------------------------
    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        method = self._tokenizer_method(original_node)
        if method is not None:
            return self._tokenizer_call(original_node, updated_node, method)
        collator = self._collator(original_node)
        if collator is not None:
            return self._collator_call(original_node, updated_node, collator)
        if self.is_any(original_node.func, _PAD_SEQUENCE):
            return self._pad_sequence_call(original_node, updated_node)
        if self.is_any(original_node.func, _DATALOADER):
            return self._loader_call(original_node, updated_node)
        return updated_node

    def _tokenizer_call(self, original: cst.Call, updated: cst.Call, method: str) -> cst.Call:
        position, default = _TOKENIZER_METHODS[method]
        multiple = self.settings.bucket_multiple
        padding = _argument(original, "padding", position)
        # `*pair` fills the text arguments; only `**kwargs` can hide `padding`.
        unreadable = _has_star(original, "**")
        if padding is None and unreadable:
            self.report(
                original,
                TokenizerPadding,
                "tokenizer padding may come from **kwargs: make sure it is "
                f'`padding="max_length"` with `max_length`, or adds `pad_to_multiple_of={multiple}`',
                False,
            )
            return updated
        kind = _padding_kind(default if padding is None else _literal(padding.value))
        if kind == "unknown":
            self.report(
                original,
                TokenizerPadding,
                f"tokenizer padding is `{_code(padding.value)}`: the tool cannot tell it; "  # type: ignore[union-attr]
                f'use `padding="max_length"` with `max_length`, or add `pad_to_multiple_of={multiple}`',
                False,
            )
            return updated
        to_max_length = self._gets_max_length(original, kind)
        self._check_mask(original, padded=kind != "none" or to_max_length)
        if kind == "max_length":
            return updated
        if kind == "longest" and _argument(original, "pad_to_multiple_of", None) is not None:
            return updated
        if kind == "none" and not to_max_length:
            if not self._padding_later:
                self.report(
                    original,
                    TokenizerUnpadded,
                    "tokenized without padding and no padding step found in this file: each "
                    'batch may get a new shape; pass `padding="max_length", max_length=N` here, '
                    f"or pad later with `pad_to_multiple_of={multiple}`",
                    False,
                )
            return updated
        fix = 'padding="max_length"' if to_max_length else f"pad_to_multiple_of={multiple}"
        if unreadable or (padding is not None and padding.keyword is None):
            self.report(
                original,
                TokenizerPadding,
                "tokenizer pads to the longest, but the call has positional padding or "
                f"**kwargs: add `{fix}` by hand",
                False,
            )
            return updated
        if to_max_length:
            implicit = _argument(original, "truncation", None) is None
            message = 'tokenizer has its own max_length → padding="max_length" (one shape)'
            if implicit:
                message += "; its implicit truncation made explicit with truncation=True"
            if not self.report(original, TokenizerPadding, message, True):
                return updated
            value = cst.SimpleString('"max_length"')
            if padding is not None:
                updated = _setkeyword(updated, padding, value)
            else:
                updated = append_keyword(updated, "padding", value)
            if implicit:
                updated = append_keyword(updated, "truncation", cst.Name("True"))
            return updated
        if self.settings.buckets:
            self.report(
                original,
                TokenizerPadding,
                "tokenizer pads to the longest and pad_to_multiple_of cannot express buckets "
                f"({self._bucket_list()}): pad to the next bucket in the collate function, or use "
                f'`padding="max_length", max_length={self.settings.buckets[-1]}`',
                False,
            )
            return updated
        if not self.report(
            original,
            TokenizerPadding,
            f"tokenizer pads to the longest → pad_to_multiple_of={multiple}",
            True,
        ):
            return updated
        return append_keyword(updated, "pad_to_multiple_of", cst.Integer(str(multiple)))

    def _gets_max_length(self, call: cst.Call, kind: str) -> bool:
        """Whether padding to the call's own max_length keeps every row the same length: the
        call truncates, explicitly or implicitly (max_length without padding or truncation)."""
        max_length = _argument(call, "max_length", None)
        # `max_length=None` pads to the model's maximum (512 for BERT), not to a length the
        # script chose: no fixed size of the script's own to pad to.
        if (
            kind not in ("longest", "none")
            or max_length is None
            or _literal(max_length.value) is None
        ):
            return False
        truncation = _argument(call, "truncation", None)
        if truncation is None:
            return kind == "none"
        return _truncates(_literal(truncation.value))

    def _check_mask(self, call: cst.Call, padded: bool) -> None:
        mask = _argument(call, "return_attention_mask", None)
        if padded and mask is not None and _literal(mask.value) is False:
            self.report(
                mask.value,
                PaddingWithoutMask,
                "padded batch without attention_mask: pad tokens change the model's results; "
                "drop `return_attention_mask=False` and pass the mask to the model",
                False,
            )

    def _collator_call(self, original: cst.Call, updated: cst.Call, collator: str) -> cst.Call:
        padding_at, multiple_at, safe_positionals = _COLLATORS[collator]
        if collator == "DataCollatorForSeq2Seq":
            label = self._label_padding(_argument(original, "label_pad_token_id", 5))
            if label is not None:
                self.report(label[0] or original, LabelPaddingNotIgnored, label[1], False)
        if _argument(original, "pad_to_multiple_of", multiple_at) is not None:
            return updated
        padding = _argument(original, "padding", padding_at) if padding_at is not None else None
        kind = "longest" if padding is None else _padding_kind(_literal(padding.value))
        if kind in ("max_length", "none"):
            return updated
        multiple = self.settings.bucket_multiple
        problem = None
        if _has_star(original, "**") or _has_star(original, "*"):
            problem = "its arguments come from *args/**kwargs"
        elif _positional_count(original) > safe_positionals:
            problem = "it has many positional arguments"
        elif kind == "unknown":
            problem = f"its padding is `{_code(padding.value)}`"  # type: ignore[union-attr]
        elif self.settings.buckets:
            self.report(
                original,
                CollatorPadding,
                f"{collator} pads to the longest and pad_to_multiple_of cannot express buckets "
                f"({self._bucket_list()}): use a collate function that pads to the next bucket, or "
                f'`padding="max_length", max_length={self.settings.buckets[-1]}`',
                False,
            )
            return updated
        if problem is not None:
            self.report(
                original,
                CollatorPadding,
                f"{collator} may pad to the longest but {problem}: make sure it gets "
                f"`pad_to_multiple_of={multiple}`",
                False,
            )
            return updated
        if not self.report(
            original,
            CollatorPadding,
            f"{collator} pads to the longest → pad_to_multiple_of={multiple}",
            True,
        ):
            return updated
        return append_keyword(updated, "pad_to_multiple_of", cst.Integer(str(multiple)))

    def _label_padding(
        self, arg: cst.Arg | None, default: int | None = None
    ) -> tuple[cst.CSTNode | None, str] | None:
        """Where and why, when labels are padded with a value the file's losses do not ignore."""
        value = _literal(arg.value) if arg is not None else default
        if not isinstance(value, int) or isinstance(value, bool) or value in self._ignore_indices:
            return None
        ignored = ", ".join(str(i) for i in sorted(self._ignore_indices))
        padded = f"the default {value}" if arg is None else str(value)
        return arg.value if arg is not None else None, (
            f"labels padded with {padded} but the loss ignores {ignored}: padded positions count "
            "in the loss; pad labels with the loss's ignore_index (-100 by default)"
        )

    def _pad_sequence_call(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        inside = self._in_collate_function(original)
        if inside is None:
            return updated  # the helper's own call
        first = _argument(original, "sequences", 0)
        if inside and first is not None and _LABELS.search(_code(first.value)):
            label = self._label_padding(_argument(original, "padding_value", 2), default=0)
            if label is not None:
                self.report(label[0] or original, LabelPaddingNotIgnored, label[1], False)
        readable = all(
            not arg.star and (arg.keyword is None or arg.keyword.value in _PAD_SEQUENCE_PARAMS)
            for arg in original.args
        ) and _positional_count(original) <= len(_PAD_SEQUENCE_PARAMS)
        if not inside or not readable or self._helper_state == "taken":
            reason = (
                "outside a collate function"
                if not inside
                else f"`{HELPER}` is already defined in this module"
                if self._helper_state == "taken"
                else "with arguments the bucket helper does not take"
            )
            self.report(
                original,
                PadSequenceBucket,
                f"pad_sequence {reason} pads to the longest, a new shape per batch: pad the time "
                f"dimension up to {self._bucket_text()} if this builds model inputs",
                False,
            )
            return updated
        if not self.report(
            original,
            PadSequenceBucket,
            f"pad_sequence → {HELPER}: pads up to {self._bucket_text()}",
            True,
        ):
            return updated
        if self._helper_state == "absent":
            self._helper_needed = True
        self.add_import("torch")
        return updated.with_changes(func=cst.Name(HELPER))

    def _bucket_list(self) -> str:
        return ", ".join(str(b) for b in self.settings.buckets)

    def _bucket_text(self) -> str:
        if self.settings.buckets:
            return "the next of " + ", ".join(str(b) for b in self.settings.buckets)
        return f"a multiple of {self.settings.bucket_multiple}"

    def _loader_call(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        if _argument(original, "drop_last", _LOADER_POSITIONS["drop_last"]) is not None:
            return updated
        batch_sampler = _argument(original, "batch_sampler", _LOADER_POSITIONS["batch_sampler"])
        if batch_sampler is not None and _literal(batch_sampler.value) is not None:
            return updated  # drop_last belongs to the batch sampler then
        batch_size = _argument(original, "batch_size", _LOADER_POSITIONS["batch_size"])
        unreadable = _has_star(original, "**") or _has_star(original, "*")
        if not unreadable and (batch_size is None or _literal(batch_size.value) in (1, None)):
            return updated  # batches of one sample: the last batch has the same shape
        role = self._loader_roles.get(original) or self._role_by_name(original)
        if role is None:
            return updated
        kind, why = role
        if kind == "eval":
            self.report(
                original,
                EvalLoaderPartialBatch,
                f"evaluation DataLoader ({why}): its last partial batch {self._one_more_shape()}; "
                "drop_last would skip samples, so pad the dataset to a multiple of the batch "
                "size or accept the extra compile",
                False,
            )
            return updated
        if unreadable:
            self.report(
                original,
                TrainLoaderDropLast,
                f"training DataLoader ({why}) takes *args/**kwargs: make sure they set "
                "drop_last=True, "
                f"or the last partial batch {self._one_more_shape()}",
                False,
            )
            return updated
        if not self.report(
            original,
            TrainLoaderDropLast,
            f"training DataLoader ({why}) → drop_last=True: otherwise the last partial batch "
            f"{self._one_more_shape()}; up to batch_size - 1 samples per epoch are skipped",
            True,
        ):
            return updated
        return append_keyword(updated, "drop_last", cst.Name("True"))

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        if not self._helper_needed:
            return updated_node
        body = list(updated_node.body)
        index = 0
        while index < len(body) and _is_preamble(body[index], index):
            index += 1
        helper = cst.parse_statement(
            helper_source(self.settings.buckets, self.settings.bucket_multiple)
        )
        helper = helper.with_changes(leading_lines=[cst.EmptyLine(), cst.EmptyLine()])
        if index < len(body):
            following = body[index]
            blank = sum(1 for line in following.leading_lines if line.comment is None)
            if blank < 2:
                extra = [cst.EmptyLine()] * (2 - blank)
                body[index] = following.with_changes(
                    leading_lines=[*extra, *following.leading_lines]
                )
        body.insert(index, helper)
        return updated_node.with_changes(body=body)


def _makes_fixed_blocks(module: cst.Module) -> bool:
    """A function passed to some ``.map(...)`` that cuts sequences into blocks of one size:
    ``[t[i : i + size] for i in range(0, total, size)]``."""
    mapped = {
        call.args[0].value.value
        for call in find(module, cst.Call)
        if m.matches(call.func, m.Attribute(attr=m.Name("map")))
        and call.args
        and isinstance(call.args[0].value, cst.Name)
    }
    for function in find(module, cst.FunctionDef):
        if function.name.value not in mapped:  # type: ignore[attr-defined]
            continue
        for comp in m.findall(function, m.CompFor(iter=m.Call(func=m.Name("range")))):
            args = comp.iter.args  # type: ignore[attr-defined]
            if len(args) != 3 or not isinstance(comp.target, cst.Name):  # type: ignore[attr-defined]
                continue
            index, size = comp.target.value, _code(args[2].value)  # type: ignore[attr-defined]
            block = m.Slice(
                lower=m.Name(index),
                upper=m.BinaryOperation(
                    left=m.Name(index),
                    operator=m.Add(),
                    right=m.MatchIfTrue(lambda node, size=size: _code(node) == size),
                ),
            )
            if m.findall(function, block):
                return True
    return False


def _is_preamble(statement: cst.BaseStatement, index: int) -> bool:
    """A docstring or an import at the top of the module."""
    if not isinstance(statement, cst.SimpleStatementLine):
        return False
    if all(isinstance(small, cst.Import | cst.ImportFrom) for small in statement.body):
        return True
    return index == 0 and m.matches(statement, m.SimpleStatementLine([m.Expr(m.SimpleString())]))
