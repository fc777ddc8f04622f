"""The evaluator reads the repository's configuration files the launch path names (a JSON or
YAML file opened by a decided path), and only those: inside the repository, small, by a safe
loader; an undecided path, a missing file or one the launch lines disagree on stays unknown."""

from __future__ import annotations

import os

import pytest

from trncodemod.analysis.evaluate import Evaluator, facts_for
from trncodemod.analysis.verdict import CANNOT_TELL, DOES_NOT, RUNS, judge

XLA = facts_for("xla")

# hifi-gan's shape: a `dict` whose keys are its attributes, filled from a JSON config.
ATTRDICT = (
    "class AttrDict(dict):\n"
    "    def __init__(self, *args, **kwargs):\n"
    "        super(AttrDict, self).__init__(*args, **kwargs)\n"
    "        self.__dict__ = self\n"
)
TRAIN = (
    "import argparse, json, torch, torch_xla\n" + ATTRDICT + "parser = argparse.ArgumentParser()\n"
    "parser.add_argument('--config', default='')\n"
    "a = parser.parse_args()\n"
    "with open(a.config) as f:\n"
    "    data = f.read()\n"
    "h = AttrDict(json.loads(data))\n"
    "if h.num_gpus > 1:\n"
    "    device = torch.device('cuda')\n"
    "else:\n"
    "    device = torch_xla.device()\n"
    "model = torch.nn.Linear(2, 2).to(device)\n"
    "optimizer = torch.optim.SGD(model.parameters(), lr=0.1)\n"
    "for x, y in torch.utils.data.DataLoader(data):\n"
    "    model(x.to(device)).sum().backward()\n"
    "    optimizer.step()\n"
    "    torch_xla.sync()\n"
)
LAUNCH = {"train.py": ["README.md: python train.py --config config_v1.json"]}


def run(configs: dict[str, str], lines=LAUNCH, text: str = TRAIN):
    asked: list[str] = []

    def read(path: str) -> str | None:
        asked.append(path)
        return configs.get(path)

    evaluator = Evaluator({"train.py": text}, XLA, lines, read)
    found = judge("train.py", evaluator.run("train.py"), XLA)
    return found, asked, evaluator


def test_a_json_config_the_launch_line_names_decides_the_branch():
    found, asked, evaluator = run({"config_v1.json": '{\n  "num_gpus": 0\n}\n'})
    assert found.value == RUNS
    assert asked == ["config_v1.json"]
    assert evaluator.configs_read == {"config_v1.json": '{\n  "num_gpus": 0\n}\n'}


def test_a_config_that_asks_for_several_gpus_keeps_its_branch():
    found, _, _ = run({"config_v1.json": '{"num_gpus": 2}'})
    assert found.value == DOES_NOT


@pytest.mark.parametrize(
    "lines",
    [
        {},  # `--config` defaults to "" and no launch line sets it
        {"train.py": ["README.md: python train.py --config <CONFIG>"]},  # a placeholder
        {  # the launch lines disagree
            "train.py": [
                "README.md: python train.py --config config_v1.json",
                "README.md: python train.py --config config_v2.json",
            ]
        },
        {  # launched from two folders: read from two places
            "train.py": [
                "README.md: python train.py --config config_v1.json",
                "docs/run.sh: python ../train.py --config config_v1.json",
            ]
        },
    ],
)
def test_an_undecided_config_path_is_never_guessed(lines):
    configs = {"config_v1.json": '{"num_gpus": 0}', "config_v2.json": '{"num_gpus": 0}'}
    found, _, _ = run(configs, lines)
    assert found.value == CANNOT_TELL


def test_a_missing_or_unparsable_config_is_undecided():
    assert run({})[0].value == CANNOT_TELL
    assert run({"config_v1.json": "{num_gpus: 0"})[0].value == CANNOT_TELL


def test_a_path_out_of_the_repository_is_never_asked_for():
    for spelled in ("../secrets.json", "/etc/app.json", "~/x.json", "data.bin"):
        lines = {"train.py": [f"README.md: python train.py --config {spelled}"]}
        found, asked, _ = run({spelled: '{"num_gpus": 0}'}, lines)
        assert asked == [] and found.value == CANNOT_TELL


def test_a_yaml_config_is_read_by_the_safe_loader_and_a_subscript_decides():
    text = TRAIN.replace("h = AttrDict(json.loads(data))", "import yaml\nh = yaml.safe_load(data)")
    text = text.replace("h.num_gpus", "h['trainer']['num_gpus']")
    lines = {"train.py": ["README.md: python train.py --config config_v1.yaml"]}
    found, _, _ = run({"config_v1.yaml": "trainer:\n  num_gpus: 0\n"}, lines, text)
    assert found.value == RUNS
    # An object PyYAML's full loader would build is no value of the safe loader: undecided.
    evil = "trainer: !!python/object/apply:os.system ['true']\n"
    assert run({"config_v1.yaml": evil}, lines, text)[0].value == CANNOT_TELL


def test_the_reader_keeps_to_the_repository(tmp_path):
    from trncodemod.pipeline.engine import FileOutcome
    from trncodemod.pipeline.verdicts import _config_reader

    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "train.py").write_text("import torch\n")
    (repo / "config.json").write_text('{"num_gpus": 0}')
    (repo / "big.json").write_text('{"x": "' + "a" * 70_000 + '"}')
    (tmp_path / "outside.json").write_text('{"num_gpus": 0}')
    os.symlink(tmp_path / "outside.json", repo / "link.json")
    os.mkfifo(repo / "fifo.json")
    outcome = FileOutcome(path=repo / "train.py", display="train.py", old=b"import torch\n")
    read = _config_reader([outcome])
    assert read("config.json") == '{"num_gpus": 0}'
    assert read("link.json") is None  # a link out of the repository
    assert read("../outside.json") is None
    assert read("big.json") is None  # larger than a configuration file
    assert read("train.py") is None  # not a configuration file
    assert read("fifo.json") is None  # not a regular file: refused without blocking


def test_a_changed_config_invalidates_the_cached_verdict(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from trncodemod.cli import main
    from trncodemod.pipeline import verdicts

    # Several GPUs wrap the model in torch FSDP, which does not train on XLA.
    text = TRAIN.replace(
        "optimizer = ",
        "if h.num_gpus > 1:\n"
        "    from torch.distributed.fsdp import FullyShardedDataParallel\n"
        "    model = FullyShardedDataParallel(model)\n"
        "optimizer = ",
    )
    (tmp_path / "train.py").write_text(text)
    (tmp_path / "README.md").write_text("```\npython train.py --config config_v1.json\n```\n")
    (tmp_path / "config_v1.json").write_text('{"num_gpus": 0}')
    monkeypatch.chdir(tmp_path)
    calls = []
    evaluate = verdicts._evaluate
    monkeypatch.setattr(verdicts, "_evaluate", lambda *a: calls.append(1) or evaluate(*a))
    lines = []
    verdicts._MEMO.clear()  # the run's memo is checked against the files too: kept between runs
    for config in ('{"num_gpus": 0}', '{"num_gpus": 0}', '{"num_gpus": 4}'):
        (tmp_path / "config_v1.json").write_text(config)
        args = ["check", "--cache-dir", str(tmp_path / "c"), "train.py"]
        lines.append(CliRunner().invoke(main, args).stdout.splitlines()[-1])
    assert len(calls) == 2  # the second run read the cache; the third saw the new config
    assert "1 runs on the accelerator" in lines[0] and lines[0] == lines[1]
    assert "1 does not" in lines[2]


LIGHTNING = (
    "import argparse, yaml, torch\n"
    "from pytorch_lightning import Trainer\n"
    "parser = argparse.ArgumentParser()\n"
    "parser.add_argument('--config', '-c', dest='filename', default='configs/vae.yaml')\n"
    "args = parser.parse_args()\n"
    "with open(args.filename, 'r') as file:\n"
    "    config = yaml.safe_load(file)\n"
    "class Net(torch.nn.Module):\n"
    "    def training_step(self, batch, i):\n"
    "        return self(batch).sum()\n"
    "runner = Trainer(logger=None, **config['trainer_params'])\n"
    "runner.fit(Net())\n"
)


@pytest.mark.parametrize(
    ("trainer", "expected"),
    [
        ("trainer_params:\n  gpus: [1]\n  max_epochs: 10\n", DOES_NOT),
        ("trainer_params:\n  accelerator: gpu\n", DOES_NOT),
        ("trainer_params:\n  gpus: []\n", CANNOT_TELL),  # no GPU asked for: not known either way
        # Lightning trains on the CPU (the blocker says so, with the config's line).
        ("trainer_params:\n  accelerator: cpu\n", DOES_NOT),
    ],
)
def test_a_lightning_trainer_configured_for_cuda_by_its_config_does_not_run(trainer, expected):
    lines = {"train.py": ["README.md: python train.py -c configs/vae.yaml"]}
    found, _, _ = run({"configs/vae.yaml": trainer}, lines, LIGHTNING)
    assert found.value == expected
    if expected == DOES_NOT:
        assert "configs/vae.yaml:2:" in found.reason and "TRN158)" in found.reason


def test_a_lightning_config_the_launch_line_leaves_open_is_not_guessed():
    lines = {"train.py": ["README.md: python train.py -c configs/<config-file-name.yaml>"]}
    found, asked, _ = run({"configs/vae.yaml": "trainer_params:\n  gpus: [1]\n"}, lines, LIGHTNING)
    assert found.value == CANNOT_TELL and asked == []


@pytest.mark.parametrize(
    ("load", "read"),
    [
        ("from omegaconf import OmegaConf\ncfg = OmegaConf.load(args.filename)", "cfg.trainer"),
        (
            "from easydict import EasyDict\n"
            "with open(args.filename) as f:\n"
            "    cfg = EasyDict(yaml.safe_load(f))",
            "cfg.trainer",
        ),
        ("with open(args.filename) as f:\n    cfg = yaml.load(f, Loader=yaml.FullLoader)", ""),
    ],
)
def test_attribute_configs_and_other_loaders_reach_the_trainer(load, read):
    text = LIGHTNING.replace(
        "with open(args.filename, 'r') as file:\n    config = yaml.safe_load(file)\n", load + "\n"
    )
    text = text.replace("**config['trainer_params']", f"**{read or 'cfg[' + repr('trainer') + ']'}")
    lines = {"train.py": ["README.md: python train.py -c configs/vae.yaml"]}
    found, _, _ = run({"configs/vae.yaml": "trainer:\n  gpus: 1\n"}, lines, text)
    assert found.value == DOES_NOT, text


@pytest.mark.parametrize(
    "load",
    [
        "config = yaml.safe_load(Path(args.filename).read_text())",
        "with Path(args.filename).open() as f:\n    config = yaml.safe_load(f)",
        "config = yaml.safe_load(open(args.filename))",
    ],
)
def test_a_config_read_through_pathlib_or_an_unnamed_file(load):
    text = LIGHTNING.replace(
        "with open(args.filename, 'r') as file:\n    config = yaml.safe_load(file)\n",
        "from pathlib import Path\n" + load + "\n",
    )
    lines = {"train.py": ["README.md: python train.py -c configs/vae.yaml"]}
    found, _, _ = run({"configs/vae.yaml": "trainer_params:\n  gpus: 1\n"}, lines, text)
    assert found.value == DOES_NOT, text


def test_a_path_is_read_from_the_folder_the_launch_line_runs_in():
    text = TRAIN
    lines = {"src/train.py": ["README.md: python src/train.py --config configs/a.json"]}
    asked: list[str] = []

    def read(path: str) -> str | None:
        asked.append(path)
        return '{"num_gpus": 0}' if path == "configs/a.json" else None

    evaluator = Evaluator({"src/train.py": text}, XLA, lines, read)
    assert judge("src/train.py", evaluator.run("src/train.py"), XLA).value == RUNS
    assert asked == ["configs/a.json"]


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        ("accelerator='gpu'", CANNOT_TELL),  # TRN158's blocker says it, with the fix
        ("gpus=1", DOES_NOT),  # Lightning 1.x: one CUDA device; no rule speaks for it
        ("gpus=0", DOES_NOT),  # Lightning 1.x with no GPU: the CPU
        ("gpus=0, strategy=strategy", CANNOT_TELL),  # a strategy may bring its accelerator
        ("max_epochs=1", CANNOT_TELL),  # maybe 2.x, whose "auto" accelerator probes the machine
    ],
)
def test_a_spelled_trainer_argument(arguments, expected):
    text = LIGHTNING.replace("logger=None, **config['trainer_params']", arguments)
    lines = {"train.py": ["README.md: python train.py -c configs/vae.yaml"]}
    assert run({"configs/vae.yaml": "{}"}, lines, text)[0].value == expected


ABSL = (
    "import torch, torch_xla\n"
    "from absl import app, flags\n"
    "FLAGS = flags.FLAGS\n"
    "flags.DEFINE_bool('accel', False, help='train on the accelerator')\n"
    "def main(argv):\n"
    "    device = torch_xla.device() if FLAGS.accel else torch.device('cpu')\n"
    "    model = torch.nn.Linear(2, 2).to(device)\n"
    "    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)\n"
    "    for x in torch.utils.data.DataLoader(data):\n"
    "        model(x.to(device)).sum().backward()\n"
    "        optimizer.step()\n"
    "        torch_xla.sync()\n"
    "app.run(main)\n"
)


@pytest.mark.parametrize(
    ("flag_file", "launch", "expected"),
    [
        (None, "", DOES_NOT),
        (None, "--accel", RUNS),
        (None, "--noaccel", DOES_NOT),
        (None, "--accel=false", DOES_NOT),
        ("--accel\n", "--flagfile config/run.txt", RUNS),
        ("# comment\n--noaccel\n", "--flagfile=config/run.txt", DOES_NOT),
        ("--noaccel\n", "--flagfile config/run.txt --accel", RUNS),
        (None, "--flagfile config/missing.txt", CANNOT_TELL),
    ],
)
def test_absl_flags_and_the_flag_file_the_launch_line_names(flag_file, launch, expected):
    """absl: `flags.DEFINE_bool("accel", False, ...)` read as `FLAGS.accel`, `app.run(main)`
    calling `main(argv)`; `--accel`, `--noaccel` and `--accel=false` on the launch line.
    `--flagfile` words are the file's options, one a line, in order with the line's own; the
    file read is part of the run's result (the verdict cache's key); one the tool cannot read
    leaves the flags it may set undecided."""
    lines = {"train.py": [f"README.md: python train.py {launch}"]} if launch else {}
    configs = {} if flag_file is None else {"config/run.txt": flag_file}
    found, asked, evaluator = run(configs, lines=lines, text=ABSL)
    assert found.value == expected
    assert bool(asked) == ("--flagfile" in launch)
    assert set(evaluator.configs_read) == set(asked)
