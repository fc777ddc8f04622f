"""A source file as bytes on disk and as text for the parser, and back, losslessly.

The encoding comes from the BOM or the PEP 263 cookie (``tokenize.detect_encoding``); newlines are
never translated, so the text the passes see is exactly what is on disk, decoded.
"""

from __future__ import annotations

import codecs
import io
import tokenize
from dataclasses import dataclass


class SourceError(Exception):
    """The file cannot be read as Python source; ``line`` is 1-based when known."""

    def __init__(self, reason: str, line: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.line = line


@dataclass(frozen=True)
class Source:
    raw: bytes
    text: str
    encoding: str  # a codec name; "utf-8-sig" when the file starts with a BOM

    @property
    def newline(self) -> str:
        for newline in ("\r\n", "\n", "\r"):
            if newline in self.text:
                return newline
        return "\n"

    def encode(self, text: str) -> bytes:
        """Text back to bytes in the file's own encoding (BOM included)."""
        try:
            return text.encode(self.encoding)
        except UnicodeEncodeError as err:
            raise SourceError(
                f"rewritten text cannot be encoded as {self.encoding}: {err}"
            ) from None


# Python reads source as UTF-8 or an ASCII-compatible encoding its cookie names (PEP 263); a file
# in UTF-16 or UTF-32 does not run, and its NUL bytes are not the reason to give.
_WIDE_BOMS = (
    (codecs.BOM_UTF32_LE, "UTF-32"),
    (codecs.BOM_UTF32_BE, "UTF-32"),
    (codecs.BOM_UTF16_LE, "UTF-16"),
    (codecs.BOM_UTF16_BE, "UTF-16"),
)


def decode_source(raw: bytes) -> Source:
    for bom, name in _WIDE_BOMS:  # UTF-32 LE's BOM starts with UTF-16 LE's: it comes first
        if raw.startswith(bom):
            raise SourceError(
                f"file is {name} (byte order mark); Python source must be UTF-8 or an "
                "ASCII-compatible encoding named in a coding cookie",
                1,
            )
    if b"\x00" in raw:
        line = raw[: raw.index(b"\x00")].count(b"\n") + 1
        raise SourceError("file contains a NUL byte; not Python source", line)
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(raw).readline)
    except SyntaxError as err:  # bad or unknown coding cookie, BOM that contradicts the cookie
        if not err.msg.startswith("invalid or missing encoding declaration"):
            raise SourceError(f"bad encoding declaration: {err.msg}", err.lineno) from None
        # tokenize says this when one of the first two lines is not UTF-8 and has no cookie:
        # the decode below names the byte instead of blaming a declaration that is not there.
        encoding = "utf-8"
    try:
        codecs.lookup(encoding)
        text = raw.decode(encoding)
    except LookupError:
        raise SourceError(f"unknown encoding {encoding!r} in coding cookie") from None
    except UnicodeDecodeError as err:
        line = raw[: err.start].count(b"\n") + 1
        raise SourceError(
            f"cannot decode as {encoding}: byte {raw[err.start]:#04x} at offset {err.start}", line
        ) from None
    return Source(raw=raw, text=text, encoding=encoding)
