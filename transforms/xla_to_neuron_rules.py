"""The rules of the ``xla-to-neuron`` pass: torch-xla code (Trn1, torch-neuronx <= 2.9) moved to
TorchNeuron (``--target neuron``, Trn2/Trn3). Their documentation is what ``trncodemod explain``
prints; the API table they interpret is ``data/xla_to_neuron.toml``.

Sources (keys of ``data/sources.toml``): [neuron-xla-eos] and TorchNeuron's pages:
[torchneuron-overview] (device `neuron`, `torch.autocast(device_type="neuron")`),
[torchneuron-distributed] (`init_process_group(backend="neuron")` under torchrun,
DDP/FSDP2/DTensor), [neuron-training] ("do not mix their APIs in a single workload"),
[torchneuron-env] (the variables TorchNeuron reads).
"""

from __future__ import annotations

from trncodemod.findings import Rule, Safety, Severity


class XlaDevice(Rule):
    """## What it does
    On `--target neuron`, rewrites the torch-xla device to TorchNeuron's: `xm.xla_device()` and
    `torch_xla.device()` become `torch.device("neuron")`, and the string `"xla"` where it names a
    device (`.to("xla")`, `torch.device("xla")`, `device="xla"`, `device = "xla"`,
    `torch.autocast("xla")`, `x.device.type == "xla"`) becomes `"neuron"`. A device index
    (`xla_device(1)`, `"xla:1"`) is reported: under torchrun each process owns its NeuronCore.

    ## Why
    TorchNeuron is a PrivateUse1 backend whose device is `neuron`; it has no `xla` device and no
    torch_xla ([torchneuron-overview]; TorchNeuron: "change the device placement from `cuda` to
    `neuron`").

    ## Example
    ```python
    device = xm.xla_device()
    model.to("xla")
    ```

    ## Use instead
    ```python
    device = torch.device("neuron")
    model.to("neuron")
    ```
    """

    code = "TRN031"
    name = "xla-device"
    summary = '`xm.xla_device()`/`torch_xla.device()`/`"xla"` → `torch.device("neuron")`/`"neuron"`'
    safety = Safety.SAFE
    severity = Severity.ERROR
    sources = ("neuron-xla-eos", "torchneuron-overview")


class GraphCut(Rule):
    """## What it does
    On `--target neuron`, removes graph cuts: `xm.mark_step()` and `torch_xla.sync()` statements
    (an emptied block gets `pass`), and `with torch_xla.step():` gives way to its block;
    `xm.wait_device_ops()` becomes `torch.accelerator.synchronize()`. A cut whose value is used
    is reported.

    ## Why
    TorchNeuron executes eagerly ("Adaptive Eager Execution" queues and fuses ops by itself); there
    is no lazy graph to cut, and host reads (`.item()`, `print`) synchronise
    ([torchneuron-overview, xla-devices, neuron-mnist]). A step boundary needs nothing; to time a
    step, synchronise with `torch.accelerator.synchronize()`.

    ## Example
    ```python
    optimizer.step()
    xm.mark_step()
    ```

    ## Use instead
    ```python
    optimizer.step()
    ```
    """

    code = "TRN032"
    name = "xla-graph-cut"
    summary = "`xm.mark_step()`/`torch_xla.sync()` removed (eager execution)"
    safety = Safety.SAFE
    severity = Severity.ERROR
    sources = ("torchneuron-overview", "xla-devices", "neuron-mnist")


class UnwrapDeviceLoader(Rule):
    """## What it does
    On `--target neuron`, replaces `pl.MpDeviceLoader(loader, device)` by `loader` and moves each
    batch at the top of every loop over it: `for x, y in device_loader:` gets
    `x, y = x.to(device), y.to(device)`, also through `enumerate`; `len()` of it is the
    DataLoader's. `loader = pl.MpDeviceLoader(loader, device)` (the DataLoader's own name
    rebound) is removed. Only where every other use of the device loader is such a loop and the
    batch is unpacked into names; otherwise a blocker says what to write.

    ## Why
    `MpDeviceLoader` is torch_xla's ([xla-loader, neuron-guide]: "`--target neuron`: plain
    DataLoader"); on TorchNeuron batches are moved like on any device. MpDeviceLoader moved every
    tensor of a batch; the rewrite assumes each unpacked element is a tensor (review it when one is
    a dict or a list).

    ## Example
    ```python
    train_device_loader = pl.MpDeviceLoader(train_loader, device)
    for x, y in train_device_loader:
        ...
    ```

    ## Use instead
    ```python
    train_device_loader = train_loader
    for x, y in train_device_loader:
        x, y = x.to(device), y.to(device)
        ...
    ```
    """

    code = "TRN033"
    name = "xla-device-loader"
    summary = "`pl.MpDeviceLoader(loader, device)` → `loader`, batches moved with `.to(device)`"
    safety = Safety.REVIEW
    severity = Severity.ERROR
    sources = ("xla-loader", "neuron-guide", "torchneuron-overview")


class XlaOptimizerStep(Rule):
    """## What it does
    On `--target neuron`, rewrites `xm.optimizer_step(optimizer)` to `optimizer.step()`
    (`barrier=` dropped) and removes `xm.reduce_gradients(optimizer)`, where gradients are
    already reduced: the model is wrapped in DDP, or the file starts no worker processes and no
    process group (one process: the reduction was a no-op). Data-parallel code without DDP is a
    blocker: the gradients would no longer be averaged.

    ## Why
    `xm.optimizer_step` is `reduce_gradients` (a no-op at world size 1) + `optimizer.step()`
    ([xla-model, neuron-guide]). TorchNeuron reduces gradients with DDP, FSDP2 or DTensor, "with no
    code modifications required" ([torchneuron-overview, torchneuron-distributed]).

    ## Example
    ```python
    xm.optimizer_step(optimizer)
    ```

    ## Use instead
    ```python
    optimizer.step()
    ```
    """

    code = "TRN034"
    name = "xla-optimizer-step"
    summary = "`xm.optimizer_step(opt)` → `opt.step()` where DDP or one process reduces gradients"
    safety = Safety.SAFE
    severity = Severity.ERROR
    sources = ("xla-model", "neuron-guide", "torchneuron-overview", "torchneuron-distributed")


class XlaSave(Rule):
    """## What it does
    On `--target neuron`, rewrites `xm.save(obj, path)` to `torch.save(obj, path)`. In a file
    that starts worker processes or a process group, the statement is guarded by
    `if int(os.environ.get("LOCAL_RANK", "0")) == 0:`, as `xm.save` wrote from each host's
    master process only. `master_only=` is reported.

    ## Why
    `xm.save` exists to copy XLA tensors to the CPU before writing ([xla-model, neuron-mnist]);
    TorchNeuron tensors are ordinary device tensors that `torch.save` writes
    ([neuron-xla-eos, torchneuron-overview]: `torch.save` on `neuron`). Loading them where there is
    no NeuronCore needs `map_location="cpu"` (unverified for TorchNeuron; true for every PrivateUse1
    device in torch).

    ## Example
    ```python
    xm.save(model.state_dict(), "model.pt")
    ```

    ## Use instead
    ```python
    torch.save(model.state_dict(), "model.pt")
    ```
    """

    code = "TRN035"
    name = "xla-save"
    summary = "`xm.save` → `torch.save` (on the local master where several processes run)"
    safety = Safety.REVIEW
    severity = Severity.ERROR
    sources = ("xla-model", "neuron-mnist", "neuron-xla-eos", "torchneuron-overview")


class XlaProcessApi(Rule):
    """## What it does
    On `--target neuron`, rewrites torch-xla's process APIs to torchrun / torch.distributed:
    `xr.world_size()` / `xm.xrt_world_size()` → `int(os.environ.get("WORLD_SIZE", "1"))`,
    `xr.global_ordinal()` / `xm.get_ordinal()` → `RANK`, `xr.local_ordinal()` /
    `xm.get_local_ordinal()` → `LOCAL_RANK`, `xm.is_master_ordinal()` → `LOCAL_RANK == 0`,
    `xm.master_print(...)` → `print(...)` (guarded by `RANK == 0` where several processes run),
    `xm.rendezvous(tag)` → `torch.distributed.barrier()` (removed in one process).

    ## Why
    TorchNeuron runs one process per NeuronCore under torchrun, which sets `RANK`, `LOCAL_RANK`
    and `WORLD_SIZE`; its guide reads them from the environment and initialises the process
    group with `env://` ([torchneuron-distributed]). The environment reads work
    before `init_process_group` and in one process, as the torch-xla calls did.

    ## Example
    ```python
    sampler = DistributedSampler(ds, num_replicas=xr.world_size(), rank=xr.global_ordinal())
    xm.master_print("done")
    ```

    ## Use instead
    ```python
    sampler = DistributedSampler(
        ds,
        num_replicas=int(os.environ.get("WORLD_SIZE", "1")),
        rank=int(os.environ.get("RANK", "0")),
    )
    print("done")
    ```
    """

    code = "TRN036"
    name = "xla-process-api"
    summary = (
        "`xr.world_size()`, ordinals, `master_print`, `rendezvous` → torchrun / torch.distributed"
    )
    safety = Safety.SAFE
    severity = Severity.ERROR
    sources = ("torchneuron-distributed",)


class XlaTorchEquivalent(Rule):
    """## What it does
    On `--target neuron`, replaces torch_xla copies of PyTorch APIs by the PyTorch originals:
    `torch_xla.amp.syncfree.{AdamW,Adam,SGD}` → `torch.optim.*` (reported instead where
    `found_inf=` is passed), `torch_xla.manual_seed(s)` / `xm.set_rng_state(s)` →
    `torch.manual_seed(s)`, `torch_xla.utils.checkpoint.checkpoint` →
    `torch.utils.checkpoint.checkpoint`.

    ## Why
    syncfree optimizers only add an optional `found_inf` to `step()` and otherwise call the
    torch.optim step ([xla-syncfree, neuron-guide]); the XLA seed and checkpoint copies exist for
    the XLA RNG and a torch-xla 2.9 bug ([neuron-pt29]). TorchNeuron runs PyTorch's own.

    ## Example
    ```python
    optimizer = syncfree.AdamW(model.parameters(), lr=1e-3)
    ```

    ## Use instead
    ```python
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    ```
    """

    code = "TRN037"
    name = "xla-torch-equivalent"
    summary = "syncfree optimizers, XLA seed, XLA checkpoint → their torch originals"
    safety = Safety.SAFE
    severity = Severity.ERROR
    sources = ("xla-syncfree", "neuron-guide", "xla-api", "neuron-pt29", "xla-checkpoint")


class StepClosureCall(Rule):
    """## What it does
    On `--target neuron`, turns `xm.add_step_closure(fn, args=(a, b))` into the call
    `fn(a, b)` where it stood (`run_async=` dropped).

    ## Why
    A step closure runs once the lazy graph has executed, so that reading tensors does not cut the
    graph ([xla-model, neuron-guide]). In eager execution the tensors are ready: the call can run
    where it is. It now runs before the rest of the step rather than after it: review closures that
    read tensors the step changes in place later (parameters after `optimizer.step()`).

    ## Example
    ```python
    xm.add_step_closure(log, args=(step, loss))
    ```

    ## Use instead
    ```python
    log(step, loss)
    ```
    """

    code = "TRN038"
    name = "xla-step-closure"
    summary = "`xm.add_step_closure(fn, args=(...))` → `fn(...)` (eager tensors are ready)"
    safety = Safety.REVIEW
    severity = Severity.ERROR
    sources = ("xla-model", "neuron-guide", "torchneuron-overview")


class NeuronProcessGroup(Rule):
    """## What it does
    On `--target neuron`, rewrites the process-group backend `"xla"` or `"nccl"` to `"neuron"` in
    `torch.distributed.init_process_group`, dropping `init_method="xla://"` (torchrun's `env://`
    is the default). A backend computed at run time is left alone.

    ## Why
    TorchNeuron's distributed guide initialises with `init_process_group(backend="neuron",
    init_method="env://")` under torchrun; NCCL is CUDA's and `xla` is torch-xla's
    ([torchneuron-distributed]). The guide also imports `torch_neuronx` to register the backend;
    with PyTorch 2.9+ backend autoloading that import is not needed ([torchneuron-overview],
    unverified for the distributed backend: add `import torch_neuronx` if `init_process_group` says
    the backend is unknown).

    ## Example
    ```python
    dist.init_process_group("xla", init_method="xla://")
    ```

    ## Use instead
    ```python
    dist.init_process_group("neuron")
    ```
    """

    code = "TRN039"
    name = "neuron-process-group"
    summary = '`init_process_group("xla"|"nccl")` → `init_process_group("neuron")`'
    safety = Safety.SAFE
    severity = Severity.ERROR
    sources = ("torchneuron-distributed", "torchneuron-overview")


class OpenXlaCompileBackend(Rule):
    """## What it does
    On `--target neuron`, rewrites `torch.compile(..., backend="openxla")` (and
    `"openxla_eval"`) to `backend="neuron"`.

    ## Why
    `openxla` is torch-xla's dynamo backend; TorchNeuron's is `neuron`:
    `@torch.compile(backend="neuron")`, which rejects dynamic shapes (use `dynamic=False`,
    [torchneuron-overview]).

    ## Example
    ```python
    model = torch.compile(model, backend="openxla")
    ```

    ## Use instead
    ```python
    model = torch.compile(model, backend="neuron")
    ```
    """

    code = "TRN040"
    name = "openxla-compile-backend"
    summary = '`torch.compile(backend="openxla")` → `backend="neuron"`'
    safety = Safety.SAFE
    severity = Severity.ERROR
    sources = ("torchneuron-overview",)


class XlaBf16EnvVar(Rule):
    """## What it does
    On `--target neuron`, reports `XLA_USE_BF16` / `XLA_DOWNCAST_BF16` where the script sets or
    reads them. Nothing is rewritten: the tool cannot tell which module and which forward pass
    the bf16 cast should cover.

    ## Why
    TorchNeuron does not read them (its environment-variable page lists no `XLA_*` variable), so the
    model silently trains in fp32. Neuron documents `torch.autocast(device_type="neuron",
    dtype=torch.bfloat16)` around the forward pass and loss for mixed precision ([torchneuron-overview]),
    or `model.to(torch.bfloat16)` for full bf16 ([neuron-bf16, xla-amp]).

    ## Example
    ```python
    os.environ["XLA_USE_BF16"] = "1"
    loss = loss_fn(model(x), y)
    ```

    ## Use instead
    ```python
    with torch.autocast(device_type="neuron", dtype=torch.bfloat16):
        loss = loss_fn(model(x), y)
    ```
    """

    code = "TRN041"
    name = "xla-bf16-env-var"
    summary = "`XLA_USE_BF16`/`XLA_DOWNCAST_BF16` are not read by TorchNeuron (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = ("neuron-bf16", "xla-amp", "torchneuron-overview", "torchneuron-env")


class XlaEnvVar(Rule):
    """## What it does
    On `--target neuron`, reports environment variables of the XLA path (`PJRT_DEVICE`,
    `XLA_FLAGS`, `PT_XLA_DEBUG`, `XLA_IR_DEBUG`, `NEURON_NUM_DEVICES`,
    `NEURON_EXTRACT_GRAPHS_ONLY`, …) where the script sets or reads them.

    ## Why
    TorchNeuron's environment-variable page does not list them (`TORCH_NEURONX_*` variables
    configure it instead), so setting them does nothing and reading them tests a condition that no
    longer occurs (`NEURON_EXTRACT_GRAPHS_ONLY` is set by `neuron_parallel_compile`, an XLA-path
    tool). Unverified: whether TorchNeuron reads any of them undocumented.

    ## Example
    ```python
    os.environ["PJRT_DEVICE"] = "NEURON"
    ```

    ## Use instead
    ```python
    # nothing: the `neuron` device needs no runtime selection
    ```
    """

    code = "TRN042"
    name = "xla-env-var"
    summary = "environment variables of the XLA path that TorchNeuron does not read (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.INFO
    sources = ("torchneuron-env",)


class TorchXlaImport(Rule):
    """## What it does
    On `--target neuron`, removes imports of torch_xla that only registered it
    (`import torch_xla`, `import torch_xla.distributed.xla_backend`). Other torch_xla imports go
    with their last use.

    ## Why
    TorchNeuron has no torch_xla: an import of it fails where only TorchNeuron is installed, and
    the two must not be mixed ([neuron-training]).

    ## Example
    ```python
    import torch_xla
    ```

    ## Use instead
    ```python
    # nothing: the `neuron` device is registered when torch is imported ([torchneuron-overview])
    ```
    """

    code = "TRN043"
    name = "torch-xla-import"
    summary = "imports of torch_xla left without a use are removed"
    safety = Safety.SAFE
    severity = Severity.ERROR
    sources = ("torchneuron-overview", "neuron-training")


class NoNeuronEquivalent(Rule):
    """## What it does
    On `--target neuron`, reports torch-xla code with no TorchNeuron equivalent that the tool
    could write: torch-xla FSDP, SPMD sharding, ZeRO-1, `xmp.spawn` / `torch_xla.launch`,
    collectives (`xm.all_reduce`, `xm.mesh_reduce`), metrics, neuronx-distributed, and any other
    torch_xla name. Each finding names the TorchNeuron API to use and the page to read.

    ## Why
    The migrated program cannot run while it imports torch_xla (TorchNeuron has none), and these
    are redesigns, not renames: TorchNeuron shards with FSDP2 and DTensor and launches with
    torchrun ([torchneuron-distributed]).

    ## Example
    ```python
    xmp.spawn(_mp_fn, args=(flags,))
    ```

    ## Use instead
    ```python
    # torchrun --nproc_per_node=<NeuronCores> train.py
    _mp_fn(int(os.environ["LOCAL_RANK"]), flags)  # with init_process_group(backend="neuron") inside
    ```
    """

    code = "TRN044"
    name = "no-neuron-equivalent"
    summary = (
        "torch-xla FSDP, SPMD, spawn, collectives, NxD: no TorchNeuron equivalent (report only)"
    )
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.BLOCKER
    sources = ("torchneuron-distributed",)


class TorchXlaLeft(Rule):
    """## What it does
    On `--target neuron`, reports a torch-xla call that has a TorchNeuron equivalent but that the
    tool cannot rewrite here: arguments with another meaning (`master_only=False`,
    `xla_device(1)`), a value used where the statement would be removed, data-parallel training
    without DDP (`xm.optimizer_step` would lose its gradient reduction), a device loader passed
    to a function. The message says what to write.

    ## Why
    The migrated program cannot run while it imports torch_xla (TorchNeuron has none,
    [torchneuron-overview]), and a guess here would change what the program does.

    ## Example
    ```python
    xmp.spawn(train)           # in train:
    xm.optimizer_step(opt)     # no DDP: gradients reduced by torch-xla
    ```

    ## Use instead
    ```python
    model = DDP(model)         # after init_process_group(backend="neuron")
    opt.step()
    ```
    """

    code = "TRN045"
    name = "torch-xla-left"
    summary = "torch-xla call the tool cannot rewrite here (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.BLOCKER
    sources = ("torchneuron-overview",)


RULES = (
    XlaDevice,
    GraphCut,
    UnwrapDeviceLoader,
    XlaOptimizerStep,
    XlaSave,
    XlaProcessApi,
    XlaTorchEquivalent,
    StepClosureCall,
    NeuronProcessGroup,
    OpenXlaCompileBackend,
    XlaBf16EnvVar,
    XlaEnvVar,
    TorchXlaImport,
    NoNeuronEquivalent,
    TorchXlaLeft,
)
BY_CODE = {rule.code: rule for rule in RULES}
