"""Mapping the arguments of a CUDA-only optimizer's constructor onto its target class, as
``data/optimizers.toml`` says: which keywords are kept, dropped (with the values that may go) or
pinned to the source's defaults, which positionals stay positional, and why a call cannot be
mapped. The ``optimizer`` pass asks it for each call it rewrites.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

import libcst as cst
from trncodemod.transforms.optimizer_table import ANY, Source, Table, TargetClass


def literal(node: cst.BaseExpression) -> tuple[bool, object]:
    """(True, value) for a literal (numbers, bools, None, strings, tuples), else (False, None)."""
    try:
        return True, ast.literal_eval(cst.Module([]).code_for_node(node).strip())
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False, None


def _same(text: str, node: cst.BaseExpression) -> bool:
    known, value = literal(node)
    return known and value == ast.literal_eval(text)


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node).strip()


def _keyword_arg(name: str, value: cst.BaseExpression) -> cst.Arg:
    no_space = cst.SimpleWhitespace("")
    return cst.Arg(
        value=value,
        keyword=cst.Name(name),
        equal=cst.AssignEqual(whitespace_before=no_space, whitespace_after=no_space),
    )


@dataclass
class Conversion:
    """The outcome of mapping a call onto a target class: new args, or why not."""

    target: TargetClass | None = None
    args: list[cst.Arg] = field(default_factory=list)
    pinned: list[str] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def convert_arguments(call: cst.Call, source: Source, table: Table) -> Conversion:
    """Map the arguments of ``call`` (a ``source`` constructor) onto its target class."""
    out = Conversion()
    named: list[tuple[str, cst.Arg]] = []
    for index, arg in enumerate(call.args):
        if arg.star:
            out.problems.append(f"`{_code(arg)}`: cannot check which keywords it passes")
            continue
        if arg.keyword is not None:
            named.append((arg.keyword.value, arg))
        elif index < len(source.signature):
            named.append((source.signature[index], arg))
        else:
            out.problems.append(f"positional argument `{_code(arg.value)}` matches no parameter")
    target_name = source.target
    if source.switch:
        given = next((a for n, a in named if n == source.switch["keyword"]), None)
        if given is not None:
            known, value = literal(given.value)
            if not known or str(value) not in source.switch:
                out.problems.append(
                    f"`{_code(given)}` is not a literal True/False, so the target class is unknown"
                )
            else:
                target_name = source.switch[str(value)]
    target = table.classes[target_name]
    out.target = target
    kept: list[tuple[str, cst.Arg]] = []
    for name, arg in named:
        if source.switch and name == source.switch["keyword"]:
            continue
        if name in source.drop:
            allowed = source.drop[name]
            if ANY in allowed or any(_same(value, arg.value) for value in allowed):
                out.dropped.append(f"{name}={_code(arg.value)}")
                continue
            note = source.notes.get(name, f"{target.name} has no such option")
            out.problems.append(f"`{name}={_code(arg.value)}`: {note}")
        elif name in target.parameters:
            kept.append((name, arg))
        else:
            note = source.notes.get(name, f"{target.name} has no `{name}`")
            out.problems.append(f"`{name}={_code(arg.value)}`: {note}")
    given_names = {name for name, _ in kept}
    for name, text in source.defaults.items():
        if name in given_names or name not in target.parameters:
            continue
        if ast.literal_eval(text) != ast.literal_eval(target.defaults.get(name, "None")):
            out.pinned.append(f"{name}={text}")
            kept.append((name, _keyword_arg(name, cst.parse_expression(text))))
    # Positional arguments stay positional while their position means the same on the target.
    positional_ok = True
    for index, (name, arg) in enumerate(kept):
        is_positional = arg.keyword is None
        if is_positional and positional_ok and index < len(target.positional):
            if target.positional[index] == name:
                out.args.append(arg)
                continue
        positional_ok = False
        if is_positional:
            arg = _keyword_arg(name, arg.value).with_changes(comma=arg.comma)
        out.args.append(arg)
    return out
