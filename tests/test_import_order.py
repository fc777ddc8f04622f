"""Imports the tool adds land where isort and ruff's `I` rules put them, so a migrated file passes
the project's own import linting."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import libcst as cst
import pytest

from trncodemod.rewriting.import_order import place_added_imports

GOLDEN = Path(__file__).resolve().parent.parent / "golden"


def _placed(before: str, after: str) -> str:
    return place_added_imports(cst.parse_module(before), cst.parse_module(after)).code


def test_an_added_import_joins_its_section_in_sorted_order() -> None:
    before = "import argparse\n\nimport torch\nfrom torch import nn\n\nx = 1\n"
    after = "import argparse\n\nimport torch\nfrom torch import nn\nimport torch_xla\nimport os\n\nx = 1\n"
    assert _placed(before, after) == (
        "import argparse\nimport os\n\nimport torch\nimport torch_xla\nfrom torch import nn\n\nx = 1\n"
    )


def test_a_section_the_file_lacks_is_opened_one_blank_line_apart() -> None:
    before = '"""Doc."""\n\nimport torch\n\nx = 1\n'
    after = '"""Doc."""\n\nimport torch\nimport os\n\nx = 1\n'
    assert _placed(before, after) == '"""Doc."""\n\nimport os\n\nimport torch\n\nx = 1\n'


def test_a_third_party_import_joins_the_group_that_holds_torch() -> None:
    # detr's util/misc.py: `from packaging import version` sits among the standard library's.
    before = "import os\nfrom packaging import version\n\nimport torch\n\nx = 1\n"
    after = "import os\nfrom packaging import version\n\nimport torch\nimport torch_xla\n\nx = 1\n"
    assert _placed(before, after) == after


def test_the_blank_line_added_above_the_code_goes_with_the_import_moved_up() -> None:
    # AddImportsVisitor appends after the last import and puts a blank line above the next line.
    before = "import torch\nimport torchvision\nif torchvision.__version__:\n    x = 1\n"
    after = (
        "import torch\nimport torchvision\nimport torch_xla\n\nif torchvision.__version__:\n"
        "    x = 1\n"
    )
    assert _placed(before, after) == (
        "import torch\nimport torch_xla\nimport torchvision\nif torchvision.__version__:\n    x = 1\n"
    )


def test_an_import_joins_torch_below_the_environment_the_script_sets_first() -> None:
    # nanochat: `os.environ[...] = ...` ends the leading block; torch is imported below it.
    before = 'import os\nos.environ["A"] = "1"\nimport gc\n\nimport wandb\nimport torch\nimport torch.distributed as dist\n\nx = 1\n'
    after = before.replace(
        "import os\n", "import os\n\nimport torch_xla\nimport torch_xla.core.xla_model as xm\n", 1
    )
    assert _placed(before, after) == before.replace(
        "import torch.distributed as dist\n",
        "import torch.distributed as dist\nimport torch_xla\nimport torch_xla.core.xla_model as xm\n",
    )


def test_an_import_the_file_has_below_its_leading_block_is_not_written_twice() -> None:
    # yolov5: torch and torch_xla come after a `try: import comet_ml`; AddImportsVisitor looks
    # only at the leading block and wrote `import torch_xla` again above it.
    text = "import os\n\ntry:\n    import comet_ml\nexcept ImportError:\n    comet_ml = None\n\nimport torch\nimport torch_xla\n\nx = 1\n"
    before = cst.parse_module(text)
    added = cst.parse_statement("import torch_xla\n")
    after = before.with_changes(body=[before.body[0], added, *before.body[1:]])
    assert place_added_imports(before, after).code == text
    # The file's own repeated line stays, wherever the pass put its own.
    again = before.with_changes(body=[*before.body, cst.parse_statement("import os\n")])
    assert place_added_imports(before, again).code == text


def test_an_unaliased_import_sorts_before_its_aliased_twin() -> None:
    before = "import torch as th\nfrom torch.utils.data import DataLoader\n"
    after = "import torch as th\nfrom torch.utils.data import DataLoader\nimport torch\n"
    assert _placed(before, after) == (
        "import torch\nimport torch as th\nfrom torch.utils.data import DataLoader\n"
    )


def test_names_merged_into_a_sorted_from_import_keep_it_sorted() -> None:
    before = "from torch import DoubleTensor, float64\n"
    after = "from torch import DoubleTensor, float64, FloatTensor, float32\n"
    assert (
        _placed(before, after) == "from torch import DoubleTensor, FloatTensor, float32, float64\n"
    )


def test_an_added_import_of_aliased_names_is_one_statement_per_name() -> None:
    before = "import sys\n\nfrom transformers import set_seed\n"
    after = (
        "import sys\n\nfrom transformers import set_seed\n"
        "from optimum.neuron import NeuronTrainer as Trainer, NeuronHfArgumentParser as P\n"
    )
    assert _placed(before, after) == (
        "import sys\n\n"
        "from optimum.neuron import NeuronHfArgumentParser as P\n"
        "from optimum.neuron import NeuronTrainer as Trainer\n"
        "from transformers import set_seed\n"
    )


def test_a_from_import_the_pass_did_not_touch_keeps_its_order() -> None:
    before = "from m import b\nfrom m import d, c\n"
    after = "from m import b\nfrom m import d, c\nimport torch_xla\n"
    assert _placed(before, after) == "import torch_xla\nfrom m import b\nfrom m import d, c\n"


def test_the_files_own_order_is_never_changed() -> None:
    before = "import torch\nimport os\nfrom b import c\nimport a\n"
    after = "import torch\nimport os\nfrom b import c\nimport a\nimport torch_xla\n"
    assert _placed(before, after) == (
        "import torch\nimport torch_xla\nimport os\nfrom b import c\nimport a\n"
    )


@pytest.mark.skipif(importlib.util.find_spec("ruff") is None, reason="ruff is not installed")
def test_golden_outputs_pass_import_linting_wherever_their_inputs_do(tmp_path: Path) -> None:
    def unsorted(kind: str, files: dict[str, Path]) -> set[str]:
        folder = tmp_path / kind
        folder.mkdir()
        for name, path in files.items():
            (folder / name).write_bytes(path.read_bytes())
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "ruff",
                "check",
                "--isolated",
                "--select",
                "I",
                "--output-format",
                "concise",
                ".",
            ],
            cwd=folder,
            capture_output=True,
            text=True,
        )
        return {line.split(":", 1)[0] for line in result.stdout.splitlines() if "I001" in line}

    outputs = {p.name.replace(".out.py", ".py"): p for p in GOLDEN.glob("*/*.out.py")}
    names = {name: path.parent.name + "__" + name for name, path in outputs.items()}
    outputs = {names[n]: p for n, p in outputs.items()}
    inputs = {n: p.with_name(p.name.replace(".out.py", ".in.py")) for n, p in outputs.items()}
    assert len(outputs) > 100
    assert unsorted("out", outputs) - unsorted("in", inputs) == set()
