"""Which rule codes a run selects (``--select TRN1 --ignore TRN105``), without importing the
passes: the codes are listed in ``data/rule_codes.txt``, which a test keeps equal to the rule
catalogue (``trncodemod.rules``). A run answered wholly from the cache never loads LibCST."""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from importlib import resources


class SelectionError(ValueError):
    pass


@cache
def rule_codes() -> tuple[str, ...]:
    text = resources.files("trncodemod").joinpath("data/rule_codes.txt").read_text("utf-8")
    return tuple(line.strip() for line in text.splitlines() if line.strip())


def _expand(prefixes: Iterable[str], codes: Iterable[str], option: str) -> set[str]:
    chosen: set[str] = set()
    for prefix in prefixes:
        prefix = prefix.strip().upper()
        if prefix == "ALL":
            chosen.update(codes)
            continue
        matched = {code for code in codes if code.startswith(prefix)}
        if not matched:
            raise SelectionError(f"{option}: no rule code starts with {prefix!r}")
        chosen |= matched
    return chosen


def enabled_codes(select: Iterable[str], ignore: Iterable[str]) -> frozenset[str]:
    """Prefix selection as in ruff: ``--select TRN1 --ignore TRN105``."""
    codes = rule_codes()
    return frozenset(_expand(select, codes, "select") - _expand(ignore, codes, "ignore"))
