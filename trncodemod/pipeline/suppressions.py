"""Suppression comments, honoured in every mode:

* ``# trncodemod: ignore[TRN101, TRN2]`` or ``# noqa: TRN101`` on a line: no finding and no rewrite
  for those codes (or code prefixes) at that line; ``# trncodemod: ignore`` alone covers every code;
* ``# trncodemod: ignore-file`` or ``# trncodemod: ignore-file[TRN1]`` on a line of its own: the
  same for the whole file.

A bare ``# noqa`` is left to the linters it was written for.

Each ``Suppressions`` records which of its directives suppressed something (``hits``), so that the
engine can report the ones that suppress nothing (TRN801, as ruff's RUF100).
"""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Callable
from dataclasses import dataclass, field

_DIRECTIVE = re.compile(
    r"trncodemod:\s*(?P<kind>ignore-file|ignore)\b(?:\[(?P<codes>[^\]]*)\])?", re.IGNORECASE
)
_NOQA = re.compile(r"noqa\s*:\s*(?P<codes>[A-Z]+[0-9]+(?:[\s,]+[A-Z]+[0-9]+)*)", re.IGNORECASE)
ALL = ("",)  # the empty prefix matches every code
# `apply --annotate` writes these; a TODO that quotes a directive in its message is not one.
_ANNOTATION = re.compile(r"#\s*TODO\(trncodemod\):")


def _codes(text: str | None) -> tuple[str, ...]:
    if text is None:
        return ALL
    return tuple(code.strip().upper() for code in text.split(",") if code.strip()) or ALL


@dataclass(frozen=True)
class Directive:
    """One suppression comment: where it is (1-based) and the code prefixes it names."""

    line: int
    column: int
    codes: tuple[str, ...]
    whole_file: bool
    text: str  # as written, e.g. "trncodemod: ignore[TRN001]" or "noqa: TRN001"


# A hit: (index of the directive in ``Suppressions.directives``, the prefix that matched).
Hit = tuple[int, str]


@dataclass(frozen=True)
class Suppressions:
    by_line: dict[int, tuple[str, ...]] = field(default_factory=dict)
    whole_file: tuple[str, ...] = ()
    directives: tuple[Directive, ...] = ()
    # Filled by `covers`: which directive and prefix suppressed something.
    hits: set[Hit] = field(default_factory=set, compare=False, repr=False)

    def covers(self, line: int, code: str) -> bool:
        prefixes = self.whole_file + self.by_line.get(line, ())
        if not any(code.startswith(prefix) for prefix in prefixes):
            return False
        for index, directive in enumerate(self.directives):
            if directive.whole_file or directive.line == line:
                self.hits.update(
                    (index, prefix) for prefix in directive.codes if code.startswith(prefix)
                )
        return True

    def hits_in(self, original: Suppressions, to_original: Callable[[int], int]) -> set[Hit]:
        """This object's hits as hits of ``original``, the suppressions of the file as it was read.

        Passes may have moved lines since; comments keep their order, so directives are matched
        by position when both texts hold the same directives, else by mapped line and codes."""
        if [(d.codes, d.whole_file) for d in self.directives] == [
            (d.codes, d.whole_file) for d in original.directives
        ]:
            return set(self.hits)
        mapped: set[Hit] = set()
        for index, prefix in self.hits:
            directive = self.directives[index]
            line = None if directive.whole_file else to_original(directive.line)
            for candidate, before in enumerate(original.directives):
                if before.codes == directive.codes and (
                    before.whole_file if line is None else before.line == line
                ):
                    mapped.add((candidate, prefix))
                    break
        return mapped


def _comments(text: str) -> list[tuple[int, int, str]]:
    try:
        return [
            (tok.start[0], tok.start[1], tok.string)
            for tok in tokenize.generate_tokens(io.StringIO(text).readline)
            if tok.type == tokenize.COMMENT
        ]
    except (tokenize.TokenError, SyntaxError, IndentationError):
        # The parser already accepted the file; fall back to a plain scan of `#` comments.
        return [
            (number, line.index("#"), line[line.index("#") :])
            for number, line in enumerate(text.split("\n"), 1)
            if "#" in line
        ]


def find_suppressions(text: str) -> Suppressions:
    if "trncodemod:" not in text and "noqa" not in text.lower():
        return Suppressions()
    by_line: dict[int, tuple[str, ...]] = {}
    whole: list[str] = []
    directives: list[Directive] = []
    for line, start, comment in _comments(text):
        if _ANNOTATION.match(comment):
            continue
        for match in _DIRECTIVE.finditer(comment):
            codes = _codes(match.group("codes"))
            column = start + match.start() + 1
            if match.group("kind").lower() == "ignore-file":
                whole.extend(codes)
                directives.append(Directive(line, column, codes, True, match.group(0)))
            else:
                by_line[line] = by_line.get(line, ()) + codes
                directives.append(Directive(line, column, codes, False, match.group(0)))
        for match in _NOQA.finditer(comment):
            codes = tuple(c for c in _codes(match.group("codes")) if c.startswith("TRN"))
            if codes:
                by_line[line] = by_line.get(line, ()) + codes
                column = start + match.start() + 1
                directives.append(Directive(line, column, codes, False, match.group(0)))
    return Suppressions(by_line, tuple(whole), tuple(directives))
