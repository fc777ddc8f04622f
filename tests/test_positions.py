"""Positions a top-level statement at a time (``trncodemod.passes._Positions``) are LibCST's."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, PositionProvider
from test_nodes import EVERY_KIND

from trncodemod.analysis.nodes import walk
from trncodemod.commands.golden import find_cases
from trncodemod.passes import _Positions

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted(
    {case.input for case in find_cases(ROOT / "golden")} | set(ROOT.glob("examples/*.py"))
)
# What a module's first statement can sit behind, and a file without a final line break.
EDGES = "#!/usr/bin/env python\r\n# header\r\n\r\nimport a\r\nx = 1; y = (\r\n  2)\r\n"


def differences(text: str) -> list[str]:
    """The nodes whose range from ``_Positions`` is not PositionProvider's (every node but the
    module and its header and footer gets one)."""
    module = cst.parse_module(text)
    expected = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    positions = _Positions(module)
    wrong = []
    outside = {module, *module.header, *module.footer}
    for header in (*module.header, *module.footer):
        outside.update(walk(header))
    for node in walk(module):
        found = positions.range(node)
        if found is None and node not in outside:
            wrong.append(f"{type(node).__name__}: no range")
        elif found is not None and found != expected[node]:
            wrong.append(f"{type(node).__name__}: {found} != {expected[node]}")
    return wrong


@pytest.mark.parametrize(
    "text",
    [EVERY_KIND, EDGES, EDGES.rstrip("\r\n"), "\n\n  # indented comment\nif x:\n\tpass\n"],
    ids=["every kind", "header", "no final newline", "tabs"],
)
def test_cases(text: str) -> None:
    assert differences(text) == []


@pytest.mark.parametrize("source", SOURCES, ids=[p.relative_to(ROOT).as_posix() for p in SOURCES])
def test_golden_inputs_and_examples(source: Path) -> None:
    assert differences(source.read_text("utf-8")) == []
