"""Interactive review: exactly the accepted hunks are applied."""

import ast
import functools
import re
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from trncodemod.commands.golden import GoldenCase
from trncodemod.commands.review import review
from trncodemod.config import Settings
from trncodemod.pipeline.engine import migrate_file

SCRIPT = (
    "import torch\nimport torch_xla\n\nmodel = torch.nn.Linear(2, 2).cuda()\n"
    + "".join(f"x{i} = {i}\n" for i in range(10))
    + "batch = torch.zeros(2).cuda()\n"
    + "".join(f"y{i} = {i}\n" for i in range(10))
    + "other = torch.ones(2).cuda()\n"
)


def _outcome(tmp_path: Path, name: str = "t.py"):
    path = tmp_path / name
    path.write_text(SCRIPT)
    return migrate_file(path, name, Settings())


def _answers(*values: str):
    queue = list(values)
    return lambda prompt: queue.pop(0) if queue else None


def test_accepted_hunks_only(tmp_path: Path) -> None:
    outcome = _outcome(tmp_path)
    shown: list[str] = []
    (result,), summary = review([outcome], _answers("y", "n", "y"), shown.append)
    text = result.new.decode()
    assert "Linear(2, 2).to(torch_xla.device())" in text
    assert "batch = torch.zeros(2).cuda()" in text
    assert "other = torch.ones(2).to(torch_xla.device())" in text
    assert summary == "Applied 2 of 3 changes in 1 file(s)."
    assert "TRN001 cuda-method" in shown[0], "each hunk names the rule that made it"


def test_help_then_rest_of_file_and_quit(tmp_path: Path) -> None:
    first, second = _outcome(tmp_path, "a.py"), _outcome(tmp_path, "b.py")
    shown: list[str] = []
    results, summary = review([first, second], _answers("?", "d", "q"), shown.append)
    assert any("apply this change and all later changes" in s for s in shown)
    assert results[0].new is None and results[1].new is None
    assert summary == "Applied 0 of 6 changes in 0 file(s)."


def test_end_of_input_applies_nothing_more(tmp_path: Path) -> None:
    (result,), summary = review([_outcome(tmp_path)], _answers("a"), lambda s: None)
    assert result.new is not None and result.new.count(b"torch_xla.device()") == 3
    assert summary == "Applied 3 of 3 changes in 1 file(s)."


def test_apply_interactive_with_piped_answers_writes_exactly_the_accepted_hunks(
    tmp_path: Path, monkeypatch
) -> None:
    from click.testing import CliRunner

    from trncodemod.cli import main

    monkeypatch.chdir(tmp_path)
    (tmp_path / "t.py").write_text(SCRIPT)
    result = CliRunner().invoke(
        main, ["apply", "-i", "--no-cache", "--select", "TRN0", "t.py"], input="n\ny\nn\n"
    )
    text = (tmp_path / "t.py").read_text()
    assert "model = torch.nn.Linear(2, 2).cuda()" in text
    assert "batch = torch.zeros(2).to(torch_xla.device())" in text
    assert "other = torch.ones(2).cuda()" in text
    assert "Applied 1 of 3 changes in 1 file(s)." in result.stderr
    assert result.stderr.count("[fixed]") == 1, "skipped fixes are not reported as fixed"
    assert "2 findings left" in result.stderr


def test_a_notebook_is_reviewed_cell_by_cell_as_code(tmp_path: Path) -> None:
    import nbformat
    from test_notebooks import _notebook

    path = tmp_path / "train.ipynb"
    _notebook(path)
    outcome = migrate_file(path, "train.ipynb", Settings())
    shown: list[str] = []
    (result,), summary = review([outcome], _answers("y", "n", "y"), shown.append)
    assert summary == "Applied 2 of 3 changes in 1 file(s)."
    assert [s.split(" hunk")[0].strip() for s in shown] == [
        "train.ipynb[cell 2]",
        "train.ipynb[cell 3]",
        "train.ipynb[cell 4]",
    ]
    assert "TRN003" in shown[1] and not any('"source"' in s for s in shown), "code, not JSON"
    cells = nbformat.reads(result.new.decode(), as_version=4).cells
    original = nbformat.read(path, as_version=4).cells
    assert cells[1].source.endswith("import torch\nimport torch_xla")
    assert cells[2].source == original[2].source, "the refused hunk is not applied"
    assert "torch_xla.sync()" in cells[3].source and cells[3].outputs == original[3].outputs
    nbformat.validate(nbformat.reads(result.new.decode(), as_version=4))


def test_hunks_are_shown_as_the_source_reads_not_as_latin_1(tmp_path: Path) -> None:
    path = tmp_path / "t.py"
    path.write_text(
        "import torch\n# données du modèle\nm = torch.nn.Linear(2, 2).cuda()\n", "utf-8"
    )
    shown: list[str] = []
    review([migrate_file(path, "t.py", Settings())], _answers("n"), shown.append)
    assert "# données du modèle" in shown[0], shown[0]


EXAMPLES = sorted((Path(__file__).parent.parent / "examples").glob("*.py"))
AMP_LOOP = Path(__file__).parent.parent / "golden" / "pipeline" / "amp_training_loop.in.py"


def test_a_fix_and_the_import_it_needs_are_one_change_and_the_prompt_says_so(
    tmp_path: Path,
) -> None:
    path = tmp_path / "t.py"
    path.write_text("import torch\n\nmodel = torch.nn.Linear(2, 2).cuda()\n")
    shown: list[str] = []
    (result,), summary = review(
        [migrate_file(path, "t.py", Settings())], _answers("y"), shown.append
    )
    assert len(shown) == 1 and "with what it needs: `torch_xla`" in shown[0]
    assert "+import torch_xla" in shown[0] and "+model = " in shown[0]
    assert summary == "Applied 1 of 1 change in 1 file(s)."


def test_a_removed_scaler_and_its_uses_are_one_change(tmp_path: Path) -> None:
    path = tmp_path / "t.py"
    path.write_bytes(AMP_LOOP.read_bytes())
    outcome = migrate_file(path, "t.py", GoldenCase(AMP_LOOP).settings())
    shown: list[str] = []
    review([outcome], _answers(*"n" * 50), shown.append)
    removing = [s for s in shown if re.search(r"^-\s+scaler = GradScaler\(\)$", s, re.M)]
    assert len(removing) == 1, "the GradScaler and every use of it are offered together"
    assert re.search(r"^-\s+scaler.step\(optimizer\)$", removing[0], re.M)
    assert "applied or skipped together" in removing[0]


def test_rejected_fixes_are_not_reported_as_fixed(tmp_path: Path) -> None:
    path = tmp_path / "t.py"
    path.write_text(SCRIPT)
    outcome = migrate_file(path, "t.py", Settings())
    (result,), _ = review([outcome], _answers("y", "n", "n"), lambda s: None)
    assert [f.fixed for f in result.findings if f.code == "TRN001"] == [True, False, False]


def test_a_result_that_would_leave_a_name_undefined_is_not_written() -> None:
    from trncodemod.commands.review import introduced_problems

    old = "import torch\nscaler = 1\nscaler.step()\n"
    assert introduced_problems(old, "import torch\nscaler.step()\n") == (
        "it would leave `scaler` undefined"
    )
    assert introduced_problems(old, "import torch\nx = torch_xla.device()\n") is not None
    assert introduced_problems(old, "import torch\n") is None


@functools.cache
def _migrated(example: Path):
    """Each example migrated once (the passes take a second); the answers vary."""
    folder = Path(tempfile.mkdtemp())
    path = folder / "t.py"
    path.write_bytes(example.read_bytes())
    return migrate_file(path, "t.py", GoldenCase(example).settings())


@settings(max_examples=60, deadline=None)
@given(
    example=st.sampled_from([*EXAMPLES, AMP_LOOP]),
    answers=st.lists(st.sampled_from("yn"), min_size=0, max_size=20),
)
def test_any_answers_write_code_that_parses_with_no_name_left_undefined(
    example: Path, answers: list[str]
) -> None:
    from trncodemod.commands.review import review_file, undefined_names

    outcome = _migrated(example)
    decision = review_file(outcome, _answers(*answers, *"n" * 50), lambda s: None)
    assert decision.refused is None, "the changes offered are self-contained"
    if decision.new is not None:
        old, new = outcome.old.decode(), decision.new.decode()
        ast.parse(new)
        assert undefined_names(new) <= undefined_names(old)
        fixed = sum(f.fixed for f in decision.findings)
        assert 0 < fixed <= sum(f.fixed for f in outcome.findings)


def test_the_blank_lines_before_an_added_helper_are_not_a_change_of_their_own() -> None:
    # The first change of text_classifier.py adds imports and the bucket helper after them; its
    # two leading blank lines were offered alone, as "an edit no finding names".
    from trncodemod.commands.review import review_file

    outcome = _migrated(next(p for p in EXAMPLES if p.name == "text_classifier.py"))
    decision = review_file(outcome, _answers("y", *"n" * 50), lambda s: None)
    assert decision.new is not None
    assert sum(f.fixed for f in decision.findings) > 0
