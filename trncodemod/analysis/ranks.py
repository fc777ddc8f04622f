"""Recognising process ranks in code: rank-0 guards (`if rank == 0:`) and rank-built values.

Shared by the passes that must know whether code runs on one process only (checkpoints, rank-0
printing). Names are matched by their last segment (`rank`, `args.local_rank`), calls by
qualified name, so `import torch.distributed as dist` and `from torch.distributed import
get_rank` both resolve.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Literal

import libcst as cst

from trncodemod.analysis.loops import dotted
from trncodemod.analysis.nodes import walk

QualifiedNames = Callable[[cst.CSTNode], set[str]]
Master = Literal["global", "local"]

_GLOBAL_NAME = re.compile(r"^(global_|world_)?rank$", re.IGNORECASE)
_LOCAL_NAME = re.compile(r"^local_rank$", re.IGNORECASE)
_ANY_NAME = re.compile(r"(^|_)(rank|ordinal)$", re.IGNORECASE)
_GLOBAL_CALLS = frozenset(
    {
        "torch.distributed.get_rank",
        "torch_xla.runtime.global_ordinal",
        "torch_xla.core.xla_model.get_ordinal",
    }
)
_LOCAL_CALLS = frozenset(
    {
        "torch.distributed.get_node_local_rank",
        "torch_xla.runtime.local_ordinal",
        "torch_xla.core.xla_model.get_local_ordinal",
    }
)
_MASTER_CALL = "torch_xla.core.xla_model.is_master_ordinal"
_RANK_ENV = {"RANK": "global", "LOCAL_RANK": "local"}


def _rank_value(node: cst.BaseExpression, qualified: QualifiedNames) -> Master | None:
    """Whether ``node`` is a process rank: 'global', 'local' or None."""
    if isinstance(node, cst.Call):
        names = qualified(node.func)
        if names & _GLOBAL_CALLS:
            return "global"
        if names & _LOCAL_CALLS:
            return "local"
        # int(os.environ["RANK"]), int(os.environ.get("LOCAL_RANK", 0))
        if names & {"builtins.int"} and node.args:
            return _environ_rank(node.args[0].value, qualified)
        return None
    name = dotted(node)
    if name is None:
        return None
    last = name.rsplit(".", 1)[-1]
    if _LOCAL_NAME.match(last):
        return "local"
    if _GLOBAL_NAME.match(last):
        return "global"
    return None


def environ_key(node: cst.BaseExpression, qualified: QualifiedNames) -> str | None:
    """The variable ``os.environ["X"]``, ``os.environ.get("X")`` or ``os.getenv("X")`` reads."""
    key: cst.BaseExpression | None = None
    if isinstance(node, cst.Subscript) and qualified(node.value) & {"os.environ"}:
        element = node.slice[0].slice if len(node.slice) == 1 else None
        key = element.value if isinstance(element, cst.Index) else None
    elif isinstance(node, cst.Call) and node.args:
        if qualified(node.func) & {"os.environ.get", "os.getenv"}:
            key = node.args[0].value
    if isinstance(key, cst.SimpleString) and isinstance(key.evaluated_value, str):
        return key.evaluated_value
    return None


def _environ_rank(node: cst.BaseExpression, qualified: QualifiedNames) -> Master | None:
    return _RANK_ENV.get(environ_key(node, qualified) or "")  # type: ignore[return-value]


def _integers(node: cst.BaseExpression) -> set[int] | None:
    """The integers of ``0``, ``-1``, ``(-1, 0)``, ``[0, -1]``, ``{-1, 0}``; None otherwise."""
    if isinstance(node, cst.Integer):
        return {int(node.value, 0)}
    if (
        isinstance(node, cst.UnaryOperation)
        and isinstance(node.operator, cst.Minus)
        and isinstance(node.expression, cst.Integer)
    ):
        return {-int(node.expression.value, 0)}
    if isinstance(node, cst.Tuple | cst.List | cst.Set):
        values: set[int] = set()
        for element in node.elements:
            if isinstance(element, cst.StarredElement):
                return None
            inner = _integers(element.value)
            if inner is None or len(inner) != 1:
                return None
            values |= inner
        return values
    return None


def rank_zero_test(test: cst.BaseExpression, qualified: QualifiedNames) -> Master | None:
    """Which master an ``if`` test selects when it is exactly a rank-0 test: ``rank == 0``,
    ``0 == dist.get_rank()``, ``args.local_rank in (-1, 0)`` (-1: not distributed),
    ``local_rank <= 0``, ``xm.is_master_ordinal()``. 'global' (rank 0 of the job), 'local' (rank 0
    of each host) or None (anything else, including ``rank == 0 and verbose``)."""
    if isinstance(test, cst.Call) and qualified(test.func) & {_MASTER_CALL}:
        local: bool | None = True  # is_master_ordinal(local=True) is the default
        for arg in test.args:
            keyword = arg.keyword.value if arg.keyword else None
            if keyword != "local" and not (keyword is None and arg is test.args[0]):
                return None
            value = arg.value
            local = value.value == "True" if isinstance(value, cst.Name) else None
            if isinstance(value, cst.Name) and value.value not in ("True", "False"):
                local = None
        if local is None:
            return None
        return "local" if local else "global"
    if not isinstance(test, cst.Comparison) or len(test.comparisons) != 1:
        return None
    target = test.comparisons[0]
    left, right, operator = test.left, target.comparator, target.operator
    if isinstance(operator, cst.Equal):
        if _integers(left) == {0}:
            left, right = right, left
        return _rank_value(left, qualified) if _integers(right) == {0} else None
    if isinstance(operator, cst.In):
        values = _integers(right)
        if values in ({0}, {-1, 0}) and isinstance(right, cst.Tuple | cst.List | cst.Set):
            return _rank_value(left, qualified)
        return None
    if isinstance(operator, cst.LessThanEqual) and _integers(right) == {0}:
        return _rank_value(left, qualified)
    if isinstance(operator, cst.LessThan) and _integers(right) == {1}:
        return _rank_value(left, qualified)
    return None


def mentions_rank(node: cst.CSTNode, qualified: QualifiedNames) -> bool:
    """Whether ``node`` reads a process rank or ordinal anywhere (``f"ckpt_{rank}.pt"``,
    ``xm.is_master_ordinal()``, ``os.environ["LOCAL_RANK"]``)."""
    for child in walk(node):
        if isinstance(child, cst.Call):
            names = qualified(child.func)
            if names & (_GLOBAL_CALLS | _LOCAL_CALLS | {_MASTER_CALL}):
                return True
        if isinstance(child, cst.Name | cst.Attribute):
            name = dotted(child)
            if name is not None and _ANY_NAME.search(name.rsplit(".", 1)[-1]):
                return True
        if isinstance(child, cst.SimpleString) and child.evaluated_value in _RANK_ENV:
            return True
    return False
