"""What a check of torch's version evaluates to on a target's torch.

Training code written for torch 1.x guards itself with `assert torch.__version__.split('.')[0]
== '1'`, `if LooseVersion(torch.__version__) < LooseVersion('0.4'): raise ...` and alike. A
port to a torch 2.9 target runs under torch 2.9, so such a guard is decided: ``decide`` folds
the expression with ``torch.__version__`` bound to the target's version, interpreting only the
few operations version checks are made of (string methods, indexing, `int()`, version parsers,
comparisons, `and`/`or`/`not`); anything else leaves it undecided (None). Nothing is executed.

`torch.__version__` is a ``TorchVersion`` (a str whose comparisons with a str, a tuple or a
Version compare as versions, torch/torch_version.py); what its methods return are plain values.
"""

from __future__ import annotations

import ast
import operator
import re
from collections.abc import Callable
from dataclasses import dataclass

from trncodemod.analysis.training import dotted

# Version parsers whose result compares as a release (packaging, distutils, pkg_resources).
_PARSERS = frozenset(
    {
        "version.parse",
        "packaging.version.parse",
        "packaging.version.Version",
        "Version",
        "parse_version",
        "pkg_resources.parse_version",
        "LooseVersion",
        "StrictVersion",
        "distutils.version.LooseVersion",
        "distutils.version.StrictVersion",
    }
)
_COMPARE: dict[type, Callable[[object, object], bool]] = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
}
_UNDECIDED = object()


@dataclass(frozen=True, order=True)
class Release:
    """A parsed version, compared by its release numbers (`2.9.0+cu128` as (2, 9, 0))."""

    parts: tuple[int, ...]

    @staticmethod
    def of(text: object) -> Release | None:
        if isinstance(text, Release):
            return text
        if isinstance(text, tuple) and all(type(p) is int for p in text):
            return Release(_padded(text))
        if not isinstance(text, str):
            return None
        found = re.match(r"\s*v?(\d+(?:\.\d+)*)", text)
        if found is None:
            return None
        return Release(_padded(tuple(int(p) for p in found.group(1).split("."))))


def _padded(parts: tuple[int, ...]) -> tuple[int, ...]:
    while len(parts) > 1 and parts[-1] == 0:
        parts = parts[:-1]
    return parts


class _TorchVersion(str):
    """The value of `torch.__version__`: a str that compares as a version."""


def decide(node: ast.expr, version: str, is_version: Callable[[ast.AST], bool]) -> bool | None:
    """The truth of ``node`` where ``is_version`` picks the expressions that read torch's version
    (`torch.__version__`), on a torch of ``version``; None where it cannot be folded."""
    value = _fold(node, _TorchVersion(version), is_version)
    if value is _UNDECIDED:
        return None
    try:
        return bool(value)
    except Exception:  # noqa: BLE001 - a value whose truth is not plain
        return None


def _fold(node: ast.AST, version: _TorchVersion, is_version) -> object:  # noqa: C901, PLR0911, PLR0912
    if is_version(node):
        return version
    fold = lambda n: _fold(n, version, is_version)  # noqa: E731
    if isinstance(node, ast.Constant) and isinstance(node.value, str | int | float | bool):
        return node.value
    if isinstance(node, ast.Tuple | ast.List):
        items = [fold(e) for e in node.elts]
        return _UNDECIDED if _UNDECIDED in items else tuple(items)
    if isinstance(node, ast.BoolOp):
        values = [fold(v) for v in node.values]
        if _UNDECIDED in values:
            return _UNDECIDED
        result = values[0]
        for value in values[1:]:
            result = (result and value) if isinstance(node.op, ast.And) else (result or value)
        return result
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        value = fold(node.operand)
        return _UNDECIDED if value is _UNDECIDED else not value
    if isinstance(node, ast.Compare):
        left = fold(node.left)
        for op, right_node in zip(node.ops, node.comparators, strict=True):
            right = fold(right_node)
            if left is _UNDECIDED or right is _UNDECIDED:
                return _UNDECIDED
            held = _compare(op, left, right)
            if held is None:
                return _UNDECIDED
            if not held:
                return False
            left = right
        return True
    if isinstance(node, ast.Subscript):
        value = fold(node.value)
        if isinstance(node.slice, ast.Slice):
            bounds = [
                fold(b) if b is not None else None for b in (node.slice.lower, node.slice.upper)
            ]
            if node.slice.step is not None or any(
                b is not None and type(b) is not int for b in bounds
            ):
                return _UNDECIDED
            index: object = slice(*bounds)
        else:
            index = fold(node.slice)
        if not isinstance(value, str | tuple) or not isinstance(index, int | slice):
            return _UNDECIDED
        try:
            found = value[index]
        except IndexError:
            return _UNDECIDED
        return str(found) if isinstance(value, _TorchVersion) else found
    if isinstance(node, ast.Attribute) and node.attr in ("major", "minor", "micro", "release"):
        release = Release.of(fold(node.value)) if _is_parsed(node.value) else None
        if release is None:
            return _UNDECIDED
        parts = release.parts + (0, 0, 0)
        return {"major": parts[0], "minor": parts[1], "micro": parts[2]}.get(
            node.attr, release.parts
        )
    if isinstance(node, ast.Call) and not node.keywords:
        return _call(node, fold)
    return _UNDECIDED


def _is_parsed(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and dotted(node.func) in _PARSERS


def _call(node: ast.Call, fold) -> object:  # noqa: PLR0911
    args = [fold(a) for a in node.args]
    if _UNDECIDED in args:
        return _UNDECIDED
    name = dotted(node.func) or ""
    if name in _PARSERS and len(args) == 1:
        return Release.of(args[0]) or _UNDECIDED
    if name in ("int", "float", "str") and len(args) == 1:
        try:
            return {"int": int, "float": float, "str": str}[name](args[0])  # type: ignore[arg-type]
        except (TypeError, ValueError):
            return _UNDECIDED
    if isinstance(node.func, ast.Attribute):
        receiver = fold(node.func.value)
        method = node.func.attr
        if isinstance(receiver, str) and method in ("split", "rsplit", "partition", "strip"):
            if not all(isinstance(a, str | int) for a in args):
                return _UNDECIDED
            try:
                result = getattr(str(receiver), method)(*args)
            except (TypeError, ValueError):
                return _UNDECIDED
            return tuple(result) if isinstance(result, list | tuple) else result
        if isinstance(receiver, str) and method in ("startswith", "endswith") and len(args) == 1:
            if isinstance(args[0], str) or (
                isinstance(args[0], tuple) and all(isinstance(a, str) for a in args[0])
            ):
                return getattr(str(receiver), method)(args[0])
    return _UNDECIDED


def _compare(op: ast.cmpop, left: object, right: object) -> bool | None:
    if isinstance(op, ast.In | ast.NotIn):
        if not isinstance(right, str | tuple) or (
            isinstance(right, str) and not isinstance(left, str)
        ):
            return None
        held = left in right  # type: ignore[operator]
        return held if isinstance(op, ast.In) else not held
    compare = _COMPARE.get(type(op))
    if compare is None:
        return None
    if isinstance(left, _TorchVersion | Release) or isinstance(right, _TorchVersion | Release):
        a, b = Release.of(left), Release.of(right)
        return None if a is None or b is None else compare(a, b)
    if type(left) is not type(right) and not (
        isinstance(left, int | float) and isinstance(right, int | float)
    ):
        return compare(left, right) if isinstance(op, ast.Eq | ast.NotEq) else None
    try:
        return compare(left, right)
    except TypeError:
        return None
