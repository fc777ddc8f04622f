"""IPython syntax in a notebook cell, masked as Python before parsing and restored byte for byte.

IPython rewrites a *logical* line before Python sees it when it starts with ``!`` (shell),
``%`` (line magic) or ``?``/``??`` (help), assigns from one (``files = !ls``,
``t = %timeit -o f()``), ends in ``?`` outside strings and comments (``obj?``), or names a line
magic without its ``%`` and is not Python (``pip install x``: automagic). None of these
is valid Python, so masking one never hides code a pass should see. A line inside brackets, a
string or after a backslash is not a logical line's start (``x = (a\\n % b)`` is Python), which
is why the cell is scanned rather than matched line by line. A cell that starts with a cell
magic (``%%bash``) is another language, except the magics whose body is Python (``%%time``,
``%%timeit``, ``%%capture``, ``%%prun``): their first line alone is masked. A cell whose first
line is indented is dedented as IPython does (its ``leading_indent`` transform) and indented
back afterwards.

Each masked line becomes ``pass`` (a statement, valid even as the only line of a block) with
a comment holding its index; after the passes ran, the line is put back as it was.
"""

from __future__ import annotations

import ast
import difflib
import re
from dataclasses import dataclass

_PYTHON_CELL_MAGICS = frozenset({"time", "timeit", "capture", "prun"})
_STARTS = ("!", "%", "?")
# `name = !cmd`, `a, b = %magic`, `self.x[0] = !cmd`: IPython's SystemAssign and MagicAssign.
_ASSIGN_FROM = re.compile(r"[ \t]*[\w.\[\], \t()*]+=[ \t]*[!%]")
# Line magics IPython runs without `%` (automagic, on by default), and its shell aliases.
_AUTOMAGIC_WORDS = (
    "pip conda mamba cd pwd env set_env load_ext reload_ext unload_ext matplotlib time timeit "
    "run pylab config sx system bookmark dhist pushd popd autoreload aimport tensorboard "
    "capture prun who whos xmode precision reset history store ls cat mkdir rmdir rm cp mv "
    "less more man clear"
)
_AUTOMAGICS = frozenset(_AUTOMAGIC_WORDS.split())
_FIRST_WORD = re.compile(r"[ \t]*([A-Za-z_]\w*)\b(?![ \t]*[=(\[.,:;+*/%<>&|^-])")
_MASK = "pass  # trncodemod-ipython {}"
_MASKED = re.compile(r"^([ \t]*)pass  # trncodemod-ipython (\d+)$")
_CONTINUED = "# trncodemod-ipython {}"
_MASKED_CONTINUED = re.compile(r"^([ \t]*)# trncodemod-ipython (\d+)$")


@dataclass(frozen=True)
class Masked:
    """A cell as Python (``text``), or None for a cell in another language; what to restore."""

    text: str | None
    kept: tuple[str, ...] = ()
    indent: str = ""  # the cell's common leading indentation, taken off before parsing


def cell_magic(source: str) -> str | None:
    """The name of the cell magic a cell starts with (``bash`` for ``%%bash``), else None."""
    first = source.lstrip("\n")
    if not first.startswith("%%"):
        return None
    return re.match(r"%%(\S*)", first).group(1)


def mask(source: str) -> Masked:
    magic = cell_magic(source)
    if magic is not None and magic not in _PYTHON_CELL_MAGICS:
        return Masked(None)
    lines = source.split("\n")
    indent = re.match(r"[ \t]*", lines[0]).group(0) if lines[0].strip() else ""
    if indent:
        lines = [line[len(indent) :] if line.startswith(indent) else line for line in lines]
    kept: list[str] = []

    def hide(index: int, first: bool) -> None:
        line = lines[index]
        own = line[: len(line) - len(line.lstrip(" \t"))]
        lines[index] = own + (_MASK if first else _CONTINUED).format(len(kept))
        kept.append(line)

    scanner = _Scanner()
    index = 0
    if magic is not None:  # a Python body: only the `%%time` line is IPython's
        index = next(i for i, line in enumerate(lines) if line.strip())
        hide(index, True)
        index += 1
    while index < len(lines):
        start = index
        stripped = lines[index].lstrip(" \t")
        if stripped.startswith(_STARTS) or _ASSIGN_FROM.match(lines[index]):
            # A shell or magic line: its text is not Python (quotes need not pair), up to the
            # end of the line, or of the last line a trailing backslash continues it onto.
            while lines[index].endswith("\\") and index + 1 < len(lines):
                index += 1
            for at in range(start, index + 1):
                hide(at, at == start)
            index += 1
            continue
        code = scanner.logical_line(lines, index)
        end = scanner.end
        if code.rstrip().endswith("?") or _automagic(lines[start : end + 1]):
            for at in range(start, end + 1):
                hide(at, at == start)
        index = end + 1
    return Masked("\n".join(lines), tuple(kept), indent)


def _automagic(lines: list[str]) -> bool:
    """A line magic written without its ``%`` (``pip install x``, ``cd data``), as IPython's
    automagic runs it: its first word names a magic and the line is not Python (``time = 5``
    and a bare ``cd`` are)."""
    match = _FIRST_WORD.match(lines[0])
    if match is None or match.group(1) not in _AUTOMAGICS:
        return False
    try:
        ast.parse("\n".join(line.strip() for line in lines))
    except SyntaxError:
        return True
    return False


def unmask(text: str, masked: Masked, before: str) -> str:
    """``text`` (what the passes made of ``masked.text``) with every IPython line put back, and
    the cell's indentation: lines the passes kept get theirs back as ``before`` had them."""
    lines = text.split("\n")
    for index, line in enumerate(lines):
        match = _MASKED.match(line) or _MASKED_CONTINUED.match(line)
        if match and int(match.group(2)) < len(masked.kept):
            original = masked.kept[int(match.group(2))]
            own = original[: len(original) - len(original.lstrip(" \t"))]
            # Moved into another block by a pass: the line takes the block's indentation.
            lines[index] = original if own == match.group(1) else match.group(1) + original.lstrip()
    if not masked.indent:
        return "\n".join(lines)
    old = before.split("\n")
    dedented = [
        line[len(masked.indent) :] if line.startswith(masked.indent) else line for line in old
    ]
    out: list[str] = []
    matcher = difflib.SequenceMatcher(None, dedented, lines, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            out.extend(old[i1:i2])
        else:
            out.extend(masked.indent + line if line.strip() else line for line in lines[j1:j2])
    return "\n".join(out)


class _Scanner:
    """Python's logical lines, read with just enough of the tokenizer's rules: brackets, strings
    (triple-quoted ones span lines), comments and backslash continuations."""

    def __init__(self) -> None:
        self.end = 0

    def logical_line(self, lines: list[str], index: int) -> str:
        """The code of the logical line starting at ``lines[index]`` with strings and comments
        left out; ``self.end`` is the index of its last physical line."""
        depth = 0
        quote = ""
        code: list[str] = []
        while True:
            line = lines[index]
            at = 0
            continued = False
            while at < len(line):
                char = line[at]
                if quote:
                    if char == "\\":
                        at += 2
                        continue
                    if line.startswith(quote, at):
                        at += len(quote)
                        quote = ""
                        code.append("S")
                        continue
                    at += 1
                    continue
                if char == "#":
                    break
                if char in "'\"":
                    quote = char * 3 if line.startswith(char * 3, at) else char
                    at += len(quote)
                    continue
                if char in "([{":
                    depth += 1
                elif char in ")]}":
                    depth = max(depth - 1, 0)
                elif char == "\\" and at == len(line) - 1:
                    continued = True
                    break
                code.append(char)
                at += 1
            if len(quote) == 1:  # an unterminated one-line string: the tokenizer's error, not ours
                quote = ""
            if index + 1 >= len(lines) or not (depth or quote or continued):
                self.end = index
                return "".join(code)
            code.append(" ")
            index += 1
