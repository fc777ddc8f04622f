"""The rules of the scale-out pass (``scale_out.py``): one process per NeuronCore ([xla-loader, neuron-guide, xla-model]; Neuron's mnist_mlp `train.py` → `train_torchrun.py`, [neuron-mnist-torchrun])."""

from __future__ import annotations

from trncodemod.findings import Rule, Safety, Severity


class ScaleOut(Rule):
    """## What it does
    With `--scale-out` (config `scale-out = true`), on XLA targets, makes a single-device
    training entry script data parallel over every NeuronCore, the way Neuron's mnist_mlp
    `train.py` became `train_torchrun.py`:
    - at the entry point (the `if __name__ == "__main__":` block, else after the imports):
      `torch.distributed.init_process_group("xla", init_method="xla://")` with
      `import torch_xla.distributed.xla_backend`, run only when torchrun started the process
      (`"WORLD_SIZE" in os.environ`), under a comment with the launch line
      (`torchrun --nproc_per_node=32 train.py` on trn1.32xlarge);
    - before the training `DataLoader`:
      `DistributedSampler(dataset, num_replicas=xr.world_size(), rank=xr.global_ordinal(),
      shuffle=...)`, the loader's `shuffle=` moved to it and `sampler=` given to the loader;
    - `sampler.set_epoch(epoch)` first in the epoch loop (the `for` around the step loop, or
      around the call that passes the loader to the function holding it).
    The gradients are then all-reduced by `xm.optimizer_step(optimizer)`, which the
    data-parallel pass (TRN141) writes for the `optimizer.step()` of any script that builds a
    `DistributedSampler`; `print` becomes `xm.master_print` (TRN165) and `torch.save` becomes
    `xm.save`, which writes from the master only (TRN321). The finding states the global batch.

    Done only where the shape is certain: the training loop iterates (through `enumerate`,
    `tqdm` or an `MpDeviceLoader`) a name bound once to `DataLoader(dataset, batch_size=...,
    shuffle=...)` with no `sampler`, `batch_sampler` or `**options`, in the same function or
    in the function that passes it to the one holding the loop; the dataset is a name, or is
    written as the loader's first argument (`DataLoader(ds["train"], ...)`,
    `DataLoader(TensorDataset(x, y), ...)`) and is then bound to a name before the loader, so the
    sampler and the loader share it; the script seeds `torch.manual_seed` (every process must
    build the same initial weights), or the master's weights are broadcast before the optimizer,
    once the model is on the device (moved by a call on its name, or built and moved in one
    chain: `model = Net.from_pretrained(...).to(device)`).
    Otherwise TRN163 says why and nothing changes. Scripts already distributed
    (`init_process_group`, DDP, `DistributedSampler`, `xm.optimizer_step`, `mp.spawn`,
    accelerate, Lightning, the HF Trainer) are never scaled out again. `trncodemod verify`
    still runs the result as one process: without torchrun's environment no process group is
    made, and `xr.world_size()` is 1.

    ## Why
    A trn1.32xlarge has 32 NeuronCores and one process drives one: a single-device port uses
    1/32 of the machine. Neuron's documented launcher is torchrun, one process per NeuronCore;
    `MpDeviceLoader` does not shard the data, a `DistributedSampler` must
    ([xla-loader, neuron-guide, xla-model]).

    ## Example
    ```python
    loader = DataLoader(dataset, batch_size=32, shuffle=True)
    for epoch in range(epochs):
        for x, y in loader:
            ...

    if __name__ == "__main__":
        main()
    ```

    ## Use instead
    ```python
    sampler = DistributedSampler(
        dataset, num_replicas=xr.world_size(), rank=xr.global_ordinal(), shuffle=True
    )
    loader = DataLoader(dataset, batch_size=32, sampler=sampler)
    for epoch in range(epochs):
        sampler.set_epoch(epoch)
        for x, y in loader:
            ...

    # Launch one process per NeuronCore: torchrun --nproc_per_node=32 train.py (trn1.32xlarge)
    if __name__ == "__main__":
        if "WORLD_SIZE" in os.environ:
            torch.distributed.init_process_group("xla", init_method="xla://")
        main()
    ```
    """

    code = "TRN161"
    name = "scale-out"
    summary = "`--scale-out`: single-device training → data parallel over every NeuronCore"
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = ("xla-loader", "neuron-guide", "xla-model", "neuron-mnist-torchrun")


class OneNeuronCore(Rule):
    """## What it does
    Notes, once per training entry script that runs as one process and is not distributed,
    that it trains on one NeuronCore, and what `--scale-out` would change (TRN161). Nothing is
    rewritten. An accelerate script that starts no process group (no `init_process_group`, no
    torchrun variable) is noted too, at its `Accelerator(...)`: accelerate starts none for the
    xla backend (`src/accelerate/state.py`, `PartialState.__init__`), so the note says to start
    the xla group and launch with torchrun, as Neuron's accelerate sample does
    ([neuron-zero1-gpt2]).

    ## Why
    One process drives one NeuronCore: a trn1.32xlarge has 32, a trn2.48xlarge 64
    ([xla-model, neuron-guide]). A one-process port runs, but on a fraction of the machine.

    ## Example
    ```python
    for x, y in loader:  # one process: 1 of 32 NeuronCores on trn1.32xlarge
        ...
    ```

    ## Use instead
    ```sh
    trncodemod apply --scale-out train.py
    torchrun --nproc_per_node=32 train.py
    ```
    """

    code = "TRN162"
    name = "one-neuroncore"
    summary = "a single-process training script uses one NeuronCore (note; see `--scale-out`)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.INFO
    sources = ("xla-model", "neuron-guide", "neuron-zero1-gpt2")


class ScaleOutUncertain(Rule):
    """## What it does
    With `--scale-out`, reports a training entry script whose shape the tool cannot make data
    parallel with certainty, and why: no `for` loop over a `DataLoader`, a loader the program
    model cannot resolve (made in a helper, held in an attribute), a loader with its own
    `sampler`/`batch_sampler`/`**options`, a dataset written in the call after another argument
    (a dataset written first, `DataLoader(ds["train"], ...)`, is bound to a name and shared with
    the sampler), no seed and no certain point to broadcast the master's weights, or the
    `neuron` target (TorchNeuron scales out with `init_process_group(backend="neuron",
    init_method="env://")` and DDP, which the tool does not write yet). Nothing changes.

    ## Why
    A sampler added to the wrong loader, or replicas that start from different weights, train
    silently wrong ([xla-model, neuron-guide]: "Ensure common initial weights").

    ## Example
    ```python
    loader = make_loader(args)  # a helper the tool cannot read
    ```

    ## Use instead
    ```python
    sampler = DistributedSampler(dataset, num_replicas=xr.world_size(), rank=xr.global_ordinal())
    loader = DataLoader(dataset, batch_size=32, sampler=sampler)
    ```
    """

    code = "TRN163"
    name = "scale-out-uncertain"
    summary = "`--scale-out` cannot be applied with certainty here (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = ("xla-loader", "neuron-guide", "xla-model")


class LearningRateScale(Rule):
    """## What it does
    Where TRN161 scales a script out, each `torch.optim` optimizer's `lr=` is multiplied by
    `xr.world_size()` with `--scale-lr` (config `scale-lr = true`); without it, a note says that
    the global batch grew world-size times and the learning rate did not. An optimizer without
    `lr=` (its default) is reported.

    ## Why
    Each process takes its own batch: the global batch is `batch_size × world size` (32 × on a
    trn1.32xlarge). Neuron's `train_torchrun.py` [neuron-mnist-torchrun] scales the learning rate
    the same way (`lr=0.01 * world_size`); whether a model wants it is the author's call
    ([xla-model, neuron-guide]).

    ## Example
    ```python
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    ```

    ## Use instead
    ```python
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01 * xr.world_size())
    ```
    """

    code = "TRN164"
    name = "learning-rate-scale"
    summary = "scaled out: `lr` × `xr.world_size()` with `--scale-lr`, else a note"
    safety = Safety.REVIEW
    severity = Severity.INFO
    sources = ("xla-model", "neuron-guide", "neuron-mnist-torchrun")


class RankZeroPrint(Rule):
    """## What it does
    Where TRN161 scales a script out, `print(...)` with positional arguments (and `flush=`)
    becomes `xm.master_print(...)`, which prints on the master process only. A `print` with
    `sep=`, `end=` or `file=` is reported: guard it with `if xm.is_master_ordinal():`.

    ## Why
    Every process runs the whole script: 32 processes print every line 32 times
    ([xla-model]).

    ## Example
    ```python
    print("epoch", epoch, "loss", loss_value)
    ```

    ## Use instead
    ```python
    xm.master_print("epoch", epoch, "loss", loss_value)
    ```
    """

    code = "TRN165"
    name = "rank-zero-print"
    summary = "scaled out: `print(...)` → `xm.master_print(...)`"
    safety = Safety.SAFE
    severity = Severity.WARNING
    sources = ("xla-model",)


class DownloadRendezvous(Rule):
    """## What it does
    Where TRN161 scales a script out, a torchvision dataset built with `download=True` is
    downloaded by the master process first while the others wait, the way Neuron's
    `train_torchrun.py` does it: `if not xm.is_master_ordinal(): xm.rendezvous("dataset_download")`
    before the statement, `if xm.is_master_ordinal(): xm.rendezvous("dataset_download")` after
    it (consecutive downloads share one pair). Done where the statement runs in every process
    the same number of times: a statement of the module or of a function's own body. A download
    under an `if`, in a loop, `with` or `try`, or inside an expression is reported.

    ## Why
    torchrun starts one process per NeuronCore and each runs the whole script: 32 processes
    downloading and unpacking into the same `root` at once overwrite each other's files, and a
    process can read a half-written archive (torchvision takes no lock). `xm.rendezvous` waits for
    every process (it needs no process group; with one process it returns at once), and
    `xm.is_master_ordinal()` is the first process of each host
    ([xla-model, neuron-guide, neuron-mnist-torchrun]).

    ## Example
    ```python
    train_dataset = mnist.MNIST(root="./data", train=True, download=True, transform=ToTensor())
    ```

    ## Use instead
    ```python
    if not xm.is_master_ordinal(): xm.rendezvous("dataset_download")
    train_dataset = mnist.MNIST(root="./data", train=True, download=True, transform=ToTensor())
    if xm.is_master_ordinal(): xm.rendezvous("dataset_download")
    ```
    """

    code = "TRN167"
    name = "dataset-download-rendezvous"
    summary = "scaled out: torchvision `download=True` → the master downloads, the others wait (`xm.rendezvous`)"
    safety = Safety.SAFE
    severity = Severity.WARNING
    sources = ("neuron-mnist-torchrun", "xla-model", "neuron-guide")
