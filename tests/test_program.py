"""The program model: entry points, imports, reach, training steps and kinds across files."""

from __future__ import annotations

import textwrap

from trncodemod.analysis.program import (
    ModuleSummary,
    build_program,
    is_test_module,
    summarize,
)


def _program(files: dict[str, str], **kwargs):
    summaries = {path: summarize(textwrap.dedent(text)) for path, text in files.items()}
    return build_program(summaries, **kwargs)


FSDP_TREE = {
    "train.py": """
        import torch
        from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
        from utils import train

        def main():
            model = FSDP(build())
            train(model, torch.optim.SGD(model.parameters()))

        if __name__ == "__main__":
            main()
    """,
    "utils/__init__.py": "from .train_utils import train\n",
    "utils/train_utils.py": """
        import torch.distributed as dist

        def train(model, optimizer):
            dist.init_process_group("nccl")
            for batch in range(3):
                model(batch).sum().backward()
                optimizer.step()
    """,
    "unused.py": "def helper():\n    return 1\n",
}


def test_a_helper_module_takes_the_kind_of_training_of_the_entry_point_that_reaches_it():
    program = _program(FSDP_TREE)
    assert program.view("utils/train_utils.py").parallelism == ("torch-fsdp",)
    assert program.view("utils/train_utils.py").entry_points == ("train.py",)


def test_a_module_no_entry_point_reaches_keeps_its_own_kind():
    program = _program(FSDP_TREE)
    assert program.view("unused.py").parallelism == ()
    assert program.view("unused.py").entry_points == ()


def test_the_training_step_is_found_in_the_helper_with_its_call_chain():
    program = _program(FSDP_TREE)
    steps = program.steps_of("train.py")
    assert [(path, name) for path, name, _line, _chain in steps] == [
        ("utils/train_utils.py", "train")
    ]
    assert steps[0][3] == ["train.py", "train.py:main", "utils/train_utils.py:train"]


def test_entry_points_come_from_main_guards_launch_lines_and_console_scripts():
    files = {
        "a.py": "if __name__ == '__main__':\n    pass\n",
        "b.py": "x = 1\n",
        "pkg/cli.py": "def run():\n    pass\n",
        "tests/test_a.py": "if __name__ == '__main__':\n    pass\n",
    }
    program = _program(files, launched=["b.py"], console_scripts=[("pkg.cli", "run")])
    assert program.entry_points == {"a.py": ("",), "b.py": ("",), "pkg/cli.py": ("run",)}


def test_test_modules_are_never_entry_points_nor_training_programs():
    assert is_test_module("tests/models/test_bert.py")
    assert is_test_module("conftest.py") and is_test_module("pkg/io_test.py")
    assert not is_test_module("src/transformers/testing_utils.py")
    program = _program({"tests/run_it.py": "if __name__ == '__main__':\n    pass\n"})
    assert program.entry_points == {}
    assert program.view("tests/run_it.py").is_test


def test_two_entry_points_of_different_kinds_give_a_shared_helper_both():
    files = {
        "ddp.py": """
            from torch.nn.parallel import DistributedDataParallel as DDP
            from common import step
            if __name__ == "__main__":
                step(DDP(m))
        """,
        "fsdp.py": """
            from torch.distributed.fsdp import fully_shard
            import common
            if __name__ == "__main__":
                common.step(fully_shard(m))
        """,
        "common.py": "def step(model):\n    pass\n",
    }
    program = _program(files)
    assert program.view("common.py").parallelism == ("ddp", "torch-fsdp")
    assert program.view("ddp.py").parallelism == ("ddp",)


def test_methods_of_a_class_the_entry_point_builds_are_reached():
    files = {
        "main.py": "from trainer import Trainer\nif __name__ == '__main__':\n    Trainer().fit()\n",
        "trainer.py": """
            class Trainer:
                def fit(self):
                    for x in data:
                        self.loss(x).backward()
                        self.optimizer.step()
        """,
    }
    program = _program(files)
    assert [s[:2] for s in program.steps_of("main.py")] == [("trainer.py", "Trainer")]


def test_a_device_imported_from_another_module_is_followed_there():
    files = {
        "lib.py": """
            import torch
            torch_device = "cuda" if torch.cuda.is_available() else "cpu"

            def autodetect_device_type():
                if torch.cuda.is_available():
                    return "cuda"
                return "cpu"
        """,
        "train.py": """
            from lib import torch_device, autodetect_device_type
            device = autodetect_device_type()
            model.to(device)
            loss.backward()
        """,
    }
    program = _program(files)
    imported = program.view("train.py").imported_devices
    # The tool's own fix makes lib.torch_device the accelerator (TRN003); the function is not.
    assert imported == {
        "torch_device": ("lib.py", 3, True),
        "autodetect_device_type": ("lib.py", 6, False),
    }
    decisions = program.view("lib.py").decisions
    assert list(decisions) == ["autodetect_device_type"]
    line, _column, why, uses = decisions["autodetect_device_type"]
    assert line == 6 and "is False on Trainium" in why and uses == ("train.py:3:10",)


def test_a_device_only_tests_import_is_no_decision_to_report():
    files = {
        "testing_utils.py": "import os\ntorch_device = os.environ['DEVICE']\n",
        "tests/test_x.py": "from testing_utils import torch_device\nx.to(torch_device)\n",
    }
    program = _program(files)
    assert program.view("testing_utils.py").decisions == {}


def test_the_summary_travels_through_json_unchanged():
    summary = summarize(textwrap.dedent(FSDP_TREE["train.py"]))
    assert ModuleSummary.from_json(summary.to_json()) == summary


def test_a_host_read_the_step_reaches_in_another_module_comes_with_its_call_chain():
    files = {
        "train.py": """
            from losses import compute_loss
            for step in range(10):
                compute_loss(model, batch).backward()
                optimizer.step()
        """,
        "losses.py": """
            from matcher import match

            def compute_loss(model, batch):
                return model(batch).sum() + match(model(batch))

            def report(x):
                return x.item()
        """,
        "matcher.py": "def match(out):\n    return out.detach().cpu().numpy()\n",
    }
    program = _program(files)
    assert program.view("matcher.py").step_reads == (
        (2, 12, "cpu", "train.py:3 → compute_loss → match → matcher.py:2"),
    )
    assert program.view("losses.py").step_reads == ()  # `report` is not called by the step
