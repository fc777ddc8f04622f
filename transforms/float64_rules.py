"""The rules of the ``float64`` pass: float64 becomes float32 where it certainly reaches a tensor
on the device, and is reported where the tool cannot tell ([neuron-data-types, xla-dtype]). Their
documentation is what ``trncodemod explain`` prints.
"""

from __future__ import annotations

from trncodemod.findings import Rule, Safety, Severity


class Float64DtypeArgument(Rule):
    """## What it does
    Rewrites `torch.float64` / `torch.double` to `torch.float32` where it is a tensor's dtype: the
    `dtype=` keyword of a `torch.*` call (`torch.zeros`, `torch.tensor`, `nn.Linear`, ...) or of a
    tensor method that returns a tensor (`.to`, `.type`, `.new_zeros`, `.sum`, ...), the positional
    dtype of `.to(...)` and `.type(...)`, and a variable assigned once whose every use is one of
    those places. The spelling of the module is kept (`th.double` → `th.float32`).

    `torch.float64` anywhere else (`x.dtype == torch.float64`, `torch.finfo(torch.float64)`) is
    not a tensor's dtype and is left alone.

    ## Why
    Neuron has no FP64 ([neuron-data-types, xla-dtype]). torch_xla silently stores
    float64 as f32 on Neuron, while PJRT CPU keeps f64 [measured-float64], so a local check and the
    device compute different numbers. The rewrite does what the device already does, and makes the
    CPU check agree with it: `review`, because it changes numerics on the CPU.

    ## Example
    ```python
    x = torch.zeros(8, dtype=torch.float64)
    y = y.to(device, torch.double)
    ```

    ## Use instead
    ```python
    x = torch.zeros(8, dtype=torch.float32)
    y = y.to(device, torch.float32)
    ```
    """

    code = "TRN201"
    name = "float64-dtype-argument"
    summary = "`dtype=torch.float64` / `.to(torch.float64)` → `torch.float32`"
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = ("neuron-data-types", "xla-dtype", "measured-float64")


class DoubleMethod(Rule):
    """## What it does
    Rewrites `x.double()` (no arguments) on a tensor or module to `x.float()`.

    ## Why
    `.double()` makes float64 tensors, which Neuron computes in f32 while PJRT CPU keeps f64
    ([neuron-data-types, xla-dtype]): the rewrite makes the CPU check agree with the device.
    `review`, because it changes numerics on the CPU.

    ## Example
    ```python
    loss = criterion(out.double(), target.double())
    ```

    ## Use instead
    ```python
    loss = criterion(out.float(), target.float())
    ```
    """

    code = "TRN202"
    name = "double-method"
    summary = "`.double()` → `.float()`"
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = ("neuron-data-types", "xla-dtype")


class Float64DefaultDtype(Rule):
    """## What it does
    Rewrites `torch.set_default_dtype(torch.float64)` to `torch.set_default_dtype(torch.float32)`
    and `torch.set_default_tensor_type(torch.DoubleTensor)` (or `"torch.DoubleTensor"`) to
    `torch.FloatTensor`. A CUDA tensor type (`torch.cuda.DoubleTensor`) is reported.

    ## Why
    A float64 default makes every new floating tensor float64, which Neuron computes in f32 while
    PJRT CPU keeps f64 ([neuron-data-types, xla-dtype]); torch_xla's own MNIST test sets the default
    to float32. `review`, because it changes numerics on the CPU.

    ## Example
    ```python
    torch.set_default_dtype(torch.float64)
    ```

    ## Use instead
    ```python
    torch.set_default_dtype(torch.float32)
    ```
    """

    code = "TRN203"
    name = "float64-default-dtype"
    summary = "`torch.set_default_dtype(torch.float64)` → `torch.float32`"
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = ("neuron-data-types", "xla-dtype")


class DoubleTensorType(Rule):
    """## What it does
    Rewrites the legacy CPU tensor type `torch.DoubleTensor` to `torch.FloatTensor` where it makes
    or converts a tensor: the constructor `torch.DoubleTensor(...)` and `x.type(torch.DoubleTensor)`
    (also the string `"torch.DoubleTensor"`). Both spellings make a CPU tensor, so only the dtype
    changes. `torch.cuda.DoubleTensor` is reported, not rewritten: it is a CUDA type, and the
    replacement depends on the device; called, it raises without CUDA
    ([measured-cuda-tensor-types]), so the call is a blocker where it runs, as TRN317's are.
    `isinstance(x, torch.DoubleTensor)` is left alone.

    ## Why
    float64 tensors run in f32 on Neuron and in f64 on PJRT CPU ([neuron-data-types, xla-dtype]).
    `review`, because it changes numerics on the CPU.

    ## Example
    ```python
    w = torch.DoubleTensor(3, 4)
    y = x.type(torch.DoubleTensor)
    ```

    ## Use instead
    ```python
    w = torch.FloatTensor(3, 4)
    y = x.type(torch.FloatTensor)
    ```
    """

    code = "TRN204"
    name = "double-tensor-type"
    summary = "`torch.DoubleTensor` → `torch.FloatTensor`"
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = ("neuron-data-types", "xla-dtype", "measured-cuda-tensor-types")


class NumpyFloat64ToTensor(Rule):
    """## What it does
    Converts a NumPy array that is visibly float64 where it becomes a tensor:
    `torch.from_numpy(a)` → `torch.from_numpy(a).float()`, and `torch.tensor(a)` /
    `torch.as_tensor(a)` without a dtype → `torch.tensor(a, dtype=torch.float32)`.

    An array is visibly float64 when it is made right there, or by a local variable assigned once
    in the same scope, with a float64 dtype (`np.float64`, `"float64"`, `float`, `np.double`), by
    `np.random.rand/randn/normal/uniform/random`, by `np.zeros/ones/empty/linspace/eye/loadtxt`
    without a dtype, by `np.full` with a float fill value, by `np.arange` with a float argument,
    or by `np.array([...])` of float literals. Integer data (`np.random.randint`, `np.arange(10)`,
    `dtype=np.int64`) is never cast. The NumPy array itself is not changed: host-only statistics
    keep their float64.

    ## Why
    NumPy's default dtype is float64 and `torch.from_numpy` keeps it; Neuron computes the tensor in
    f32 while PJRT CPU keeps f64 ([neuron-data-types, xla-dtype]). A `np.float64` *scalar* times a
    float32 tensor stays float32 [measured-host-conversions], so only arrays matter. `review`,
    because it changes numerics on the CPU, and because the converted tensor is a copy:
    `torch.from_numpy(a)` and `torch.as_tensor(a)` share memory with `a`, so code that writes into
    `a` (or the tensor) in place and expects the other to follow must be changed by hand.

    ## Example
    ```python
    x = torch.from_numpy(np.random.randn(64, 10))
    ```

    ## Use instead
    ```python
    x = torch.from_numpy(np.random.randn(64, 10)).float()
    ```
    """

    code = "TRN205"
    name = "numpy-float64-to-tensor"
    summary = "float64 NumPy array → float32 tensor"
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = ("neuron-data-types", "xla-dtype", "measured-host-conversions")


class NumpyDtypeUnknown(Rule):
    """## What it does
    Notes a NumPy array whose dtype the tool cannot see where it becomes a tensor:
    `torch.from_numpy(load_array())`, or `torch.tensor(np.load(path))`. Nothing is rewritten.

    ## Why
    If the array is float64 (NumPy's default for floating data), the tensor is float64: Neuron
    computes it in f32 while PJRT CPU keeps f64 ([neuron-data-types, xla-dtype]). Guessing would
    cast integer labels and indices to float. This is a note (`info`): nearly every data pipeline
    has such a call, and most are fine.

    ## Example
    ```python
    x = torch.from_numpy(load_features(path))
    ```

    ## Use instead
    ```python
    x = torch.from_numpy(load_features(path)).float()   # only if the features are floating point
    ```
    """

    code = "TRN206"
    name = "numpy-dtype-unknown"
    summary = "NumPy array of unknown dtype becomes a tensor (note only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.INFO
    sources = ("neuron-data-types", "xla-dtype")


class Float64DtypeElsewhere(Rule):
    """## What it does
    Reports `torch.float64` / `torch.double` that may become a tensor's dtype out of the tool's
    sight: passed to a function outside `torch` (`make_batch(dtype=torch.float64)`), a parameter
    default (`def f(dtype=torch.double)`), stored in an attribute, or held in a variable that is
    used both as a dtype argument and elsewhere. Nothing is rewritten.

    ## Why
    If it ends up as a tensor's dtype, Neuron computes that tensor in f32 while PJRT CPU keeps f64
    ([neuron-data-types, xla-dtype]). Host-only uses (statistics, comparisons) are fine as they are;
    only a person can tell which it is. NxD, for example, keeps `torch.double` for its running loss
    on purpose.

    ## Example
    ```python
    batch = make_batch(rows, dtype=torch.float64)
    ```

    ## Use instead
    ```python
    batch = make_batch(rows, dtype=torch.float32)   # if make_batch builds tensors for the device
    ```
    """

    code = "TRN207"
    name = "float64-dtype-elsewhere"
    summary = "`torch.float64` that may become a tensor's dtype (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = ("neuron-data-types", "xla-dtype")


class NumpyDtypeForTorch(Rule):
    """## What it does
    Reports `np.float64` (or `np.double`) passed as the dtype of a torch call, such as
    `torch.zeros(3, dtype=np.float64)` or `x.to(np.float64)`. Nothing is rewritten.

    ## Why
    torch does not accept NumPy dtypes: these calls raise `TypeError` ([measured-host-conversions],
    torch 2.9), on every device. The intended dtype was float64, which Neuron does not have
    ([neuron-data-types, xla-dtype]): use `torch.float32`.

    ## Example
    ```python
    x = torch.tensor(rows, dtype=np.float64)
    ```

    ## Use instead
    ```python
    x = torch.tensor(rows, dtype=torch.float32)
    ```
    """

    code = "TRN208"
    name = "numpy-dtype-for-torch"
    summary = "`np.float64` used as a torch dtype (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.ERROR
    sources = ("neuron-data-types", "xla-dtype", "measured-host-conversions")


class Float64OnHost(Rule):
    """## What it does
    Leaves `dtype=torch.float64` (or `torch.double`, or a float64 NumPy array made into a tensor)
    as it is where the tensor lives on the host, and says so. The tensor lives on the host when:

    * the call names the CPU as its device (`device="cpu"`, `device=torch.device("cpu")`,
      `.to("cpu", dtype=...)`) or runs inside `with torch.device("cpu"):`; or
    * a torch factory (`torch.linspace`, `torch.arange`, `torch.zeros`, `torch.tensor`,
      `torch.from_numpy`, ...) makes it without `device=` in a module that sets no default
      device, and every way out of its value is proven to cast it to another dtype or to stay
      on the host: followed through arithmetic, indexing, torch functions and tensor methods,
      variables, the module's functions that return it (also chosen through a variable:
      `schedule = cosine_beta_schedule`), and lambdas or functions it is passed to (a
      diffusion model's `register_buffer = lambda name, val: self.register_buffer(name,
      val.to(torch.float32))`), it must end in `.float()`, `.to(torch.float32)`,
      `dtype=torch.float32`, `functools.partial(torch.tensor, dtype=torch.float32)`,
      `.numpy()`/`.item()`/`int(...)`, or a read of its shape. A move to a device, an attribute,
      a buffer registered as float64, a container or a call the tool cannot see into fails the
      proof, and the float64 is rewritten as before (TRN201, TRN205); or
    * a torch factory's result made float64 with `.double()` is registered as a buffer in a
      module's `__init__` (`self.register_buffer("betas", torch.linspace(b1, bT, T).double())`,
      the schedule's `cumprod` and square roots following in double): the buffer moves to the
      device with the module as float64, which Neuron stores and computes in f32 from the
      float64 values, the precision the author chose; `.float()` there would move the
      posterior coefficients by up to 1.7e-4 relative [measured-float32-schedule], so TRN202 is
      not applied.

    ## Why
    The CPU has float64, and such code computes on the host in double precision on purpose:
    noise schedules, rotary-embedding frequency tables, statistics, which are cast to float32 or
    complex64 before they reach the device (diffusers' RoPE helpers build their frequencies this
    way). Rewriting them to float32 changes the numbers the model is given and gains nothing on
    Trainium: on a diffusion schedule (`cumprod` of 1,000 betas) float32 at creation moves the
    posterior coefficients by up to 1.7e-4 relative on a linear schedule
    [measured-float32-schedule]. What matters is that the tensor is
    cast before it moves to the device; where it moves there as float64, Neuron computes it in f32
    ([neuron-data-types, xla-dtype]).

    ## Example
    ```python
    with torch.device("cpu"):
        freqs = 1.0 / theta ** (torch.arange(0, dim, 2, dtype=torch.float64) / dim)
    betas = torch.linspace(1e-4, 0.02, 1000, dtype=torch.float64)
    self.register_buffer("alphas_cumprod", torch.cumprod(1 - betas, 0).to(torch.float32))
    ```

    ## Use instead
    ```python
    with torch.device("cpu"):
        freqs = 1.0 / theta ** (torch.arange(0, dim, 2, dtype=torch.float64) / dim)
    freqs = freqs.float().to(device)  # cast on the host, then move
    betas = torch.linspace(1e-4, 0.02, 1000, dtype=torch.float64)  # kept: cast when registered
    self.register_buffer("alphas_cumprod", torch.cumprod(1 - betas, 0).to(torch.float32))
    ```
    """

    code = "TRN209"
    name = "float64-on-host"
    summary = "float64 kept where a tensor lives on the host and is cast before the device (note)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.INFO
    sources = ("neuron-data-types", "xla-dtype", "measured-float32-schedule")


class Float64UnderBf16Downcast(Rule):
    """## What it does
    On the XLA targets, in a file that names `XLA_USE_BF16` or `XLA_DOWNCAST_BF16`, or that
    trains with neuronx-distributed, leaves every float64 it would otherwise rewrite or report as
    it is, with this note at each place (`np.float64` passed as a torch dtype is still reported:
    it raises).

    ## Why
    With either variable set, torch_xla stores `torch.float32` tensors as bf16 and `torch.float64`
    as f32 on the device: `torch.double` is the documented way to keep an accumulator (a running
    loss, a norm) in f32 in such a script, and NxD's own port keeps it
    ([neuron-data-types, xla-dtype]; NxD keeps its running loss in `torch.double`; [neuron-bf16]).
    Rewriting it to float32 would make it bf16. 9 of 16 float64 fixes on the issue-12 corpus were in
    such files.

    ## Example
    ```python
    os.environ["XLA_USE_BF16"] = "1"
    running_loss = torch.zeros(1, dtype=torch.double, device=device)
    ```

    ## Use instead
    ```python
    os.environ["XLA_USE_BF16"] = "1"
    running_loss = torch.zeros(1, dtype=torch.double, device=device)  # f32 on the device
    ```
    """

    code = "TRN153"
    name = "float64-under-bf16-downcast"
    summary = "float64 kept under `XLA_USE_BF16`/`XLA_DOWNCAST_BF16` or in NxD code (f32 there)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.INFO
    sources = ("neuron-data-types", "xla-dtype", "neuron-bf16", "xla-amp")


class DeliberateFloat64(Rule):
    """## What it does
    Leaves a float64 the pass would rewrite (`.double()`, `dtype=torch.float64`, a float64 NumPy
    array made into a tensor, ...) as it is where the statement's comment gives a reason for it:
    a comment on the statement's lines, or the comment lines right above it, that speaks of
    precision, stability, numerics, overflow or underflow, accuracy, exactness, or says it is
    deliberate (`# use double for numerical stability`). A comment that only names the dtype
    (`# convert to double`) is no reason, and the rewrite goes on.

    ## Why
    The author chose float64 for a reason the tool cannot weigh: a log-sum, a covariance, a
    cumulative product that loses digits in float32. On the CPU the code keeps its precision as
    written; on Neuron float64 is computed in f32 whatever the code says
    ([neuron-data-types, xla-dtype]), so the finding says where the precision would be lost and how
    to keep it: compute that value on the host and move the result.

    ## Example
    ```python
    logits = logits.double()  # use double for numerical stability
    ```

    ## Use instead
    ```python
    logits = logits.cpu().double()  # on the host: the device has no float64
    ```
    """

    code = "TRN219"
    name = "deliberate-float64"
    summary = "float64 kept where the code's comment gives a reason for it (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = ("neuron-data-types", "xla-dtype")


class ModelDtypeWithInputs(Rule):
    """## What it does
    Keeps `model.double()` (and `model = Net().double()`) where converting the model to float32
    would leave one of its inputs float64, and reports it: the model's calls are found in the
    file, and each argument must be float32 (or not floating) once the pass has run, as a
    conversion (`.float()`, `.double()` rewritten with it, `.to(dtype)`), a torch factory, or a
    NumPy array of visible dtype. Where one is not (`torch.from_numpy` of an array loaded from
    disk, a batch, a parameter) or the model's calls are not in the file, the `.double()`, the
    float64 of the model's class (its hidden states, `dtype=torch.double`) and the float64 in the
    arguments of its calls are all kept, so the program stays as consistent as it was.

    ## Why
    A model's dtype changes only together with its inputs: `seq.double()` → `seq.float()` with
    `torch.from_numpy(data[3:, :-1])` still float64 raises "mat1 and mat2 must have the same dtype"
    (pytorch/examples `time_sequence_prediction/train.py`). On Neuron float64 is computed in f32
    either way ([neuron-data-types, xla-dtype]), so the model runs as it is; the conversion is a
    person's change: `.float()` on the model and on each input, together.

    ## Example
    ```python
    input = torch.from_numpy(data[3:, :-1])
    seq = Sequence()
    seq.double()
    ```

    ## Use instead
    ```python
    input = torch.from_numpy(data[3:, :-1]).float()
    seq = Sequence()
    seq.float()
    ```
    """

    code = "TRN220"
    name = "model-dtype-with-inputs"
    summary = "model `.double()` kept where an input cannot be converted with it (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = ("neuron-data-types", "xla-dtype")


RULES = (
    Float64DtypeArgument,
    DoubleMethod,
    Float64DefaultDtype,
    DoubleTensorType,
    NumpyFloat64ToTensor,
    NumpyDtypeUnknown,
    Float64DtypeElsewhere,
    NumpyDtypeForTorch,
    Float64OnHost,
    DeliberateFloat64,
    ModelDtypeWithInputs,
    Float64UnderBf16Downcast,
)
