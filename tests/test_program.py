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
    # The tool's own fix makes lib.torch_device the accelerator (TRN003); the function is not,
    # nor `device`, built from it.
    assert imported == {
        "torch_device": ("lib.py", 3, True),
        "autodetect_device_type": ("lib.py", 6, False),
        "device": ("lib.py", 6, False),
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


def test_a_helper_whose_parameter_is_a_slice_length_is_seen_from_the_module_importing_it():
    files = {
        "utils.py": """
            def get_batch(source, i, args, seq_len=None):
                seq_len = min(seq_len if seq_len else args.bptt, len(source) - 1 - i)
                return source[i:i + seq_len], source[i + 1:i + 1 + seq_len].view(-1)

            def shifted(source, i, n):
                return source[i:i + n], source[i + 1:i + 1 + n]

            def log_batch(seq_len):
                print(seq_len)
        """,
        "main.py": "from utils import get_batch, log_batch, shifted\n",
    }
    summary = summarize(textwrap.dedent(files["utils.py"]))
    assert ModuleSummary.from_json(summary.to_json()) == summary
    found = _program(files).view("main.py").imported_shape_params
    assert sorted(found) == ["get_batch", "shifted"]  # not log_batch: it slices nothing
    assert (3, "seq_len", "utils.py:4") in found["get_batch"]
    # `i` moves both bounds of `source[i:i + n]`: an offset, not a length.
    assert [p for _, p, _ in found["shifted"]] == ["n"]


def test_a_helper_that_crops_a_parameter_at_a_drawn_offset_is_seen_from_the_module_importing_it():
    files = {
        "imgproc.py": """
            import random

            def random_crop(image, size):
                top = random.randint(0, image.shape[-2] - size)
                return image[..., top:top + size, :]

            def crop_at(image, top, size):
                return image[..., top:top + size, :]

            def augment(image, size):
                return random_crop(image, size).flip(-1)

            def center_crop(image, size):
                top = (image.shape[-2] - size) // 2
                return image[..., top:top + size, :]

            def random_length(image):
                return image[:, :random.randint(8, 16)]
        """,
        "main.py": "from imgproc import augment, center_crop, crop_at, random_crop\n",
    }
    summary = summarize(textwrap.dedent(files["imgproc.py"]))
    assert ModuleSummary.from_json(summary.to_json()) == summary
    found = _program(files).view("main.py").imported_drawn_slices
    assert sorted(found) == ["augment", "center_crop", "crop_at", "random_crop"]
    (crop,) = found["random_crop"][1]
    assert (crop.parameter, crop.offset_name, crop.line) == ("image", "", 6)
    assert crop.draw == "random.randint(0, image.shape[-2] - size)"
    (handed,) = found["crop_at"][1]
    assert (handed.parameter, handed.offset, handed.offset_name) == ("image", 1, "top")
    (deeper,) = found["augment"][1]
    assert (deeper.via, deeper.line, deeper.offset_name) == ("random_crop", 6, "")
    # The centre's offset comes from `size`: a step reports it only if it draws `size`.
    assert found["center_crop"][1][0].offset_name == "size"
    # A drawn length is TRN443's, not an offset.
    assert "random_length" not in summary.drawn_slices


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
        (2, 12, "cpu", "train.py:3 → compute_loss → match → matcher.py:2", (), ""),
    )
    assert program.view("losses.py").step_reads == ()  # `report` is not called by the step


# A detection program (DETR's layout): the loss is built in one module, returned in a tuple
# through a re-exporting builder, unpacked in the entry script and passed as a parameter to
# the step function in another module; its matcher arrives as a constructor argument.
DETECTION_TREE = {
    "main.py": """
        import torch
        import util.misc as utils
        from engine import train_one_epoch
        from models import build_model

        if __name__ == "__main__":
            model, criterion, postprocessors = build_model(None)
            loader = torch.utils.data.DataLoader([], batch_size=2, collate_fn=utils.collate_fn)
            train_one_epoch(model, criterion, loader, torch.optim.SGD(model.parameters()))
    """,
    "engine.py": """
        import util.misc as utils

        def train_one_epoch(model, criterion, data_loader, optimizer):
            logger = utils.MetricLogger()
            for epoch_part in range(1):
                for samples, targets in logger.log_every(data_loader, 10):
                    losses = criterion(model(samples), targets)
                    losses.backward()
                    optimizer.step()
                    if epoch_part % 100 == 0:
                        utils.report(losses)
                utils.report(losses)

        def evaluate(model, postprocessors, data_loader):
            for samples, targets in data_loader:
                postprocessors["bbox"](model(samples))
    """,
    "models/__init__.py": """
        from .detr import build

        def build_model(args):
            return build(args)
    """,
    "models/detr.py": """
        import torch
        from .matcher import build_matcher

        class SetCriterion(torch.nn.Module):
            def __init__(self, matcher):
                super().__init__()
                self.matcher = matcher

            def forward(self, outputs, targets):
                indices = self.matcher(outputs, targets)
                num_boxes = torch.as_tensor([len(targets)]).item()
                return outputs.sum() / num_boxes

        class PostProcess(torch.nn.Module):
            def forward(self, outputs):
                return outputs.cpu()

        def build(args):
            criterion = SetCriterion(matcher=build_matcher())
            return torch.nn.Linear(2, 2), criterion, {"bbox": PostProcess()}
    """,
    "models/matcher.py": """
        import torch
        from scipy.optimize import linear_sum_assignment

        class HungarianMatcher(torch.nn.Module):
            def forward(self, outputs, targets):
                cost = outputs.detach().cpu()
                return linear_sum_assignment(cost)

        def build_matcher():
            return HungarianMatcher()
    """,
    "util/misc.py": """
        import torch

        class MetricLogger:
            def log_every(self, iterable, print_freq):
                for obj in iterable:
                    yield obj

        def report(value):
            print(value.item())

        def _max_by_axis(sizes):
            return [max(s) for s in zip(*sizes)]

        def nested_tensor_from_tensor_list(images):
            size = _max_by_axis([list(img.shape) for img in images])
            return torch.zeros([len(images), *size])

        def collate_fn(batch):
            images, targets = zip(*batch)
            return nested_tensor_from_tensor_list(images), targets
    """,
}


def test_what_the_loss_passed_as_a_parameter_runs_every_step_is_reached_with_its_chain():
    program = _program(DETECTION_TREE)
    assert program.view("models/matcher.py").step_reads == (
        (
            7,
            16,
            "cpu",
            "engine.py:7 → criterion (SetCriterion.forward) → self.matcher "
            "(HungarianMatcher.forward) → models/matcher.py:7",
            ("scipy.optimize.linear_sum_assignment",),
            "",
        ),
    )
    assert program.view("models/detr.py").step_reads == (
        (
            12,
            21,
            "item",
            "engine.py:7 → criterion (SetCriterion.forward) → models/detr.py:12",
            (),
            "",
        ),
    )


def test_what_only_evaluation_an_interval_or_the_epoch_runs_is_not_per_step():
    program = _program(DETECTION_TREE)
    # PostProcess: built beside the loss, run only by `evaluate`; `report`: every 100 steps
    # (an interval guard) and once per epoch part (the loop around the step).
    assert [read[:3] for read in program.view("models/detr.py").step_reads] == [(12, 21, "item")]
    assert program.view("util/misc.py").step_reads == ()


def test_the_collate_function_of_the_loader_the_step_iterates_pads_to_its_largest_item():
    program = _program(DETECTION_TREE)
    assert program.view("util/misc.py").step_shapes == (
        (
            16,
            12,
            "engine.py:7 → utils.collate_fn → nested_tensor_from_tensor_list → util/misc.py:16",
        ),
    )


def test_a_parameter_is_what_the_step_passes_not_what_other_callers_pass():
    files = {
        "train.py": """
            from model import GPT, Engine
            model = GPT()
            Engine(model).generate()
            for step in range(10):
                model(step).backward()
                optimizer.step()
        """,
        "model.py": """
            class GPT:
                def forward(self, idx, kv_cache=None):
                    if kv_cache is not None:
                        kv_cache.advance()
                    return idx

            class KVCache:
                def advance(self):
                    return self.pos.item()

            class Engine:
                def __init__(self, model):
                    self.model = model

                def generate(self):
                    return self.model(0, kv_cache=KVCache())
        """,
    }
    assert _program(files).view("model.py").step_reads == ()


def test_a_host_read_under_a_condition_says_which():
    files = {
        "train.py": """
            from loss import ComputeLoss
            compute_loss = ComputeLoss()
            for step in range(10):
                compute_loss(model(step)).backward()
                optimizer.step()
        """,
        "loss.py": """
            class ComputeLoss:
                def __init__(self, autobalance=False):
                    self.autobalance = autobalance

                def __call__(self, out):
                    if self.autobalance:
                        self.balance = out.detach().item()
                    else:
                        print(out.tolist())
                    return out.sum()
        """,
    }
    reads = _program(files).view("loss.py").step_reads
    assert [(read[2], read[5]) for read in reads] == [
        ("item", "self.autobalance"),
        ("tolist", "not (self.autobalance)"),
    ]


def test_a_device_built_from_an_imported_device_is_decided_where_that_one_is():
    files = {
        "common.py": """
            import torch

            def autodetect_device_type():
                if torch.cuda.is_available():
                    return "cuda"
                return "cpu"

            def compute_init(device_type):
                return 0, torch.device(device_type)
        """,
        "train.py": """
            import torch
            from common import autodetect_device_type, compute_init
            device_type = autodetect_device_type() if args.device_type == "" else args.device_type
            rank, device = compute_init(device_type)
            model = torch.nn.Linear(2, 2).to(device)
            for step in range(3):
                model(step).backward()
        """,
    }
    program = _program(files)
    assert set(program.view("train.py").imported_devices) == {
        "autodetect_device_type",
        "device_type",
        "device",
    }
    (line, _column, _why, uses) = program.view("common.py").decisions["autodetect_device_type"]
    assert line == 5
    assert uses == ("train.py:4:15", "train.py:5:1")


def test_a_device_chosen_here_beside_an_imported_one_is_decided_here():
    files = {
        "common.py": "def autodetect_device_type():\n    return 'cpu'\n",
        "train.py": """
            from common import autodetect_device_type
            device = autodetect_device_type() if args.gpu else "cpu"
        """,
    }
    assert "device" not in _program(files).view("train.py").imported_devices


def test_launch_lines_keep_their_arguments_continued_lines_joined(tmp_path) -> None:
    from pathlib import PurePosixPath

    from trncodemod.pipeline.program import _launched

    readme = tmp_path / "README.md"
    readme.write_bytes(
        b"python main.py\r\ntorchrun --nproc_per_node=2 main.py \\\r\n  --cuda --epochs 2 | tee log\n"
        b"python other.py --cuda; python train.py \\\n --lr 1\n"
    )
    found = _launched(readme, PurePosixPath("."), {"main.py", "train.py"})
    assert found == [
        ("main.py", "README.md: python main.py"),
        ("main.py", "README.md: torchrun --nproc_per_node=2 main.py --cuda --epochs 2"),
        ("train.py", "README.md: python train.py --lr 1"),
    ]


def test_a_launch_line_continued_after_trailing_spaces_or_ended_by_a_code_span(tmp_path) -> None:
    """Documentation often leaves spaces after the backslash that continues a command, and
    names a command inside a sentence's code span: the first is joined, the second ends at its
    backtick (so `python main.py --help` in prose is a help call, not a run)."""
    from pathlib import PurePosixPath

    from trncodemod.pipeline.program import _launched

    readme = tmp_path / "get_started.md"
    readme.write_text(
        "python -m torch.distributed.launch --nproc_per_node 8 main.py \\ \n"
        "--cfg configs/tiny.yaml --batch-size 128\n"
        "For more, run `python main.py --help` to get a detailed message.\n"
        "Or `python main.py --cfg a.yaml` then read the log.\n"
    )
    found = _launched(readme, PurePosixPath("."), {"main.py"})
    assert found == [
        (
            "main.py",
            "get_started.md: python -m torch.distributed.launch --nproc_per_node 8 main.py "
            "--cfg configs/tiny.yaml --batch-size 128",
        ),
        ("main.py", "get_started.md: python main.py --cfg a.yaml"),
    ]


INFERENCE_TREE = {
    "models.py": """
        import torch.nn as nn

        class Net(nn.Module):
            def forward(self, x):
                return x
    """,
    "infer.py": """
        import torch
        from models import Net

        def main():
            with torch.no_grad():
                print(Net()(torch.ones(1)))

        if __name__ == "__main__":
            main()
    """,
}


def test_a_model_only_an_inference_script_reaches_is_untrained():
    program = _program(INFERENCE_TREE)
    assert program.view("models.py").untrained
    assert program.view("infer.py").untrained


def test_a_training_script_without_a_main_guard_still_trains_the_model():
    script = """
        import torch
        from models import Net

        model = Net()
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

        def train():
            for x in range(3):
                model(x).sum().backward()
                optimizer.step()

        for epoch in range(2):
            train()
    """
    program = _program({**INFERENCE_TREE, "train_noguard.py": script})
    assert not program.view("models.py").untrained
    assert program.view("infer.py").untrained


def test_a_module_no_entry_point_reaches_is_not_known_untrained():
    assert not _program({"models.py": INFERENCE_TREE["models.py"]}).view("models.py").untrained


AGENT = """
    import torch

    class Agent:
        def __init__(self, model):
            self.optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

        def update(self, loss):
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            return loss.item()
"""


def _called_steps(caller: str, **extra: str) -> tuple:
    program = _program({"agent.py": AGENT, "train.py": caller, **extra})
    return program.view("agent.py").called_steps


def test_a_one_step_method_called_once_per_iteration_of_an_uncut_loop_is_that_loops_step():
    caller = """
        import agent as agents

        def main(model, losses):
            runner = agents.Agent(model)
            for loss in losses:
                runner.update(loss)
    """
    assert _called_steps(caller) == (("Agent.update", "train.py:6"),)


def test_a_one_step_method_is_no_loops_step_where_the_loop_cuts_or_a_call_is_outside_loops():
    cut = """
        import torch_xla
        from agent import Agent

        def main(model, losses):
            runner = Agent(model)
            for loss in losses:
                runner.update(loss)
                torch_xla.sync()
    """
    once = """
        from agent import Agent

        def main(model, losses):
            runner = Agent(model)
            for loss in losses:
                runner.update(loss)
            runner.update(losses[0])
    """
    batches = """
        from agent import Agent

        def main(model, loader, device):
            runner = Agent(model)
            for x in loader:
                runner.update(model(x.to(device)).sum())
    """
    assert _called_steps(cut) == _called_steps(once) == ()
    # A loop the step-marker pass would cut only at the end of its iteration (it moves its batch
    # and calls the model) leaves the cut to the method, after its optimizer step.
    assert _called_steps(batches) == (("Agent.update", "train.py:6"),)


def test_a_test_modules_call_of_a_one_step_method_does_not_count():
    caller = """
        from agent import Agent

        def main(model, losses):
            runner = Agent(model)
            for loss in losses:
                runner.update(loss)
    """
    test = """
        from agent import Agent

        def test_update(model, loss):
            Agent(model).update(loss)
    """
    assert _called_steps(caller, **{"tests/test_agent.py": test}) == (
        ("Agent.update", "train.py:6"),
    )


def test_the_names_another_module_calls_imports_or_hands_on_are_known_to_their_module():
    files = {
        "evaluate.py": """
            def evaluate(model, device):
                return model
            def load(device):
                return device
            class Meter:
                pass
        """,
        "train.py": """
            import evaluate as ev
            from evaluate import Meter
            def main(device):
                ev.evaluate(None, device)
                return [Meter]
        """,
        "other.py": "import evaluate\n",
    }
    program = _program(files)
    assert program.view("evaluate.py").named_elsewhere == ("Meter", "evaluate")
    assert program.view("train.py").named_elsewhere == ()


def _views(tmp_path, files: dict[str, str]):
    from trncodemod.pipeline.program import program_views

    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(textwrap.dedent(text))
    modules = sorted(name for name in files if name.endswith(".py"))
    return program_views([tmp_path / m for m in modules], modules, None)


PACKAGE_TREE = {
    "pkg/__init__.py": "from pkg.core import sample\n",
    "pkg/core.py": "from pkg import ops\ndef sample(net, x):\n    return net(x)\n",
    "pkg/ops.py": "def add(a, b):\n    return a + b\n",
    "pkg/extra.py": "def helper():\n    return 1\n",
    "pkg/smoke.py": "if __name__ == '__main__':\n    print(1)\n",
    "pkg/train.py": """
        import torch
        from pkg.core import sample
        net = torch.nn.Linear(2, 2)
        opt = torch.optim.SGD(net.parameters(), lr=0.1)
        for step in range(10):
            sample(net, torch.ones(2)).sum().backward()
            opt.step()
    """,
    "tests/__init__.py": "",
    "tests/test_core.py": "from pkg.core import sample\n",
    "README.md": "python pkg/train.py\n",
}


def test_the_modules_a_user_of_a_published_package_imports_are_marked_with_what_publishes_it(
    tmp_path,
):
    views = _views(
        tmp_path, {**PACKAGE_TREE, "setup.py": "from setuptools import setup\nsetup(name='pkg')\n"}
    )
    published = {path for path, view in views.items() if view.published}
    # Loaded by `import pkg`, or a module of the package with no script in it; not the launched
    # script inside the package, nor the tests.
    assert published == {
        "pkg/__init__.py",
        "pkg/core.py",
        "pkg/ops.py",
        "pkg/extra.py",
        "pkg/smoke.py",
    }
    assert views["pkg/core.py"].published == "`pkg` (published by setup.py)"


def test_a_packaging_file_that_declares_no_distribution_publishes_nothing(tmp_path):
    tool_only = {**PACKAGE_TREE, "pyproject.toml": "[tool.ruff]\nline-length = 100\n"}
    assert not any(view.published for view in _views(tmp_path, tool_only).values())


def test_setup_cfg_metadata_and_a_pyproject_project_table_declare_one(tmp_path):
    for name, text in (
        ("setup.cfg", "[metadata]\nname = pkg\n"),
        ("pyproject.toml", "[project]\nname = 'pkg'\nversion = '1'\n"),
    ):
        folder = tmp_path / name
        views = _views(folder, {**PACKAGE_TREE, name: text})
        assert views["pkg/ops.py"].published == f"`pkg` (published by {name})"
        assert not views["pkg/train.py"].published
