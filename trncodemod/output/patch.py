"""Unified diffs that ``git apply`` accepts, built from the bytes on disk, and checked by reading
them back with unidiff.

The hunks come from the same line matcher the check uses, ``line_diff.LineMatcher`` (difflib's,
without autojunk, linear on repeated lines): ``difflib.unified_diff`` turns autojunk on, which in
a file over 200 lines treats frequent lines (blank ones) as junk and can describe the change with
other counts than the check expects.

Lines are split on ``\\n`` only, as git does: ``str.splitlines`` also splits on form feeds and other
separators that are not line ends for git or for Python's tokenizer, and a patch built that way
does not apply. The diff is bytes so that a latin-1 or BOM-prefixed file keeps its exact bytes in
context lines.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from unidiff import PatchedFile, PatchSet

from trncodemod.output.line_diff import LineMatcher

NO_NEWLINE = b"\\ No newline at end of file\n"


class PatchError(Exception):
    """A patch that does not describe the change it was built from, or does not fit a file."""


def split_lines(data: bytes) -> list[bytes]:
    """Lines with their ``\\n`` kept; the last one may lack it."""
    lines = data.split(b"\n")
    last = lines.pop()
    result = [line + b"\n" for line in lines]
    if last:
        result.append(last)
    return result


def _range(start: int, stop: int) -> bytes:
    # As difflib's unified format: 1-based start, length omitted when 1, start-1 when empty.
    length = stop - start
    first = start + 1
    if length == 1:
        return b"%d" % first
    if length == 0:
        first -= 1
    return b"%d,%d" % (first, length)


def _line(prefix: bytes, line: bytes) -> bytes:
    return prefix + line if line.endswith(b"\n") else prefix + line + b"\n" + NO_NEWLINE


# git's C-style quoting of a path (quote.c, quote_c_style): a name with a control character, a
# double quote or a backslash is written in double quotes, with these escapes and octal for the
# other control characters; `git apply` reads it back the same way.
_ESCAPES = {7: b"\\a", 8: b"\\b", 9: b"\\t", 10: b"\\n", 11: b"\\v", 12: b"\\f", 13: b"\\r"}
_ESCAPES |= {ord('"'): b'\\"', ord("\\"): b"\\\\"}
_UNESCAPES = {value[1:]: bytes([key]) for key, value in _ESCAPES.items()}


def quote_path(name: bytes) -> bytes:
    """``name`` as git writes it in a patch header: as it is, or quoted when it must be."""
    if not any(byte < 0x20 or byte == 0x7F or byte in b'"\\' for byte in name):
        return name
    quoted = b"".join(
        _ESCAPES.get(byte) or (b"\\%03o" % byte if byte < 0x20 or byte == 0x7F else bytes([byte]))
        for byte in name
    )
    return b'"' + quoted + b'"'


def unquote_path(name: bytes) -> bytes:
    """A path from a patch header, quoted by git (``"a/foo\\nbar.py"``) or not."""
    if not (len(name) >= 2 and name.startswith(b'"') and name.endswith(b'"')):
        return name
    body, result, at = name[1:-1], bytearray(), 0
    while at < len(body):
        if body[at : at + 1] != b"\\":
            result += body[at : at + 1]
            at += 1
        elif body[at + 1 : at + 2] in _UNESCAPES:
            result += _UNESCAPES[body[at + 1 : at + 2]]
            at += 2
        elif body[at + 1 : at + 4].isdigit():
            result.append(int(body[at + 1 : at + 4], 8) & 0xFF)
            at += 4
        else:
            raise PatchError(f"bad escape in the quoted path {name!r}")
    return bytes(result)


def build_file_diff(path: str, old: bytes, new: bytes, context: int = 3) -> bytes:
    """The unified diff of one file, with ``a/`` and ``b/`` before the path as given (an absolute
    path keeps its ``/``: ``a//srv/train.py``), quoted as git quotes it where it must be; empty
    when nothing changed."""
    if old == new:
        return b""
    # The path's own bytes (a name that is not UTF-8 came in as surrogates); a backslash is a
    # character of a POSIX name, quoted as git quotes it, never a separator.
    encoded_path = path.encode("utf-8", "surrogateescape")
    old_lines, new_lines = split_lines(old), split_lines(new)
    chunks = [
        b"--- " + quote_path(b"a/" + encoded_path) + b"\n",
        b"+++ " + quote_path(b"b/" + encoded_path) + b"\n",
    ]
    for group in LineMatcher(old_lines, new_lines).get_grouped_opcodes(context):
        first, last = group[0], group[-1]
        chunks.append(
            b"@@ -" + _range(first[1], last[2]) + b" +" + _range(first[3], last[4]) + b" @@\n"
        )
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                chunks.extend(_line(b" ", line) for line in old_lines[i1:i2])
                continue
            chunks.extend(_line(b"-", line) for line in old_lines[i1:i2])
            chunks.extend(_line(b"+", line) for line in new_lines[j1:j2])
    diff = b"".join(chunks)
    check_file_diff(diff, old, new)
    return diff


def _as_text(data: bytes) -> str:
    # latin-1 maps every byte to one character, so counts and contents survive the round trip.
    return data.decode("latin-1")


def apply_patched_file(old_lines: Sequence[str], patched: PatchedFile) -> list[str]:
    """Apply one file's hunks to its lines; every context and removed line must match exactly."""
    result: list[str] = []
    cursor = 0
    for hunk in patched:
        start = max(hunk.source_start - 1, 0)
        if start < cursor or start > len(old_lines):
            raise PatchError(f"hunk at line {hunk.source_start} is out of order or past the end")
        result.extend(old_lines[cursor:start])
        cursor = start
        lines = list(hunk)
        for index, line in enumerate(lines):
            if line.line_type == "\\":
                continue
            value = line.value
            if index + 1 < len(lines) and lines[index + 1].line_type == "\\":
                value = value[:-1] if value.endswith("\n") else value
            if line.is_context or line.is_removed:
                if cursor >= len(old_lines) or old_lines[cursor] != value:
                    raise PatchError(
                        f"hunk at line {hunk.source_start} does not match the file at line "
                        f"{cursor + 1}"
                    )
                cursor += 1
                if line.is_context:
                    result.append(value)
            elif line.is_added:
                result.append(value)
    result.extend(old_lines[cursor:])
    return result


def check_file_diff(diff: bytes, old: bytes, new: bytes) -> None:
    """Read ``diff`` back with unidiff: counts and contents must reproduce ``new`` from ``old``."""
    patch = PatchSet(_as_text(diff))
    if len(patch) != 1:
        raise PatchError(f"expected one file in the patch, found {len(patch)}")
    (patched,) = patch
    old_lines = split_lines(old)
    new_lines = split_lines(new)
    matcher = LineMatcher(old_lines, new_lines)
    removed = sum(i2 - i1 for tag, i1, i2, _, _ in matcher.get_opcodes() if tag != "equal")
    added = sum(j2 - j1 for tag, _, _, j1, j2 in matcher.get_opcodes() if tag != "equal")
    if (patched.added, patched.removed) != (added, removed):
        raise PatchError(
            f"patch for {patched.path} counts +{patched.added}/-{patched.removed}, "
            f"the change is +{added}/-{removed}"
        )
    rebuilt = apply_patched_file([_as_text(line) for line in old_lines], patched)
    if "".join(rebuilt) != _as_text(new):
        raise PatchError(f"patch for {patched.path} does not reproduce the rewritten file")


def join_diffs(diffs: Iterable[bytes]) -> bytes:
    return b"".join(diffs)
