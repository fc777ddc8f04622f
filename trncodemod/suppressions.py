"""Suppression comments, honoured in every mode:

* ``# trncodemod: ignore[TRN101, TRN2]`` or ``# noqa: TRN101`` on a line: no finding and no rewrite
  for those codes (or code prefixes) at that line; ``# trncodemod: ignore`` alone covers every code;
* ``# trncodemod: ignore-file`` or ``# trncodemod: ignore-file[TRN1]`` on a line of its own: the
  same for the whole file.

A bare ``# noqa`` is left to the linters it was written for.
"""

from __future__ import annotations

import io
import re
import tokenize
from dataclasses import dataclass, field

_DIRECTIVE = re.compile(
    r"trncodemod:\s*(?P<kind>ignore-file|ignore)\b(?:\[(?P<codes>[^\]]*)\])?", re.IGNORECASE
)
_NOQA = re.compile(r"noqa\s*:\s*(?P<codes>[A-Z]+[0-9]+(?:[\s,]+[A-Z]+[0-9]+)*)", re.IGNORECASE)
ALL = ("",)  # the empty prefix matches every code


def _codes(text: str | None) -> tuple[str, ...]:
    if text is None:
        return ALL
    return tuple(code.strip().upper() for code in text.split(",") if code.strip()) or ALL


@dataclass(frozen=True)
class Suppressions:
    by_line: dict[int, tuple[str, ...]] = field(default_factory=dict)
    whole_file: tuple[str, ...] = ()

    def covers(self, line: int, code: str) -> bool:
        prefixes = self.whole_file + self.by_line.get(line, ())
        return any(code.startswith(prefix) for prefix in prefixes)


def _comments(text: str) -> list[tuple[int, str]]:
    try:
        return [
            (tok.start[0], tok.string)
            for tok in tokenize.generate_tokens(io.StringIO(text).readline)
            if tok.type == tokenize.COMMENT
        ]
    except (tokenize.TokenError, SyntaxError, IndentationError):
        # The parser already accepted the file; fall back to a plain scan of `#` comments.
        return [
            (number, line[line.index("#") :])
            for number, line in enumerate(text.split("\n"), 1)
            if "#" in line
        ]


def find_suppressions(text: str) -> Suppressions:
    if "trncodemod:" not in text and "noqa" not in text.lower():
        return Suppressions()
    by_line: dict[int, tuple[str, ...]] = {}
    whole: list[str] = []
    for line, comment in _comments(text):
        for match in _DIRECTIVE.finditer(comment):
            codes = _codes(match.group("codes"))
            if match.group("kind").lower() == "ignore-file":
                whole.extend(codes)
            else:
                by_line[line] = by_line.get(line, ()) + codes
        for match in _NOQA.finditer(comment):
            codes = tuple(c for c in _codes(match.group("codes")) if c.startswith("TRN"))
            if codes:
                by_line[line] = by_line.get(line, ()) + codes
    return Suppressions(by_line, tuple(whole))
