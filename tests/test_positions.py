"""Positions a top-level statement at a time (``trncodemod.passes._Positions``) are LibCST's."""

from __future__ import annotations

import ast
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
DECORATED = (
    "# lead\n\n@a\n\n# between\n@b(\n  1)\nasync def f():\n    pass\n\n\nclass C: pass\nx = 1;\n"
)


def differences(text: str, with_ast: bool, deepest_first: bool = False) -> list[str]:
    """The nodes whose range from ``_Positions`` is not PositionProvider's (every node but the
    module and its header and footer gets one); statements' first lines from the ast or from
    code generation. Asked from the last node up (``deepest_first``), each range comes from the
    code of the innermost statement of a block around the node, not of its top-level one."""
    module = cst.parse_module(text)
    expected = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    positions = _Positions(module, ast.parse(text) if with_ast else None)
    wrong = []
    outside = {module, *module.header, *module.footer}
    for header in (*module.header, *module.footer):
        outside.update(walk(header))
    nodes = list(walk(module))
    for node in reversed(nodes) if deepest_first else nodes:
        found = positions.range(node)
        if found is None and node not in outside:
            wrong.append(f"{type(node).__name__}: no range")
        elif found is not None and found != expected[node]:
            wrong.append(f"{type(node).__name__}: {found} != {expected[node]}")
    return wrong


@pytest.mark.parametrize(
    "text",
    [
        EVERY_KIND,
        EDGES,
        EDGES.rstrip("\r\n"),
        "\n\n  # indented comment\nif x:\n\tpass\n",
        DECORATED,
        DECORATED.rstrip(),
    ],
    ids=["every kind", "header", "no final newline", "tabs", "decorated", "decorated, no newline"],
)
@pytest.mark.parametrize("with_ast", [True, False], ids=["ast", "codegen"])
def test_cases(text: str, with_ast: bool) -> None:
    assert differences(text, with_ast) == []
    assert differences(text, with_ast, deepest_first=True) == []


NESTED = """class C(Base):
    # a comment
    x = 1; y = 2

    @dec
    # between
    @dec2(
        1)
    async def m(self, a):
      if a:  # two spaces
          pass
      elif b:
          # lead
          x = (1,
               2)
      elif c: y = 3
      else:
          for i in a:
              async with f() as g:
                  await g
          else:
              while True:
                  break
      try:
          pass
      except E as e:

          raise
      except (F, G):
          z = 1
      else:
          w = 2
      finally:
          v = 3
class D:
	def tabbed(self):
		return 1
def f(): return 1
if x: y = 1
match p:
    case 1:
        q = 2
"""


@pytest.mark.parametrize("text", [NESTED, NESTED.replace("\n", "\r\n"), EVERY_KIND])
def test_nested_blocks_asked_deepest_first(text: str) -> None:
    assert differences(text, with_ast=True, deepest_first=True) == []


@pytest.mark.parametrize("source", SOURCES, ids=[p.relative_to(ROOT).as_posix() for p in SOURCES])
def test_golden_inputs_and_examples(source: Path) -> None:
    text = source.read_text("utf-8")
    assert differences(text, with_ast=True) == []
    assert differences(text, with_ast=True, deepest_first=True) == []
    assert differences(text, with_ast=False) == []
