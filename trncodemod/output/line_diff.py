"""The one line matcher every diff of the tool is built, checked and mapped with.

``difflib.SequenceMatcher(autojunk=False)`` is exact about repeated lines (blank ones above all)
but quadratic in them: its longest-match search visits every pair of equal lines, so a script
with 20,000 identical comment lines, or a notebook with 20,000 identical output lines, took
minutes. ``LineMatcher`` gives difflib's own answer wherever that search is cheap (every
ordinary file: the same hunks as before), and otherwise diffs only what changed: the common
first and last lines are matched as they are, the rest is split at the lines that occur once on
each side (patience diff's anchors, matched in order by a longest increasing subsequence), and
each piece is matched again the same way. A piece with no such line and still too costly is
left to difflib with ``autojunk`` on, which stops treating its most frequent lines as places a
match may start. ``benchmarks/hostile_patch.py`` times both shapes.
"""

from __future__ import annotations

import bisect
import difflib
from collections import Counter
from collections.abc import Hashable, Sequence

# Pairs of equal lines difflib's search may visit before the matcher splits the file instead:
# about a tenth of a second, and a file of 3,500 lines with 15% blank ones stays below it.
MAX_PAIRS = 250_000
_MAX_DEPTH = 64  # pieces split inside pieces; past this, difflib with autojunk


def _pairs(a: Sequence[Hashable], b: Sequence[Hashable]) -> int:
    """How many (i, j) with a[i] == b[j]: the work of difflib's longest-match search."""
    counts = Counter(b)
    return sum(counts[line] for line in a)


def _unique_anchors(a: Sequence[Hashable], b: Sequence[Hashable]) -> list[tuple[int, int]]:
    """Pairs (i, j) of lines that occur once in ``a`` and once in ``b``: the longest run of them
    in the same order on both sides (patience sorting, n log n)."""
    once_a = {line: i for line, i in _once(a)}
    pairs = sorted((once_a[line], j) for line, j in _once(b) if line in once_a)
    tail_js: list[int] = []  # tail_js[k]: the smallest j that ends an increasing run of k + 1
    tails: list[int] = []  # ... and the index in ``pairs`` of that pair
    previous: list[int] = []
    for index, (_, j) in enumerate(pairs):
        k = bisect.bisect_left(tail_js, j)
        previous.append(tails[k - 1] if k else -1)
        if k == len(tails):
            tail_js.append(j)
            tails.append(index)
        else:
            tail_js[k], tails[k] = j, index
    run: list[tuple[int, int]] = []
    at = tails[-1] if tails else -1
    while at >= 0:
        run.append(pairs[at])
        at = previous[at]
    return run[::-1]


def _once(lines: Sequence[Hashable]) -> list[tuple[Hashable, int]]:
    counts = Counter(lines)
    return [(line, i) for i, line in enumerate(lines) if counts[line] == 1]


class _Blocks:
    """Matching blocks (i, j, size) in order, a block that continues the last one merged into it."""

    def __init__(self) -> None:
        self.blocks: list[tuple[int, int, int]] = []

    def add(self, i: int, j: int, size: int) -> None:
        if not size:
            return
        if self.blocks:
            last_i, last_j, last_size = self.blocks[-1]
            if last_i + last_size == i and last_j + last_size == j:
                self.blocks[-1] = (last_i, last_j, last_size + size)
                return
        self.blocks.append((i, j, size))


def _match(
    a: Sequence[Hashable], b: Sequence[Hashable], ai: int, bj: int, out: _Blocks, depth: int
) -> None:
    """Add to ``out`` the matching blocks of ``a`` and ``b``, pieces of the whole files that
    start at ``ai`` and ``bj``."""
    if _pairs(a, b) <= MAX_PAIRS:
        _add_difflib_blocks(a, b, ai, bj, out, autojunk=False)
        return
    head = 0
    while head < len(a) and head < len(b) and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < len(a) - head and tail < len(b) - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    out.add(ai, bj, head)
    a_middle, b_middle = a[head : len(a) - tail], b[head : len(b) - tail]
    ai, bj = ai + head, bj + head
    costly = _pairs(a_middle, b_middle) > MAX_PAIRS
    anchors = _unique_anchors(a_middle, b_middle) if costly and depth < _MAX_DEPTH else []
    if not anchors:
        _add_difflib_blocks(a_middle, b_middle, ai, bj, out, autojunk=costly)
    else:
        i0 = j0 = 0
        for i, j in anchors:
            _match(a_middle[i0:i], b_middle[j0:j], ai + i0, bj + j0, out, depth + 1)
            out.add(ai + i, bj + j, 1)
            i0, j0 = i + 1, j + 1
        _match(a_middle[i0:], b_middle[j0:], ai + i0, bj + j0, out, depth + 1)
    out.add(ai + len(a_middle), bj + len(b_middle), tail)


def _add_difflib_blocks(
    a: Sequence[Hashable], b: Sequence[Hashable], ai: int, bj: int, out: _Blocks, autojunk: bool
) -> None:
    for i, j, size in difflib.SequenceMatcher(None, a, b, autojunk).get_matching_blocks():
        out.add(ai + i, bj + j, size)


class LineMatcher(difflib.SequenceMatcher):
    """``SequenceMatcher(None, old, new, autojunk=False)``, linear on repeated lines: every
    method (``get_opcodes``, ``get_grouped_opcodes``) reads the blocks found as above."""

    def __init__(self, old: Sequence[Hashable], new: Sequence[Hashable]) -> None:
        super().__init__(None, old, new, autojunk=False)

    def get_matching_blocks(self) -> list[difflib.Match]:
        if self.matching_blocks is None:
            out = _Blocks()
            _match(self.a, self.b, 0, 0, out, 0)
            end = difflib.Match(len(self.a), len(self.b), 0)
            self.matching_blocks = [difflib.Match(*block) for block in out.blocks] + [end]
        return self.matching_blocks
