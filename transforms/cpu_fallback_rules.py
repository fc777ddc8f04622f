"""The rules of the ``cpu-fallback`` pass: ops that fall back to the CPU, make shapes depend on the
data, or that neuronx-cc rejects, in model and training code
([xla-troubleshoot, neuron-debug, torchneuron-overview]). Their documentation is what ``trncodemod
explain`` prints; the op table that names the ops each rule reports is ``data/fallback_ops.toml``
(``trncodemod.analysis.fallback_ops``).
"""

from __future__ import annotations

from trncodemod.findings import Rule, Safety, Severity


class NonzeroFallback(Rule):
    """## What it does
    Reports `torch.nonzero(x)`, `x.nonzero()`, `torch.argwhere(x)` and `x.argwhere()` (any
    `as_tuple`) in model and training code. Nothing is rewritten.

    ## Why
    The number of results depends on the values, so XLA cannot compile it: it runs on the CPU
    (`aten::nonzero` in the metrics report), which executes the pending graph and copies the input
    to the host, and every new count is a new shape downstream
    ([xla-troubleshoot, neuron-debug, measured-fallback-ops], measured on torch_xla 2.9: 1
    execution, 1 transfer; troubleshoot.md "Direct or indirect uses of `nonzero` introduce dynamic
    shapes"). TorchNeuron also runs unsupported ops on the CPU ([torchneuron-overview]).

    ## Example
    ```python
    idx = torch.nonzero(scores > 0.5).squeeze(1)
    picked = features[idx]
    ```

    ## Use instead
    ```python
    top = scores.topk(k).indices            # a fixed number of positions
    keep = scores.gather(0, top) > 0.5      # and a mask for the ones that count
    picked = features[top] * keep.unsqueeze(1)
    ```
    """

    code = "TRN411"
    name = "nonzero-fallback"
    summary = "`torch.nonzero`/`argwhere` runs on the CPU with a data-dependent shape (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.ERROR
    sources = ("xla-troubleshoot", "neuron-debug", "torchneuron-overview", "measured-fallback-ops")


class BooleanMaskIndex(Rule):
    """## What it does
    Reports indexing with a mask that is visibly boolean — a comparison (`x[x > 0]`), `isnan`,
    `isfinite`, `logical_*`, `.bool()`, `~mask`, `mask & other`, or a name bound only to one of
    these — in model and training code, both reading (`x[mask]`) and writing (`x[mask] = 0`). A
    mask of unknown type is not reported. Nothing is rewritten.

    ## Why
    Boolean-mask indexing is `nonzero` underneath: it runs on the CPU (`aten::nonzero`), copies to
    the host, and the result's size depends on the data
    ([xla-troubleshoot, neuron-debug, measured-fallback-ops], measured; writing through a mask also
    falls back). The usual rewrite keeps the full shape: `x[mask].sum()` → `(x * mask).sum()`,
    `x[mask].mean()` → `(x * mask).sum() / mask.sum()`, `x[mask] = v` →
    `x = x.masked_fill(mask, v)`.

    ## Example
    ```python
    loss = per_token_loss[labels != -100].mean()
    ```

    ## Use instead
    ```python
    mask = labels != -100
    loss = (per_token_loss * mask).sum() / mask.sum()
    ```
    """

    code = "TRN412"
    name = "boolean-mask-index"
    summary = "`x[mask]` with a boolean mask runs `nonzero` on the CPU (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.ERROR
    sources = ("xla-troubleshoot", "neuron-debug", "measured-fallback-ops")


class OneArgumentWhere(Rule):
    """## What it does
    Reports `torch.where(cond)` with one argument in model and training code. The
    three-argument form `torch.where(cond, a, b)` is lowered and not reported.

    ## Why
    One-argument `where` is `nonzero(cond, as_tuple=True)`: it runs on the CPU, copies to the host
    and returns a data-dependent shape ([xla-troubleshoot, neuron-debug, measured-fallback-ops]).

    ## Example
    ```python
    rows, cols = torch.where(adjacency > 0)
    ```

    ## Use instead
    ```python
    weights = torch.where(adjacency > 0, adjacency, 0)   # same shape, no host round trip
    ```
    """

    code = "TRN413"
    name = "one-argument-where"
    summary = "one-argument `torch.where` is `nonzero` on the CPU (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.ERROR
    sources = ("xla-troubleshoot", "neuron-debug", "measured-fallback-ops")


class MaskedSelect(Rule):
    """## What it does
    Reports `torch.masked_select(x, mask)` and `x.masked_select(mask)` in model and training
    code.

    ## Why
    Runs on the CPU (`aten::masked_select`) with a data-dependent output size
    ([xla-troubleshoot, neuron-debug, measured-fallback-ops], measured;
    `XLA_EXPERIMENTAL="nonzero:masked_select"` is experimental and TPU-only).

    ## Example
    ```python
    total = torch.masked_select(loss, valid).sum()
    ```

    ## Use instead
    ```python
    total = torch.where(valid, loss, 0).sum()
    ```
    """

    code = "TRN414"
    name = "masked-select"
    summary = "`masked_select` runs on the CPU with a data-dependent shape (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.ERROR
    sources = ("xla-troubleshoot", "neuron-debug", "measured-fallback-ops")


class UniqueFallback(Rule):
    """## What it does
    Reports `torch.unique`, `torch.unique_consecutive` and the methods of the same names in model
    and training code.

    ## Why
    Runs on the CPU (`aten::_unique2`, `aten::unique_consecutive`) and copies to the host; the
    number of distinct values is a new shape each time
    ([xla-troubleshoot, neuron-debug, measured-fallback-ops], measured;
    [xla-recompile-sources]: "another example is torch.unique()").

    ## Example
    ```python
    present = torch.unique(labels)
    ```

    ## Use instead
    ```python
    present = torch.zeros(num_classes, device=labels.device).scatter_add_(
        0, labels, torch.ones_like(labels, dtype=torch.float)) > 0
    ```
    """

    code = "TRN415"
    name = "unique-fallback"
    summary = "`torch.unique` runs on the CPU with a data-dependent shape (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.ERROR
    sources = ("xla-troubleshoot", "neuron-debug", "measured-fallback-ops", "xla-recompile-sources")


class SamplingAndHistogramFallback(Rule):
    """## What it does
    Reports `torch.bincount`, `torch.histc` and their method forms in model and training code,
    and `torch.multinomial` where torch-xla does not lower it: without replacement for more than
    one sample (or a sample count the tool cannot see), or with `generator=`. One sample, or any
    number with `replacement=True`, is lowered and not reported.

    ## Why
    These have no XLA lowering: each runs on the CPU (`aten::bincount`, `aten::histc`,
    `aten::multinomial`) and copies its input to the host every time
    ([xla-troubleshoot, neuron-debug, measured-fallback-ops]). torch-xla 2.9 lowers
    `multinomial` (`xla::multinomial`, no `aten::` counter, measured in each spelling) except
    without replacement for several samples or with a generator, where its source calls the
    CPU fallback ([xla-multinomial-source]).

    ## Example
    ```python
    picks = torch.multinomial(probs, 4)  # 4 distinct samples: aten::multinomial
    ```

    ## Use instead
    ```python
    gumbel = -torch.log(-torch.log(torch.rand_like(probs)))
    picks = (probs.log() + gumbel).topk(4, dim=-1).indices  # 4 distinct samples on the device
    ```
    """

    code = "TRN416"
    name = "sampling-histogram-fallback"
    summary = "`bincount`/`histc`, and `multinomial` of several samples without replacement, run on the CPU (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.ERROR
    sources = (
        "xla-troubleshoot",
        "neuron-debug",
        "measured-fallback-ops",
        "xla-multinomial-source",
    )


class RepeatInterleaveTensor(Rule):
    """## What it does
    Reports `repeat_interleave` whose repeats are visibly a tensor (a `torch.*` call, `.long()`,
    `.to(...)`, a name bound only to one) and the one-argument form `torch.repeat_interleave(r)`.
    Repeats given as a Python int are lowered and not reported.

    ## Why
    With tensor repeats the output size depends on the values: it runs on the CPU
    (`aten::repeat_interleave.Tensor`), even when `output_size=` is given
    ([xla-troubleshoot, neuron-debug, measured-fallback-ops], measured on torch_xla 2.9).

    ## Example
    ```python
    expanded = torch.repeat_interleave(tokens, lengths)
    ```

    ## Use instead
    ```python
    # pad every row to the longest repeat count and carry a mask
    expanded = tokens.unsqueeze(1).expand(-1, max_len)
    mask = torch.arange(max_len, device=tokens.device) < lengths.unsqueeze(1)
    ```
    """

    code = "TRN417"
    name = "repeat-interleave-tensor"
    summary = "`repeat_interleave` with tensor repeats runs on the CPU (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.ERROR
    sources = ("xla-troubleshoot", "neuron-debug", "measured-fallback-ops")


class FftFallback(Rule):
    """## What it does
    Reports every `torch.fft.*` function and `torch.stft`/`torch.istft` (and the methods) in
    model and training code, including a function of another module that a training step calls
    every step (an audio model's mel spectrogram of its output, for the loss). Dataset and collate
    code, which runs on the host, is not reported.

    ## Why
    FFTs run on the CPU (`aten::_fft_r2c`, [xla-troubleshoot, neuron-debug, measured-fallback-ops])
    and produce complex tensors, which neuronx-cc does not support (EVRF004); Neuron's own analysis
    tutorial uses `torch.fft.fft` as its unsupported-op example. Measured on torch-xla 2.9
    ([measured-fft-ops]): `torch.stft`, `torch.fft.fft`, `ifft` and `rfft` fall back as
    `aten::_fft_r2c`, `irfft` as `aten::_fft_c2r`, `fft2` as `aten::_fft_c2c`, and `torch.istft` of
    a complex XLA tensor aborts the process (an XLA check failure in `permutation_util.h`).

    ## Example
    ```python
    spec = torch.fft.rfft(frames, dim=-1).abs()
    ```

    ## Use instead
    ```python
    # in the Dataset / collate function, on the host:
    spec = torch.fft.rfft(frames, dim=-1).abs()
    ```
    """

    code = "TRN418"
    name = "fft-fallback"
    summary = "`torch.fft.*`/`stft` run on the CPU and make complex tensors (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.ERROR
    sources = ("xla-troubleshoot", "neuron-debug", "measured-fallback-ops", "measured-fft-ops")


class SparseTensor(Rule):
    """## What it does
    Reports sparse tensors in model and training code: `x.to_sparse*()`, `torch.sparse_*_tensor`,
    `torch.sparse.*`, and `nn.Embedding`/`nn.EmbeddingBag`/`F.embedding` with `sparse=True`.
    On XLA targets a sparse tensor is a blocker, reported by TRN029; this rule keeps the sparse
    embeddings there, and every sparse op on `neuron`.

    ## Why
    The XLA backend has no sparse kernels: moving a sparse tensor to the device raises
    `NotImplementedError: Could not run 'aten::_sparse_coo_tensor_with_dims_and_tensors' with
    arguments from the 'SparseXLA' backend` [measured-sparse-tensors]; an embedding with
    `sparse=True` raises the same at `backward()` ([measured-sparse-tensors], torch_xla 2.9).

    ## Example
    ```python
    self.embed = nn.Embedding(vocab, dim, sparse=True)
    ```

    ## Use instead
    ```python
    self.embed = nn.Embedding(vocab, dim)
    ```
    """

    code = "TRN419"
    name = "sparse-tensor"
    summary = "sparse tensors have no XLA kernels: a hard error (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.ERROR
    sources = ("xla-troubleshoot", "measured-sparse-tensors")


class ScaledBlasFallback(Rule):
    """## What it does
    Rewrites the BLAS-style calls that torch-xla runs on the CPU into the matmul they compute, in
    model and training code: `torch.addmm(M, A, B, beta=b, alpha=a)` and `M.addmm(A, B, ...)`
    with an `alpha` or `beta` other than 1 become `b * M + a * (A @ B)`, a factor of 1 dropped and
    a negative `alpha` written as a subtraction (`M - 2.0 * (A @ B)`); `torch.addmv(m, A, v)` and
    `torch.addbmm(M, A, B)` at any scale, unscaled included, become `m + A @ v` and
    `M + (A @ B).sum(0)`, scaled the same way. Rewritten only where the result is a value and the
    scales are literal numbers; reported with what to write where a scale is not a literal, with
    `out=`, in the in-place form (`M.addmm_(...)`: `M.mul_(b).add_(A @ B, alpha=a)`), with
    `beta=0` (`a * (A @ B)`: `beta=0` does not read `M`, NaN included, which `0 * M` would), and
    on `--target neuron`. Not reported: `addmm` without `alpha`/`beta` or with both the literal
    1 (`1` or `1.0`), and `baddbmm` and `addr`, which torch-xla lowers at every scale.

    ## Why
    torch-xla lowers `addmm` only with `alpha` and `beta` 1 ([xla-addmm-source]); it has no
    lowering of `addmv` or `addbmm`. Each runs on the CPU (`aten::addmm`, `aten::addmv`,
    `aten::addbmm` in the metrics report), which executes the pending graph and copies the
    operands to the host and the result back ([measured-scaled-blas], torch-xla 2.9 on XLA:CPU:
    a fallback in every form, function, method, in place and `out=`, and for `addmm` at every
    scale but 1, `beta=0` included; a VQ-VAE's nearest-codebook distance,
    `torch.addmm(codebook_sqr + inputs_sqr, inputs, codebook.t(), alpha=-2.0, beta=1.0)`,
    trained 3 steps in 6 graph executions and 3 host copies, against 3 and 0 written as a
    matmul). The matmul spellings run with no fallback and compute the same values: on random
    float32 inputs the codebook distance's is exactly equal to `addmm` on the CPU (4096 x 64
    inputs, 512 x 64 codebook), the other ops' within 1.5e-5 at magnitudes near 100 (a rounding
    of the last bit), and their gradients within 2.5e-4 (the matmul alone differs by 1.3e-4).
    It is a review fix because under bf16 autocast `addmm` and `addbmm` return bf16 where the
    matmul form, whose `M` is not cast, returns float32 ([measured-scaled-blas]), and because a
    scale that is not a power of two rounds once more.

    ## Example
    ```python
    distances = torch.addmm(codebook_sqr + inputs_sqr, inputs, codebook.t(), alpha=-2.0, beta=1.0)
    ```

    ## Use instead
    ```python
    distances = codebook_sqr + inputs_sqr - 2.0 * (inputs @ codebook.t())
    ```
    """

    code = "TRN420"
    name = "scaled-blas-fallback"
    summary = "`addmm` with a scale, `addmv` and `addbmm` run on the CPU → the matmul they compute"
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = ("measured-scaled-blas", "xla-addmm-source")


class ComplexDtype(Rule):
    """## What it does
    Reports complex dtypes (`torch.complex64`, `torch.complex128`, `torch.cfloat`,
    `torch.cdouble`, `torch.complex32`, `torch.chalf`) and `torch.view_as_complex`,
    `torch.complex`, `torch.polar` in model and training code.

    ## Why
    neuronx-cc does not support complex data types (error EVRF004, [xla-troubleshoot, neuron-debug]
    "Neuron-side compiler restrictions"): the graph fails to compile on Trainium, whatever the
    target.

    ## Example
    ```python
    freqs = torch.view_as_complex(x.reshape(*x.shape[:-1], -1, 2))
    ```

    ## Use instead
    ```python
    x1, x2 = x[..., 0::2], x[..., 1::2]          # rotary embedding with real arithmetic
    out = torch.stack((x1 * cos - x2 * sin, x1 * sin + x2 * cos), dim=-1).flatten(-2)
    ```
    """

    code = "TRN421"
    name = "complex-dtype"
    summary = "complex dtypes are rejected by neuronx-cc (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.ERROR
    sources = ("neuron-compiler-errors", "xla-troubleshoot", "neuron-debug")


class IntegerTopk(Rule):
    """## What it does
    Reports `topk` on a tensor that is visibly integer: `.long()`, `.int()`, `.to(torch.int64)`,
    `torch.randint(...)`, `argmax`/`argsort` results, a creation call with an integer `dtype=`,
    or a name bound only to one of these. `topk` on a tensor of unknown dtype is not reported.

    ## Why
    neuronx-cc rejects `topk` on int32/int64 inputs (error EVRF013,
    [xla-troubleshoot, neuron-debug]): cast to float. (torch_xla on the CPU runs it, so the failure
    only shows on Trainium.)

    ## Example
    ```python
    best = counts.long().topk(5)
    ```

    ## Use instead
    ```python
    best = counts.float().topk(5)   # exact for integers below 2**24
    ```
    """

    code = "TRN422"
    name = "integer-topk"
    summary = "`topk` on an integer tensor is rejected by neuronx-cc (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.ERROR
    sources = ("neuron-compiler-errors", "xla-troubleshoot", "neuron-debug")


class IntegerMatmul(Rule):
    """## What it does
    Reports a matrix product (`@`, `torch.matmul`, `mm`, `bmm`, `mv`, `dot` and their methods)
    with an operand that is visibly integer (as for TRN422). Products of unknown dtype are not
    reported.

    ## Why
    neuronx-cc rejects integer matrix multiplication (error EVRF035,
    [xla-troubleshoot, neuron-debug]).

    ## Example
    ```python
    counts = one_hot.long() @ transitions.long()
    ```

    ## Use instead
    ```python
    counts = one_hot.float() @ transitions.float()
    ```
    """

    code = "TRN423"
    name = "integer-matmul"
    summary = "integer matmul is rejected by neuronx-cc (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.ERROR
    sources = ("neuron-compiler-errors", "xla-troubleshoot", "neuron-debug")


class WeightNormFallback(Rule):
    """## What it does
    Reports `torch.nn.utils.weight_norm(m)`, `torch.nn.utils.parametrizations.weight_norm(m)`
    and `torch._weight_norm(v, g)` in model and training code, and anywhere in a file that
    trains (a builder or `main()` that makes the model), once per call; and the function passed
    on as a value to be called under another name (`norm_f = weight_norm if ... else
    spectral_norm`). Not reported: `dim=None`, a negative `dim`, or a `dim` that is visibly not
    the last dimension of the wrapped layer's weight (`weight_norm(nn.Conv1d(...), dim=1)`); a
    module that only scripts which do not train reach (an inference script), where the program
    of two files or more shows it; `spectral_norm`, `remove_weight_norm`, and names that are not
    torch's. Nothing is rewritten.

    ## Why
    Both APIs compute the weight with `torch._weight_norm`, which for `dim=0` (the default) or
    the last dimension runs the fused `aten::_weight_norm_interface`; torch-xla 2.9 has no
    lowering for it or its backward, so every training step runs both on the CPU, cuts the
    step's graph there and copies the weights to the host and back
    ([measured-weight-norm, torch-weight-norm-source, xla-troubleshoot]; measured on XLA:CPU, a
    weight-normed Conv1d trained 3 steps: 3 `aten::_weight_norm_interface` and 3
    `aten::_weight_norm_interface_backward` fallbacks and 6 graph executions, against 3 without
    weight norm). Any other `dim` (`dim=None` is -1) is written out in ops torch-xla lowers.

    Written out, `g * v / torch.norm_except_dim(v, 2, dim)` stays in the graph: as a
    parametrization it trained with 0 fallbacks and 3 executions, ended within 1.8e-7 of
    `weight_norm` trained on the CPU, and its state_dict has the keys of
    `parametrizations.weight_norm` (`parametrizations.weight.original0` for `g`, `original1` for
    `v`; it loads that function's state_dict as it is). A legacy `weight_norm` checkpoint has
    `weight_g`/`weight_v`: rename them when loading it, read `m.parametrizations.weight.original0`
    where the code reads `m.weight_g` (DINO's head sets `last_layer.weight_g.requires_grad =
    False`), and replace `remove_weight_norm(m)` with
    `parametrize.remove_parametrizations(m, "weight")`. None of this is certain from the code
    alone, so the tool reports.

    ## Example
    ```python
    from torch.nn.utils import weight_norm

    self.conv = weight_norm(nn.Conv1d(64, 64, 3, padding=1))
    ```

    ## Use instead
    ```python
    from torch.nn.utils import parametrize


    class WeightNorm(nn.Module):  # g * v / ||v||, in ops torch-xla lowers
        def __init__(self, dim=0):
            super().__init__()
            self.dim = dim

        def forward(self, g, v):
            return g * v / torch.norm_except_dim(v, 2, self.dim)

        def right_inverse(self, weight):
            return torch.norm_except_dim(weight, 2, self.dim), weight


    self.conv = nn.Conv1d(64, 64, 3, padding=1)
    parametrize.register_parametrization(self.conv, "weight", WeightNorm(), unsafe=True)
    ```
    """

    code = "TRN055"
    name = "weight-norm-fallback"
    summary = "`weight_norm` runs `_weight_norm_interface` on the CPU in every training step (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.ERROR
    sources = ("measured-weight-norm", "torch-weight-norm-source", "xla-troubleshoot")


class CtcLossFallback(Rule):
    """## What it does
    Reports `torch.nn.CTCLoss(...)`, `torch.nn.functional.ctc_loss(...)` and `torch.ctc_loss(...)`
    in model and training code, and anywhere in a file that trains (the criterion is usually
    built in `main()` or `train()` and called in the step under another name), once per call.
    Not reported: a module that only scripts which do not train reach (an evaluation or
    inference script), where the program of two files or more shows it, and a call whose
    log-probabilities are visibly on the host (`.cpu()`). Nothing is rewritten.

    ## Why
    torch-xla 2.9 has no lowering for `aten::_ctc_loss` or `aten::_ctc_loss_backward`: both run
    on the CPU in every training step, cutting the step's graph and copying the
    log-probabilities to the host and the gradient back, whether the lengths are host or device
    tensors ([measured-ctc-loss, xla-troubleshoot]; measured on XLA:CPU, a Linear CTC model
    trained 3 SGD steps: 3 `aten::_ctc_loss.Tensor` and 3 `aten::_ctc_loss_backward.Tensor`
    fallbacks, 9 graph executions and 7 device-to-host copies, against 3 and 1 with a lowered
    loss; the loss equals the CPU's within 5e-7). The result is right, only slower.

    ## Example
    ```python
    criterion = torch.nn.CTCLoss(zero_infinity=True)
    ...
    cost = criterion(preds.log_softmax(2).permute(1, 0, 2), text, preds_size, length)
    ```

    ## Use instead
    Keep it where the step's time allows. Otherwise compute the CTC forward recursion in tensor
    ops, which stay in the graph (the frame count is fixed, so the loop over frames unrolls into
    one graph): over the labels with a blank between each two and at both ends, `alpha` starts
    from the first frame; each frame adds its log-probabilities to the `torch.logsumexp` of
    `alpha`, `alpha` shifted by one, and `alpha` shifted by two where the label differs from the
    one two places before; each sample's input and target lengths mask the result, the loss is
    minus the `logsumexp` of the last two entries, and autograd gives the backward. This
    spelling has not been run on torch-xla by this tool's checks.
    """

    code = "TRN446"
    name = "ctc-loss-fallback"
    summary = "CTC loss runs `_ctc_loss` on the CPU in every training step (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = ("measured-ctc-loss", "xla-troubleshoot")


class MaskFillAssignment(Rule):
    """## What it does
    Rewrites `x[x < y] = c` (a mask that compares `x` itself, one comparison of `<`, `<=`, `>`,
    `>=`, `==` or `!=`, and a constant `c`: a number, `True`/`False`, `float("inf")`,
    `math.inf`, `math.nan`, or one negated) to `x.masked_fill_(x < y, c)` in model and training
    code. Any other boolean-mask write (a tensor value, a mask that does not compare `x`, `+=`)
    stays a TRN412 finding.

    ## Why
    Writing through a boolean mask is `index_put_` with `nonzero` underneath: on torch_xla it
    runs `aten::nonzero` on the CPU and copies to the host ([measured-fallback-ops], torch-xla 2.9,
    XLA:CPU, with minGPT's and nanoGPT's top-k filter `logits[logits < v[:, [-1]]] =
    -float('Inf')`: 1 `aten::nonzero` fallback and 1 device-to-host transfer; `masked_fill_`: none,
    and the same values). A mask made by comparing `x` has the shape the write needs, so
    `masked_fill_` writes the same elements in place (an integer `x` refuses a value it cannot
    hold in both spellings).

    ## Example
    ```python
    logits[logits < v[:, [-1]]] = -float("Inf")
    ```

    ## Use instead
    ```python
    logits.masked_fill_(logits < v[:, [-1]], -float("Inf"))
    ```
    """

    code = "TRN424"
    name = "mask-fill-assignment"
    summary = "`x[x < y] = c` → `x.masked_fill_(x < y, c)` (no `nonzero` on the CPU)"
    safety = Safety.SAFE
    severity = Severity.WARNING
    sources = ("xla-troubleshoot", "neuron-debug", "measured-fallback-ops")


RULES: tuple[type[Rule], ...] = (
    NonzeroFallback,
    BooleanMaskIndex,
    MaskFillAssignment,
    OneArgumentWhere,
    MaskedSelect,
    UniqueFallback,
    SamplingAndHistogramFallback,
    RepeatInterleaveTensor,
    FftFallback,
    SparseTensor,
    ScaledBlasFallback,
    ComplexDtype,
    IntegerTopk,
    IntegerMatmul,
    WeightNormFallback,
    CtcLossFallback,
)
BY_CODE = {rule.code: rule for rule in RULES}
