"""Suppression comments in every mode, and TRN801: the comments that suppress nothing."""

from pathlib import Path

import pytest
from click.testing import CliRunner

from trncodemod.cli import main
from trncodemod.config import Settings
from trncodemod.pipeline.migrate import migrate_text
from trncodemod.pipeline.suppressions import find_suppressions

SUPPRESSED = """import torch

a = torch.nn.Linear(2, 2).cuda()  # trncodemod: ignore[TRN001]
b = torch.nn.Linear(2, 2).cuda()
"""


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "train.py").write_text(SUPPRESSED)
    return tmp_path


@pytest.mark.parametrize(
    "args", [("apply",), ("apply", "--dry-run"), ("apply", "--annotate"), ("check",)]
)
def test_a_suppressed_line_is_neither_reported_nor_rewritten_in_any_mode(
    tree: Path, args: tuple[str, ...]
) -> None:
    _, out, err = run(*args, ".")
    assert "train.py:3:" not in out + err
    assert "train.py:4:5: TRN001" in out + err, "the line without the comment is handled"
    if args == ("apply", "--dry-run"):
        assert "-a = torch.nn.Linear(2, 2).cuda()" not in out
        assert "+b = torch.nn.Linear(2, 2).to(torch_xla.device())" in out
    after = (tree / "train.py").read_text()
    assert "a = torch.nn.Linear(2, 2).cuda()  # trncodemod: ignore[TRN001]" in after
    if args == ("apply",):
        assert "b = torch.nn.Linear(2, 2).to(torch_xla.device())" in after


def test_ignore_file_covers_every_line_for_its_codes(tree: Path) -> None:
    (tree / "train.py").write_text("# trncodemod: ignore-file[TRN0]\n" + SUPPRESSED)
    no_findings = "xla-2.9: No findings; no verdict: no training step reached from 1 entry point.\n"
    assert run("check", ".")[:2] == (0, no_findings)


def _findings(text: str, select: tuple[str, ...] = ("ALL",), target: str = "xla-2.9") -> list[str]:
    migration = migrate_text(text, "t.py", Settings(select=select, target=target))
    return [f"{f.line}:{f.column}: {f.code} {f.message}" for f in migration.findings]


def test_a_suppression_that_suppresses_nothing_is_reported() -> None:
    text = "import torch\n\nx = torch.ones(2)  # noqa: TRN001\n"
    assert _findings(text) == [
        "3:22: TRN801 `noqa: TRN001` suppresses nothing for TRN001 on this line; remove the comment"
    ]


def test_a_used_suppression_is_not_reported() -> None:
    assert not [f for f in _findings(SUPPRESSED) if "TRN801" in f]


def test_one_unused_code_in_a_list_is_named() -> None:
    text = (
        "import torch\n\nm = torch.nn.Linear(2, 2).cuda()  # trncodemod: ignore[TRN001, TRN202]\n"
    )
    assert _findings(text) == [
        "3:37: TRN801 `trncodemod: ignore[TRN001, TRN202]` suppresses nothing for TRN202 on this "
        "line; remove TRN202 from it"
    ]


def test_a_code_that_names_no_rule_is_reported() -> None:
    text = "x = 1  # trncodemod: ignore[TRN999]\n"
    assert _findings(text) == [
        "1:10: TRN801 `trncodemod: ignore[TRN999]` suppresses nothing for TRN999 (no such rule) "
        "on this line; remove the comment"
    ]


def test_an_unused_bare_ignore_and_an_unused_ignore_file_are_reported() -> None:
    text = (
        "# trncodemod: ignore-file[TRN2]\nimport torch\nx = torch.ones(2)  # trncodemod: ignore\n"
    )
    assert [f.split(" suppresses")[0] for f in _findings(text)] == [
        "1:3: TRN801 `trncodemod: ignore-file[TRN2]`",
        "3:22: TRN801 `trncodemod: ignore`",
    ]


def test_a_code_whose_rule_did_not_run_is_not_judged() -> None:
    text = "import torch\n\nx = torch.ones(2)  # noqa: TRN001\n"
    assert _findings(text, select=("TRN2", "TRN801")) == [], "TRN001 was not selected"
    step = "import torch\n\nx = torch.ones(2)  # noqa: TRN101\n"
    assert _findings(step, target="neuron") == [], "the step marker does not apply to neuron"
    assert _findings(step, target="xla-2.9") != []


def test_naming_trn801_in_the_comment_keeps_it() -> None:
    text = "import torch\n\nx = torch.ones(2)  # noqa: TRN001, TRN801\n"
    assert _findings(text) == []


def test_unused_suppressions_are_not_reported_unless_trn801_is_selected() -> None:
    text = "import torch\n\nx = torch.ones(2)  # noqa: TRN001\n"
    assert _findings(text, select=("TRN0",)) == []


def test_a_suppression_used_by_a_later_pass_after_lines_moved_counts_as_used() -> None:
    # The device pass inserts `import torch_xla` above; the float64 pass then sees the comment
    # two lines further down and uses it there.
    text = (
        "import torch\n\nm = torch.nn.Linear(2, 2).cuda()\n"
        "x = torch.ones(2).double()  # trncodemod: ignore[TRN202]\n"
    )
    findings = _findings(text)
    assert not [f for f in findings if "TRN801" in f or "TRN202" in f], findings


def test_a_todo_that_quotes_a_directive_is_not_a_directive() -> None:
    text = "# TODO(trncodemod): TRN801 `noqa: TRN001` suppresses nothing\nx = 1\n"
    assert find_suppressions(text).directives == ()
    assert _findings(text) == []


def test_check_reports_unused_suppressions_with_the_rest(tree: Path) -> None:
    (tree / "train.py").write_text("import torch\n\nx = torch.ones(2)  # noqa: TRN001\n")
    code, out, _ = run("check", ".")
    assert code == 1 and "train.py:3:22: TRN801" in out
    assert run("check", "--ignore", "TRN801", ".")[0] == 0
