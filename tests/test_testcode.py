"""Test code or a program: a module named like a test is test code where it holds tests, a
program where it holds none and trains when run or a launch line names it."""

from __future__ import annotations

import ast
import textwrap

from trncodemod.analysis.entry_points import entry_points
from trncodemod.analysis.program import build_program, summarize
from trncodemod.analysis.testcode import holds_tests, is_test_module
from trncodemod.analysis.training import import_specs

# TCN's `word_cnn_test.py`: a trainer named like a test, launched from its README.
TRAINER = """
    import torch
    from model import TCN

    def train(model, optimizer, data):
        for x, y in data:
            optimizer.zero_grad()
            torch.nn.functional.mse_loss(model(x), y).backward()
            optimizer.step()

    def test_epoch(model, data):
        return sum(model(x).sum() for x, _ in data)

    if __name__ == "__main__":
        model = TCN().cuda()
        train(model, torch.optim.Adam(model.parameters()), [])
        test_epoch(model, [])
"""

# A real test: pytest functions that train a step on the CPU as a reference.
PYTEST = """
    import torch
    from model import TCN

    def test_step_matches_cpu():
        model = TCN().cuda()
        model(torch.ones(1).cuda()).sum().backward()

    if __name__ == "__main__":
        test_step_matches_cpu()
"""


def _holds(text: str) -> bool:
    tree = ast.parse(textwrap.dedent(text))
    return holds_tests(tree, import_specs(tree)[0])


def _program(files: dict[str, str], **kwargs):
    return build_program({p: summarize(textwrap.dedent(t)) for p, t in files.items()}, **kwargs)


def test_a_trainer_named_like_a_test_is_an_entry_point():
    program = _program({"word_cnn/word_cnn_test.py": TRAINER, "word_cnn/model.py": "x = 1\n"})
    assert program.entry_points == {"word_cnn/word_cnn_test.py": ("",)}
    assert program.view("word_cnn/word_cnn_test.py").role == "entry"


def test_a_module_named_like_a_test_that_holds_tests_is_test_code_though_it_trains():
    program = _program({"model_test.py": PYTEST, "model.py": "x = 1\n"})
    assert program.entry_points == {}
    assert program.view("model_test.py").is_test


def test_a_trainers_own_test_epoch_function_is_no_test():
    assert not _holds(TRAINER)


def test_a_test_function_that_asserts_is_a_test_though_the_script_calls_it():
    # accelerate's test scripts: `main()` calls `test_noop_sync(accelerator)`, which asserts,
    # itself or in a helper of the module (`check_weights`).
    called = "def main():\n    test_sync(1)\n\ndef test_sync(a):\n    {}\n"
    assert _holds(called.format("assert a == 1"))
    assert _holds(called.format("torch.testing.assert_close(a, 1)"))
    helper = "def check(a):\n    assert a\n\n" + called.format("check(a)")
    assert _holds(helper)
    assert not _holds(called.format("return a + 1"))


def test_pytest_and_unittest_imports_and_test_classes_make_tests():
    assert _holds("import pytest\n")
    assert _holds("from unittest import mock\n")
    assert _holds("import absl.testing.absltest as t\nclass T(t.TestCase):\n    pass\n")
    assert _holds("class TestModel:\n    def test_forward(self):\n        pass\n")
    # A dataset of the test split is no test class.
    assert not _holds("class TestDataset:\n    def __getitem__(self, i):\n        return i\n")
    assert not _holds("def test(model):\n    return model\n")


def test_a_launch_line_makes_a_module_named_like_a_test_a_program():
    files = {"eval_test.py": "import torch\nprint(torch.ones(1))\n", "m.py": "x = 1\n"}
    assert _program(files).view("eval_test.py").is_test
    launched = _program(files, launched=["eval_test.py"])
    assert launched.entry_points == {"eval_test.py": ("",)}


def test_the_path_decides_in_a_tests_folder_and_where_nothing_is_known():
    assert is_test_module("tests/train_smoke.py", holds_tests=False, runs=True)
    assert is_test_module("conftest.py", holds_tests=False, runs=True)
    assert is_test_module("pkg/io_test.py")  # what it holds not known
    assert not is_test_module("pkg/io_test.py", holds_tests=False, runs=True)
    assert is_test_module("pkg/io_test.py", holds_tests=False, runs=False)
    assert not is_test_module("train.py", holds_tests=True)


def test_a_folder_named_for_tests_holds_test_code_whatever_it_runs():
    # accelerate's test_utils/scripts/test_performance.py trains under a __main__ guard and
    # asserts with no test function: a script of a test suite, not a program to port.
    path = "src/accelerate/test_utils/scripts/test_performance.py"
    assert is_test_module(path, holds_tests=False, runs=True)
    assert is_test_module("unit_tests/train_step.py", holds_tests=False, runs=True)
    # Not a folder named for tests: the name of the module's own folder decides nothing.
    assert not is_test_module("latest_models/train.py", holds_tests=False, runs=True)
    assert not is_test_module("contest/train.py", holds_tests=False, runs=True)


def test_the_verdicts_entry_points_take_a_trainer_named_like_a_test():
    texts = {
        "word_cnn_test.py": textwrap.dedent(TRAINER),
        "model_test.py": textwrap.dedent(PYTEST),
        "model.py": "import torch\n",
    }
    assert entry_points(texts) == [("word_cnn_test.py", "")]


def test_a_script_whose_top_level_calls_its_own_training_function_is_an_entry_point():
    # TCN's `add_test.py`: no guard; the last lines run `train(ep)` per epoch.
    script = textwrap.dedent(
        """
        import torch
        model = torch.nn.Linear(2, 1).cuda()

        def train(epoch):
            for x in range(3):
                model(x).sum().backward()

        for ep in range(1, 3):
            train(ep)
        """
    )
    library = script.rsplit("for ep", 1)[0]  # the same function, not called at import
    assert entry_points({"add_test.py": script, "lib_test.py": library}) == [("add_test.py", "")]
    # The step one call further (`train` → `step`), in a script not named like a test.
    deeper = script.replace("model(x).sum().backward()", "step(x)") + (
        "\ndef step(x):\n    model(x).sum().backward()\n"
    )
    assert entry_points({"add.py": deeper, "lib.py": library}) == [("add.py", "")]
