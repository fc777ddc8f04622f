"""Notebooks: code cells are migrated as one program; magics, markdown and outputs survive."""

import json
from pathlib import Path

import nbformat
import pytest

from trncodemod.config import Settings
from trncodemod.pipeline.engine import migrate_file


def _notebook(path: Path) -> None:
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_markdown_cell("Train a model with `.cuda()`."),
        nbformat.v4.new_code_cell("%matplotlib inline\n!pip install -q torch\nimport torch"),
        nbformat.v4.new_code_cell(
            "device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\n"
            "model = torch.nn.Linear(4, 2).to(device)\n"
            "optimizer = torch.optim.SGD(model.parameters(), lr=0.1)"
        ),
        nbformat.v4.new_code_cell(
            "for step in range(10):\n"
            "    x = torch.randn(8, 4).to(device)\n"
            "    loss = model(x).pow(2).mean()\n"
            "    optimizer.zero_grad()\n"
            "    loss.backward()\n"
            "    optimizer.step()\n"
            "    print(step, loss.item())",
            outputs=[nbformat.v4.new_output("stream", text="0 1.0\n")],
        ),
        nbformat.v4.new_code_cell("%%bash\necho cuda"),
    ]
    path.write_text(nbformat.writes(nb) + "\n")


def test_training_notebook_is_migrated_and_still_a_valid_notebook(tmp_path: Path) -> None:
    path = tmp_path / "train.ipynb"
    _notebook(path)
    outcome = migrate_file(path, "train.ipynb", Settings())
    assert outcome.error is None, outcome.error
    nb = nbformat.reads(outcome.new.decode(), as_version=4)
    nbformat.validate(nb)
    sources = [cell.source for cell in nb.cells]
    assert sources[0] == "Train a model with `.cuda()`."
    assert sources[1] == "%matplotlib inline\n!pip install -q torch\nimport torch\nimport torch_xla"
    assert sources[2].startswith("device = torch_xla.device()\n")
    assert "    optimizer.step()\n    torch_xla.sync()\n" in sources[3]
    assert sources[4] == "%%bash\necho cuda"
    assert nb.cells[3].outputs[0].text == "0 1.0\n"
    cells = {f.code: f.cell for f in outcome.findings}
    assert cells["TRN003"] == 3 and cells["TRN101"] == 4
    assert (
        next(f for f in outcome.findings if f.code == "TRN003").location
        == "train.ipynb[cell 3]:1:10"
    )


def test_second_run_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "train.ipynb"
    _notebook(path)
    path.write_bytes(migrate_file(path, "train.ipynb", Settings()).new)
    assert migrate_file(path, "train.ipynb", Settings()).new is None


def test_a_notebook_that_is_not_json_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "broken.ipynb"
    path.write_text("{not json")
    outcome = migrate_file(path, "broken.ipynb", Settings())
    assert outcome.error.startswith("not a notebook")
    assert outcome.new is None


def test_dry_run_patch_applies_and_stderr_shows_each_changed_cell_as_code(
    tmp_path: Path, monkeypatch
) -> None:
    import subprocess

    from click.testing import CliRunner

    from trncodemod.cli import main

    monkeypatch.chdir(tmp_path)
    _notebook(tmp_path / "train.ipynb")
    result = CliRunner().invoke(main, ["apply", "--dry-run", "--no-cache", "train.ipynb"])
    assert result.exit_code == 1
    assert "--- a/train.ipynb[cell 3]\n+++ b/train.ipynb[cell 3]\n" in result.stderr
    assert "+device = torch_xla.device()\n" in result.stderr
    assert "[cell" not in result.stdout_bytes.decode(), "stdout holds only the JSON patch"
    applied = subprocess.run(
        ["git", "apply", "-"], input=result.stdout_bytes, cwd=tmp_path, capture_output=True
    )
    assert applied.returncode == 0, applied.stderr
    nbformat.validate(nbformat.read(tmp_path / "train.ipynb", as_version=4))


def _big_notebook(path: Path, indent: int | None, outputs_bytes: int) -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell("import torch\nmodel = torch.nn.Linear(4, 2).cuda()\n"),
        nbformat.v4.new_code_cell(
            "print('done')",
            outputs=[nbformat.v4.new_output("stream", text="é" + "x" * outputs_bytes + "\n")],
        ),
        nbformat.v4.new_markdown_cell("Notes: `.cuda()`"),
    ]
    # nbformat always writes indent=1; json.dumps gives the other layouts found in the wild
    # (and no final newline here).
    path.write_text(json.dumps(nb, indent=indent, sort_keys=True, ensure_ascii=indent is None))
    return nb


@pytest.mark.parametrize("indent", [None, 1, 2])
def test_a_one_line_fix_is_a_small_patch_in_the_notebooks_own_layout(
    tmp_path: Path, indent: int | None
) -> None:
    path = tmp_path / "big.ipynb"
    _big_notebook(path, indent, outputs_bytes=2_000_000)
    raw = path.read_bytes()
    outcome = migrate_file(path, "big.ipynb", Settings())
    assert outcome.error is None, outcome.error
    if indent is not None:  # a notebook on one line is one line of diff, however it is written
        assert len(outcome.diff) < 2_000, f"{len(outcome.diff)} bytes of patch for a one-line fix"
    assert len(outcome.new) < len(raw) + 100, "re-serialised with another layout"
    assert outcome.diff.count(b"\n@@ ") + outcome.diff.startswith(b"@@ ") <= 1
    # Everything but the first cell's source is byte-identical: outputs, escapes, no final newline.
    head, _, tail = raw.partition(b'"print(')
    assert outcome.new.endswith(b'"print(' + tail)
    assert not outcome.new.endswith(b"\n")
    nb = nbformat.reads(outcome.new.decode(), as_version=4)
    nbformat.validate(nb)
    assert "model = torch.nn.Linear(4, 2).to(torch_xla.device())\n" in nb.cells[0].source


def test_a_source_stored_as_one_string_and_unusual_key_order_are_kept(tmp_path: Path) -> None:
    path = tmp_path / "odd.ipynb"
    document = (
        '{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [\n'
        '  {"source": "import torch\\nm = torch.nn.Linear(2, 2).cuda()\\n", "cell_type": "code",'
        ' "metadata": {}, "outputs": [], "execution_count": null, "id": "a1"}\n]}\n'
    )
    path.write_text(document)
    outcome = migrate_file(path, "odd.ipynb", Settings())
    assert outcome.error is None, outcome.error
    assert outcome.new.decode().startswith(
        '{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [\n  {"source": "import'
    )
    assert outcome.new.decode().endswith(
        '", "cell_type": "code", "metadata": {}, "outputs": [], "execution_count": null, '
        '"id": "a1"}\n]}\n'
    )


def test_a_cell_without_source_is_an_empty_cell_and_left_as_it_is(tmp_path: Path) -> None:
    code = {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": []}
    notebook = {
        "cells": [
            dict(code),  # no `source` at all
            dict(code, source=["import torch\n", "m = torch.nn.Linear(2, 2).cuda()\n"]),
        ],
        "metadata": {},
        "nbformat": 4,
        "nbformat_minor": 4,
    }
    path = tmp_path / "t.ipynb"
    path.write_text(json.dumps(notebook, indent=1) + "\n")
    outcome = migrate_file(path, "t.ipynb", Settings())
    assert outcome.error is None, outcome.error
    written = json.loads(outcome.new)
    assert "source" not in written["cells"][0]
    assert "m = torch.nn.Linear(2, 2).to(torch_xla.device())\n" in written["cells"][1]["source"]
