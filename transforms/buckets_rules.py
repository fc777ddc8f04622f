"""The rules of the ``buckets`` pass: inputs are padded to a few fixed shapes, so that each shape
compiles once
([xla-recompilation, neuron-emod025, xla-loader, neuron-guide, xla-recompile-sources]), and a
missing mask or ignore index is reported. Their documentation is what ``trncodemod explain`` prints.
"""

from __future__ import annotations

from trncodemod.findings import Rule, Safety, Severity


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

    Kept and reported where the call's ids become labels whose pad positions nothing sets to
    the loss's ignore index: a per-example tokenize function that copies the input ids into the
    labels and masks only the prompt (`labels = input_ids.copy(); labels[:prompt_len] = -100`),
    or `tokenizer(text_target=...)` assigned to the labels. Padding there puts pad tokens into
    the labels and the loss trains on them; the finding names the label line. The padding
    changes where a statement of the same function sets the pads to the ignore index (`-100 if
    t == tokenizer.pad_token_id else t`, `labels[attention_mask == 0] = -100`), or where
    `DataCollatorForLanguageModeling` rebuilds the labels with pads ignored;
    `DataCollatorForSeq2Seq` pads with -100 only the labels it pads itself, so it does not count.

    Reported and left alone: a padding value the tool cannot read (a variable, `**kwargs`,
    positional padding), and, with an explicit `buckets` list, any pad-to-longest call:
    `pad_to_multiple_of` cannot express a list, so pad in the collate function to the next
    bucket or use `padding="max_length"` with the largest bucket. `.pad()` with `max_length` keeps
    `pad_to_multiple_of`: it never truncates, so `"max_length"` could leave a ragged batch.

    ## Why
    "XLA recompiles when input shape changes"; the fix is to normalize input shapes to one or a few
    buckets ([xla-recompilation, neuron-emod025, measured-shape-compiles];
    measured: 10 lengths → 10 compiles, bucketed to 3 sizes → 3 graphs). Neuron's compiler needs
    static shapes (EMOD025).

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
    sources = ("xla-recompilation", "neuron-emod025", "measured-shape-compiles")


class TokenizerUnpadded(Rule):
    """## What it does
    Reports a tokenizer call that does not pad and has no `max_length`, in a file where no later
    padding step (a Hugging Face data collator, `tokenizer.pad`, `pad_sequence`) was found.
    Nothing is rewritten: `pad_to_multiple_of` alone does nothing while `padding=False`, and
    without a length there is no fixed size to pad to.

    ## Why
    The sequences keep their own lengths and are padded somewhere else — for example by a
    `Trainer` given the tokenizer, which pads each batch to its longest sequence — so every batch
    can have a new shape and compile a new graph ([xla-recompilation, neuron-emod025]).

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
    sources = ("xla-recompilation", "neuron-emod025")


class CollatorPadding(Rule):
    """## What it does
    Adds `pad_to_multiple_of=<bucket-multiple>` to `transformers.DataCollatorWithPadding`,
    `DataCollatorForSeq2Seq` and `DataCollatorForLanguageModeling`, unless the collator already
    pads to a fixed length (`padding="max_length"`), sets `pad_to_multiple_of`, or does not pad
    (`padding=False`). With an explicit `buckets` list, or when the arguments cannot be read
    (`**kwargs`, a padding variable), the collator is reported and left alone.

    ## Why
    These collators pad each batch to its longest sequence, a new shape for nearly every batch;
    `pad_to_multiple_of` limits the shapes to multiples of the bucket size
    ([xla-recompilation, neuron-emod025], "after B":
    `DataCollatorWithPadding(tok, padding="longest", pad_to_multiple_of=64)`).

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
    sources = ("xla-recompilation", "neuron-emod025")


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
    reported and left alone. The helper goes right before the statement that first calls it
    (in a notebook, the collate function's own cell, never an earlier install cell).

    Only where the module shows that the model masks the pads is the call rewritten: a mask
    handed to a model (`attention_mask=`, `src_key_padding_mask=`, `key_padding_mask=`, a batch
    key `"attention_mask"`) or built by comparing with the pad index (`src == PAD_IDX`,
    `ids.ne(pad_token_id)`), and no recurrent module (`nn.LSTM`, `nn.GRU`, `nn.RNN` or their
    cells). Elsewhere it is reported: a recurrent encoder's final state (all an LSTM/GRU
    seq2seq decoder sees of the source) would be taken after the extra pad steps, and attention
    without a mask weighs pad positions, so the model would compute something else; a loss's
    `ignore_index` masks only the loss. Bucket there together with a mask the model applies
    (the final state gathered at each sequence's last real step).

    ## Why
    `pad_sequence` pads to the longest sequence of the batch, so the shape changes from batch to
    batch and XLA compiles a graph for each ([xla-recompilation, neuron-emod025], "after C": pad to
    `min(b for b in BUCKETS if b >= longest)`).

    ## Example
    ```python
    def collate(batch):  # for a Transformer given `src_key_padding_mask=(src == 0)`
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
    sources = ("xla-recompilation", "neuron-emod025")


class TrainLoaderDropLast(Rule):
    """## What it does
    Adds `drop_last=True` to a training `torch.utils.data.DataLoader` that batches (a
    `batch_size` other than 1) and does not set `drop_last` or `batch_sampler`. A loader is a
    training loader when a training loop of the file iterates it — followed back through
    `enumerate(...)`, `tqdm(...)`, `MpDeviceLoader(...)`, `ParallelLoader(...)` and variables —
    or, when no loop of the file iterates it, when its variable (or else its dataset argument) is
    named like a training one (`train_loader`, `train_ds`). A loader whose call has `**kwargs` is
    reported and left alone, and so is one call that builds the loader of every split,
    shuffling only the training one (`shuffle=split == "train"` in a loop over the splits; a
    comparison with a string naming the training split, or a flag named `is_train` or
    `training`), where drop_last would skip evaluation samples: the report names the condition
    to pass. A
    loader with no partial batch is left alone too: its batch size
    (a literal, or a name assigned only one) divides its dataset's size, where the construction
    decides that size, and no sampler or `--scale-out` shards it. Sizes are known for MNIST,
    FashionMNIST and KMNIST (60000 and 10000 samples:
    [dataset-mnist, dataset-fashion-mnist, dataset-kmnist]), CIFAR-10/100 (50000 and 10000:
    [dataset-cifar]), SVHN ([dataset-svhn]), a `TensorDataset` of a tensor made with a literal
    first size, and `range(n)`. A module that trains nothing (no backward, no optimizer step)
    keeps the loaders of its `if __name__ == "__main__":` block, or of its whole top level where
    no other module of the program imports it, that only loops printing or plotting batches
    iterate: no compiled step sees their batches. A training loader whose `collate_fn` the
    program shows pads each batch to its own largest item (the function TRN440 reports, in any
    module) is reported and left alone: its batches take a new shape nearly every step whatever
    the last one does, so drop_last would only skip samples; pad to a fixed length or to a few
    buckets first. A training loader that does not shuffle (no `shuffle=True`, no sampler) is
    reported too: its batches come in the same order every epoch, so drop_last would leave the
    same last samples out of every epoch and the model would never see them.

    ## Why
    A smaller last batch is a new shape and compiles a new graph ([xla-recompilation, xla-mnist]:
    torch_xla's MNIST test passes `drop_last`). Up to `batch_size - 1` samples per epoch are skipped
    (different ones each epoch when shuffled): review that this is acceptable.

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
    sources = (
        "xla-loader",
        "neuron-guide",
        "xla-recompilation",
        "neuron-emod025",
        "xla-recompile-sources",
        "xla-mnist",
        "dataset-mnist",
        "dataset-fashion-mnist",
        "dataset-kmnist",
        "dataset-cifar",
        "dataset-svhn",
    )


class EvalLoaderPartialBatch(Rule):
    """## What it does
    Reports an evaluation `DataLoader` (iterated only by evaluation loops, or named like one:
    `val_loader`, `test_dl`) that batches and does not set `drop_last`. Nothing is rewritten.
    A loader whose batch size divides its dataset's decided size (as for TRN215: MNIST's 10000
    test images in batches of 100) has no partial batch and is not reported
    ([dataset-mnist, dataset-fashion-mnist, dataset-kmnist, dataset-cifar, dataset-svhn]).

    ## Why
    Its last, smaller batch compiles one more graph
    ([xla-loader, neuron-guide, xla-recompile-sources]), but `drop_last=True` would leave samples
    out of the evaluation and change the metric. Pad the evaluation set to a multiple of the batch
    size (and mask the padded samples), or accept the one extra compile.

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
    sources = (
        "xla-loader",
        "neuron-guide",
        "xla-recompile-sources",
        "dataset-mnist",
        "dataset-fashion-mnist",
        "dataset-kmnist",
        "dataset-cifar",
        "dataset-svhn",
    )


class PaddingWithoutMask(Rule):
    """## What it does
    Reports a tokenizer call that pads but asks for no attention mask
    (`return_attention_mask=False`). Nothing is rewritten.

    ## Why
    Padding changes the results unless the model is given the `attention_mask`
    ([xla-recompilation, neuron-emod025] caveats): pad tokens are attended to and pooled. Bucketing
    adds more padding than before.

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
    sources = ("xla-recompilation", "neuron-emod025")


class LabelPaddingNotIgnored(Rule):
    """## What it does
    Reports labels padded with a value the loss does not ignore: `DataCollatorForSeq2Seq` with a
    `label_pad_token_id`, or `pad_sequence` over a name containing `label` or `target`, whose
    constant padding value differs from every `ignore_index` of the file's `CrossEntropyLoss`,
    `NLLLoss`, `cross_entropy` and `nll_loss` (default -100); and labels copied from the ids of a
    tokenizer call that pads to `max_length` where nothing in the function sets their pad
    positions to the ignore index (reported at the label line). Nothing is rewritten.

    ## Why
    Padded label positions then count in the loss and change the gradients
    ([xla-recompilation, neuron-emod025] caveats: "labels padded with -100 … or the loss must ignore
    pad positions"); padding to buckets adds such positions.

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
    sources = ("xla-recompilation", "neuron-emod025")


RULES: tuple[type[Rule], ...] = (
    TokenizerPadding,
    TokenizerUnpadded,
    CollatorPadding,
    PadSequenceBucket,
    TrainLoaderDropLast,
    EvalLoaderPartialBatch,
    PaddingWithoutMask,
    LabelPaddingNotIgnored,
)
