"""``module_code`` gives ``Module.code`` for every version of a module the engine generates, the
top-level statements a rewrite kept reusing the text generated for them before."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest

from trncodemod.commands.golden import find_cases
from trncodemod.rewriting import codegen
from trncodemod.rewriting.codegen import module_code

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted(
    {case.input for case in find_cases(ROOT / "golden")} | set(ROOT.glob("examples/*.py"))
)


@pytest.mark.parametrize("source", SOURCES, ids=[p.relative_to(ROOT).as_posix() for p in SOURCES])
def test_every_version_is_its_module_code(source: Path) -> None:
    text = source.read_text("utf-8")
    tree = cst.parse_module(text)
    assert module_code(tree) == text
    body = list(tree.body)
    versions = [
        # A statement rewritten, the others kept: the kept ones reuse their text.
        tree.with_changes(body=[*body[:-1], cst.SimpleStatementLine([cst.Pass()])]),
        # Kept statements in another order, one removed.
        tree.with_changes(body=[*body[1:][::-1]]),
        # Another newline and indent: no kept text can be reused.
        tree.with_changes(default_newline="\r\n", default_indent="\t"),
        tree.with_changes(has_trailing_newline=False),
        tree.with_changes(body=()),
    ]
    for version in versions:
        assert module_code(version) == version.code


def test_kept_statements_are_not_generated_again(monkeypatch: pytest.MonkeyPatch) -> None:
    tree = cst.parse_module("import torch\n\nx = 1\n\n\ndef f():\n    return x\n")
    module_code(tree)
    generated: list[cst.CSTNode] = []
    original = cst.Module.code_for_node

    def code_for_node(self: cst.Module, node: cst.CSTNode) -> str:
        generated.append(node)
        return original(self, node)

    monkeypatch.setattr(cst.Module, "code_for_node", code_for_node)
    new = cst.SimpleStatementLine([cst.Expr(cst.Name("y"))])
    version = tree.with_changes(body=[tree.body[0], new, tree.body[2]])
    assert module_code(version) == "import torch\ny\n\n\ndef f():\n    return x\n"
    assert generated == [new]
    assert codegen._last is not None and set(codegen._last[1]) == set(version.body)
