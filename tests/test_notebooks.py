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


def _cells(path: Path, *sources: str) -> None:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(source) for source in sources]
    path.write_text(nbformat.writes(nb) + "\n")


def _migrated(path: Path) -> list[str]:
    outcome = migrate_file(path, path.name, Settings())
    assert outcome.error is None, outcome.error
    assert outcome.new is not None
    path.write_bytes(outcome.new)
    again = migrate_file(path, path.name, Settings())
    assert again.error is None and again.new is None, "a second run changed the notebook"
    return [cell.source for cell in nbformat.reads(outcome.new.decode(), as_version=4).cells]


IPYTHON_CELL = (
    "VERSION = !python --version\n"
    "files, more = !ls\n"
    "t = %timeit -o sum(range(3))\n"
    "??torch\n"
    "torch.zeros?\n"
    "%matplotlib inline\n"
    "!echo it's not python \\\n"
    "  (continued\n"
    "if torch.cuda.is_available():\n"
    "    gpu = !nvidia-smi\n"
    "x = torch.zeros(2,  # a comment that asks?\n"
    "    3)\n"
    "y = (1\n"
    "% 2)"
)


def test_ipython_lines_are_kept_byte_for_byte_and_never_parsed(tmp_path: Path) -> None:
    path = tmp_path / "magic.ipynb"
    _cells(path, "import torch", IPYTHON_CELL, "model = torch.nn.Linear(4, 2).cuda()")
    sources = _migrated(path)
    assert sources[1] == IPYTHON_CELL
    assert sources[2] == "model = torch.nn.Linear(4, 2).to(torch_xla.device())"


def test_a_cell_with_a_python_cell_magic_is_migrated_below_it_other_magics_left_alone(
    tmp_path: Path,
) -> None:
    path = tmp_path / "time.ipynb"
    bash = "%%bash\nmodel.cuda()  # not python"
    _cells(path, "import torch", "%%time\nmodel = torch.nn.Linear(4, 2).cuda()", bash)
    sources = _migrated(path)
    assert sources[1] == "%%time\nmodel = torch.nn.Linear(4, 2).to(torch_xla.device())"
    assert sources[2] == bash


def test_an_indented_cell_is_read_as_ipython_dedents_it_and_keeps_its_indentation(
    tmp_path: Path,
) -> None:
    path = tmp_path / "indented.ipynb"
    _cells(path, "import torch", " # on the GPU\n model = torch.nn.Linear(4, 2).cuda()\n model")
    assert _migrated(path)[1] == (
        " # on the GPU\n model = torch.nn.Linear(4, 2).to(torch_xla.device())\n model"
    )


def _training_cells(scaler: bool) -> tuple[str, ...]:
    backward = (
        "    scaler.scale(loss).backward()\n    scaler.step(optimizer)\n    scaler.update()"
        if scaler
        else "    loss.backward()\n    optimizer.step()"
    )
    return (
        "model = torch.nn.Linear(4, 2).cuda()\n"
        "optimizer = torch.optim.SGD(model.parameters(), lr=0.1)",
        "for step in range(10):\n"
        "    x = torch.randn(8, 4).cuda()\n"
        "    loss = model(x).pow(2).mean()\n"
        "    optimizer.zero_grad()\n" + backward,
    )


@pytest.mark.parametrize(
    ("head", "only_statement", "rule"),
    [
        (
            "import torch\nimport torch.cuda",
            "# speed\ntorch.backends.cudnn.benchmark = True",
            "TRN313",
        ),
        ("import torch", "assert torch.cuda.is_available()", "TRN803"),
        ("import torch\nfrom torch.cuda.amp import GradScaler", "scaler = GradScaler()", "TRN305"),
    ],
)
def test_a_cell_whose_only_statement_a_pass_removes_keeps_it_commented_out(
    tmp_path: Path, head: str, only_statement: str, rule: str
) -> None:
    path = tmp_path / "emptied.ipynb"
    _cells(path, head, only_statement, *_training_cells("GradScaler" in head))
    emptied = _migrated(path)[1]
    commented = "\n".join("# " + line for line in only_statement.split("\n"))
    assert emptied == f"# trncodemod: {rule} removed this cell's code for xla-2.9; it was:\n" + (
        commented
    )


def test_a_cell_that_keeps_a_statement_is_not_commented_out(tmp_path: Path) -> None:
    path = tmp_path / "kept.ipynb"
    head = "import torch\nimport torch.cuda"
    _cells(path, head, "torch.backends.cudnn.benchmark = True\nseed = 0", *_training_cells(False))
    assert _migrated(path)[1] == "seed = 0"


def test_an_added_import_goes_in_the_first_cell_that_uses_it(tmp_path: Path) -> None:
    # The passes put `import torch_xla` beside `import torch`, in cell 3; cell 2 needs it first.
    path = tmp_path / "late.ipynb"
    _cells(
        path,
        "from transformers import AutoModel\nmodel = AutoModel.from_pretrained('x')",
        "# move it\nmodel.cuda()",
        "import torch\nx = torch.zeros(2)",
    )
    sources = _migrated(path)
    assert sources[1] == "# move it\nimport torch_xla\nmodel.to(torch_xla.device())"
    assert "torch_xla" not in sources[2]


def test_an_added_import_already_above_its_first_use_stays_beside_torch(tmp_path: Path) -> None:
    path = tmp_path / "early.ipynb"
    _cells(
        path,
        "from transformers import AutoModel\nmodel = AutoModel.from_pretrained('x')",
        "import torch\nx = torch.zeros(2)",
        "model.cuda()",
    )
    sources = _migrated(path)
    assert sources[1] == "import torch\nimport torch_xla\nx = torch.zeros(2)"
    assert sources[2] == "model.to(torch_xla.device())"


def test_a_line_magic_without_its_percent_is_kept_and_python_that_looks_like_one_is_migrated(
    tmp_path: Path,
) -> None:
    path = tmp_path / "automagic.ipynb"
    magic = "pip install torch diffusers\ncd data/\nmatplotlib inline"
    python = "time = 5\nmodel = torch.nn.Linear(4, 2).cuda()"
    _cells(path, magic, "import torch", python)
    sources = _migrated(path)
    assert sources[0] == magic
    assert sources[2] == "time = 5\nmodel = torch.nn.Linear(4, 2).to(torch_xla.device())"


# The evaluator judges a notebook as one program: its code cells in order (issue 34).
_MODEL = (
    "import torch\n\n\nclass Net(torch.nn.Module):\n"
    "    def __init__(self):\n        super().__init__()\n"
    "        self.fc = torch.nn.Linear(4, 2)\n\n"
    "    def forward(self, x):\n        return self.fc(x)\n"
)
_ON_HOST = (
    "%matplotlib inline\nimport torch\nfrom model import Net",
    "use_cuda = False{comment}\ndevice = torch.device('cuda' if use_cuda else 'cpu')",
    "def train(model, optimizer, device):\n"
    "    for step in range(10):\n"
    "        x = torch.randn(8, 4).to(device)\n"
    "        loss = model(x).pow(2).mean()\n"
    "        optimizer.zero_grad()\n"
    "        loss.backward()\n"
    "        optimizer.step()",
    "model = Net().to(device)\noptimizer = torch.optim.SGD(model.parameters(), lr=0.1)",
    "train(model, optimizer, device)",
)


def _check(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *options: str) -> tuple[int, str]:
    from click.testing import CliRunner

    from trncodemod.cli import main

    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["check", "--no-cache", *options, "."])
    return result.exit_code, result.stdout


def test_a_notebook_is_an_entry_point_judged_cell_by_cell_with_the_modules_it_imports(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "model.py").write_text(_MODEL)
    cells = list(_ON_HOST)
    cells[1] = "device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')"
    _cells(tmp_path / "train.ipynb", *cells)
    _, out = _check(tmp_path, monkeypatch, "--format", "json")
    (entry,) = json.loads(out)["verdict"]["entry_points"]
    # The step (`loss.backward()`) is in cell 3, the model's class in model.py, the device decided in cell 2.
    assert entry == {
        "entry": "train.ipynb",
        "verdict": "runs",
        "where": "train.ipynb[cell 3]:6",
        "why": "the model's parameters and the step's inputs are on the accelerator, and the "
        "step is cut",
    }


@pytest.mark.parametrize(
    ("comment", "blocked"), [("", True), ("  # trncodemod: ignore[TRN027]", False)]
)
def test_a_notebook_that_trains_on_the_host_is_a_blocker_at_its_cell(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, comment: str, blocked: bool
) -> None:
    (tmp_path / "model.py").write_text(_MODEL)
    cells = list(_ON_HOST)
    cells[1] = cells[1].format(comment=comment)
    _cells(tmp_path / "train.ipynb", *cells)
    code, out = _check(tmp_path, monkeypatch, "--exit-zero")
    assert "1 entry point: 1 does not: train.ipynb[cell 2]:1" in out
    assert (
        "train.ipynb[cell 2]:1:1: TRN027 [blocker] train.ipynb does not train" in out
    ) is blocked
    assert code == (1 if blocked else 0)


def test_bucket_helper_goes_beside_the_collate_function_not_in_an_install_cell(
    tmp_path: Path,
) -> None:
    # The first code cell runs only on Colab; the helper TRN214 adds must be defined in a cell
    # every run executes, before the collate function that calls it.
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell("# run this cell only on Colab\n!pip install -q torch"),
        nbformat.v4.new_code_cell("import torch\nfrom torch.nn.utils.rnn import pad_sequence"),
        nbformat.v4.new_code_cell("PAD_IDX = 1"),
        nbformat.v4.new_code_cell(
            "def collate_fn(batch):\n"
            "    src = pad_sequence(batch, batch_first=True, padding_value=PAD_IDX)\n"
            "    return src, src == PAD_IDX"
        ),
    ]
    path = tmp_path / "collate.ipynb"
    path.write_text(nbformat.writes(nb) + "\n")
    outcome = migrate_file(path, "collate.ipynb", Settings())
    assert outcome.error is None, outcome.error
    sources = [cell.source for cell in nbformat.reads(outcome.new.decode(), as_version=4).cells]
    assert sources[0] == "# run this cell only on Colab\n!pip install -q torch"
    assert sources[3].startswith("def _pad_to_bucket(")
    assert "src = _pad_to_bucket(batch" in sources[3]
