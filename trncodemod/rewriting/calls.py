"""Building call arguments the way people write them: ``name=value`` with no spaces around
``=``, and a new last argument that follows the call's own layout (one per line too)."""

from __future__ import annotations

import libcst as cst


def keyword(name: str, value: cst.BaseExpression, **changes: object) -> cst.Arg:
    """The argument ``name=value``."""
    equal = cst.AssignEqual(
        whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")
    )
    return cst.Arg(value, keyword=cst.Name(name), equal=equal, **changes)  # type: ignore[arg-type]


def append_keyword(call: cst.Call, name: str, value: cst.BaseExpression) -> cst.Call:
    """``call`` with ``name=value`` added as its last argument, in the layout of the call."""
    args = list(call.args)
    new = keyword(name, value)
    if not args:
        return call.with_changes(args=[new])
    last = args[-1]
    if not isinstance(last.comma, cst.Comma) and isinstance(
        last.whitespace_after_arg, cst.ParenthesizedWhitespace
    ):
        # `)` on a line of its own: the line break before it goes after the new argument.
        new = new.with_changes(whitespace_after_arg=last.whitespace_after_arg)
        last = last.with_changes(whitespace_after_arg=cst.SimpleWhitespace(""))
    if len(args) > 1 and isinstance(args[-2].comma, cst.Comma):
        separator = args[-2].comma
    elif isinstance(last.comma, cst.Comma) and isinstance(
        call.whitespace_before_args, cst.ParenthesizedWhitespace
    ):
        separator = cst.Comma(whitespace_after=call.whitespace_before_args)
    else:
        separator = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
    args[-1] = last.with_changes(comma=separator)
    return call.with_changes(args=[*args, new.with_changes(comma=last.comma)])


def without_keyword(call: cst.Call, name: str) -> cst.Call:
    """``call`` less its ``name=`` argument, the comma after the new last argument as the old
    last one had it."""
    args = [a for a in call.args if not (a.keyword and a.keyword.value == name)]
    if args and len(args) < len(call.args):
        args[-1] = args[-1].with_changes(comma=call.args[-1].comma)
    return call.with_changes(args=args)
