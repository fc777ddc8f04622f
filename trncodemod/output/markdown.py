"""Text the tool did not write (file names, code, a spec's values, a hand-edited result), put in
Markdown so that it stays text: a backtick in a file name must not close a code span and turn
what follows into a live ``![](url)`` that a viewer fetches; ``<img>`` from a result must not
reach a page as HTML.
"""

from __future__ import annotations

import re

_BACKTICKS = re.compile(r"`+")
# CommonMark lets a backslash escape any ASCII punctuation; these are the ones that start
# markup inline (emphasis, links, images, code, HTML, tables, strikethrough, entities).
_INLINE = re.compile(r"([\\`*_\[\]()<>!|&~])")


def _longest_run(text: str) -> int:
    return max((len(run) for run in _BACKTICKS.findall(text)), default=0)


def code_span(text: str) -> str:
    """``text`` as one inline code span, whatever backticks it holds: the span's fence is longer
    than any run inside it (padded with a space where the text starts or ends with one)."""
    text = " ".join(str(text).splitlines())
    ticks = "`" * (_longest_run(text) + 1)
    pad = " " if text.startswith(("`", " ")) or text.endswith(("`", " ")) else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


def fence(text: str, info: str = "") -> str:
    """``text`` as a fenced code block no line of it can close."""
    ticks = "`" * max(3, _longest_run(text) + 1)
    return f"{ticks}{info}\n{text.rstrip()}\n{ticks}"


def plain(text: object) -> str:
    """``text`` as inline Markdown text: every markup character escaped, on one line."""
    return _INLINE.sub(r"\\\1", " ".join(str(text).splitlines()))
