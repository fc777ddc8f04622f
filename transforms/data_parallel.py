"""Data parallelism on XLA: gradients are all-reduced by the optimizer step, the process group
uses the `xla` backend, and DDP, samplers and launchers take their XLA forms ([xla-model, neuron-guide, xla-loader])."""

from __future__ import annotations

from dataclasses import replace

import libcst as cst
import libcst.matchers as m
from libcst.metadata import ParentNodeProvider, PositionProvider
from trncodemod.transforms.data_parallel_inputs import DdpInputs, InputPlan

from trncodemod.analysis import training
from trncodemod.analysis.device_facts import facts_for
from trncodemod.analysis.enabled import never_runs
from trncodemod.analysis.facts import FileFacts, may_resolve
from trncodemod.analysis.loops import dotted, is_optimizer_step
from trncodemod.analysis.nodes import find, walk
from trncodemod.findings import Rule, Safety, Severity
from trncodemod.passes import Pass
from trncodemod.targets import Target


class OptimizerStepReduce(Rule):
    """## What it does
    In a data-parallel script (one that calls `torch.distributed.init_process_group` or builds a
    `DistributedSampler`) that does not wrap its model in `DistributedDataParallel`, rewrites
    `optimizer.step()` to `xm.optimizer_step(optimizer)`. A step with arguments
    (`optimizer.step(closure)`) and `scaler.step(optimizer)` are reported.

    With DDP the step is left alone: DDP all-reduces the gradients during `backward()`, and
    `xm.optimizer_step` would all-reduce them a second time. So is a model passed to a function
    of another module that wraps it in DDP, or that all-reduces its gradients itself (a
    hand-written wrapper whose backward hooks call `dist.all_reduce` on the gradients, also
    flattened into buckets first).

    ## Why
    `xm.optimizer_step` = `xm.reduce_gradients(optimizer)` (an all-reduce, a no-op on one worker) +
    `optimizer.step()` (`xla_model.py`; [xla-model, neuron-guide]). Without it each worker steps on
    its own gradients and the replicas drift apart.

    ## Example
    ```python
    loss.backward()
    optimizer.step()
    ```

    ## Use instead
    ```python
    loss.backward()
    xm.optimizer_step(optimizer)
    ```
    """

    code = "TRN141"
    name = "optimizer-step-reduce"
    summary = "data-parallel `optimizer.step()` → `xm.optimizer_step(optimizer)`"
    safety = Safety.SAFE
    severity = Severity.ERROR
    sources = ("xla-model", "neuron-guide")


class ReduceBeforeClip(Rule):
    """## What it does
    Where TRN141 applies and the gradients are clipped (`torch.nn.utils.clip_grad_norm_` or
    `clip_grad_value_`) before `optimizer.step()`, inserts `xm.reduce_gradients(optimizer)`
    right before the statement that clips (in the same block as the step) and keeps
    `optimizer.step()`. A clip elsewhere (another block, after the step, another spelling such
    as `accelerator.clip_grad_norm_`) is reported.

    ## Why
    `xm.optimizer_step` reduces inside the call, after the clip: the clip would see each
    worker's own gradients and their norms. "All-reduce and then clip. Order matters" (Neuron's
    dp_bert sample; [xla-model, neuron-guide]).

    ## Example
    ```python
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    ```

    ## Use instead
    ```python
    loss.backward()
    xm.reduce_gradients(optimizer)
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    ```
    """

    code = "TRN142"
    name = "reduce-before-clip"
    summary = "data-parallel gradient clipping → `xm.reduce_gradients(optimizer)` before the clip"
    safety = Safety.SAFE
    severity = Severity.ERROR
    sources = ("xla-model", "neuron-guide")


# Collectives of tensors a script calls itself (torch/distributed/distributed_c10d.py).
_COLLECTIVES = frozenset(
    f"torch.distributed.{name}"
    for name in ("all_reduce", "all_gather", "all_gather_into_tensor", "reduce_scatter")
    + ("reduce_scatter_tensor", "broadcast", "reduce", "all_to_all_single")
)


class XlaProcessGroup(Rule):
    """## What it does
    Rewrites `torch.distributed.init_process_group("nccl")` (or `backend="nccl"`) to the `xla`
    backend and adds `import torch_xla.distributed.xla_backend`, which registers it. When the
    call passes no `init_method`, `store`, `rank` or `world_size`, `init_method="xla://"` is
    added (the runtime then supplies rank and world size). A choice between NCCL and another
    backend by an availability test (`"nccl" if dist.is_nccl_available() else "gloo"`) is
    rewritten as a whole, with one finding at the choice. A backend name bound in the function
    only to the literal "nccl", above the call (`args.dist_backend = 'nccl'`, then
    `init_process_group(backend=args.dist_backend, init_method=args.dist_url)`), has the
    literal rewritten where it is written (the given `init_method` kept: an `env://` URL
    initialises the xla backend under torchrun). Another backend, a backend held in a
    variable or chosen by a flag, a missing backend or `device_id=` is reported.

    ## Why
    NCCL needs CUDA; torch_xla's collectives run through the `xla` process-group backend (torch_xla
    README; [neuron-mnist-torchrun, xla-model, neuron-guide]). The CPU backend a choice falls
    back to (gloo) cannot reduce tensors on the XLA device.

    ## Example
    ```python
    dist.init_process_group("nccl")
    ```

    ## Use instead
    ```python
    import torch_xla.distributed.xla_backend
    dist.init_process_group("xla", init_method="xla://")
    ```
    """

    code = "TRN143"
    name = "xla-process-group"
    summary = '`init_process_group("nccl")` → `init_process_group("xla", init_method="xla://")`'
    safety = Safety.SAFE
    severity = Severity.ERROR
    sources = ("xla-model", "neuron-guide", "neuron-mnist-torchrun")


class XlaDistributedDataParallel(Rule):
    """## What it does
    Rewrites `DDP(model, device_ids=[rank], output_device=rank)` to the XLA form
    `DDP(model, gradient_as_bucket_view=True)`: `device_ids` and `output_device` (keyword or
    positional) are removed and `gradient_as_bucket_view=True` is added unless given. Other
    arguments stay. More than three positional arguments are reported.

    With `device_ids`, DDP moved every input of its forward pass to the GPU; the XLA form moves
    nothing. So `device_ids` is removed only where each input the DDP model is fed is on the
    device: the model is followed to its calls (its variable, `self.model` in its class, the
    module's functions it is passed to) and each argument back to where it is made (the
    statements before the call, a parameter's callers in the module). An input moved by the
    code (`.to(device)`, `.cuda()`, `device=`) needs nothing; a tensor made on the CPU by a torch
    factory (`torch.randn(20, 10)`) is moved with `.to(<device>)` at the call in the same change,
    as DDP did. Where an input may stay on the CPU (a loader's batch used as it comes, a batch
    moved on one branch only, a call the tool cannot see into) or the model is handed to code
    the tool does not see, `device_ids` is kept and the finding names the input and says what
    keeping it does. A read of the model's name that runs before the wrap (`model =
    torch.compile(model)` above `model = DDP(model, ...)`) does not feed it.

    ## Why
    On XLA every process owns one device (`xla:0`). Kept, `device_ids=[local_rank]` makes DDP move
    each input to `torch.device("xla", local_rank)` (torch 2.9 `_pre_forward`), which raises on
    every rank above 0 (`RuntimeError: vector::_M_range_check`, [measured-host-conversions], with
    torch-xla 2.9 on a one-device PJRT runtime); torch_xla's README and
    `test_train_mp_mnist.py --ddp` construct `DDP(model,
    gradient_as_bucket_view=True)` after `init_process_group("xla", init_method="xla://")`
    ([xla-model, neuron-guide]). Dropping `device_ids` while an input is made on the CPU feeds a CPU
    tensor to a model on the device: a device mismatch (pytorch/examples
    `distributed/ddp/example.py` feeds `torch.randn(20, 10)`). `review`, because where the inputs
    are moved changes.

    ## Example
    ```python
    model = DDP(model, device_ids=[local_rank])
    ```

    ## Use instead
    ```python
    model = DDP(model, gradient_as_bucket_view=True)
    ```
    """

    code = "TRN144"
    name = "xla-ddp"
    summary = "`DDP(model, device_ids=[rank])` → `DDP(model, gradient_as_bucket_view=True)`"
    safety = Safety.REVIEW
    severity = Severity.ERROR
    sources = ("xla-model", "neuron-guide", "measured-host-conversions")


class SamplerWorldSize(Rule):
    """## What it does
    In `DistributedSampler(...)`, rewrites `num_replicas=dist.get_world_size()` to
    `xr.world_size()` and `rank=dist.get_rank()` to `xr.global_ordinal()` (keyword or
    positional), where the module makes no process group that is xla after the port: where
    it does (spelled "xla", or "nccl" rewritten by TRN143), the process group gives the
    runtime's values and the rewrite would change nothing, so it is made only under
    `--scale-out`. A sampler given neither (`DistributedSampler(dataset)`, which reads both from
    the default process group) gets `num_replicas=xr.world_size(), rank=xr.global_ordinal()`
    after the dataset under `--scale-out` only: without it the script's own process group, made
    xla by TRN143, gives the sampler the same values. The sampler itself is kept: MpDeviceLoader
    does not shard data.

    ## Why
    Neuron's and torch_xla's data-parallel samples shard with
    `DistributedSampler(num_replicas=xr.world_size(), rank=xr.global_ordinal())`, values the
    XLA runtime knows even before a process group exists ([xla-loader, neuron-guide]).

    ## Example
    ```python
    DistributedSampler(ds, num_replicas=dist.get_world_size(), rank=dist.get_rank())
    ```

    ## Use instead
    ```python
    DistributedSampler(ds, num_replicas=xr.world_size(), rank=xr.global_ordinal())
    ```
    """

    code = "TRN145"
    name = "sampler-world-size"
    summary = "`DistributedSampler` world size and rank from `torch_xla.runtime`"
    safety = Safety.SAFE
    severity = Severity.WARNING
    sources = ("xla-loader", "neuron-guide")


class DataParallelSetDevice(Rule):
    """## What it does
    In a data-parallel script, removes the statement `torch.cuda.set_device(local_rank)`; used
    inside an expression it is reported.

    Contract with the cuda-calls pass, which runs before this one and removes
    `torch.cuda.set_device` in every script: when it is selected the call is gone by the time
    this pass runs, so only one of the two ever reports it; this rule acts when only the
    data-parallel rules are selected.

    ## Why
    `torch.cuda.set_device` raises without a CUDA driver; with torchrun each process already sees
    its one NeuronCore as the default XLA device ([xla-devices, neuron-guide, measured-cuda-calls]).

    ## Example
    ```python
    torch.cuda.set_device(local_rank)
    ```

    ## Use instead
    ```python
    # nothing: each process uses its default XLA device
    ```
    """

    code = "TRN146"
    name = "data-parallel-set-device"
    summary = "data-parallel `torch.cuda.set_device(rank)` removed"
    safety = Safety.SAFE
    severity = Severity.ERROR
    sources = ("xla-devices", "neuron-guide", "xla-model", "measured-cuda-calls")


class MultiprocessSpawn(Rule):
    """## What it does
    On targets at torch-xla 2.5 or later, reports `xmp.spawn(fn, nprocs=n)` with `n` other than
    `None` or `1`. Nothing is rewritten.

    ## Why
    "`xmp.spawn(nprocs>1)` is an error since torch-xla 2.6 on Neuron": launch with
    `torchrun --nproc_per_node=<cores>` (32 on trn1.32xlarge), or keep `xmp.spawn` without
    `nprocs` and set `NEURON_NUM_DEVICES` ([xla-model, neuron-guide]).

    ## Example
    ```python
    xmp.spawn(main, args=(flags,), nprocs=8)
    ```

    ## Use instead
    ```python
    xmp.spawn(main, args=(flags,))   # NEURON_NUM_DEVICES=8, or launch with torchrun
    ```
    """

    code = "TRN147"
    name = "multiprocess-spawn"
    summary = "`xmp.spawn(nprocs>1)` fails on Neuron from torch-xla 2.6 (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.ERROR
    sources = ("xla-model", "neuron-guide")


class GradientsReducedElsewhere(Rule):
    """## What it does
    Where the file's training is not plain data parallel — it shards the model or the optimizer
    state (torch-xla FSDP or FSDPv2, SPMD, ZeRO-1, neuronx-distributed), is driven by accelerate,
    reduces its gradients by hand, or uses RPC — reports each `optimizer.step()` instead of
    rewriting it (TRN141/TRN142 are for plain data parallel only), saying what reduces the
    gradients and what the target needs. Nothing is rewritten; a wrapper with no XLA
    implementation is reported where it is built (TRN152).

    ## Why
    `xm.optimizer_step` all-reduces every gradient before stepping ([xla-model, neuron-guide]).
    Under sharded training the gradients are reduce-scattered in `backward()` (torch-xla FSDP),
    global under SPMD, reduced inside the ZeRO-1 or NxD optimizer's `step()`, or already reduced by
    the script: a second all-reduce sums shards that are not replicas, or doubles the gradients. All
    8 such rewrites on the issue-12 corpus were wrong.

    ## Example
    ```python
    model = XlaFullyShardedDataParallel(model)
    loss.backward()
    optimizer.step()
    ```

    ## Use instead
    ```python
    model = XlaFullyShardedDataParallel(model)
    loss.backward()
    optimizer.step()  # FSDP reduce-scattered the gradients already
    ```
    """

    code = "TRN151"
    name = "gradients-reduced-elsewhere"
    summary = "sharded, model-parallel or hand-reduced training: `optimizer.step()` kept"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.INFO
    sources = ("xla-model", "neuron-guide", "xla-syncfree")


class ParallelismWithoutXla(Rule):
    """## What it does
    Reports the construction of a parallel wrapper that has no XLA implementation on the XLA
    targets: torch FSDP (`FullyShardedDataParallel`, FSDP2 `fully_shard`), torch tensor or
    pipeline parallelism (`parallelize_module`, `torch.distributed.pipelining`), DeepSpeed
    (`deepspeed.initialize`) and apex `DistributedDataParallel`, with the torch-xla or
    neuronx-distributed form to use. Nothing is rewritten: the sharding configuration is a
    design choice.

    ## Why
    On Trainium with torch-xla, sharding is done by torch-xla's own FSDP
    (`torch_xla.distributed.fsdp.XlaFullyShardedDataParallel`), SPMD (`torch_xla.distributed.spmd`,
    FSDPv2), ZeRO-1 (`torch_xla.distributed.zero_redundancy_optimizer.ZeroRedundancyOptimizer`) or
    neuronx-distributed (tensor/pipeline parallel layers, `NeuronZero1Optimizer`); DeepSpeed and
    apex need CUDA kernels ([xla-model, neuron-guide, xla-syncfree]). TorchNeuron
    (`--target neuron`) runs torch FSDP and DTensor natively, so this rule is for the XLA targets
    only ([torchneuron-overview]).

    ## Example
    ```python
    from torch.distributed.fsdp import fully_shard
    fully_shard(model)
    ```

    ## Use instead
    ```python
    from torch_xla.distributed.fsdp import XlaFullyShardedDataParallel as FSDP
    model = FSDP(model)
    ```
    """

    code = "TRN152"
    name = "parallelism-without-xla"
    summary = "torch FSDP/TP/PP, DeepSpeed or apex DDP: no XLA implementation (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.BLOCKER
    sources = ("xla-model", "neuron-guide", "xla-syncfree", "torchneuron-overview")


class ReduceAverage(Rule):
    """## What it does
    On the XLA targets, reports a collective that averages with `torch.distributed.ReduceOp.AVG`
    (`dist.all_reduce(t, op=dist.ReduceOp.AVG)`, `reduce_scatter_tensor(..., op=AVG)`), with
    the form that runs. Nothing is rewritten: dividing in place is wrong for an integer tensor,
    and the tool cannot always tell the tensor's dtype.

    ## Why
    The `xla` process group, which the migration uses for NCCL's collectives, has no average:
    on torch 2.9.0 + torch-xla 2.9.0 `all_reduce(op=ReduceOp.AVG)` raises `ValueError: Invalid
    reduce op` while `SUM`, `MAX`, `MIN` and `PRODUCT` run (measured [measured-reduce-average]).
    Gloo, the CPU backend, has no average
    either. The program stops at the first such call: a blocker.

    ## Example
    ```python
    dist.all_reduce(loss, op=dist.ReduceOp.AVG)
    ```

    ## Use instead
    ```python
    dist.all_reduce(loss, op=dist.ReduceOp.SUM)
    loss /= dist.get_world_size()
    ```
    """

    code = "TRN148"
    name = "reduce-average"
    summary = "`ReduceOp.AVG` raises in the `xla` process group: SUM, then divide (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.BLOCKER
    sources = ("measured-reduce-average",)


class SyncBatchNormOnXla(Rule):
    """## What it does
    On the XLA targets, in a data-parallel file that trains, reports
    `nn.SyncBatchNorm.convert_sync_batchnorm(model)` with what to do instead. Nothing is
    rewritten: dropping the conversion changes the numerics (see below), a choice to review.

    ## Why
    torch 2.9's `SyncBatchNorm.forward` synchronises the batch statistics only for input on a
    GPU, XPU, HPU or a PrivateUse1 device: on the XLA device, whenever a process group is
    initialised and the module trains, it raises `ValueError: SyncBatchNorm expected input
    tensor to be on GPU or XPU or privateuseone`, with the `xla` process group and any world
    size; plain `BatchNorm` trains and the converted model runs in eval mode (measured
    [measured-sync-batchnorm]). The run stops at the first training forward: a blocker.
    Without the conversion each replica normalises with the statistics of its own batch
    (per-replica BatchNorm), which changes the numerics where per-device batches are small.

    ## Example
    ```python
    model = nn.SyncBatchNorm.convert_sync_batchnorm(model)
    model = DDP(model)
    ```

    ## Use instead
    ```python
    # per-replica BatchNorm statistics: review the numerics (or all-reduce mean and variance
    # over the xla group in a BatchNorm of your own)
    model = DDP(model)
    ```
    """

    code = "TRN052"
    name = "sync-batchnorm-xla"
    summary = "`convert_sync_batchnorm` raises at the first training forward on XLA (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.BLOCKER
    sources = ("measured-sync-batchnorm",)


# What reduces the gradients in each kind of training that is not plain data parallel, and what
# the target needs ([xla-model, neuron-guide, xla-syncfree]).
_ELSEWHERE = {
    training.XLA_FSDP: "torch-xla FSDP reduce-scatters the gradients in `backward()`: keep "
    "`{step}` (FSDP shards the optimizer state; clip with `model.clip_grad_norm_`)",
    training.XLA_SPMD: "under SPMD the gradients are global arrays, reduced by the compiler: keep "
    "`{step}`",
    training.ZERO: "the ZeRO-1 optimizer reduce-scatters the gradients inside its `step()`: keep "
    "`{step}` (on XLA use `torch_xla.distributed.zero_redundancy_optimizer."
    "ZeroRedundancyOptimizer`, not torch's)",
    training.NXD: "neuronx-distributed reduces the gradients in its optimizer wrapper "
    "(`nxd.initialize_parallel_optimizer`): keep `{step}`",
    training.DEEPSPEED: "DeepSpeed's engine reduces the gradients, but DeepSpeed does not run on "
    "XLA: port to neuronx-distributed (`NeuronZero1Optimizer`) or torch-xla ZeRO-1",
    training.TORCH_FSDP: "torch FSDP reduce-scatters the gradients, but has no XLA backend: wrap "
    "with `torch_xla.distributed.fsdp.XlaFullyShardedDataParallel` (or FSDPv2 with SPMD) and keep "
    "`{step}`",
    training.TENSOR_PARALLEL: "torch tensor parallelism has no XLA backend: shard with SPMD "
    "(`xs.mark_sharding`) or neuronx-distributed parallel layers, then keep `{step}`",
    training.PIPELINE_PARALLEL: "torch pipeline parallelism has no XLA backend: use "
    "neuronx-distributed's `NxDPPModel`, which runs the step",
    training.RPC: "RPC and distributed autograd have no XLA backend: keep the parameter server's "
    "tensors on the CPU, or restructure as data parallel with `xm.optimizer_step`",
    training.APEX_DDP: "apex DDP all-reduces in `backward()` but needs CUDA: replace it with "
    "`torch.nn.parallel.DistributedDataParallel(model, gradient_as_bucket_view=True)` after "
    '`init_process_group("xla")` and keep `{step}`, or drop it and all-reduce here: '
    "`xm.reduce_gradients(optimizer)` before `{step}` (once per accumulated step; "
    "`xm.optimizer_step(optimizer)` does both), as Neuron's BERT port does",
    training.HAND_REDUCED: "the gradients are all-reduced by hand: keep `{step}` and make sure the "
    'process group uses the `"xla"` backend (adding `xm.optimizer_step` would reduce twice)',
    training.ACCELERATE: "accelerate's prepared optimizer all-reduces the gradients on XLA: keep "
    "`{step}`",
}
# Constructions with no XLA implementation (TRN152), by qualified-name prefix.
_WITHOUT_XLA = {
    "torch.distributed.fsdp.FullyShardedDataParallel": "torch FSDP has no XLA backend: use "
    "`torch_xla.distributed.fsdp.XlaFullyShardedDataParallel` (or FSDPv2, "
    "`SpmdFullyShardedDataParallel` with SPMD)",
    "torch.distributed.fsdp.fully_sharded_data_parallel.FullyShardedDataParallel": "torch FSDP "
    "has no XLA backend: use `torch_xla.distributed.fsdp.XlaFullyShardedDataParallel` (or "
    "FSDPv2, `SpmdFullyShardedDataParallel` with SPMD)",
    "torch.distributed.fsdp.fully_shard": "FSDP2 `fully_shard` has no XLA backend: use "
    "`torch_xla.distributed.fsdp.XlaFullyShardedDataParallel`, or FSDPv2 "
    "(`SpmdFullyShardedDataParallel`) with SPMD",
    "torch.distributed._composable.fsdp.fully_shard": "FSDP2 `fully_shard` has no XLA backend: "
    "use `torch_xla.distributed.fsdp.XlaFullyShardedDataParallel`, or FSDPv2 "
    "(`SpmdFullyShardedDataParallel`) with SPMD",
    "torch.distributed.tensor.parallel.parallelize_module": "torch tensor parallelism has no XLA "
    "backend: shard with SPMD (`xs.mark_sharding`) or neuronx-distributed's "
    "`ColumnParallelLinear`/`RowParallelLinear`",
    "torch.distributed.pipelining.pipeline": "torch pipelining has no XLA backend: use "
    "neuronx-distributed's `NxDPPModel`",
    "deepspeed.initialize": "DeepSpeed does not run on XLA: use neuronx-distributed "
    "(`nxd.initialize_parallel_optimizer` with `zero_one_enabled`) or torch-xla ZeRO-1",
    "apex.parallel.DistributedDataParallel": "apex DDP needs CUDA: use "
    "`torch.nn.parallel.DistributedDataParallel(model, gradient_as_bucket_view=True)` after "
    '`init_process_group("xla")`, or drop it and step with `xm.optimizer_step`',
}


_INIT = frozenset(
    {
        "torch.distributed.init_process_group",
        "torch.distributed.distributed_c10d.init_process_group",
    }
)
_DDP = frozenset(
    {
        "torch.nn.parallel.DistributedDataParallel",
        "torch.nn.parallel.distributed.DistributedDataParallel",
    }
)
_SAMPLER = frozenset(
    {
        "torch.utils.data.DistributedSampler",
        "torch.utils.data.distributed.DistributedSampler",
    }
)
_CLIPS = frozenset(
    {
        "torch.nn.utils.clip_grad_norm_",
        "torch.nn.utils.clip_grad_value_",
        "torch.nn.utils.clip_grad.clip_grad_norm_",
        "torch.nn.utils.clip_grad.clip_grad_value_",
    }
)
_WORLD = {
    "torch.distributed.get_world_size": "world_size",
    "torch.distributed.get_rank": "global_ordinal",
}
_SAMPLER_SLOTS = {
    "num_replicas": (1, "torch.distributed.get_world_size"),
    "rank": (2, "torch.distributed.get_rank"),
}
_REDUCES = frozenset(
    {"torch_xla.core.xla_model.reduce_gradients", "torch_xla.core.xla_model.all_reduce"}
)
_SPAWN = frozenset({"torch_xla.distributed.xla_multiprocessing.spawn"})
# What the pass acts on a call of (its candidate test).
# `SyncBatchNorm.convert_sync_batchnorm` as torch.nn exports it and where it is defined (TRN052).
_SYNC_BATCHNORM = frozenset(
    f"{module}.SyncBatchNorm.convert_sync_batchnorm"
    for module in ("torch.nn", "torch.nn.modules", "torch.nn.modules.batchnorm")
)
# `ReduceOp.AVG` as torch.distributed exports it and as distributed_c10d defines it (TRN148).
_AVERAGE = frozenset(
    {"torch.distributed.ReduceOp.AVG", "torch.distributed.distributed_c10d.ReduceOp.AVG"}
)
_CALLED = _INIT | _DDP | _SAMPLER | _SPAWN | frozenset(_WITHOUT_XLA)
_UNITS = (cst.For, cst.While, cst.FunctionDef, cst.Module)


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


def _string(node: cst.BaseExpression) -> str | None:
    if isinstance(node, cst.SimpleString):
        value = node.evaluated_value
        return value if isinstance(value, str) else None
    return None


def nccl_choice(node: cst.BaseExpression) -> cst.SimpleString | None:
    """The "nccl" of `"nccl" if dist.is_nccl_available() else "gloo"` (or a CUDA availability
    test, either way round): a choice between NCCL and a CPU backend."""
    if not isinstance(node, cst.IfExp):
        return None
    sides = [node.body, node.orelse]
    strings = [_string(side) for side in sides]
    if "nccl" not in strings or None in strings:
        return None
    test = {n.attr.value for n in find(node.test, cst.Attribute)}  # type: ignore[union-attr]
    if test.isdisjoint({"is_nccl_available", "is_available"}):
        return None
    return sides[strings.index("nccl")]  # type: ignore[return-value]


def _argument(call: cst.Call, keyword: str, position: int) -> cst.Arg | None:
    for index, arg in enumerate(call.args):
        if arg.keyword is not None and arg.keyword.value == keyword:
            return arg
        if arg.keyword is None and not arg.star and index == position:
            return arg
    return None


def _one_a_line(call: cst.Call) -> bool:
    """Each argument of ``call`` on a line of its own, the parenthesis closed on its own line
    (the layout of black and ruff for a call that does not fit)."""
    args = call.args
    return len(args) > 1 and all(
        isinstance(a.comma, cst.Comma)
        and isinstance(a.comma.whitespace_after, cst.ParenthesizedWhitespace)
        for a in args
    )


def _last_without_comma(args: list[cst.Arg]) -> list[cst.Arg]:
    if args:
        args[-1] = args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    return args


class DataParallel(Pass):
    name = "data-parallel"
    rules = (
        OptimizerStepReduce,
        ReduceBeforeClip,
        XlaProcessGroup,
        XlaDistributedDataParallel,
        SamplerWorldSize,
        DataParallelSetDevice,
        MultiprocessSpawn,
        GradientsReducedElsewhere,
        ParallelismWithoutXla,
        ReduceAverage,
        SyncBatchNormOnXla,
    )
    needles = (
        "init_process_group",
        "DistributedSampler",
        "DistributedDataParallel",
        "spawn",
        "fully_shard",
        "FullyShardedDataParallel",
        "deepspeed",
        "parallelize_module",
        "pipelining",
        "ZeroRedundancyOptimizer",
        "ReduceOp",
        "convert_sync_batchnorm",
    )

    @classmethod
    def applies_to(cls, target: Target) -> bool:
        # TorchNeuron keeps standard torch.distributed ([torchneuron-overview]).
        return target.is_xla and super().applies_to(target)

    @classmethod
    def candidate(cls, facts: FileFacts, target: Target) -> bool:
        # Every path starts from a call of one of these: init_process_group, DDP and
        # DistributedSampler (rewrites, and `data_parallel` for the optimizer-step plan in
        # visit_Module and torch.cuda.set_device), xmp.spawn (TRN147) and the constructions
        # without XLA (TRN152). The step plan and set_device need data_parallel, so one of the
        # first three.
        return facts.calls_one_of(*_CALLED) or may_resolve(facts, _AVERAGE)

    def __init__(self, context, run) -> None:  # type: ignore[no-untyped-def]
        super().__init__(context, run)
        self.data_parallel = False
        self.uses_ddp = False
        self.steps: set[cst.Call] = set()  # optimizer steps to turn into xm.optimizer_step
        self.reduce_before: dict[cst.BaseStatement, str] = {}  # statement → optimizer
        self.input_plans: dict[cst.Call, InputPlan] = {}  # DDP construction → its inputs
        self.moves: set[cst.BaseExpression] = set()  # CPU-made inputs DDP moved: moved here
        self.group_is_xla = False  # every process group the module makes is xla after the port

    # -- the whole module ----------------------------------------------------------------------
    def visit_Module(self, node: cst.Module) -> None:
        self._module = node
        calls = [c for c in find(node, cst.Call) if isinstance(c, cst.Call)]
        kinds = [self.module_names(c.func) for c in calls]
        wrappers = self.run.program.imported_ddp  # yolov5's `model = smart_DDP(model)`
        self.uses_ddp = any(not names.isdisjoint(_DDP) for names in kinds) or any(
            isinstance(c.func, cst.Name) and c.func.value in wrappers for c in calls
        )
        inputs = DdpInputs(
            self, [c for c, names in zip(calls, kinds, strict=True) if not names.isdisjoint(_DDP)]
        )
        for call, names in zip(calls, kinds, strict=True):
            if not names.isdisjoint(_DDP) and self._drops_device_ids(call):
                plan = self.input_plans[call] = inputs.plan(call)
                line = self.get_metadata(PositionProvider, call).start.line
                if plan.blocked is None and self.enabled(XlaDistributedDataParallel):
                    if not self.run.suppressions.covers(line, XlaDistributedDataParallel.code):
                        self.moves.update(plan.moves)
        self.data_parallel = self.uses_ddp or any(
            not names.isdisjoint(_INIT | _SAMPLER) for names in kinds
        )
        groups = [c for c, names in zip(calls, kinds, strict=True) if not names.isdisjoint(_INIT)]
        # `args.dist_backend = 'nccl'` above `init_process_group(backend=args.dist_backend)`:
        # the literal is the backend, rewritten where it is written (TRN143).
        self.backend_literals: dict[cst.SimpleString, cst.Call] = {}
        for call in groups:
            for literal in self._literal_backend(call):
                self.backend_literals[literal] = call
        self.group_is_xla = bool(groups) and all(self._made_xla(c) for c in groups)
        steps = [
            c
            for c in calls
            if is_optimizer_step(c)
            and isinstance(c.func, cst.Attribute)
            and c.func.attr.value == "step"
        ]
        if not self.data_parallel or self.uses_ddp:
            return
        elsewhere = self.run.profile.reduces_own_gradients
        for call in steps:
            if elsewhere:
                # Sharded, model-parallel, framework-driven or hand-reduced: nothing to add.
                self._report_elsewhere(call, elsewhere)
            else:
                self._plan_step(call)

    def _report_elsewhere(self, call: cst.Call, kinds: tuple[str, ...]) -> None:
        step = _code(call)
        what = "; ".join(_ELSEWHERE[k].format(step=step) for k in kinds if k in _ELSEWHERE)
        self.report(call, GradientsReducedElsewhere, f"not plain data parallel: {what}", False)

    def _enclosing(self, node: cst.CSTNode, kinds: tuple[type, ...]) -> cst.CSTNode | None:
        parent = self.get_metadata(ParentNodeProvider, node, None)
        while parent is not None and not isinstance(parent, kinds):
            parent = self.get_metadata(ParentNodeProvider, parent, None)
        return parent

    def _statement(self, node: cst.CSTNode) -> cst.BaseStatement | None:
        statement = self._enclosing(node, (cst.SimpleStatementLine, cst.BaseCompoundStatement))
        return statement  # type: ignore[return-value]

    def _plan_step(self, call: cst.Call) -> None:
        receiver = dotted(call.func.value) or ""  # type: ignore[attr-defined]
        if "scaler" in receiver.rsplit(".", 1)[-1].lower():
            self.report(
                call,
                OptimizerStepReduce,
                f"data-parallel `{_code(call)}`: gradients are not all-reduced; call "
                f"`xm.reduce_gradients(optimizer)` after `scaler.unscale_(optimizer)` (or drop "
                "the GradScaler with bf16, [neuron-bf16, xla-amp])",
                False,
            )
            return
        if call.args:
            self.report(
                call,
                OptimizerStepReduce,
                f"data-parallel `{_code(call)}` with arguments: call "
                f"`xm.reduce_gradients({receiver})` right before it",
                False,
            )
            return
        unit = self._enclosing(call, _UNITS)
        assert unit is not None
        scope = unit if isinstance(unit, cst.Module) else unit.body  # type: ignore[attr-defined]
        calls = [c for c in find(scope, cst.Call) if isinstance(c, cst.Call)]
        if any(self.is_any(c.func, _REDUCES) for c in calls):
            return  # the gradients are reduced by hand already
        clips = [c for c in calls if self._is_clip(c)]
        if not clips:
            if self.report(
                call,
                OptimizerStepReduce,
                f"`{_code(call)}` → `xm.optimizer_step({receiver})`",
                True,
            ):
                self.steps.add(call)
            return
        step_statement = self._statement(call)
        block = self.get_metadata(ParentNodeProvider, step_statement, None)
        siblings = list(getattr(block, "body", ()))
        before = siblings[: siblings.index(step_statement)] if step_statement in siblings else []
        clip_statements = [s for s in before if any(self._contains(s, c) for c in clips)]
        certain = (
            clip_statements
            and all(self._qualified_clip(c) for c in clips)
            and all(any(self._contains(s, c) for s in clip_statements) for c in clips)
        )
        if not certain:
            self.report(
                call,
                ReduceBeforeClip,
                f"gradients are clipped in this data-parallel step but not right before "
                f"`{_code(call)}` in the same block: call `xm.reduce_gradients({receiver})` "
                f"before the clip and keep `{_code(call)}`",
                False,
            )
            return
        if self.report(
            clips[0],
            ReduceBeforeClip,
            f"`xm.reduce_gradients({receiver})` inserted before the clip; `{_code(call)}` kept",
            True,
        ):
            self.reduce_before[clip_statements[0]] = receiver

    def _is_clip(self, call: cst.Call) -> bool:
        if self._qualified_clip(call):
            return True
        name = (dotted(call.func) or "").rsplit(".", 1)[-1]
        return name.startswith("clip_grad")

    def _qualified_clip(self, call: cst.Call) -> bool:
        return self.is_any(call.func, _CLIPS)

    @staticmethod
    def _contains(outer: cst.CSTNode, inner: cst.CSTNode) -> bool:
        return any(node is inner for node in walk(outer))

    # -- rewriting -----------------------------------------------------------------------------
    def visit_Attribute(self, node: cst.Attribute) -> None:
        if node.attr.value == "AVG" and not self.module_names(node).isdisjoint(_AVERAGE):
            self.report(
                node,
                ReduceAverage,
                f"`{cst.Module([]).code_for_node(node)}`: the `xla` process group has no average "
                "and raises `Invalid reduce op`; reduce with `ReduceOp.SUM` and divide by "
                "`dist.get_world_size()`",
                False,
            )

    def visit_Call(self, node: cst.Call) -> None:
        # The error needs a process group and a training forward: a data-parallel file that
        # trains (a conversion in a module that only evaluates or exports does not raise).
        if (
            self.data_parallel
            and self.run.profile.trains
            and self.is_any(node.func, _SYNC_BATCHNORM)
        ):
            self.report(
                node,
                SyncBatchNormOnXla,
                "SyncBatchNorm raises at the first training forward on the XLA device (`ValueError: "
                "SyncBatchNorm expected input tensor to be on GPU or XPU or privateuseone`): drop "
                "the conversion, so each replica normalises with its own batch's statistics (a "
                "numerics change to review), or all-reduce the mean and variance over the xla group "
                "in a BatchNorm of your own",
                False,
            )

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if self.moves and any(arg.value in self.moves for arg in original_node.args):
            updated_node = updated_node.with_changes(
                args=[
                    arg.with_changes(value=self._moved(arg.value))
                    if original.value in self.moves
                    else arg
                    for original, arg in zip(original_node.args, updated_node.args, strict=True)
                ]
            )
        if original_node in self.steps:
            func = self.emit(self.target.api("optimizer_step"))
            receiver = updated_node.func.value  # type: ignore[attr-defined]
            return cst.Call(func=func, args=[cst.Arg(receiver)])
        names = self.module_names(original_node.func)
        if not names.isdisjoint(_INIT):
            return self._process_group(original_node, updated_node)
        if not names.isdisjoint(_DDP):
            return self._ddp(original_node, updated_node)
        if not names.isdisjoint(_SAMPLER):
            return self._sampler(original_node, updated_node)
        if not names.isdisjoint(_SPAWN):
            self._spawn(original_node)
        for name in names:
            if name in _WITHOUT_XLA:
                self.report(original_node, ParallelismWithoutXla, _WITHOUT_XLA[name], False)
                break
        if "torch.cuda.set_device" in names and self.data_parallel:
            parent = self.get_metadata(ParentNodeProvider, original_node, None)
            if not isinstance(parent, cst.Expr):
                self.report(
                    original_node,
                    DataParallelSetDevice,
                    "`torch.cuda.set_device` raises on Trainium: remove it (each process "
                    "uses its default XLA device)",
                    False,
                )
        return updated_node

    def _cpu_fallback(
        self, call: cst.Call, backend: cst.BaseExpression
    ) -> tuple[str, cst.Call] | None:
        """The backend a name holds on the target, and the test that chose it, where every
        assignment of it in the function (or module) around ``call`` chooses between NCCL and
        another backend by a test the target's facts make False (`"nccl" if
        torch.cuda.is_available() else "gloo"`; data/device_facts.toml): the other backend."""
        if not isinstance(backend, cst.Name):
            return None
        scope: cst.CSTNode | None = call
        while scope is not None and not isinstance(scope, cst.FunctionDef):
            scope = self.get_metadata(ParentNodeProvider, scope, None)
        values = [
            node.value
            for node in walk(scope if scope is not None else self._module)
            if isinstance(node, cst.Assign)
            and any(
                isinstance(t.target, cst.Name) and t.target.value == backend.value
                for t in node.targets
            )
        ]
        false_calls = facts_for(self.target.backend).false_calls
        chosen: set[str] = set()
        tests = []
        for value in values:
            nccl = nccl_choice(value)
            if nccl is None:
                return None
            assert isinstance(value, cst.IfExp)
            test, negated = value.test, False
            while isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
                test, negated = test.expression, not negated
            if not (
                isinstance(test, cst.Call)
                and not test.args
                and not self.module_names(test.func).isdisjoint(false_calls)
            ):
                return None
            tests.append(test)
            side = value.body if negated else value.orelse  # the test is False on the target
            chosen.add(_string(side) or "")
        if len(chosen) != 1 or "" in chosen:
            return None
        return chosen.pop(), tests[0]

    def _collective(self) -> cst.Call | None:
        """The module's first collective of tensors (`dist.all_reduce(grads)`), where it moves
        its tensors to a device (on the target, the XLA device); else None: a CPU program's
        gloo collectives exchange its CPU tensors."""
        calls = find(self._module, cst.Call)
        moves = any(
            isinstance(c.func, cst.Attribute)
            and c.func.attr.value in ("to", "cuda")  # type: ignore[attr-defined]
            or any(a.keyword is not None and a.keyword.value == "device" for a in c.args)  # type: ignore[attr-defined]
            for c in calls
        )
        if not moves:
            return None
        for call in calls:
            if self.module_names(call.func) & _COLLECTIVES:  # type: ignore[attr-defined]
                return call  # type: ignore[return-value]
        return None

    def _process_group(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        backend = _argument(original, "backend", 0)
        value = _string(backend.value) if backend is not None else None
        if value == "xla":
            return updated
        if original in self.backend_literals.values() and self._rewrites_group(original):
            return updated  # its literal is rewritten where it is written
        choice = nccl_choice(backend.value) if backend is not None else None
        if choice is not None:
            value = "nccl"  # the choice is the accelerator's backend where there is one
        if value != "nccl" or any(
            a.keyword and a.keyword.value == "device_id" for a in original.args
        ):
            what = "no backend" if backend is None else f"backend `{_code(backend.value)}`"
            held = None
            fallback = self._cpu_fallback(original, backend.value) if backend else None
            if fallback is not None:
                # `backend = "nccl" if torch.cuda.is_available() else "gloo"`: the device pass
                # makes such a test pick the accelerator where it chooses a device, but nothing
                # rewrites this choice, so it runs as it is on the target: gloo. That starts,
                # and DDP on an XLA model then raises (benchmarks/xla_quirks/gloo_xla_ddp.py):
                # the placement decides whether it meets XLA tensors, not this line.
                held, test = fallback
                what += (
                    f', "{held}" on the target, where `{_code(test)}` is False: {held} runs on '
                    "the CPU, and DDP of a model on the XLA device raises with it"
                )
            elif value is None and backend is not None:  # `backend=args.dist_backend`
                facts = self.device_facts(self._module)
                held = facts.constant(backend.value)
                if held is not None:
                    what += f', "{held}" on every launch the tool can see'
            collective = self._collective() if "gloo" in (value, held) else None
            if collective is not None:
                # Measured (benchmarks/xla_quirks/gloo_all_reduce_xla.py): on gloo a collective
                # of XLA tensors returns and exchanges nothing; each rank trains alone.
                what += (
                    f"; `{_code(collective.func)}(...)` (line "
                    f"{self.get_metadata(PositionProvider, collective).start.line}) on gloo "
                    "returns without exchanging XLA tensors (each rank keeps its own values, "
                    "measured): every rank trains alone"
                )
            if self.report(
                original,
                XlaProcessGroup,
                f'process group with {what}: use `init_process_group("xla", '
                'init_method="xla://")` with `import torch_xla.distributed.xla_backend`'
                + (" and drop `device_id=`" if value == "nccl" else ""),
                False,
            ) and (held == "nccl" or collective is not None):
                # NCCL needs CUDA: decided, init_process_group raises there on every launch. (Gloo
                # runs on the CPU; whether it meets XLA tensors is the placement's question.)
                self.findings[-1] = replace(self.findings[-1], severity=Severity.BLOCKER)
            return updated
        given = {a.keyword.value for a in original.args if a.keyword}
        adds_method = given.isdisjoint({"init_method", "store", "rank", "world_size"})
        message = '"nccl" → "xla"' + (', init_method="xla://"' if adds_method else "")
        anchor: cst.CSTNode = original
        if choice is not None:
            # One finding, at the choice: on Trainium neither side is the accelerator's.
            anchor = backend.value  # type: ignore[union-attr]
            message = (
                f'`{_code(anchor)}` → "xla"'
                + (', init_method="xla://"' if adds_method else "")
                + ": NCCL needs CUDA, and the other backend cannot reduce XLA tensors"
            )
        if not self.report(anchor, XlaProcessGroup, message, True):
            return updated
        self.add_import(self.target.api("xla_backend").module)
        quote = (choice or backend.value).quote  # type: ignore[union-attr]
        new_value = cst.SimpleString(f"{quote}xla{quote}")
        args = []
        for original_arg, arg in zip(original.args, updated.args, strict=True):
            args.append(arg.with_changes(value=new_value) if original_arg is backend else arg)
        if adds_method:
            args = _last_without_comma(args)
            # The space before `)` (a new line in a call over several lines) moves after the
            # new argument.
            closing = args[-1].whitespace_after_arg
            args[-1] = args[-1].with_changes(
                comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")),
                whitespace_after_arg=cst.SimpleWhitespace(""),
            )
            args.append(
                cst.Arg(
                    cst.SimpleString(f"{quote}xla://{quote}"),
                    keyword=cst.Name("init_method"),
                    equal=cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace("")),
                    whitespace_after_arg=closing,
                )
            )
        return updated.with_changes(args=args)

    def _moved(self, value: cst.BaseExpression) -> cst.Call:
        """``value.to(<device>)``: where DDP's `device_ids` moved an input made on the CPU."""
        if isinstance(value, (cst.BinaryOperation, cst.UnaryOperation, cst.IfExp)):
            value = value.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
        return cst.Call(
            func=cst.Attribute(value=value, attr=cst.Name("to")),
            args=[cst.Arg(self.emit(self.target.device))],
        )

    @staticmethod
    def _drops_device_ids(call: cst.Call) -> bool:
        positional = [a for a in call.args if a.keyword is None]
        return len(positional) > 1 or any(
            a.keyword and a.keyword.value in ("device_ids", "output_device") for a in call.args
        )

    def _ddp(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        plan = self.input_plans.get(original)
        if plan is not None and plan.blocked is not None:
            if self.report(
                original,
                XlaDistributedDataParallel,
                "DDP's `device_ids` kept, and the port fails with it: on an XLA model DDP moves "
                "every input to `xla:<device_ids[0]>`, a device a torchrun process does not have "
                "for a local rank above 0 (each sees one, `xla:0`), so every rank but the first "
                "raises (RuntimeError, torch 2.9 DDP `_pre_forward`); it is not dropped because "
                f"{plan.blocked}; move each input to the device (`.to(device)`), then drop "
                "`device_ids`/`output_device` and add `gradient_as_bucket_view=True`",
                False,
            ):
                self.findings[-1] = replace(self.findings[-1], severity=Severity.BLOCKER)
            return updated
        positional = [a for a in original.args if a.keyword is None]
        if len(positional) > 3 or any(a.star for a in original.args):
            self.report(
                original,
                XlaDistributedDataParallel,
                "DDP with many positional arguments: construct it as `DDP(model, "
                "gradient_as_bucket_view=True)` without `device_ids`/`output_device`",
                False,
            )
            return updated
        dropped = {"device_ids", "output_device"}
        kept: list[cst.Arg] = []
        removed = []
        for index, (original_arg, arg) in enumerate(zip(original.args, updated.args, strict=True)):
            keyword = original_arg.keyword.value if original_arg.keyword else None
            if keyword in dropped or (keyword is None and index in (1, 2)):
                removed.append(keyword or ("device_ids", "output_device")[index - 1])
                continue
            kept.append(arg)
        has_view = any(a.keyword and a.keyword.value == "gradient_as_bucket_view" for a in kept)
        if not removed and has_view:
            return updated
        message = f"DDP for XLA: {', '.join(f'`{r}`' for r in removed) or 'nothing'} removed" + (
            "" if has_view else ", `gradient_as_bucket_view=True` added"
        )
        if removed:
            moved = ", ".join(
                f"`{_code(value)}` (line {self.get_metadata(PositionProvider, value).start.line})"
                for value in (plan.moves if plan is not None else [])
            )
            if moved:
                fed = f"{moved} moved with `.to({self.target.device.expr})`"
            elif plan is not None and plan.calls:
                fed = "every input the step feeds is moved to it already"
            else:
                fed = "the DDP model is not called in this file"
            message += f"; DDP no longer moves the inputs to the device: {fed}"
        if not self.report(original, XlaDistributedDataParallel, message, True):
            return updated
        trailing = updated.args[-1].comma
        if not (_one_a_line(updated) and kept and isinstance(trailing, cst.Comma)):
            trailing = cst.MaybeSentinel.DEFAULT
        kept = _last_without_comma(kept)
        if not has_view:
            if kept:
                # A call wrapped over lines (one argument a line, or a hanging indent): the new
                # argument goes on a line of its own, indented as the call's last wrapped one.
                wrapped = [
                    a.comma
                    for a in updated.args[:-1]
                    if isinstance(a.comma, cst.Comma)
                    and isinstance(a.comma.whitespace_after, cst.ParenthesizedWhitespace)
                ]
                kept[-1] = kept[-1].with_changes(
                    comma=wrapped[-1]
                    if wrapped
                    else cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
                )
            kept.append(
                cst.Arg(
                    cst.Name("True"),
                    keyword=cst.Name("gradient_as_bucket_view"),
                    equal=cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace("")),
                )
            )
        kept[-1] = kept[-1].with_changes(comma=trailing)
        return updated.with_changes(args=kept)

    def _sampler(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        args = list(updated.args)
        if self._sampler_defaults(original):
            # Plain data parallel only: where a framework, sharding or model parallelism owns
            # the gradients, its own data-parallel group is the sampler's business.
            if self.run.profile.reduces_own_gradients:
                return updated
            if not self.settings.scale_out:
                # The script's own process group (made xla by TRN143) gives the sampler the same
                # world size and rank: spelling them out changes nothing (dino, timm, detr,
                # yolov5 on the repository benchmark). Under --scale-out the tool writes the
                # multi-worker port as Neuron's samples do, with the runtime's values.
                return updated
            return self._sampler_from_runtime(original, updated)
        if self.group_is_xla and not self.settings.scale_out:
            # The module's process group is (or is made by TRN143) xla: `dist.get_world_size()`
            # and `dist.get_rank()` are then the runtime's values, so the rewrite changes nothing.
            return updated
        for keyword, (position, source) in _SAMPLER_SLOTS.items():
            arg = _argument(original, keyword, position)
            if arg is None or not isinstance(arg.value, cst.Call) or arg.value.args:
                continue
            if source not in self.module_names(arg.value.func):
                continue
            api = self.target.api(_WORLD[source])
            if not api or not self.report(
                arg.value, SamplerWorldSize, f"`{_code(arg.value)}` → `{api.expr}`", True
            ):
                continue
            index = original.args.index(arg)
            args[index] = args[index].with_changes(value=self.emit(api))
        return updated.with_changes(args=args)

    def _literal_backend(self, call: cst.Call) -> list[cst.SimpleString]:
        """The "nccl" literals `call`'s backend name is bound to, where every binding of it in
        the function around the call (`args.dist_backend = 'nccl'`, the DeiT/MAE family's
        `init_distributed_mode`) is that literal, one at least above the call: the backend on
        every launch, rewritten where it is written. Else none."""
        backend = _argument(call, "backend", 0)
        if backend is None or not isinstance(backend.value, cst.Name | cst.Attribute):
            return []
        spelled = _code(backend.value)
        scope: cst.CSTNode | None = call
        while scope is not None and not isinstance(scope, cst.FunctionDef):
            scope = self.get_metadata(ParentNodeProvider, scope, None)
        if scope is None:
            return []
        literals = []
        for node in walk(scope):
            if not isinstance(node, cst.Assign | cst.AugAssign | cst.AnnAssign):
                continue
            targets = node.targets if isinstance(node, cst.Assign) else [node]
            if not any(_code(t.target) == spelled for t in targets):
                continue
            if not (isinstance(node, cst.Assign) and _string(node.value) == "nccl"):
                return []
            literals.append(node.value)
        at = self.get_metadata(PositionProvider, call).start.line
        if not any(self.get_metadata(PositionProvider, v).start.line < at for v in literals):
            return []
        return literals  # type: ignore[return-value]

    def leave_SimpleString(
        self, original_node: cst.SimpleString, updated_node: cst.SimpleString
    ) -> cst.SimpleString:
        call = self.backend_literals.get(original_node)
        if call is None or not self._rewrites_group(call):
            return updated_node
        line = self.get_metadata(PositionProvider, call).start.line
        if not self.report(
            original_node,
            XlaProcessGroup,
            f'"nccl" → "xla": the backend `init_process_group` gets at line {line}',
            True,
        ):
            return updated_node
        self.add_import(self.target.api("xla_backend").module)
        return updated_node.with_changes(value=f"{updated_node.quote}xla{updated_node.quote}")

    def _rewrites_group(self, call: cst.Call) -> bool:
        line = self.get_metadata(PositionProvider, call).start.line
        return (
            self.enabled(XlaProcessGroup)
            and not self.run.suppressions.covers(line, XlaProcessGroup.code)
            and not any(a.keyword and a.keyword.value == "device_id" for a in call.args)
        )

    def _made_xla(self, call: cst.Call) -> bool:
        """The process group `call` makes is xla after the port: spelled "xla", or "nccl" (or a
        choice of it, or a literal its backend name is bound to) that TRN143 rewrites here."""
        backend = _argument(call, "backend", 0)
        if backend is None:
            return False
        if call in self.backend_literals.values():
            return self._rewrites_group(call)
        value = _string(backend.value)
        if value == "xla":
            return True
        if value != "nccl" and nccl_choice(backend.value) is None:
            return False
        line = self.get_metadata(PositionProvider, call).start.line
        return (
            self.enabled(XlaProcessGroup)
            and not self.run.suppressions.covers(line, XlaProcessGroup.code)
            and not any(a.keyword and a.keyword.value == "device_id" for a in call.args)
        )

    @staticmethod
    def _sampler_defaults(call: cst.Call) -> bool:
        """`DistributedSampler(dataset, ...)` with neither `num_replicas` nor `rank` (so both
        come from the default process group) and no `*args`/`**kwargs`."""
        if any(a.star for a in call.args) or not call.args or call.args[0].keyword:
            return False
        return all(_argument(call, k, p) is None for k, (p, _) in _SAMPLER_SLOTS.items())

    def _sampler_from_runtime(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        world, rank = self.target.api("world_size"), self.target.api("global_ordinal")
        if not world or not rank:
            return updated
        if not self.report(
            original,
            SamplerWorldSize,
            f"the sampler's world size and rank came from the process group: "
            f"`num_replicas={world.expr}, rank={rank.expr}` added (the XLA runtime's values, "
            "the same as an xla process group's, and known before one exists)",
            True,
        ):
            return updated
        space = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
        equal = cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace(""))
        added = [
            cst.Arg(self.emit(world), keyword=cst.Name("num_replicas"), equal=equal, comma=space),
            cst.Arg(self.emit(rank), keyword=cst.Name("rank"), equal=equal),
        ]
        args = list(updated.args)
        first = args[0]
        if len(args) == 1:
            # `DistributedSampler(ds)` or `DistributedSampler(ds,)`: the trailing comma stays last.
            added[-1] = added[-1].with_changes(comma=first.comma)
            return updated.with_changes(args=[first.with_changes(comma=space), *added])
        added[-1] = added[-1].with_changes(comma=first.comma)
        return updated.with_changes(args=[first.with_changes(comma=space), *added, *args[1:]])

    def _spawn(self, call: cst.Call) -> None:
        version = tuple(int(p) for p in self.target.torch_xla.split(".")[:2])
        nprocs = _argument(call, "nprocs", 2)
        if version < (2, 5) or nprocs is None:
            return
        if m.matches(nprocs.value, m.Name("None") | m.Integer("1")):
            return
        self.report(
            call,
            MultiprocessSpawn,
            f"`xmp.spawn(..., nprocs={_code(nprocs.value)})` fails on Neuron from torch-xla "
            "2.6: launch with `torchrun --nproc_per_node=<NeuronCores>`, or drop `nprocs` and "
            "set NEURON_NUM_DEVICES",
            False,
        )

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> cst.SimpleStatementLine | cst.FlattenSentinel | cst.RemovalSentinel:
        if self.data_parallel and len(original_node.body) == 1:
            small = original_node.body[0]
            if (
                isinstance(small, cst.Expr)
                and isinstance(small.value, cst.Call)
                and self.is_any(small.value.func, {"torch.cuda.set_device"})
                and not never_runs(self, original_node)
                and self.report(
                    small.value,
                    DataParallelSetDevice,
                    "`torch.cuda.set_device(...)` removed: each process uses its default XLA "
                    "device",
                    True,
                )
            ):
                return cst.RemoveFromParent()
        return self._with_reduce(original_node, updated_node)

    def _with_reduce(self, original: cst.BaseStatement, updated):  # type: ignore[no-untyped-def]
        receiver = self.reduce_before.get(original)
        if receiver is None:
            return updated
        func = self.emit(self.target.api("reduce_gradients"))
        # Blank lines go above the inserted call; comments stay with the clip they describe.
        lines = list(updated.leading_lines)
        blank = 0
        while blank < len(lines) and lines[blank].comment is None:
            blank += 1
        reduce = cst.SimpleStatementLine(
            [cst.Expr(cst.Call(func=func, args=[cst.Arg(cst.parse_expression(receiver))]))],
            leading_lines=lines[:blank],
        )
        return cst.FlattenSentinel([reduce, updated.with_changes(leading_lines=lines[blank:])])

    def leave_If(self, original_node: cst.If, updated_node: cst.If):  # type: ignore[no-untyped-def]
        return self._with_reduce(original_node, updated_node)

    def leave_With(self, original_node: cst.With, updated_node: cst.With):  # type: ignore[no-untyped-def]
        return self._with_reduce(original_node, updated_node)
