"""Launchers sized by the GPU count: `mp.spawn(fn, nprocs=torch.cuda.device_count())` (R4)."""

from __future__ import annotations

import libcst as cst

from trncodemod.analysis.device import analyse
from trncodemod.analysis.facts import FileFacts
from trncodemod.findings import Rule, Safety, Severity
from trncodemod.passes import Pass, per_tree
from trncodemod.targets import Target


class DeviceCountLauncher(Rule):
    """## What it does
    On XLA targets, reports `torch.multiprocessing.spawn(fn, nprocs=n)` (and `start_processes`)
    where `n` is, or is bound to, `torch.cuda.device_count()` or
    `torch.accelerator.device_count()`, and names the launcher line to use instead. Nothing is
    rewritten: the script's process start-up must change shape. On the `neuron` target the
    count itself becomes `torch.accelerator.device_count()` (TRN315).

    ## Why
    Under torch_xla both counts are 0 (`torch.cuda.device_count()` returns 0 without a driver,
    reference R13, measured; `torch.accelerator` is not the XLA device, R1), so the launcher
    starts no process, or a process group of size 0. `xmp.spawn(nprocs>1)` is an error on
    Neuron from torch-xla 2.6; the documented launcher is torchrun, one process per NeuronCore
    (`torchrun --nproc_per_node=32` on trn1.32xlarge, 2 on trn1.2xlarge), each reading its rank
    from the environment (reference R4). On torch-xla 2.1, `xmp.spawn(fn, args=...)` without
    `nprocs` starts one process per NeuronCore. A blocker: the port does not train while it is
    left.

    ## Example
    ```python
    world_size = torch.cuda.device_count()
    mp.spawn(run, args=(world_size,), nprocs=world_size)
    ```

    ## Use instead
    ```python
    # torchrun --nproc_per_node=32 train.py
    run(int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"]))
    ```
    """

    code = "TRN025"
    name = "device-count-launcher"
    summary = "`mp.spawn(nprocs=torch.cuda.device_count())`: 0 processes on Trainium (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.BLOCKER
    source = "reference R1, R4, R13"


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


_LAUNCHER_SPAWNS = ("torch.multiprocessing.spawn", "torch.multiprocessing.start_processes")
_DEVICE_COUNTS = ("torch.cuda.device_count", "torch.accelerator.device_count")


class Launchers(Pass):
    name = "launchers"
    rules = (DeviceCountLauncher,)
    needles = ("device_count",)

    @classmethod
    def applies_to(cls, target) -> bool:  # type: ignore[no-untyped-def]
        return super().applies_to(target) and target.is_xla

    @classmethod
    def candidate(cls, facts: FileFacts, target: Target) -> bool:
        # The only report is for a launcher the device analysis finds (`analysis.device.
        # _launcher_count`): torch.multiprocessing.spawn/start_processes called with `nprocs=`
        # whose value is, or is bound to, a torch.cuda/torch.accelerator device_count() call.
        return (
            "nprocs" in facts.identifiers
            and facts.calls_one_of(*_LAUNCHER_SPAWNS)
            and facts.calls_one_of(*_DEVICE_COUNTS)
        )

    def visit_Module(self, node: cst.Module) -> None:
        facts = per_tree(node, "device", lambda module: analyse(module, self.module_names))
        script = self.context.filename or "train.py"
        for spawn, count in facts.launchers.items():
            fn = _code(spawn.args[0].value) if spawn.args else "main"
            if self.target.torch_xla.startswith("2.1"):
                use = f"xmp.spawn({fn}, args=...) without nprocs (one process per NeuronCore)"
            else:
                use = (
                    f"`torchrun --nproc_per_node=<NeuronCores: 2 on trn1.2xlarge, 32 on "
                    f"trn1.32xlarge> {script}`, calling {fn}(int(os.environ['LOCAL_RANK']), ...) "
                    "once per process, with the world size from os.environ['WORLD_SIZE']"
                )
            self.report(
                spawn,
                DeviceCountLauncher,
                f"this launcher is sized by `{_code(count)}`, which is 0 on Trainium, so no "
                f"training process starts: launch with {use}",
                False,
            )
