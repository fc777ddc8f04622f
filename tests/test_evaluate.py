"""The evaluator of the migrated program (``analysis.evaluate``) and the verdict per entry
point (``analysis.verdict``, issue 34): each shape decided as the target decides it, and every
golden input evaluated with no crash and a verdict."""

from __future__ import annotations

from pathlib import Path

import pytest

from trncodemod.analysis.evaluate import Evaluator, facts_for
from trncodemod.analysis.verdict import CANNOT_TELL, DOES_NOT, NO_STEP, RUNS, judge
from trncodemod.pipeline.notebook_program import notebook_program

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
XLA = facts_for("xla")


def verdict(files: dict[str, str], entry: str = "train.py", lines=None, facts=XLA):
    evaluator = Evaluator(files, facts, lines or {})
    return judge(entry, evaluator.run(entry), facts)


STEP = """
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for x, y in torch.utils.data.DataLoader(data):
    loss = model(x.to(device)).sum()
    loss.backward()
    optimizer.step()
    torch_xla.sync()
"""


def test_a_model_and_inputs_on_the_xla_device_with_a_cut_step_run():
    text = "import torch, torch_xla\ndevice = torch_xla.device()\n"
    text += "model = torch.nn.Linear(2, 2).to(device)\n" + STEP
    found = verdict({"train.py": text})
    assert found.value == RUNS, found


def test_a_flag_set_by_a_conditional_expression_keeps_the_model_on_the_cpu():
    text = (
        "import torch, torch_xla\n"
        "cuda = True if torch.cuda.is_available() else False\n"
        "device = torch_xla.device()\n"
        "model = torch.nn.Linear(2, 2)\n"
        "if cuda:\n"
        "    model.to(device)\n" + STEP
    )
    found = verdict({"train.py": text})
    assert found.value == DOES_NOT
    assert found.where == "train.py:2"
    assert "`cuda` is False" in found.reason and "never runs" in found.reason


def test_tensor_types_chosen_by_the_flag_put_the_inputs_on_the_cpu():
    text = (
        "import torch, torch_xla\n"
        "cuda = torch.cuda.is_available()\n"
        "Tensor = torch.cuda.FloatTensor if cuda else torch.FloatTensor\n"
        "device = torch_xla.device()\n"
        "model = torch.nn.Linear(2, 2).to(device)\n"
        "optimizer = torch.optim.SGD(model.parameters(), lr=0.1)\n"
        "for x, y in torch.utils.data.DataLoader(data):\n"
        "    loss = model(x.type(Tensor)).sum()\n"
        "    loss.backward()\n"
        "    optimizer.step()\n"
        "    torch_xla.sync()\n"
    )
    found = verdict({"train.py": text})
    assert found.value == DOES_NOT
    assert "`x.type(Tensor)`" in found.reason


def test_a_cuda_tensor_type_called_makes_the_inputs_on_cuda():
    text = (
        "import torch, torch_xla\n"
        "cuda = True\n"
        "Tensor = torch.cuda.FloatTensor if cuda else torch.FloatTensor\n"
        "device = torch_xla.device()\n"
        "model = torch.nn.Linear(2, 2).to(device)\n"
        "optimizer = torch.optim.SGD(model.parameters(), lr=0.1)\n"
        "for step in range(3):\n"
        "    loss = model(Tensor(8, 2).normal_()).sum()\n"
        "    loss.backward()\n"
        "    optimizer.step()\n"
        "    torch_xla.sync()\n"
    )
    found = verdict({"train.py": text})
    assert found.value == DOES_NOT
    assert "torch.cuda.FloatTensor" in found.reason


def test_a_cpu_tensor_type_called_then_moved_to_the_device_runs():
    text = (
        "import torch, torch_xla\n"
        "Tensor = torch.FloatTensor\n"
        "device = torch_xla.device()\n"
        "model = torch.nn.Linear(2, 2).to(device)\n"
        "optimizer = torch.optim.SGD(model.parameters(), lr=0.1)\n"
        "for step in range(3):\n"
        "    loss = model(Tensor(8, 2).normal_().to(device)).sum()\n"
        "    loss.backward()\n"
        "    optimizer.step()\n"
        "    torch_xla.sync()\n"
    )
    assert verdict({"train.py": text}).value == RUNS


def test_an_undecided_device_cannot_be_told_and_names_its_line():
    text = (
        "import os, torch, torch_xla\n"
        "device = torch.device(os.environ['DEVICE'])\n"
        "model = torch.nn.Linear(2, 2).to(device)\n" + STEP
    )
    found = verdict({"train.py": text})
    assert found.value == CANNOT_TELL
    assert found.where == "train.py:2"


def test_a_launch_line_that_sets_the_flag_decides_it():
    text = (
        "import argparse, torch, torch_xla\n"
        "parser = argparse.ArgumentParser()\n"
        "parser.add_argument('--accel', action='store_true')\n"
        "args = parser.parse_args()\n"
        "device = torch_xla.device() if args.accel else torch.device('cpu')\n"
        "model = torch.nn.Linear(2, 2).to(device)\n" + STEP
    )
    assert verdict({"train.py": text}).value == DOES_NOT
    lines = {"train.py": ["run.sh: python train.py --accel"]}
    assert verdict({"train.py": text}, lines=lines).value == RUNS


def test_lines_that_disagree_on_a_flag_each_naming_it_leave_it_undecided():
    """`python train.py --accel 1` and `python train.py --accel 0`: both name the flag, so
    neither is the documented default run (a line that does not name it would be)."""
    text = (
        "import argparse, torch, torch_xla\n"
        "parser = argparse.ArgumentParser()\n"
        "parser.add_argument('--accel', type=int, default=0)\n"
        "args = parser.parse_args()\n"
        "device = torch_xla.device() if args.accel else torch.device('cpu')\n"
        "model = torch.nn.Linear(2, 2).to(device)\n" + STEP
    )
    both = {"train.py": ["a.sh: python train.py --accel 1", "b.sh: python train.py --accel 0"]}
    assert verdict({"train.py": text}, lines=both).value == CANNOT_TELL
    plain = {"train.py": ["a.sh: python train.py --accel 1", "b.sh: python train.py"]}
    assert verdict({"train.py": text}, lines=plain).value == DOES_NOT


def test_the_step_handed_to_an_engine_is_found_and_judged():
    text = (
        "import torch, torch_xla\n"
        "from ignite.engine import Engine\n"
        "model = torch.nn.Linear(2, 2)\n"
        "optimizer = torch.optim.SGD(model.parameters(), lr=0.1)\n"
        "def update(engine, batch):\n"
        "    x, y = batch\n"
        "    loss = model(x).sum()\n"
        "    loss.backward()\n"
        "    optimizer.step()\n"
        "trainer = Engine(update)\n"
        "trainer.run(torch.utils.data.DataLoader(data))\n"
    )
    found = verdict({"train.py": text})
    assert found.value == DOES_NOT and "built on the CPU" in found.reason


def test_a_device_handed_down_through_calls_across_modules_is_followed():
    files = {
        "train.py": "import torch\nfrom helpers import build, fit\n"
        "import torch_xla\nmodel = build(torch_xla.device())\nfit(model, torch_xla.device())\n",
        "helpers.py": "import torch, torch_xla\n"
        "def build(device):\n    return make(device)\n"
        "def make(device):\n    return torch.nn.Linear(2, 2).to(device)\n"
        "def fit(model, device):\n"
        "    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)\n"
        "    for x in torch.utils.data.DataLoader([]):\n"
        "        model(x.to(device)).sum().backward()\n"
        "        optimizer.step()\n"
        "        torch_xla.sync()\n",
    }
    assert verdict(files).value == RUNS


def test_a_model_in_torch_fsdp_does_not_run():
    text = (
        "import torch, torch_xla\n"
        "from torch.distributed.fsdp import FullyShardedDataParallel as FSDP\n"
        "device = torch_xla.device()\n"
        "model = FSDP(torch.nn.Linear(2, 2).to(device))\n" + STEP
    )
    found = verdict({"train.py": text})
    assert found.value == DOES_NOT and "FSDP" in found.reason


def test_no_step_gets_no_verdict():
    assert verdict({"train.py": "import torch\nx = torch.ones(2)\n"}).value == NO_STEP


def test_recursion_and_loops_stay_bounded():
    text = "import torch\ndef f(n):\n    return f(n - 1)\nf(3)\nwhile True:\n    f(1)\n"
    assert verdict({"train.py": text}).value == NO_STEP


def _golden_programs() -> list[tuple[str, dict[str, str]]]:
    found = []
    for path in sorted(GOLDEN.glob("*/*.in.py")):
        found.append((path.relative_to(GOLDEN).as_posix(), {"train.py": path.read_text()}))
    for case in sorted((GOLDEN / "program").iterdir()):
        for side in ("in", "out"):
            if (case / side).is_dir():
                files = {
                    p.relative_to(case / side).as_posix(): p.read_text()
                    for p in sorted((case / side).rglob("*.py"))
                }
                # A notebook is judged as its code cells joined into one module.
                for p in sorted((case / side).rglob("*.ipynb")):
                    program = notebook_program(p.read_bytes())
                    assert program is not None, p
                    files[p.relative_to(case / side).as_posix()] = program.text
                found.append((f"program/{case.name}/{side}", files))
    return found


def test_every_golden_input_is_evaluated_with_no_crash_and_a_verdict():
    for name, files in _golden_programs():
        evaluator = Evaluator(files, XLA, {})
        for entry in files:
            trace = evaluator.run(entry)
            assert not trace.failure, f"{name} {entry}: {trace.failure}"
            found = judge(entry, trace, XLA)
            assert found.value in (RUNS, DOES_NOT, CANNOT_TELL, NO_STEP), name


@pytest.mark.parametrize("backend", ["xla", "neuron"])
def test_the_facts_are_data_per_backend(backend: str):
    facts = facts_for(backend)
    assert "torch.cuda.is_available" in facts.false_calls
    assert facts.accelerator_strings


def test_a_subclass_its_base_launched_per_process_and_a_device_loader_run():
    """pytorch/xla's examples: `super().__init__()` builds the model, `torch_xla.launch(fn)`
    runs it, `enumerate(itertools.islice(MpDeviceLoader(...)))` brings batches already on the
    device and cuts each step."""
    files = {
        "base.py": "import itertools, torch, torch_xla\n"
        "import torch_xla.distributed.parallel_loader as pl\n"
        "class Base:\n"
        "    def __init__(self):\n"
        "        self.device = torch_xla.device()\n"
        "        self.loader = pl.MpDeviceLoader(torch.utils.data.DataLoader([]), self.device)\n"
        "        self.model = torch.nn.Linear(2, 2).to(self.device)\n"
        "        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=0.1)\n"
        "    def train(self):\n"
        "        loader = itertools.islice(self.loader, 10)\n"
        "        for step, (data, target) in enumerate(loader):\n"
        "            self.model(data).sum().backward()\n"
        "            self.optimizer.step()\n",
        "train.py": "import torch_xla\nfrom base import Base\n"
        "class Mine(Base):\n"
        "    def __init__(self):\n"
        "        super().__init__()\n"
        "def _mp_fn(index):\n    Mine().train()\n"
        "if __name__ == '__main__':\n    torch_xla.launch(_mp_fn)\n",
    }
    assert verdict(files).value == RUNS


def test_a_batch_moved_by_map_and_a_compiled_step_run():
    text = (
        "import torch, torch_xla\n"
        "device = torch_xla.device()\n"
        "model = torch.nn.Linear(2, 2).to(device)\n"
        "optimizer = torch.optim.SGD(model.parameters(), lr=0.1)\n"
        "def step(x, y):\n"
        "    model(x).sum().backward()\n"
        "    optimizer.step()\n"
        "compiled = torch_xla.compile(step)\n"
        "for batch in torch.utils.data.DataLoader(data):\n"
        "    x, y = map(lambda t: t.to(device), batch)\n"
        "    compiled(x, y)\n"
    )
    assert verdict({"train.py": text}).value == RUNS


def test_an_input_the_evaluator_did_not_follow_cannot_be_told():
    text = (
        "import torch, torch_xla\n"
        "device = torch_xla.device()\n"
        "model = torch.nn.Linear(2, 2).to(device)\n"
        "optimizer = torch.optim.SGD(model.parameters(), lr=0.1)\n"
        "for x in make_batches():\n"
        "    model(x).sum().backward()\n"
        "    optimizer.step()\n"
        "    torch_xla.sync()\n"
    )
    assert verdict({"train.py": text}).value == CANNOT_TELL


def test_accelerate_prepares_the_model_and_loader_on_the_device():
    text = (
        "import torch\nfrom accelerate import Accelerator\n"
        "accelerator = Accelerator()\n"
        "model = torch.nn.Linear(2, 2)\n"
        "optimizer = torch.optim.SGD(model.parameters(), lr=0.1)\n"
        "loader = torch.utils.data.DataLoader(data)\n"
        "model, optimizer, loader = accelerator.prepare(model, optimizer, loader)\n"
        "for x in loader:\n"
        "    accelerator.backward(model(x).sum())\n"
        "    optimizer.step()\n"
    )
    assert verdict({"train.py": text}).value == RUNS


def test_a_framework_that_owns_the_loop_runs_only_where_the_facts_say_so():
    hf = (
        "from transformers import Trainer, AutoModel\n"
        "model = AutoModel.from_pretrained('bert-base-uncased')\n"
        "Trainer(model=model, args=args).train()\n"
    )
    assert verdict({"train.py": hf}).value == RUNS
    lightning = "import lightning as L\nL.Trainer(accelerator='auto').fit(model)\n"
    found = verdict({"train.py": lightning})
    assert found.value == CANNOT_TELL and "lightning.Trainer" in found.reason
    assert verdict({"train.py": hf}, facts=facts_for("neuron")).value == CANNOT_TELL


def test_a_loss_module_left_on_the_cpu_is_not_the_model():
    text = (
        "import torch, torch_xla\n"
        "device = torch_xla.device()\n"
        "model = torch.nn.Linear(2, 2).to(device)\n"
        "criterion = torch.nn.CrossEntropyLoss()\n"
        "optimizer = torch.optim.SGD(model.parameters(), lr=0.1)\n"
        "for x, y in torch.utils.data.DataLoader(data):\n"
        "    x, y = x.to(device), y.to(device)\n"
        "    criterion(model(x), y).backward()\n"
        "    optimizer.step()\n"
        "    torch_xla.sync()\n"
    )
    assert verdict({"train.py": text}).value == RUNS


def test_a_warm_run_reads_the_verdict_from_the_cache(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from trncodemod.cli import main
    from trncodemod.pipeline import verdicts

    (tmp_path / "train.py").write_text(
        "import torch, torch_xla\ndevice = torch_xla.device()\n"
        "model = torch.nn.Linear(2, 2).to(device)\n" + STEP
    )
    monkeypatch.chdir(tmp_path)
    calls = []
    evaluate = verdicts._evaluate
    monkeypatch.setattr(verdicts, "_evaluate", lambda *a: calls.append(1) or evaluate(*a))
    lines = []
    for _ in range(2):
        verdicts._MEMO.clear()
        result = CliRunner().invoke(main, ["check", "--cache-dir", str(tmp_path / "c"), "."])
        lines.append(result.stdout.splitlines()[-1])
    assert len(calls) == 1
    assert lines[0] == lines[1] and "1 runs on the accelerator" in lines[0]


def test_each_object_an_open_choice_picks_is_followed_and_the_worst_step_counts():
    """pytorch-generative-model-collections: the launch line's `--gan_type <TYPE>` is a
    placeholder, so which class trains is undecided: each is followed, and the entry point runs
    only if every step it may run does."""
    gans = (
        "import torch, torch_xla, torch.optim  # (a backward with no optimizer anywhere is none)\n"
        "class GAN:\n    def train(self):\n"
        "        model = torch.nn.Linear(2, 2).to(torch_xla.device())\n"
        "        for x in torch.utils.data.DataLoader([]):\n"
        "            model(x.to(torch_xla.device())).sum().backward()\n"
        "            torch_xla.sync()\n"
        "class WGAN(GAN):\n    pass\n"
        "class BEGAN:\n    def train(self):\n"
        "        model = torch.nn.Linear(2, 2)\n"
        "        for x in torch.utils.data.DataLoader([]):\n"
        "            model(x).sum().backward()\n"
    )
    main = (
        "import argparse\nfrom gan import GAN, WGAN, BEGAN\n"
        "parser = argparse.ArgumentParser()\n"
        "parser.add_argument('--gan_type', default='GAN')\n"
        "args = parser.parse_args()\n"
        "gan = GAN() if args.gan_type == 'GAN' else {other}\n"
        "gan.train()\n"
    )
    lines = {"main.py": ["README.md: python main.py --gan_type <TYPE>"]}
    both_run = {"main.py": main.format(other="WGAN()"), "gan.py": gans}
    assert verdict(both_run, "main.py", lines).value == RUNS
    one_does_not = {"main.py": main.format(other="BEGAN()"), "gan.py": gans}
    found = verdict(one_does_not, "main.py", lines)
    assert found.value == DOES_NOT and found.where == "gan.py:12", found
    assert verdict(one_does_not, "main.py").value == RUNS  # the default: GAN


def test_kernels_for_another_xla_device_are_not_shown_to_run():
    text = (
        "import torch, torch_xla\n"
        "from torch_xla.experimental.custom_kernel import flash_attention\n"
        "device = torch_xla.device()\n"
        "model = torch.nn.Linear(2, 2).to(device)\n" + STEP
    )
    found = verdict({"train.py": text})
    assert found.value == CANNOT_TELL and found.where == "train.py:2"


def test_torch_ddp_keeping_device_ids_does_not_run_on_xla():
    """ddp-tutorial-series: `DDP(model, device_ids=[gpu_id])` moves inputs to `xla:<gpu_id>`."""
    text = (
        "import os, torch, torch_xla\n"
        "from torch.nn.parallel import DistributedDataParallel as DDP\n"
        "device = torch_xla.device()\n"
        "gpu_id = int(os.environ['LOCAL_RANK'])\n"
        "model = DDP(torch.nn.Linear(2, 2).to(device), device_ids=[gpu_id])\n" + STEP
    )
    found = verdict({"train.py": text})
    assert found.value == DOES_NOT and found.where == "train.py:5", found
    kept = text.replace(", device_ids=[gpu_id]", ", gradient_as_bucket_view=True")
    assert verdict({"train.py": kept}).value == RUNS


def test_a_framework_told_to_train_on_the_cpu_does_not_run():
    text = (
        "from transformers import Trainer, TrainingArguments, AutoModel\n"
        "model = AutoModel.from_pretrained('bert-base-uncased')\n"
        "args = TrainingArguments(output_dir='out', use_cpu=True)\n"
        "Trainer(model=model, args=args).train()\n"
    )
    found = verdict({"train.py": text})
    assert found.value == DOES_NOT and "use_cpu=True" in found.reason and found.on_cpu, found
    assert verdict({"train.py": text.replace("use_cpu=True", "bf16=True")}).value == RUNS


def test_a_framework_kept_on_the_cpu_marks_its_verdict_as_a_run_on_the_cpu():
    """The structured marker that leaves such a program's modules as given (``proven``)."""
    model = "import pytorch_lightning as pl\nmodel = pl.LightningModule()\n"
    cpu = verdict({"train.py": model + "pl.Trainer(gpus=0, max_epochs=1).fit(model)\n"})
    assert cpu.value == DOES_NOT and cpu.on_cpu, cpu
    cuda = verdict({"train.py": model + "pl.Trainer(gpus=1, max_epochs=1).fit(model)\n"})
    assert cuda.value == DOES_NOT and not cuda.on_cpu, cuda
    unknown = verdict({"train.py": model + "pl.Trainer(max_epochs=1).fit(model)\n"})
    assert unknown.value == CANNOT_TELL and not unknown.on_cpu, unknown


def test_a_framework_handed_a_model_that_cannot_live_on_the_target_does_not_run():
    loaded = (
        "from transformers import Trainer, AutoModel\n"
        "model = AutoModel.from_pretrained('opt', {kwargs})\n"
        "Trainer(model=model, args=args).train()\n"
    )
    for kwargs in ("load_in_8bit=True", "device_map={'': 0}", "device_map=0"):
        found = verdict({"train.py": loaded.format(kwargs=kwargs)})
        assert found.value == DOES_NOT and found.where == "train.py:2", (kwargs, found)
    found = verdict({"train.py": loaded.format(kwargs="device_map='auto'")})
    assert found.value == CANNOT_TELL and found.where == "train.py:2", found
    assert verdict({"train.py": loaded.format(kwargs="load_in_8bit=False")}).value == RUNS


def test_a_framework_handed_a_model_the_evaluator_cannot_follow_cannot_tell():
    text = (
        "from transformers import Trainer\n"
        "from zoo import build\n"
        "Trainer(model=build(), args=args).train()\n"
    )
    found = verdict({"train.py": text})
    assert found.value == CANNOT_TELL and "build()" in found.reason, found


_OFF_ACCELERATOR = """import torch

cuda = True if torch.cuda.is_available() else False{comment}
model = torch.nn.Linear(4, 2)
if cuda:
    model.cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(10):
    loss = model(torch.randn(2, 4)).sum()
    loss.backward()
    optimizer.step()
"""


@pytest.mark.parametrize(
    ("comment", "options", "blocked"),
    [
        ("", [], True),
        ("", ["--ignore", "TRN027"], False),
        ("  # trncodemod: ignore[TRN027]", [], False),
    ],
    ids=["reported", "ignored", "suppressed"],
)
def test_an_entry_point_that_does_not_run_is_a_blocker_unless_left_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, comment: str, options: list[str], blocked: bool
) -> None:
    from click.testing import CliRunner

    from trncodemod.cli import main

    (tmp_path / "gan.py").write_text(_OFF_ACCELERATOR.format(comment=comment))
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["check", "--no-cache", "--exit-zero", *options, "."])
    assert "1 does not: gan.py:3" in result.output  # the verdict says so either way
    assert ("gan.py:3:1: TRN027 [blocker]" in result.output) is blocked
    assert result.exit_code == (1 if blocked else 0)


@pytest.mark.parametrize(
    ("made", "value"),
    [
        ("data.BucketIterator(train, 32, device=device)", RUNS),
        ("data.Iterator(train, 32, None, device)", RUNS),
        ("data.BucketIterator.splits((train, valid), batch_size=32, device=device)[0]", RUNS),
        ("data.BucketIterator(train, 32)", DOES_NOT),  # no device: the CPU
        ("data.BucketIterator(train, 32, device=0)", DOES_NOT),  # an int: the CPU, with a warning
    ],
)
def test_a_torchtext_iterator_makes_its_batches_fields_on_its_device(made: str, value: str):
    text = (
        "import torch, torch_xla\nfrom torchtext.legacy import data\n"
        "device = torch_xla.device()\nmodel = torch.nn.Linear(2, 2).to(device)\n"
        f"optimizer = torch.optim.SGD(model.parameters(), lr=0.1)\nbatches = {made}\n"
        "for batch in batches:\n    loss = model(batch.src).sum()\n    loss.backward()\n"
        "    optimizer.step()\n    torch_xla.sync()\n"
    )
    found = verdict({"train.py": text})
    assert found.value == value, found


def test_lines_off_the_launch_path_are_those_of_a_decided_branch_never_reached_otherwise():
    text = (
        "import torch, json\n"
        "def spawn(n):\n"
        "    if n > 1:\n"
        "        launch(n)\n"  # line 4: off the path when n is 0
        "    else:\n"
        "        run()\n"
        "spawn(torch.cuda.device_count())\n"
        "spawn(json.load(open('c.json'))['gpus'])\n"  # undecided: both branches run
        "if torch.cuda.device_count() > 1:\n"
        "    launch(2)\n"  # line 10: decided, never reached
    )
    off = Evaluator({"train.py": text}, XLA, {}).run("train.py").off_launch_path()
    assert set(off.get("train.py", {})) == {10}
    assert "`torch.cuda.device_count()` is 0 on the target" in off["train.py"][10]


def test_the_lines_off_the_launch_path_survive_the_verdict_cache():
    import json

    from trncodemod.pipeline.verdicts import _Evaluated

    found = _Evaluated(off_path=({"train.py": [(3, 4, "`n > 1` is False")]}, None))
    assert _Evaluated.from_json(json.loads(json.dumps(found.to_json()))) == found


SPAWNED = (
    "import argparse, torch, torch_xla\n"
    "import torch_xla.runtime as xr\n"
    "def main_worker(rank, args):\n"
    "    device = torch_xla.device()\n"
    "    model = torch.nn.Linear(2, 2).to(device)\n"
    + "".join("    " + line + "\n" for line in STEP.strip().splitlines())
    + "args = argparse.ArgumentParser().parse_args()\n"
)


@pytest.mark.parametrize("count", ["torch.cuda.device_count()", "torch.accelerator.device_count()"])
@pytest.mark.parametrize(
    "launch",
    [
        "torch.multiprocessing.spawn(main_worker, (args,), args.n)",
        "torch.multiprocessing.spawn(main_worker, args=(args,), nprocs=args.n)",
        "torch.multiprocessing.start_processes(main_worker, (args,), args.n)",
    ],
)
def test_a_spawn_sized_by_the_cuda_count_starts_no_process(launch: str, count: str):
    text = SPAWNED + f"args.n = {count}\nargs.world_size = args.n\n{launch}\n"
    found = verdict({"train.py": text})
    assert found.value == DOES_NOT, found
    assert found.where == "train.py:15"
    assert "train.py:13:" in found.reason and "starts no process" in found.reason


@pytest.mark.parametrize("count", ["xr.world_size()", "1", "torch.distributed.get_world_size()"])
def test_a_spawn_sized_by_a_count_never_zero_on_the_target_runs(count: str):
    text = (
        SPAWNED + f"args.n = {count}\ntorch.multiprocessing.spawn(main_worker, (args,), args.n)\n"
    )
    found = verdict({"train.py": text})
    assert found.value == RUNS, found


def test_a_spawn_whose_process_count_is_not_decided_cannot_tell():
    text = SPAWNED + "import json\nn = json.load(open('c.json'))['gpus']\n"
    text += "torch.multiprocessing.spawn(main_worker, (args,), n)\n"
    found = verdict({"train.py": text})
    assert found.value == CANNOT_TELL, found
    assert found.where == "train.py:15"


@pytest.mark.parametrize("wrap", ["", "model = torch.nn.parallel.DistributedDataParallel(model)\n"])
def test_a_library_model_called_through_forward_is_a_model_call(wrap: str):
    text = "import torch, torch_xla, torchvision\ndevice = torch_xla.device()\n"
    text += "model = torchvision.models.resnet18().to(device)\n" + wrap
    text += STEP.replace("model(x.to(device))", "model.forward(x.to(device))")
    assert verdict({"train.py": text}).value == RUNS
    cpu = text.replace("model.forward(x.to(device))", "model.forward(x)")
    found = verdict({"train.py": cpu})
    assert found.value == DOES_NOT and "stays on the CPU" in found.reason, found
