"""The sizes of the torchvision datasets whose splits have a fixed number of samples
(``data/dataset_sizes.toml``), and the size of a dataset call where its arguments decide it:
a table dataset with its split, `TensorDataset` of a tensor made with a literal first dimension,
`range(n)`. The ``buckets`` pass asks it whether a loader has a partial last batch at all.
No tree is walked here: the caller resolves names and passes the qualified names it found.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import cache
from importlib import resources

import libcst as cst

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

TENSOR_DATASET = "torch.utils.data.TensorDataset"
# Tensor factories whose first size argument (or the first element of a size tuple) is dim 0.
FACTORIES = frozenset(
    f"torch.{name}" for name in ("randn", "rand", "zeros", "ones", "empty", "full")
)


@dataclass(frozen=True)
class DatasetSplits:
    name: str  # qualified name
    keyword: str
    position: int
    default: str
    splits: dict[str, int]  # the split argument's code (`True`, `'test'`) -> samples
    source: str


@cache
def dataset_table() -> dict[str, DatasetSplits]:
    text = resources.files("trncodemod").joinpath("data/dataset_sizes.toml").read_text("utf-8")
    return {
        name: DatasetSplits(
            name, row["keyword"], row["position"], row["default"], row["splits"], row["source"]
        )
        for name, row in tomllib.loads(text)["datasets"].items()
    }


def _argument(call: cst.Call, keyword: str, position: int) -> cst.Arg | None:
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == keyword:
            return arg
    positional = [a for a in call.args if a.keyword is None and not a.star]
    return positional[position] if position < len(positional) else None


def _spelling(node: cst.BaseExpression) -> str | None:
    """A literal split argument as the table keys it (`True`, `'test'`), else None."""
    if isinstance(node, cst.Name) and node.value in ("True", "False"):
        return node.value
    if isinstance(node, cst.SimpleString):
        return repr(node.evaluated_value)
    return None


def _integer(node: cst.BaseExpression | None) -> int | None:
    return int(node.value) if isinstance(node, cst.Integer) else None


def table_size(call: cst.Call, names: set[str]) -> tuple[int, str] | None:
    """Samples in the split that ``call`` (of a dataset whose qualified names are ``names``)
    loads, and the public source key for it; None where the split is not a literal."""
    for name in names:
        row = dataset_table().get(name)
        if row is None:
            continue
        if any(arg.star for arg in call.args):
            return None
        arg = _argument(call, row.keyword, row.position)
        split = row.default if arg is None else _spelling(arg.value)
        size = row.splits.get(split) if split is not None else None
        return (size, row.source) if size is not None else None
    return None


def first_dimension(call: cst.Call) -> int | None:
    """Dim 0 of a tensor factory call with a literal size (`torch.randn(1000, 8)`,
    `torch.zeros((1000, 8))`); the caller has checked the function is one of ``FACTORIES``."""
    positional = [a for a in call.args if a.keyword is None and not a.star]
    size = next((a for a in call.args if a.keyword and a.keyword.value == "size"), None)
    first = size if size is not None else (positional[0] if positional else None)
    if first is None:
        return None
    value = first.value
    if isinstance(value, (cst.Tuple, cst.List)) and value.elements:
        value = value.elements[0].value
    return _integer(value)


def range_length(call: cst.Call) -> int | None:
    """`range(n)` with a literal n (one argument)."""
    if len(call.args) == 1 and call.args[0].keyword is None and not call.args[0].star:
        return _integer(call.args[0].value)
    return None
