"""The training profile: what kind of training a file does, read from its ``ast``."""

from __future__ import annotations

import textwrap

from trncodemod.analysis import training as t
from trncodemod.analysis.training import TrainingProfile, profile_of_text


def profile(code: str) -> TrainingProfile:
    return profile_of_text(textwrap.dedent(code))


def test_script_with_main_guard_is_an_entry_script():
    p = profile(
        """
        import torch
        def main():
            loss.backward()
        if __name__ == "__main__":
            main()
        """
    )
    assert p.is_entry_script and p.trains
    assert p.launchers == (t.PYTHON,)


def test_module_of_classes_and_functions_is_a_library_module():
    p = profile(
        """
        import torch
        from torch import nn
        class Model(nn.Module):
            def forward(self, x):
                return x
        def helper(loss):
            loss.backward()
        """
    )
    assert not p.is_entry_script
    assert p.launchers == ()


def test_top_level_argparse_or_training_loop_makes_an_entry_script():
    assert profile(
        """
        import argparse
        parser = argparse.ArgumentParser()
        """
    ).is_entry_script
    assert profile(
        """
        import torch
        for x in loader:
            loss = model(x).sum()
            loss.backward()
            optimizer.step()
        """
    ).is_entry_script


def test_ddp_through_an_alias_is_plain_data_parallel():
    p = profile(
        """
        import torch.distributed as dist
        from torch.nn.parallel import DistributedDataParallel as Wrap
        dist.init_process_group("nccl")
        model = Wrap(model)
        """
    )
    assert p.parallelism == (t.DDP,)
    assert p.plain_data_parallel
    assert t.TORCHRUN in p.launchers


def test_torch_fsdp2_fully_shard_is_sharded():
    p = profile(
        """
        from torch.distributed.fsdp import fully_shard
        fully_shard(model)
        """
    )
    assert p.parallelism == (t.TORCH_FSDP,)
    assert not p.plain_data_parallel
    assert p.reduces_own_gradients == (t.TORCH_FSDP,)


def test_torch_xla_fsdp_and_zero1_and_spmd_are_recognised():
    p = profile(
        """
        from torch_xla.distributed.fsdp import XlaFullyShardedDataParallel as FSDP
        from torch_xla.distributed.zero_redundancy_optimizer import ZeroRedundancyOptimizer
        import torch_xla.distributed.spmd as xs
        """
    )
    assert set(p.parallelism) == {t.XLA_FSDP, t.ZERO, t.XLA_SPMD}


def test_fsdpv2_is_both_spmd_and_fsdp():
    p = profile(
        """
        from torch_xla.experimental.spmd_fully_sharded_data_parallel import (
            SpmdFullyShardedDataParallel as FSDPv2,
        )
        model = FSDPv2(model)
        """
    )
    assert set(p.parallelism) == {t.XLA_FSDP, t.XLA_SPMD}


def test_neuronx_distributed_deepspeed_rpc_and_apex_are_recognised():
    assert (
        t.NXD
        in profile("from neuronx_distributed.parallel_layers import parallel_state\n").parallelism
    )
    assert profile("import deepspeed\nengine = deepspeed.initialize(model=m)\n").parallelism == (
        t.DEEPSPEED,
    )
    assert profile("import torch.distributed.rpc as rpc\nrpc.init_rpc('ps')\n").parallelism == (
        t.RPC,
    )
    assert profile("from apex.parallel import DistributedDataParallel\n").parallelism == (
        t.APEX_DDP,
    )


def test_gradients_all_reduced_by_hand():
    p = profile(
        """
        import torch.distributed as dist
        for param in model.parameters():
            dist.all_reduce(param.grad.data)
        """
    )
    assert t.HAND_REDUCED in p.parallelism
    assert not p.plain_data_parallel


def test_all_reduce_of_a_metric_is_not_hand_reduced_gradients():
    p = profile(
        """
        import torch.distributed as dist
        dist.all_reduce(total_loss)
        """
    )
    assert p.parallelism == ()


def test_launchers():
    assert (
        t.MP_SPAWN
        in profile("import torch.multiprocessing as mp\nmp.spawn(main, nprocs=2)\n").launchers
    )
    assert (
        t.XMP_SPAWN
        in profile(
            "import torch_xla.distributed.xla_multiprocessing as xmp\nxmp.spawn(main)\n"
        ).launchers
    )
    assert t.TORCHRUN in profile("import os\nrank = int(os.environ['LOCAL_RANK'])\n").launchers
    assert (
        t.ACCELERATE in profile("from accelerate import Accelerator\na = Accelerator()\n").launchers
    )
    assert t.LIGHTNING in profile("import lightning as L\ntrainer = L.Trainer()\n").launchers
    hf = profile(
        """
        from transformers import Trainer, TrainingArguments
        trainer = Trainer(model=model, args=TrainingArguments("out"))
        trainer.train()
        """
    )
    assert t.HF_TRAINER in hf.launchers and hf.trains


def test_model_train_alone_is_not_training():
    assert not profile("import torch\nmodel.train()\n").trains


def test_accelerate_prepare_owns_the_gradients_and_the_loaders():
    p = profile(
        """
        from accelerate import Accelerator
        accelerator = Accelerator()
        model, optimizer, train_dl = accelerator.prepare(model, optimizer, train_dl)
        """
    )
    assert t.ACCELERATE_PREPARE in p.already_xla
    assert "train_dl" in p.device_loaders
    assert not p.plain_data_parallel


def test_device_loader_behind_a_helper_and_a_reassignment():
    p = profile(
        """
        import torch_xla.distributed.parallel_loader as pl
        def make_loader(raw_loader, device):
            return pl.MpDeviceLoader(raw_loader, device)
        train_loader = make_loader(raw, device)
        loader = train_loader
        self.eval_loader = pl.ParallelLoader(raw, [device]).per_device_loader(device)
        """
    )
    assert {"make_loader", "train_loader", "loader", "self.eval_loader"} <= p.device_loaders
    assert t.MP_DEVICE_LOADER in p.already_xla


def test_step_trace_and_nxd_helpers_are_already_xla():
    assert (
        t.STEP_TRACE
        in profile(
            "import torch_xla.debug.profiler as xp\nwith xp.StepTrace('train'):\n    pass\n"
        ).already_xla
    )
    assert (
        t.NXD_STEP
        in profile(
            "from neuronx_distributed.trainer import initialize_parallel_model\n"
        ).already_xla
    )


def test_placing_on_the_xla_device_itself_is_already_xla():
    for code in (
        "import torch_xla\ndevice = torch_xla.device()\n",
        "import torch_xla.core.xla_model as xm\nmodel.to(xm.xla_device())\n",
    ):
        assert t.XLA_DEVICE in profile(code).already_xla
    assert t.XLA_DEVICE not in profile("import torch_xla\nmodel.to('cuda')\n").already_xla


def test_bf16_downcast_autocast_and_compile():
    p = profile(
        """
        import os, torch
        os.environ["XLA_DOWNCAST_BF16"] = "1"
        with torch.autocast("cuda"):
            pass
        model = torch.compile(model)
        """
    )
    assert p.bf16_downcast and p.autocast and p.compiles


def test_unparsable_text_has_the_empty_profile():
    assert profile_of_text("def (:\n") == t.UNKNOWN


def test_profile_round_trips_through_json():
    p = profile(
        """
        from torch.distributed.fsdp import FullyShardedDataParallel
        if __name__ == "__main__":
            loss.backward()
        """
    )
    again = TrainingProfile.from_json(p.to_json())
    assert again.to_json() == p.to_json()


def test_model_loaded_at_import_time_makes_an_entry_script():
    assert profile(
        """
        from transformers import AutoModel
        model = AutoModel.from_pretrained("bert-base-uncased")
        """
    ).is_entry_script
    assert profile("import torchvision\nmodel = torchvision.models.resnet18()\n").is_entry_script


def test_environment_set_at_import_does_not_make_a_script():
    # lightning/fabric/__init__.py sets PYTORCH_NVML_BASED_CUDA_CHECK when imported.
    assert not profile("import os\nos.environ['USE_LIBUV'] = '0'\n").is_entry_script


def test_layers_built_as_module_constants_do_not_make_a_script():
    # transformers' modeling_openai.py: `ACT_FNS = {"relu": nn.ReLU(), ...}` at the top level.
    assert not profile("from torch import nn\nACT_FNS = {'relu': nn.ReLU()}\n").is_entry_script


def test_definitions_inside_a_top_level_if_do_not_run_at_import():
    code = """
        import torch
        if torch.cuda.is_available():
            def train(loss, optimizer):
                loss.backward()
                optimizer.step()
        """
    assert not profile(code).is_entry_script


def test_module_level_logger_and_constants_are_not_script_work():
    p = profile(
        """
        import logging
        import torch
        logger = logging.getLogger(__name__)
        SIZES = (128, 256)
        def helper():
            return torch.zeros(1)
        """
    )
    assert not p.is_entry_script


def test_name_also_bound_to_a_parameter_is_not_a_device_loader():
    p = profile(
        """
        import torch_xla.distributed.parallel_loader as pl
        def train(loader, device, wrap):
            if wrap:
                loader = pl.MpDeviceLoader(loader, device)
            for x in loader:
                pass
        """
    )
    assert "loader" not in p.device_loaders


def test_check_json_shows_the_profile_of_each_file_also_from_the_cache(tmp_path, monkeypatch):
    import json

    from click.testing import CliRunner

    from trncodemod.cli import main

    monkeypatch.chdir(tmp_path)
    (tmp_path / "train.py").write_text(
        "import torch\nfrom torch.distributed.fsdp import fully_shard\n"
        "if __name__ == '__main__':\n    fully_shard(model)\n    loss.backward()\n"
    )
    expected = {
        "entry_script": True,
        "trains": True,
        "launchers": ["python"],
        "parallelism": ["torch-fsdp"],
        "already_xla": [],
        "bf16_downcast": False,
        "autocast": False,
        "compiles": False,
    }
    for _run in range(2):  # the second run is answered from the cache
        result = CliRunner().invoke(
            main, ["check", "--format", "json", "--cache-dir", str(tmp_path / "cache"), "."]
        )
        files = json.loads(result.stdout)["files"]
        assert files[0]["profile"] == expected
