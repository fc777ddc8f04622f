"""Reads of a value that only ask for its shape (`x.shape`, `x.size(0)`, `len(x)`): the same
answer on the host and on the device, so such a read neither needs the value moved nor forces a
copy back. Shared by the passes that decide where a value may stay."""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst
import libcst.matchers as m

# Reading these from a tensor gives the same answer on the host and on the device.
_SHAPE_ATTRIBUTES = frozenset({"shape", "ndim", "dtype"})
_SHAPE_METHODS = frozenset({"size", "dim", "numel"})


def is_shape_read(
    node: cst.CSTNode, parent_of: Callable[[cst.CSTNode], cst.CSTNode | None]
) -> bool:
    """Whether ``node`` is read for its shape only (`x.shape`, `x.size(0)`, `len(x)`)."""
    parent = parent_of(node)
    if isinstance(parent, cst.Attribute) and parent.value is node:
        if parent.attr.value in _SHAPE_ATTRIBUTES:
            return True
        call = parent_of(parent)
        return (
            parent.attr.value in _SHAPE_METHODS
            and isinstance(call, cst.Call)
            and call.func is parent
        )
    if isinstance(parent, cst.Arg):
        call = parent_of(parent)
        return (
            isinstance(call, cst.Call)
            and m.matches(call.func, m.Name("len"))
            and len(call.args) == 1
        )
    return False
