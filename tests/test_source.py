"""Reading source: encodings, BOMs and newlines survive untouched; bad bytes are named."""

import pytest

from trncodemod.pipeline.source import SourceError, decode_source


def test_latin1_file_with_coding_cookie_round_trips_byte_for_byte() -> None:
    raw = "# -*- coding: latin-1 -*-\nname = 'café'\n".encode("latin-1")
    source = decode_source(raw)
    assert source.encoding == "iso-8859-1"
    assert "café" in source.text
    assert source.encode(source.text) == raw


def test_utf8_bom_is_kept_on_the_way_back() -> None:
    raw = b"\xef\xbb\xbfx = 1\r\n"
    source = decode_source(raw)
    assert not source.text.startswith("\ufeff")
    assert source.encode(source.text) == raw
    assert source.newline == "\r\n"


def test_nul_byte_is_refused_with_its_line() -> None:
    with pytest.raises(SourceError) as info:
        decode_source(b"x = 1\ny = 2\x00\n")
    assert info.value.line == 2
    assert "NUL" in info.value.reason


def test_undecodable_utf8_names_the_offset_and_line() -> None:
    with pytest.raises(SourceError) as info:
        decode_source(b"x = 1\ns = '\xff'\n")
    assert info.value.line == 2
    assert "0xff" in info.value.reason


def test_unknown_coding_cookie_is_a_clear_error() -> None:
    with pytest.raises(SourceError) as info:
        decode_source(b"# coding: klingon\nx = 1\n")
    assert "encoding" in info.value.reason


def test_text_that_cannot_be_encoded_back_is_an_error_not_a_lossy_write() -> None:
    source = decode_source("# coding: latin-1\nx = 1\n".encode("latin-1"))
    with pytest.raises(SourceError):
        source.encode("x = '→'\n")


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-be", "utf-32"])
def test_a_utf16_or_utf32_file_is_refused_for_its_encoding_not_a_nul_byte(codec: str) -> None:
    bom = {"utf-16-be": b"\xfe\xff"}.get(codec, b"")
    with pytest.raises(SourceError) as info:
        decode_source(bom + "import torch\n".encode(codec))
    assert info.value.reason.startswith(f"file is {codec[:6].upper()} (byte order mark)")
