"""The rules of the ``device`` pass: CUDA device choices become the target's device ([xla-devices, neuron-guide, measured-cuda-calls]), and what keeps the training device from being decided is reported. Their documentation is
what ``trncodemod explain`` prints; the training device itself is
``trncodemod.analysis.device``'s.
"""

from __future__ import annotations

from trncodemod.analysis.verdict import EntryPointOffAccelerator
from trncodemod.findings import Rule, Safety, Severity


class CudaMethod(Rule):
    """## What it does
    Rewrites `x.cuda()` and `x.cuda(non_blocking=True)` on a tensor or module to
    `x.to(<target device>)`, keeping `non_blocking` and `memory_format`. `x.cuda(d)` where `d`
    is a device value (the training device, an input's `.device`, or a parameter of the function
    whose callers in the file pass no index: `def sample(self, n, current_device)`) becomes
    `x.to(d)`; `.cuda()` with an index is TRN024's or TRN006's. A `y = y.cuda()` that is the
    whole body of an `if x.is_cuda:` with no `else` (`x` a tensor's name) becomes the
    unconditional `y = y.to(x.device)`, and so does the expression `y.cuda() if x.is_cuda else
    y`; under any other test of `is_cuda` (the `else` of `if not x.is_cuda:` too: the arm only
    CUDA tensors take, beside a CUDA kernel) it is reported. A storage's `.cuda()`
    (`torch.Storage(n).cuda()`, `x.untyped_storage().cuda()`) is left: a storage has no
    `.to(device)` and an XLA tensor has none. A
    `.cuda()` on a tensor made from a NumPy array and handed to an op whose every input is made
    so and whose result the function only reads back to the host (`keep = nms(torch.from_numpy(
    roi).cuda(), torch.from_numpy(score).cuda(), t)`, then `roi[keep.cpu().numpy()]`) is
    dropped: the op stays on the CPU.

    ## Why
    `.cuda(d)` rejects a device that is not CUDA (`Invalid device, must be cuda device`, torch
    2.9 `Tensor.cuda`), so once `d` is the XLA device it raises; `.to(d)` takes it, and does on
    CUDA what `.cuda(d)` did with a CUDA device or an index. `.cuda()` needs an NVIDIA driver: on a Trainium host it raises
    `RuntimeError: Found no NVIDIA driver` ([measured-cuda-calls]). The target's device is
    `torch_xla.device()` on torch-xla 2.3 and later, `xm.xla_device()` on 2.1, and
    `torch.device("neuron")` on TorchNeuron ([xla-model, xla-api, torchneuron-overview]).
    `x.is_cuda` is False for an XLA tensor, so a move under `if x.is_cuda:` is skipped there and
    the next op mixing the two raises `Expected XLA tensor. Got: CPUBoolType`; `.to(x.device)`
    runs, and moves nothing on the CPU ([measured-is-cuda-moves]). A host array's round trip
    buys nothing on XLA: torchvision's `nms` falls back to the CPU there, so the moves only add
    copies each way (0.9-6.6 ms against 0.4-0.7 ms on the CPU for 300-500 proposals, the same
    indices: [measured-host-round-trip]).

    ## Example
    ```python
    model = Net().cuda()
    x = x.cuda(non_blocking=True)
    ```

    ## Use instead
    ```python
    import torch_xla
    model = Net().to(torch_xla.device())
    x = x.to(torch_xla.device(), non_blocking=True)
    ```
    """

    code = "TRN001"
    name = "cuda-method"
    summary = "`.cuda()` → `.to(<target device>)`"
    safety = Safety.SAFE
    severity = Severity.ERROR
    sources = (
        "xla-devices",
        "neuron-guide",
        "measured-cuda-calls",
        "measured-is-cuda-moves",
        "measured-host-round-trip",
        "xla-model",
        "xla-api",
        "torchneuron-overview",
    )


class CudaDeviceString(Rule):
    """## What it does
    Rewrites the device string `"cuda"` (or `"cuda:0"`) where it names a device: the argument of
    `torch.device(...)`, the first argument of `.to(...)`, a `device=` keyword,
    `torch.set_default_device(...)`, the default and choices of an `--device` command-line option,
    and a variable that holds it when every use of that variable is one of these places.
    `torch.device("cuda")` becomes the target's device expression; a bare string becomes `"xla"`
    (with `import torch_xla`, which registers the device) or `"neuron"`.

    A variable's uses include, at any depth, what a function or class of the program does with
    it where the variable is handed on (`train(model, loader, device)`), also to a method of an
    object of such a class (`ddpm.sample(n, size, device)` after `ddpm = DDPM(...)`), and
    `torch.cuda.set_device(device)`, which the port removes (TRN312). A read that only shows the
    name to a person (an argument of `print` or a logging call, itself or formatted into the
    message) takes any name and neither asks for nor forbids the rewrite. A module that names
    one CUDA device with an index and no other (`"cuda:1"`, no `"cuda"`, no rank device, no XLA
    device) runs on that one GPU: the index names the target's device, as `"cuda:0"` does.

    A `"cuda"` string that flows anywhere else (a comparison that decides something else, text
    written to a file, `device_type=`) is reported and left alone.

    ## Why
    The string `"xla"` works as a device on every torch-xla 2.x and is what Neuron's own samples use
    ([xla-devices, neuron-guide, xla-model, xla-api],
    `aws-neuron-samples/torch-neuronx/training/mnist_mlp/train.py`).

    ## Example
    ```python
    device = torch.device("cuda")
    mask = torch.ones(4, device="cuda")
    ```

    ## Use instead
    ```python
    device = torch_xla.device()
    mask = torch.ones(4, device="xla")
    ```
    """

    code = "TRN002"
    name = "cuda-device-string"
    summary = '`"cuda"` device strings → the target device'
    safety = Safety.SAFE
    severity = Severity.ERROR
    sources = ("xla-devices", "neuron-guide", "xla-model", "xla-api")


class CudaAvailabilityChoice(Rule):
    """## What it does
    Rewrites the device choice `"cuda" if torch.cuda.is_available() else "cpu"` (alone or inside
    `torch.device(...)`) to the target's device. When the choice depends on something else
    (`"cuda" if use_cuda else "cpu"`), the `"cuda"` branch is rewritten; the condition is
    reported only when the device analysis cannot show it is true on the target (where
    `use_cuda = not args.no_cuda and torch.cuda.is_available()`, TRN021 resolves it). `torch`
    is recognised however the module gets it, a star import of a given module included (`from
    utils import *` where `utils.py` does `import torch`), so every module of a program makes
    the same choice. A module-level choice left undecided in a module that an entry point
    reaches, while the program's other modules move values to the device, is a blocker: its
    tensors stay on the CPU and meet the others' on the device.

    ## Why
    Under torch_xla and TorchNeuron, `torch.cuda.is_available()` is `False`
    ([xla-devices, neuron-guide, measured-device-checks]), so the unchanged script silently trains
    on the host CPU.

    ## Example
    ```python
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    ```

    ## Use instead
    ```python
    device = torch_xla.device()
    ```
    """

    code = "TRN003"
    name = "cuda-availability-choice"
    summary = '`"cuda" if torch.cuda.is_available() else "cpu"` → the target device'
    safety = Safety.SAFE
    severity = Severity.ERROR
    sources = ("xla-devices", "neuron-guide", "measured-device-checks")


class AcceleratorDevice(Rule):
    """## What it does
    For XLA targets, rewrites `torch.accelerator.current_accelerator()` to the target's device and
    reports `torch.accelerator.is_available()`, which must not decide the device.
    Nothing changes for the `neuron` target, where `torch.accelerator` works as is.

    ## Why
    Under torch_xla `torch.accelerator.is_available()` is `False` and `current_accelerator()` is not
    the XLA device, so code written with `torch.accelerator` (pytorch/examples since 2025) silently
    runs on the CPU ([xla-devices, neuron-guide, measured-device-checks]). TorchNeuron registers as
    the accelerator: "If your code uses `torch.accelerator`, no changes are needed"
    ([xla-devices, neuron-guide, torchneuron-overview]).

    ## Example
    ```python
    device = torch.accelerator.current_accelerator()
    ```

    ## Use instead
    ```python
    device = torch_xla.device()
    ```
    """

    code = "TRN004"
    name = "accelerator-device"
    summary = "`torch.accelerator.current_accelerator()` → the XLA device"
    safety = Safety.SAFE
    severity = Severity.ERROR
    sources = ("xla-devices", "neuron-guide", "torchneuron-overview", "measured-device-checks")


class CudaMapLocation(Rule):
    """## What it does
    Rewrites `torch.load(..., map_location="cuda")` (also `"cuda:0"`, `torch.device("cuda")` and the
    `torch.cuda.is_available()` choice) to `map_location="cpu"`; also `map_location=device` where
    TRN002 turns `device = "cuda"` into the target's device string, which torch.load cannot restore
    onto (torch-xla 2.9, measured [measured-host-conversions]: "don't know how to restore data
    location ... (tagged with xla)").

    The same holds however the location is spelled: a device that is the accelerator on the
    target (`map_location=args.device`, a parameter every caller passes the device in), or a CUDA
    location built as text (`"cuda:{}".format(gpu)`, `f"cuda:{gpu}"`, `"cuda:" + str(gpu)`). Those
    are loaded to `"cpu"` only where all that is loaded goes into `load_state_dict` (directly, by
    name, or an item of it, `checkpoint["model"]`), also through a helper that returns what it
    loads and whose every call in the module does so (`load_checkpoint(path, device)`);
    elsewhere they are reported, and where the load runs whenever the script does (its top
    level or its `__main__` block, or a function its top level calls, directly or through
    functions that call it outside any `if` or `try`) the report is a blocker: the script
    raises there. A device that is the XLA device on some launches only (`"cuda" if opt.cuda
    else "cpu"`, its "cuda" rewritten) is handled the same way, its report never a blocker.
    Where the helper is in another given module (`from ckpt import load_checkpoint`), the call
    that passes it the XLA device is reported, a blocker where it runs on every launch.

    A bare `torch.load(f)` (no map_location) whose result goes only into `load_state_dict`, as
    above, gets `map_location="cpu"`: it restores each tensor where it was saved, and a GPU run
    saved them on "cuda", so a checkpoint of the GPU code raises "Attempting to deserialize
    object on a CUDA device" without CUDA [measured-cuda-checkpoint-load]. A bare load used
    otherwise (`model = torch.load(f)`, a pickled model that loaded to "cpu" would stay there)
    is left as it is. `weights_only` is not touched.

    ## Why
    Loading onto CUDA fails without a driver. Loading to the CPU and then calling
    `model.load_state_dict(...)` copies the values onto the model's device, which is how Neuron
    documents loading ([xla-model, neuron-mnist]). A loaded object that is used directly as tensors
    (not through `load_state_dict`) now lives on the CPU: review such uses, hence the `review`
    class.

    ## Example
    ```python
    state = torch.load("ckpt.pt", map_location="cuda")
    ```

    ## Use instead
    ```python
    state = torch.load("ckpt.pt", map_location="cpu")
    ```
    """

    code = "TRN005"
    name = "cuda-map-location"
    summary = '`map_location="cuda"` → `"cpu"`'
    safety = Safety.REVIEW
    severity = Severity.ERROR
    sources = (
        "xla-model",
        "neuron-mnist",
        "measured-host-conversions",
        "measured-cuda-checkpoint-load",
    )


class CudaDeviceIndex(Rule):
    """## What it does
    Reports a device with an explicit CUDA index that is not a process's own (`"cuda:1"`,
    `torch.device("cuda", 1)`: model parallel over GPUs; a rank used as the device is TRN024's);
    `"cuda"` strings that are used outside device arguments; and comparisons with `"cuda"` that
    TRN023 does not rewrite (the other side is not a device, or holds a `"cuda"` kept as text),
    which are False on Trainium and so silently switch off what they enable. Nothing is
    rewritten.

    ## Why
    On Trainium each worker process owns one NeuronCore and uses the default XLA device; an index
    from a GPU layout (`local_rank`) does not carry over ([xla-devices, neuron-guide]: with torchrun
    each process sees one NeuronCore; `torch.cuda.set_device` raises).

    ## Example
    ```python
    model = model.cuda(local_rank)
    ```

    ## Use instead
    ```python
    model = model.to(torch_xla.device())   # one device per process; launch with torchrun
    ```
    """

    code = "TRN006"
    name = "cuda-device-index"
    summary = 'explicit CUDA device index or a `"cuda"` string used elsewhere (report only)'
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = ("xla-devices", "neuron-guide")


class CudaAvailabilityCheck(Rule):
    """## What it does
    Reports `torch.cuda.is_available()` outside a device choice that the tool rewrote, and
    outside the decisions of the training device that TRN021 resolves: there it guards something
    else (`if torch.cuda.is_available(): torch.cuda.manual_seed_all(s)`).

    ## Why
    It is `False` on a Trainium host ([measured-cuda-calls]): whatever it guards takes the CPU
    path, for example `use_cuda = not args.no_cuda and torch.cuda.is_available()`.

    ## Example
    ```python
    use_cuda = torch.cuda.is_available()
    device = torch.device("cuda" if use_cuda else "cpu")
    ```

    ## Use instead
    ```python
    device = torch_xla.device()
    ```
    """

    code = "TRN007"
    name = "cuda-availability-check"
    summary = "`torch.cuda.is_available()` is False on Trainium (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = ("xla-devices", "neuron-guide", "measured-cuda-calls")


class DeviceGate(Rule):
    """## What it does
    Resolves the availability checks that decide the training device, or its dtype, for the
    target, where the accelerator is there: `torch.cuda.is_available()`,
    `torch.accelerator.is_available()` (XLA targets) and `torch.cuda.is_bf16_supported()` become
    true, and the expression around them is simplified: `not args.no_cuda and
    torch.cuda.is_available()` becomes `not args.no_cuda` (the user's opt-out is kept), `x if
    True else y` becomes `x`, and `if True:` keeps its body and drops its `else`. A check that
    does not decide the device (`if torch.cuda.is_available(): torch.cuda.manual_seed_all(s)`)
    is left to TRN007 and the CUDA-call rules. A check decides the device where a move to it
    runs only when the check holds: under an `if` statement, or chosen by a conditional
    expression (`params.cuda = torch.cuda.is_available()`, then `net.cuda() if params.cuda
    else net`). The finding says when the rewrite drops a
    fallback (`else`/`elif`). Where the branch kept would still name a CUDA device the tool
    cannot rewrite (`torch.device('cuda:{}'.format(args.gpu))`), the check and its CPU/MPS
    fallback are kept and reported instead: dropping the fallback would leave a CUDA device.

    ## Why
    Under torch_xla both availability checks are `False`
    ([xla-devices, neuron-guide, measured-device-checks]): the pytorch/examples mnist shape
    `use_cuda = not args.no_cuda and torch.cuda.is_available()` then picks the CPU, and the migrated
    script runs no graph on the XLA device. Neuron's own examples set
    `torch.cuda.is_bf16_supported = lambda: True` ([neuron-bf16, xla-amp, measured-cuda-calls]),
    since Trainium computes in bf16.

    ## Example
    ```python
    use_cuda = not args.no_cuda and torch.cuda.is_available()
    device = torch.device("cuda" if use_cuda else "cpu")
    ```

    ## Use instead
    ```python
    use_cuda = not args.no_cuda
    device = torch.device("xla" if use_cuda else "cpu")
    ```
    """

    code = "TRN021"
    name = "device-gate"
    summary = "availability check that decides the device → true on the target, simplified"
    safety = Safety.REVIEW
    severity = Severity.ERROR
    sources = (
        "xla-devices",
        "neuron-guide",
        "neuron-bf16",
        "xla-amp",
        "measured-cuda-calls",
        "measured-device-checks",
    )


class CpuTrainingDevice(Rule):
    """## What it does
    In an entry script that trains, rewrites the explicit CPU device that the model and the
    batches are moved to (`device = "cpu"`, `device = torch.device("cpu")`) to the target's
    device. Copies to the host (`loss.to("cpu")`, `map_location="cpu"`) are left alone, and so
    is every module that is not a training script. A CPU device on the off branch of the
    script's own flag (`device = "cuda" if args.cuda else "cpu"`, `--cuda` off by default) is
    kept, so that the flag still chooses, and reported: as a blocker where the repository's
    launch lines (a README, a shell script, a Makefile) run the script without the flag, since
    the program as documented then trains on the CPU.

    ## Why
    A CPU training script migrated as it is still trains on the host CPU. Neuron's own port of
    the mnist MLP sample (`train_cpu.py` → `train.py` in aws-neuron-samples
    `torch-neuronx/training/mnist_mlp`) changes exactly this line to `device = 'xla'`
    ([neuron-mnist, xla-devices, neuron-guide]).

    ## Example
    ```python
    device = "cpu"
    model = MLP().to(device)
    ```

    ## Use instead
    ```python
    import torch_xla
    device = "xla"
    model = MLP().to(device)
    ```
    """

    code = "TRN022"
    name = "cpu-training-device"
    summary = "explicit CPU training device in a training script → the target device"
    safety = Safety.REVIEW
    severity = Severity.ERROR
    sources = ("neuron-mnist", "xla-devices", "neuron-guide")


class DeviceIdentityTest(Rule):
    """## What it does
    Rewrites a test of the device's identity against `"cuda"` to a test for the target's device
    type: `device.type == "cuda"`, `device == "cuda"`, `"cuda" in device`, `"cuda" in
    str(device)`, `x.device.type != "cuda"`, and the nanoGPT choice `device_type = "cuda" if
    "cuda" in device else "cpu"` use `"xla"` (`"neuron"` on the `neuron` target) instead. What
    the test guards (autocast and its dtype, pinned memory, a GradScaler, a CUDA-only branch)
    then takes the way it took on the GPU. A device chosen by a tensor's own test,
    `"cuda" if x.is_cuda else "cpu"` (or with `torch.device(...)`), used only as a device,
    becomes `x.device`: the same choice on CUDA and on the CPU, and the XLA device on Trainium.

    ## Why
    On Trainium the device's type is `xla` (or `neuron`), so a test against `"cuda"` is False and
    silently switches off what it enables: autocast stays off, bf16 becomes fp32
    ([xla-devices, neuron-guide, neuron-bf16, xla-amp]). The test is kept rather than folded, so a
    script that can still choose the CPU keeps its CPU path. An XLA tensor's `is_cuda` is False
    ([measured-is-cuda-moves]), so in `"cuda" if x.is_cuda else "cpu"` only the CPU arm runs on
    Trainium: rewriting the "cuda" arm changes nothing, and what the choice makes (a contrastive
    loss's masks) stays on the CPU beside XLA tensors, copied to the device every step.

    ## Example
    ```python
    use_amp = device.type == "cuda"
    device_type = "cuda" if "cuda" in device else "cpu"
    ```

    ## Use instead
    ```python
    use_amp = device.type == "xla"
    device_type = "xla" if "xla" in device else "cpu"
    ```
    """

    code = "TRN023"
    name = "device-identity-test"
    summary = '`device.type == "cuda"` and alike → a test for the target device'
    safety = Safety.SAFE
    severity = Severity.ERROR
    sources = ("xla-devices", "neuron-guide", "neuron-bf16", "xla-amp", "measured-is-cuda-moves")


class RankAsDevice(Rule):
    """## What it does
    Rewrites a device given as a process index to the target's device: `.to(local_rank)`,
    `.to(self.gpu_id)`, `.cuda(args.gpu)`, `.to(device)` where `device = 0`, and `device =
    torch.device(f"cuda:{rank}")` (also `torch.device("cuda", rank)` and `"cuda:%d" % rank`).
    `non_blocking=` and `memory_format=` are kept. A literal other index (`"cuda:1"`, model
    parallel over GPUs) stays reported as TRN006.

    A device built from an index is rewritten where it is built, once. A name, or a parameter
    of the module's own functions and methods (at any depth, `mp.spawn` included), that holds
    only such devices then already holds the target's device: its uses (`model.to(device)`,
    `torch.full(..., device=device)`) are left as written, and the script keeps its one switch.
    A use is rewritten where it is used when a caller passes anything else (a literal index, a
    rank), when the file may not show every call (the function is handed on as a value,
    decorated, `forward`, filled by its default or by unpacked arguments), when another module
    calls it, or when a plain index (`device = 0`) is also read other than as a device.

    ## Why
    On Trainium each worker process owns one NeuronCore and uses the default XLA device; an
    index from a GPU layout does not carry over, and a CUDA index raises `Found no NVIDIA
    driver` ([xla-devices, neuron-guide]: with torchrun each process sees one NeuronCore).

    ## Example
    ```python
    self.gpu_id = int(os.environ["LOCAL_RANK"])
    self.model = model.to(self.gpu_id)
    ```

    ## Use instead
    ```python
    self.gpu_id = int(os.environ["LOCAL_RANK"])
    self.model = model.to(torch_xla.device())
    ```
    """

    code = "TRN024"
    name = "rank-as-device"
    summary = "a rank or CUDA index used as the device → the target device"
    safety = Safety.SAFE
    severity = Severity.ERROR
    sources = ("xla-devices", "neuron-guide")


class UnresolvedTrainingDevice(Rule):
    """## What it does
    In a file that trains, reports the exact expression that decides the training device when
    the tool cannot tell what it is on the target: a value read from a config file, the
    environment, a function or a parameter whose callers it cannot see, a flag without a
    default; and the `if` test that keeps every move to the device from running by default
    (`if args.cuda: model.cuda()` with `--cuda` off). Nothing is rewritten: a guess could move
    training to the wrong device, and a user's flag is theirs to set. Where the program's run
    (the evaluator, across modules and notebook cells) shows every entry point that runs the
    module training on the accelerator, it followed what the module alone could not, and the
    finding is dropped.

    ## Why
    The device must be the XLA device (`torch_xla.device()` or `"xla"`; `torch.device("neuron")` on
    TorchNeuron) or the script trains on the host CPU, and under torch_xla the usual ways a GPU
    script decides it (`torch.cuda.is_available()`) are False
    ([xla-devices, neuron-guide, measured-device-checks]). A blocker: the port does not run on the
    accelerator while it is left.

    ## Example
    ```python
    cfg = json.load(open(sys.argv[1]))
    device = torch.device(cfg["device"])
    ```

    ## Use instead
    ```python
    device = torch_xla.device()   # or set "device": "xla" in every config the job uses
    ```
    """

    code = "TRN026"
    name = "unresolved-training-device"
    summary = "the training device is decided by a value the tool cannot read (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.BLOCKER
    sources = ("xla-devices", "neuron-guide", "measured-device-checks")


class ConditionEnablesCudaOnly(Rule):
    """## What it does
    Leaves a test of the device's identity against `"cuda"` as it is (TRN023 would make it true
    on Trainium) when what it turns on cannot run there and no selected rule rewrites it: a
    CUDA-only call (`torch.cuda.get_device_name()`, `torch.accelerator.device_count()`),
    `fused=True` or `capturable=True` outside a `torch.optim` call the tool fixes, pinned memory
    where nothing drops it, fp8, `assert torch.cuda.is_available()`. What the test turns on is
    followed through `not`/`and`/`or`, the names it is assigned to, `if`/`else`, conditional
    expressions, and the keyword or dict entry it sets (`fused=use_cuda`, `{"fused": ...}`);
    what a conditional expression selects counts as well as what a block runs (nanochat's
    `torch.cuda.synchronize if device_type == "cuda" else ...`), so does an import of a
    CUDA-only package (`flash_attn`, `xformers`, `apex`, `bitsandbytes`) or an fp8 module, a
    process group the run does not make an XLA one, and a test whose value is returned to
    callers the tool does not follow. An availability check that would turn such code on but
    decides no device (timm's `is_cuda`, which picks a CUDA prefetch stream) is kept with this
    warning too, not TRN047's blocker. A device type chosen from the device (`"cuda" if "cuda"
    in device else "cpu"`) is rewritten whole (test and result) or kept whole, the latter where
    the type is compared with "cuda" in a form no rule rewrites (`device_type in {"cuda"}`).
    One finding, at the test, names the line that blocks it. A test that selects a CUDA-only
    implementation is kept too: in a function that also tests `torch.backends.cudnn`
    (StyleGAN2's `could_use_op`: `if input.device.type != "cuda": return False`), or in a module
    that builds a CUDA extension (TRN050), names a CUDA source for a build helper of its own
    (StyleGAN2-ADA's `custom_ops.get_plugin(sources=[..., "bias_act.cu"])`) or calls a cuDNN op
    by name (`torch._C._jit_get_operation("aten::cudnn_...")`, `torch.ops.aten.cudnn_*`); as
    written it sends XLA tensors to the PyTorch path, which is what Trainium needs
    ([torch-cpp-extension]).

    ## Why
    A rewrite of a condition owns what it enables: nanoGPT's `use_fused = fused_available
    and device_type == "cuda"` made true passes `fused=True` to `AdamW`, which raises on XLA tensors
    (TRN111); imagenet's `if device.type == "cuda": ngpus_per_node =
    torch.accelerator.device_count()` spawns 0 processes under torch-xla ([measured-device-checks, measured-cuda-calls]).
    Left false, the feature stays off on Trainium and the program runs.

    ## Example
    ```python
    use_fused = fused_available and device_type == "cuda"
    extra_args = dict(fused=True) if use_fused else dict()
    ```

    ## Use instead
    ```python
    use_fused = False  # fused AdamW is CUDA-only; torch.optim's default runs on XLA
    extra_args = dict()
    ```
    """

    code = "TRN046"
    name = "condition-enables-cuda-only"
    summary = 'a `"cuda"` test kept: making it true would run CUDA-only code (report only)'
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = ("measured-cuda-calls", "measured-device-checks", "torch-cpp-extension")


class GateEnablesCudaOnly(Rule):
    """## What it does
    Leaves an availability check that decides the training device as it is (TRN021 would make
    it true) when the code it turns on cannot run on the target and no selected rule rewrites
    it: `if use_accel: torch.accelerator.set_device_index(args.gpu)`, a CUDA-only call, `fused=`
    or pinned memory the tool does not drop. One finding, at the check, names the line.

    ## Why
    Made true, the check runs that line, which raises on a Trainium host
    ([measured-cuda-calls, measured-device-checks]); left false, the script trains on the CPU.
    Neither runs on the accelerator until the line is changed by hand: a blocker.

    ## Example
    ```python
    use_accel = torch.accelerator.is_available()
    if use_accel:
        torch.accelerator.set_device_index(args.gpu)
        device = torch.accelerator.current_accelerator()
    ```

    ## Use instead
    ```python
    device = torch_xla.device()  # one device per process: no index to set
    ```
    """

    code = "TRN047"
    name = "gate-enables-cuda-only"
    summary = "a device-deciding check kept: making it true would run CUDA-only code (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.BLOCKER
    sources = ("measured-cuda-calls", "measured-device-checks")


class GeneratorOnDevice(Rule):
    """## What it does
    Reports a `torch.Generator` made on the training device (`torch.Generator(device="cuda")`,
    `torch.Generator(device=device)` where `device` is the accelerator on the target), and leaves
    a `"cuda"` string inside it as it is instead of making it the XLA device.

    ## Why
    A random-number generator cannot live on the XLA device: on torch 2.9.0 + torch-xla 2.9.0
    `torch.Generator(device=torch_xla.device())` raises `RuntimeError: XLA device type not an
    accelerator` (measured [measured-generator-device]). Rewriting the
    device string would turn a CUDA generator into one that raises, so the program stops where it
    makes it: a blocker. What replaces it depends on where its numbers are drawn, which the tool
    cannot see: a CPU generator works for `DataLoader`/`random_split` and for diffusers'
    `randn_tensor`, which draws on the generator's device and moves the result; `torch.randn(...,
    device=xla, generator=g)` needs the draw moved to the CPU.

    ## Example
    ```python
    generator = torch.Generator(device=device).manual_seed(seed)
    noise = torch.randn(shape, generator=generator, device=device)
    ```

    ## Use instead
    ```python
    generator = torch.Generator().manual_seed(seed)  # on the CPU
    noise = torch.randn(shape, generator=generator).to(device)
    ```
    """

    code = "TRN008"
    name = "generator-on-device"
    summary = "`torch.Generator(device=<accelerator>)` raises under torch-xla (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.BLOCKER
    sources = ("measured-generator-device",)


class DataAssignment(Rule):
    """## What it does
    Rewrites a move to the device assigned to a tensor's `.data` (`x.data = x.data.cuda()`,
    `x.data = x.data.to(device)`) on the XLA targets into a rebinding,
    `x = x.data.to(<target device>)`, where `x` is a plain name that nothing else can hold yet:
    bound in the same function or script only to new tensors that need no grad, read before only
    through an attribute, outside a loop. Anywhere else it is TRN174's.

    ## Why
    `x.data = t` replaces the tensor's storage in place (`variable.set_data(t)`), which
    accepts a CUDA tensor for a CPU one but not an XLA tensor: on torch 2.9 + torch-xla 2.9 it
    raises `RuntimeError: Attempted to call variable.set_data(tensor), but variable and tensor
    have incompatible tensor type`, while rebinding the name works and `x.data.fill_(...)`
    afterwards too ([measured-data-assignment]). Where only the name holds the tensor, the
    rebinding is all the assignment did.

    ## Example
    ```python
    input = torch.rand(1, 1).mul(ntokens).long()
    if args.cuda:
        input.data = input.data.cuda()
    ```

    ## Use instead
    ```python
    input = torch.rand(1, 1).mul(ntokens).long()
    if args.cuda:
        input = input.data.to(torch_xla.device())
    ```
    """

    code = "TRN058"
    name = "device-move-into-data"
    summary = (
        "`x.data = x.data.cuda()` raises on XLA → `x = x.data.to(<device>)` where only `x` holds it"
    )
    safety = Safety.SAFE
    severity = Severity.ERROR
    sources = ("measured-data-assignment",)


class DataAssignmentLeft(Rule):
    """## What it does
    Reports a move to the device assigned to `.data` that cannot become a rebinding of a name:
    a parameter (`for p in model.parameters(): p.data = p.data.cuda()`, `self.w.data = ...`,
    `model.weight.data = ...`), a function's parameter, a name read before the move (another
    name or a container may hold the tensor), a tensor made with `requires_grad=True`, or a move
    in a loop. The line is left as it is. A `.to(*args, **kwargs)` that forwards its caller's
    arguments (`new_obj.data = super().to(*args, **kwargs)` in a tensor subclass's `to`) is an
    error rather than a blocker: it raises wherever the caller names the XLA device.

    ## Why
    On torch 2.9 + torch-xla 2.9 the assignment raises `RuntimeError: ... incompatible tensor
    type` for a plain tensor, an `nn.Parameter` and a module's weight alike
    ([measured-data-assignment]), so the program stops there (a blocker). Rebinding only the
    name would leave the module, or whatever else holds the tensor, with the CPU one: move the
    module that owns the parameters instead (`model.to(device)` replaces them).

    ## Example
    ```python
    for p in model.parameters():
        p.data = p.data.cuda()
    ```

    ## Use instead
    ```python
    model.to(torch_xla.device())
    ```
    """

    code = "TRN174"
    name = "device-move-into-data-left"
    summary = "a device move assigned to `.data` raises on XLA (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.BLOCKER
    sources = ("measured-data-assignment",)


class OffsetSlicedDatasetMove(Rule):
    """## What it does
    Where a script moves a whole tensor to the device at its top level (`X_train =
    X_train.cuda()`, `X = X.to(device)`) and a training or evaluation step then slices it at a
    Python-int offset that changes every step (`X_train[i:i + batch_size]` in a `for i in
    range(...)` loop, or through a name bound to the offset: `start = i`), the tensor stays on
    the host and each slice is moved where it is taken (`X_train[i:i + batch_size].to(device)`;
    `X[i:j].to(device) if args.cuda else X[i:j]` where the move ran under `if args.cuda:`).
    The move is dropped, and an `if` left with nothing to do goes with it.

    Reported, and left as the `cuda-method` rule makes it, where that is not certain to be the
    same program: the tensor is also read whole (`model(X_test)`), bound again in a function,
    or the slices could not repeat the move's condition or device. Tensors used whole may
    stay on the device: they are one graph input of one shape. Reported too, and ported as it
    is: a function that returns a tensor it moves whole (`batchify`) in a module whose function
    a step calls with its offset to slice what it is given (`get_batch(train_data, i)`, in this
    module or, through the program model, in another); the recompilation pass reports that call
    (TRN434).

    ## Why
    On XLA a slice's start is a constant of the graph: slicing a device tensor at a new offset
    every step compiles a new graph every step ([measured-offset-slices]: 6 offsets of a
    device tensor, 6 compiles; the same slices taken on the CPU and moved, 1 compile). A slice
    moved to the device is a graph input of a fixed shape: one graph for the whole epoch
    ([xla-recompile-sources]). The recompilation pass reports the slices themselves (TRN434).

    ## Example
    ```python
    if args.cuda:
        model.cuda()
        X_train = X_train.cuda()

    def train():
        for i in range(0, X_train.size(0), batch_size):
            x = X_train[i:i + batch_size]
    ```

    ## Use instead
    ```python
    if args.cuda:
        model.to(torch_xla.device())

    def train():
        device = torch_xla.device()
        for i in range(0, X_train.size(0), batch_size):
            x = X_train[i:i + batch_size].to(device) if args.cuda else X_train[i:i + batch_size]
    ```
    """

    code = "TRN056"
    name = "offset-sliced-dataset-move"
    summary = (
        "a whole tensor moved to the device and sliced at each step's offset → kept on the "
        "host, each slice moved"
    )
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = ("measured-offset-slices", "xla-recompile-sources")


class LoadWeightsOnly(Rule):
    """## What it does
    Adds `weights_only=False` to a `torch.load(...)` that gives no `weights_only`, in a program
    whose run shows it saving its parsed options (an `argparse.Namespace`) in a checkpoint
    (`torch.save({"opt": opt, "model": model.state_dict()}, path)`, followed from where the
    options are parsed into the function that saves them). For targets on torch 2.6 or later
    (`xla-2.9`, `neuron`) only.

    ## Why
    torch 2.6 changed `torch.load`'s default to `weights_only=True`, which unpickles only
    tensors and plain containers ([torch-load-weights-only]): a checkpoint holding an
    `argparse.Namespace` raises `UnpicklingError: Weights only load failed ... Unsupported
    global: GLOBAL argparse.Namespace` on torch 2.9 ([measured-load-weights-only]), so the
    program's own checkpoints no longer load once it runs on the target's torch. The code was
    written for the old default, `weights_only=False`; it unpickles arbitrary objects, so keep it
    for checkpoints you trust (the program's own), hence the `review` class.

    ## Example
    ```python
    ckpt = torch.load(opt.ckpt, map_location="cpu")
    ```

    ## Use instead
    ```python
    ckpt = torch.load(opt.ckpt, map_location="cpu", weights_only=False)
    ```
    """

    code = "TRN063"
    name = "load-weights-only"
    summary = (
        "`torch.load` of the program's own checkpoints holding its options → weights_only=False"
    )
    safety = Safety.REVIEW
    severity = Severity.ERROR
    sources = ("torch-load-weights-only", "measured-load-weights-only")


RULES: tuple[type[Rule], ...] = (
    CudaMethod,
    CudaDeviceString,
    CudaAvailabilityChoice,
    AcceleratorDevice,
    CudaMapLocation,
    LoadWeightsOnly,
    CudaDeviceIndex,
    CudaAvailabilityCheck,
    DeviceGate,
    CpuTrainingDevice,
    DeviceIdentityTest,
    RankAsDevice,
    UnresolvedTrainingDevice,
    EntryPointOffAccelerator,
    ConditionEnablesCudaOnly,
    GateEnablesCudaOnly,
    GeneratorOnDevice,
    DataAssignment,
    DataAssignmentLeft,
    OffsetSlicedDatasetMove,
)
