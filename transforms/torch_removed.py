"""Private torch names a target's torch no longer has (``data/removed_torch_names.toml``), for
the ``torch-imports`` pass: `from torch._utils import _accumulate` stops every program that
imports the module with ImportError on torch 2.3 and later ([torch-accumulate-removed,
measured-removed-torch-names]). Their rules are here; the pass interprets the table."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

import tomllib

from trncodemod.findings import Rule, Safety, Severity


@dataclass(frozen=True)
class RemovedName:
    module: str
    name: str  # "" for the module itself
    absent_from: tuple[int, ...]
    replacement: str  # `module.name`, "" where nothing does the same
    unsafe_keywords: frozenset[str]
    source: str
    python: str = ""  # the Python release that removed a standard-library name

    @property
    def full(self) -> str:
        return f"{self.module}.{self.name}" if self.name else self.module


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", text)[:3])


@cache
def _table() -> dict:
    """``data/removed_torch_names.toml``, read once."""
    text = resources.files("trncodemod").joinpath("data/removed_torch_names.toml").read_text()
    return tomllib.loads(text)


@cache
def removed_names() -> tuple[RemovedName, ...]:
    return tuple(
        RemovedName(
            row["module"],
            row["name"],
            _version(row["absent_from"]),
            row["replacement"],
            frozenset(row["unsafe_keywords"]),
            row["source"],
            row.get("python", ""),
        )
        for row in _table()["names"]
    )


@dataclass(frozen=True)
class RemovedCall:
    name: str  # `torch.symeig`
    method: bool  # the tensor method of the same name is removed too, and named nothing else
    absent_from: tuple[int, ...]
    instead: str
    source: str


@cache
def removed_calls() -> tuple[RemovedCall, ...]:
    return tuple(
        RemovedCall(
            row["name"],
            bool(row["method"]),
            _version(row["absent_from"]),
            row["instead"],
            row["source"],
        )
        for row in _table()["calls"]
    )


def removed_calls_on(torch_version: str) -> dict[str, RemovedCall]:
    """The table's functions a torch of ``torch_version`` has removed, by full dotted name."""
    version = _version(torch_version)
    return {entry.name: entry for entry in removed_calls() if version >= entry.absent_from}


@dataclass(frozen=True)
class RemovedKeyword:
    callables: frozenset[str]
    keyword: str
    absent_from: tuple[int, ...]
    does: str
    source: str


@cache
def removed_keywords() -> tuple[RemovedKeyword, ...]:
    return tuple(
        RemovedKeyword(
            frozenset(row["callables"]),
            row["keyword"],
            _version(row["absent_from"]),
            row["does"],
            row["source"],
        )
        for row in _table()["keywords"]
    )


def removed_keywords_on(torch_version: str) -> tuple[RemovedKeyword, ...]:
    """The table's keywords a torch of ``torch_version`` no longer takes."""
    version = _version(torch_version)
    return tuple(entry for entry in removed_keywords() if version >= entry.absent_from)


def removed_on(torch_version: str) -> dict[str, RemovedName]:
    """The table's names a torch of ``torch_version`` does not have, by full dotted name."""
    version = _version(torch_version)
    return {entry.full: entry for entry in removed_names() if version >= entry.absent_from}


class RemovedTorchName(Rule):
    """## What it does
    Replaces an import of a private torch name that the target's torch no longer has with the
    standard library's equivalent: `from torch._utils import _accumulate` →
    `from itertools import accumulate as _accumulate` (also from `torch.utils.data.dataset`, and
    `torch._utils._accumulate(...)` → `itertools.accumulate(...)`). Where a call passes `fn=`,
    which `itertools.accumulate` spells `func=`, it is TRN173's instead. The names and the torch
    version each is gone from are data (`data/removed_torch_names.toml`).

    ## Why
    `torch._utils._accumulate` was removed in torch 2.3 [torch-accumulate-removed]; torch 2.9
    has no such name [measured-removed-torch-names], so `from torch._utils import _accumulate`
    raises ImportError and every entry point that imports the module stops there (the xla-2.5,
    xla-2.9 and neuron targets; xla-2.1's torch 2.1.2 still has it). `_accumulate(iterable,
    fn=add)` was the pure-Python copy of `itertools.accumulate(iterable, func)`: the same running
    totals, the same result for an empty input. `review`, because the module now imports from
    another place.

    ## Example
    ```python
    from torch._utils import _accumulate
    ```

    ## Use instead
    ```python
    from itertools import accumulate as _accumulate
    ```
    """

    code = "TRN060"
    name = "removed-torch-name"
    summary = "private torch name gone from the target's torch → its standard-library equivalent"
    safety = Safety.REVIEW
    severity = Severity.ERROR
    sources = ("torch-accumulate-removed", "measured-removed-torch-names")


class RemovedPythonName(Rule):
    """## What it does
    Replaces a use of an alias the standard library removed in the Python the target's torch
    requires: `collections.Mapping` → `collections.abc.Mapping`, and
    `from collections import Mapping` → `from collections.abc import Mapping` (each of the 25
    abstract base classes `collections` used to re-export: `Sequence`, `Iterable`, `Callable`,
    `MutableMapping`...). An import inside a `try` that catches ImportError already has a
    fallback and is left alone.

    ## Why
    Python 3.10 removed the aliases [python-310-collections-abc]; torch 2.9 and torch-xla 2.9
    require Python 3.10 or later [torch-29-requires-python], so code written when they still
    worked raises AttributeError at `collections.Mapping` (ImportError at the import) on the
    xla-2.9 and neuron targets, where the port has to run. `collections.abc.Mapping` is the very
    class the alias named.

    ## Example
    ```python
    import collections
    if isinstance(batch, collections.Mapping):
        ...
    ```

    ## Use instead
    ```python
    import collections
    import collections.abc
    if isinstance(batch, collections.abc.Mapping):
        ...
    ```
    """

    code = "TRN067"
    name = "removed-python-name"
    summary = "`collections.Mapping` and alike (gone in Python 3.10) → `collections.abc.Mapping`"
    safety = Safety.SAFE
    severity = Severity.ERROR
    sources = ("python-310-collections-abc", "torch-29-requires-python")


class TorchVersionGate(Rule):
    """## What it does
    Reports a check of torch's version that stops the program on the target's torch: an
    `assert` that is False there (`assert torch.__version__.split('.')[0] == '1'`), or an `if`
    that is True there and whose body raises or exits. The check is folded with
    `torch.__version__` set to the target's torch (string methods, indexing, `int()`, version
    parsers such as `packaging.version.parse` and `LooseVersion`, comparisons); a check the
    tool cannot fold is left alone. Nothing is rewritten: whether the code still works on
    torch 2 is for a person to say.

    ## Why
    A port to Trainium runs on the target's torch (2.9.0 for xla-2.9, 2.1.2 for xla-2.1), so a
    guard written for torch 1.x fails where it ran fine before: an entry point that imports the
    module stops there with AssertionError, before training (a blocker). `torch.__version__`
    compares as a version with a string, a tuple or a parsed version (torch/torch_version.py).

    ## Example
    ```python
    assert torch.__version__.split('.')[0] == '1'
    ```

    ## Use instead
    ```python
    assert int(torch.__version__.split('.')[0]) >= 1
    ```
    """

    code = "TRN068"
    name = "torch-version-gate"
    summary = "a check of torch's version that stops the program on the target's torch (report)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.BLOCKER
    sources = ("torch-version-compare",)


class RemovedTorchKeyword(Rule):
    """## What it does
    Drops a keyword argument the target's torch no longer takes from a call of torch that passed
    it: `verbose=` of the learning-rate schedulers (`ReduceLROnPlateau(optimizer, patience=3,
    verbose=True)` → `ReduceLROnPlateau(optimizer, patience=3)`). A value that calls a function
    is reported instead (dropping it would drop the call). The keywords, the callables that took
    them and the torch each is gone from are data (`data/removed_torch_names.toml`).

    ## Why
    torch 2.2 deprecated the schedulers' `verbose=`; on torch 2.9.0 every scheduler raises
    `TypeError: ... got an unexpected keyword argument 'verbose'` [measured-scheduler-verbose],
    so the script stops where it builds the scheduler, before training (the xla-2.9 and neuron
    targets). The keyword only printed each change of the learning rate: nothing else changes.

    ## Example
    ```python
    scheduler = optim.lr_scheduler.ReduceLROnPlateau(optimizer, patience=3, verbose=True)
    ```

    ## Use instead
    ```python
    scheduler = optim.lr_scheduler.ReduceLROnPlateau(optimizer, patience=3)
    ```
    """

    code = "TRN069"
    name = "removed-torch-keyword"
    summary = "a keyword the target's torch no longer takes (schedulers' `verbose=`) → dropped"
    safety = Safety.SAFE
    severity = Severity.ERROR
    sources = ("measured-scheduler-verbose",)


class LocalRankOption(Rule):
    """## What it does
    Adds the dashed spelling to a command-line option `--local_rank` that a parser defines
    without it: `parser.add_argument("--local_rank", type=int, default=0)` →
    `parser.add_argument("--local_rank", "--local-rank", type=int, default=0)`. The option keeps
    its name (`args.local_rank`): argparse names it after its first long spelling.

    ## Why
    From torch 2.0, `python -m torch.distributed.launch` passes `--local-rank=<rank>` to the
    script, no longer `--local_rank` (torch/distributed/run.py, "versionchanged 2.0.0"); a
    parser that defines only `--local_rank` stops every process with `error: unrecognized
    arguments: --local-rank=0`. Every target runs torch 2.x. With both spellings the script
    takes either launcher's argument; torch's own documentation gives this fix. `safe`: a
    launch that passed `--local_rank` still does.

    ## Example
    ```python
    parser.add_argument("--local_rank", type=int, default=0)
    ```

    ## Use instead
    ```python
    parser.add_argument("--local_rank", "--local-rank", type=int, default=0)
    ```
    """

    code = "TRN070"
    name = "local-rank-option"
    summary = "`--local_rank` option without `--local-rank`, which torch 2's launcher passes → both"
    safety = Safety.SAFE
    severity = Severity.ERROR
    sources = ("torch-launch-local-rank",)


class RemovedTorchNameLeft(Rule):
    """## What it does
    Reports an import of a private torch name the target's torch no longer has and that has no
    exact replacement: `torch.utils.ffi`, `torch.utils.data.dataloader`'s `_DataLoaderIter`,
    `numpy_type_map`, `string_classes`, `int_classes`, and `_accumulate` where a call passes
    `fn=`. An import inside a `try` that catches ImportError is left alone.

    ## Why
    torch 2.9 has none of them [measured-removed-torch-names]: the import raises ImportError
    and every entry point that imports the module stops there, before training (a blocker).
    `_accumulate` was removed in torch 2.3 [torch-accumulate-removed].

    ## Example
    ```python
    from torch.utils.data.dataloader import numpy_type_map
    ```

    ## Use instead
    ```python
    # the collate function of torch.utils.data (`default_collate`) handles NumPy arrays
    from torch.utils.data import default_collate
    ```
    """

    code = "TRN173"
    name = "removed-torch-name-left"
    summary = "private torch name gone from the target's torch: the import fails (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.BLOCKER
    sources = ("torch-accumulate-removed", "measured-removed-torch-names")


class RemovedTorchCall(Rule):
    """## What it does
    Reports a call of a linear-algebra function that torch 1.9 deprecated and torch 2.0 removed:
    `torch.symeig` (and `x.symeig()`), `torch.eig`, `torch.lstsq`, `torch.solve`,
    `torch.matrix_rank`, with what to call instead (`torch.linalg.eigh(A, UPLO="U")` for
    `symeig`). The table is data (`data/removed_torch_names.toml`, `[[calls]]`).

    ## Why
    The names are still in torch, so the module imports, but the call raises `RuntimeError:
    This function was deprecated since version 1.9 and is now removed` on every target's torch
    [torch-symeig-removed, torch-eig-removed, torch-linalg-removals; measured on torch 2.9:
    measured-removed-linalg-calls]. Where the call is on the launch path (a K-FAC
    preconditioner's eigendecomposition in the optimizer step), the program stops there on any
    device: a blocker. The replacements differ in argument order, return values or the triangle
    read, so the call is reported, not rewritten.

    ## Example
    ```python
    d_a, Q_a = torch.symeig(aa, eigenvectors=True)
    ```

    ## Use instead
    ```python
    d_a, Q_a = torch.linalg.eigh(aa, UPLO="U")
    ```
    """

    code = "TRN057"
    name = "removed-torch-call"
    summary = "a linear-algebra function torch 2 removed (`torch.symeig`): the call raises (report)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.BLOCKER
    sources = (
        "torch-symeig-removed",
        "torch-eig-removed",
        "torch-linalg-removals",
        "measured-removed-linalg-calls",
    )


class StftReturnComplex(Rule):
    """## What it does
    Rewrites a `torch.stft(...)` call that does not say `return_complex` into the real output it
    gave on torch 1.x: `torch.view_as_real(torch.stft(..., return_complex=True))`, a tensor with
    a last dimension of 2 for the real and imaginary parts. A call that passes `return_complex`
    is left as it is.

    ## Why
    Since torch 2.0 `return_complex` is required for a real input: on the target's torch the
    call raises `RuntimeError: stft requires the return_complex parameter be given for real
    inputs` on any device [torch-stft-return-complex; measured on torch 2.9:
    measured-stft-return-complex]. The rewrite is the one torch's deprecation names, and its
    output equals the legacy `return_complex=False` output exactly (measured: `torch.equal`,
    and on the XLA device 0.0 apart, where `aten::_fft_r2c` falls back to the CPU either way;
    TRN418 says so). `review`: for a complex input, which torch 2 still accepts without the
    argument and returns complex, the rewrite would change the result; audio signals are real.

    ## Example
    ```python
    spec = torch.stft(y, n_fft, hop_length=hop, window=window, center=False)
    ```

    ## Use instead
    ```python
    spec = torch.view_as_real(
        torch.stft(y, n_fft, hop_length=hop, window=window, center=False, return_complex=True)
    )
    ```
    """

    code = "TRN061"
    name = "stft-return-complex"
    summary = "`torch.stft` without `return_complex` raises on torch 2 → the real output it gave"
    safety = Safety.REVIEW
    severity = Severity.BLOCKER
    sources = ("torch-stft-return-complex", "measured-stft-return-complex")
