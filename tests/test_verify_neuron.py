"""`trncodemod verify --target neuron`: a TorchNeuron program run eagerly on the CPU with the
`neuron` device mapped to `cpu`. The verdict is unit-tested here; the runs need torch (any
interpreter with torch 2.9+: TRNCODEMOD_TORCH_PYTHON, TRNCODEMOD_XLA_PYTHON, or this one) and are
skipped, with the reason, without it."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import textwrap
from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner

from trncodemod.cli import main
from trncodemod.commands.verify import judge_eager

ROOT = Path(__file__).resolve().parent.parent


@cache
def _torch_python() -> str | None:
    for candidate in (
        os.environ.get("TRNCODEMOD_TORCH_PYTHON"),
        os.environ.get("TRNCODEMOD_XLA_PYTHON"),
        sys.executable if importlib.util.find_spec("torch") else None,
    ):
        if candidate and (Path(candidate).exists() or shutil.which(candidate)):
            probe = subprocess.run(
                [candidate, "-c", "import torch"], capture_output=True, timeout=300
            )
            if probe.returncode == 0:
                return candidate
    return None


needs_torch = pytest.mark.skipif(
    _torch_python() is None,
    reason="no interpreter with torch (set TRNCODEMOD_TORCH_PYTHON); the eager check needs torch",
)


def _report(**overrides) -> dict:
    report = {
        "exit_status": 0,
        "error": None,
        "stopped_after_steps": True,
        "steps": 4,
        "neuron_device_uses": 9,
        "torch_xla_imports": [],
    }
    report.update(overrides)
    return report


def _failed(report: dict) -> set[str]:
    return {c.name for c in judge_eager(report) if not c.passed}


def test_an_eager_run_that_trained_on_the_neuron_device_passes() -> None:
    assert _failed(_report()) == set()


def test_each_eager_criterion_fails_on_its_own_symptom() -> None:
    assert _failed(_report(torch_xla_imports=["torch_xla.core.xla_model"])) == {"no torch_xla"}
    assert _failed(_report(neuron_device_uses=0)) == {"uses the neuron device"}
    assert _failed(_report(steps=0)) == {"trained"}
    assert _failed(_report(exit_status=1, error="Traceback ...")) == {"script ran"}


# -- runs ---------------------------------------------------------------------------------------
XLA_MLP = textwrap.dedent(
    '''
    """A torch-xla MLP on MNIST-shaped random data, as aws-neuron-samples mnist_mlp trains it."""
    import os
    import tempfile

    import torch
    import torch_xla.core.xla_model as xm
    import torch_xla.distributed.parallel_loader as pl
    from torch.utils.data import DataLoader, TensorDataset


    def main():
        torch.manual_seed(0)
        data = TensorDataset(torch.randn(256, 784), torch.randint(0, 10, (256,)))
        loader = DataLoader(data, batch_size=32, shuffle=True, drop_last=True)
        device = xm.xla_device()
        model = torch.nn.Sequential(
            torch.nn.Linear(784, 64), torch.nn.ReLU(), torch.nn.Linear(64, 10)
        ).to(device)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
        loss_fn = torch.nn.CrossEntropyLoss()
        device_loader = pl.MpDeviceLoader(loader, device)
        for epoch in range(2):
            for step, (x, y) in enumerate(device_loader):
                optimizer.zero_grad()
                loss = loss_fn(model(x), y)
                loss.backward()
                xm.optimizer_step(optimizer)
                xm.mark_step()
                if step % 4 == 0:
                    xm.add_step_closure(print, args=("loss", loss))
        xm.master_print("done")
        xm.save(model.state_dict(), os.path.join(tempfile.mkdtemp(), "model.pt"))


    if __name__ == "__main__":
        main()
    '''
)

TORCHRUN_DDP = textwrap.dedent(
    '''
    """torchrun data parallel for torch-xla: the xla process group, DDP, ranks from the runtime."""
    import torch
    import torch.distributed as dist
    import torch_xla.core.xla_model as xm
    import torch_xla.distributed.xla_backend
    import torch_xla.runtime as xr
    from torch.nn.parallel import DistributedDataParallel as DDP
    from torch.utils.data import DataLoader, TensorDataset
    from torch.utils.data.distributed import DistributedSampler


    def main():
        dist.init_process_group("xla", init_method="xla://")
        device = xm.xla_device()
        data = TensorDataset(torch.randn(128, 16), torch.randn(128, 1))
        sampler = DistributedSampler(data, num_replicas=xr.world_size(), rank=xr.global_ordinal())
        loader = DataLoader(data, batch_size=16, sampler=sampler, drop_last=True)
        model = DDP(torch.nn.Linear(16, 1).to(device), gradient_as_bucket_view=True)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.01 * xr.world_size())
        for x, y in loader:
            optimizer.zero_grad()
            loss = torch.nn.functional.mse_loss(model(x.to(device)), y.to(device))
            loss.backward()
            xm.optimizer_step(optimizer)
        xm.rendezvous("done")
        xm.master_print("finished")
        dist.destroy_process_group()


    if __name__ == "__main__":
        main()
    '''
)


def _migrate(path: Path, target: str) -> None:
    result = CliRunner().invoke(main, ["apply", "--no-cache", "--target", target, str(path)])
    assert result.exit_code in (0, 1), result.output


def _verify(path: Path, *args: str):  # type: ignore[no-untyped-def]
    python = _torch_python()
    assert python is not None
    return CliRunner().invoke(
        main, ["verify", "--target", "neuron", "--python", python, *args, str(path)]
    )


@pytest.mark.xla
@needs_torch
@pytest.mark.parametrize("script", [XLA_MLP, TORCHRUN_DDP], ids=["mnist-mlp", "torchrun-ddp"])
def test_a_migrated_torch_xla_script_imports_no_torch_xla_and_passes(
    tmp_path: Path, script: str
) -> None:
    path = tmp_path / "train.py"
    path.write_text(script)
    _migrate(path, "neuron")
    assert "torch_xla" not in path.read_text()
    result = _verify(path, "--steps", "6")
    assert result.exit_code == 0, result.output
    assert "PASS no torch_xla" in result.output
    assert "does not prove that neuronx-cc compiles it" in result.output


@pytest.mark.xla
@needs_torch
def test_torch_xla_code_left_as_it_is_fails_on_the_import(tmp_path: Path) -> None:
    path = tmp_path / "train.py"
    path.write_text(XLA_MLP)
    result = _verify(path)
    assert result.exit_code == 1
    assert "FAIL no torch_xla: imported torch_xla" in result.output


@pytest.mark.xla
@needs_torch
def test_a_script_that_trains_on_the_cpu_fails_for_not_using_the_device(tmp_path: Path) -> None:
    path = tmp_path / "train.py"
    path.write_text(
        textwrap.dedent(
            """
            import torch

            model = torch.nn.Linear(4, 1).to("cpu")
            optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
            for _ in range(3):
                optimizer.zero_grad()
                model(torch.randn(2, 4)).sum().backward()
                optimizer.step()
            """
        )
    )
    result = _verify(path)
    assert result.exit_code == 1
    assert "FAIL uses the neuron device" in result.output


@pytest.mark.xla
@needs_torch
def test_a_script_that_trains_no_step_fails(tmp_path: Path) -> None:
    path = tmp_path / "train.py"
    path.write_text('import torch\nprint(torch.zeros(2, device="neuron").sum())\n')
    result = _verify(path)
    assert result.exit_code == 1
    assert "FAIL trained: 0 optimizer step(s)" in result.output


@pytest.mark.xla
@needs_torch
@pytest.mark.parametrize("example", ["cnn_mnist", "text_classifier", "gpt_amp"])
def test_examples_ported_to_xla_then_to_neuron_pass(tmp_path: Path, example: str) -> None:
    path = tmp_path / f"{example}.py"
    shutil.copy(ROOT / "examples" / f"{example}.py", path)
    _migrate(path, "xla-2.9")
    assert "torch_xla" in path.read_text()
    _migrate(path, "neuron")
    assert "torch_xla" not in path.read_text()
    result = _verify(path, "--steps", "4")
    assert result.exit_code == 0, result.output


GPU_PINNED = textwrap.dedent(
    '''
    """A GPU script that pins its batches, as nanoGPT's get_batch and pytorch/examples do."""
    import torch
    from torch.utils.data import DataLoader, TensorDataset


    def main():
        torch.manual_seed(0)
        data = TensorDataset(torch.randn(64, 8), torch.randn(64, 1))
        loader = DataLoader(data, batch_size=8, pin_memory=True)
        model = torch.nn.Linear(8, 1).cuda()
        optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
        for x, y in loader:
            x = x.pin_memory().cuda(non_blocking=True)
            y = y.cuda(non_blocking=True)
            optimizer.zero_grad()
            torch.nn.functional.mse_loss(model(x), y).backward()
            optimizer.step()


    if __name__ == "__main__":
        main()
    '''
)


@pytest.mark.xla
@needs_torch
def test_a_gpu_script_that_pins_memory_passes_once_migrated(tmp_path: Path) -> None:
    kept = tmp_path / "kept" / "train.py"
    kept.parent.mkdir()
    kept.write_text(GPU_PINNED)
    result = CliRunner().invoke(
        main, ["apply", "--no-cache", "--target", "neuron", "--ignore", "TRN314", str(kept)]
    )
    assert result.exit_code in (0, 1) and "pin_memory()" in kept.read_text()
    before = _verify(kept, "--steps", "3")
    # The eager run registers no pinned-memory allocator for `neuron`, and says so.
    assert before.exit_code == 1 and "pinned memory for `neuron`" in before.output

    path = tmp_path / "train.py"
    path.write_text(GPU_PINNED)
    _migrate(path, "neuron")
    assert "pin_memory" not in path.read_text()
    result = _verify(path, "--steps", "3")
    assert result.exit_code == 0, result.output
