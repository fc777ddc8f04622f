"""The torch-xla behaviours that rules cite as "measured", each measured by one function.

    PJRT_DEVICE=CPU python benchmarks/xla_facts.py            # every fact, as JSON
    PJRT_DEVICE=CPU python benchmarks/xla_facts.py fused_optimizer

Runs on XLA:CPU (torch 2.9.0 + torch-xla 2.9.0 from PyPI, the CUDA build of torch on a machine
without a GPU). A rule that rests on one of these facts names it in ``trncodemod/data/sources.toml``
(``script`` and ``check``); ``benchmarks/xla_facts.json`` keeps the last run's output. Each
function returns what it observed, never a verdict, so a changed release shows up as a changed
value.
"""

from __future__ import annotations

import contextlib
import datetime
import json
import os
import re
import subprocess
import sys
import tempfile
import timeit
import warnings

os.environ.setdefault("PJRT_DEVICE", "CPU")

import torch  # noqa: E402
import torch_xla  # noqa: E402
import torch_xla.core.xla_model as xm  # noqa: E402
import torch_xla.debug.metrics as met  # noqa: E402


def _outcome(call) -> str:
    """``ok: value`` or ``Error: first line of the message``."""
    try:
        return f"ok: {call()!r}"
    except Exception as error:  # noqa: BLE001 - the error is the observation
        first = re.sub(r" at 0x[0-9a-f]+", "", str(error).splitlines()[0])  # an object's address
        return f"{type(error).__name__}: {first[:160]}"


def _settle() -> None:
    """Finish every pending graph, then clear the metrics: an execution that ends after the
    clear would otherwise count against the next measurement."""
    torch_xla.sync(wait=True)
    xm.wait_device_ops()
    met.clear_all()


def _counts() -> dict[str, int]:
    execute = met.metric_data("ExecuteTime")
    d2h = met.metric_data("TransferFromDeviceTime")
    return {
        "executions": execute[0] if execute else 0,
        "device_to_host": d2h[0] if d2h else 0,
        "uncached_compiles": met.counter_value("UncachedCompile") or 0,
    }


def device_checks() -> dict:
    """What a GPU script's device decision sees under torch-xla."""
    return {
        "torch.cuda.is_available()": torch.cuda.is_available(),
        "torch.accelerator.is_available()": torch.accelerator.is_available(),
        "torch.accelerator.current_accelerator()": str(torch.accelerator.current_accelerator()),
        "torch.accelerator.device_count()": torch.accelerator.device_count(),
        "torch.cuda.is_bf16_supported()": _outcome(torch.cuda.is_bf16_supported),
        "torch.accelerator.set_device_index(0)": _outcome(
            lambda: torch.accelerator.set_device_index(0)
        ),
    }


def cuda_calls() -> dict:
    """CUDA runtime calls on a host without a GPU."""
    return {
        "torch.cuda.set_device(0)": _outcome(lambda: torch.cuda.set_device(0)),
        "torch.cuda.current_device()": _outcome(torch.cuda.current_device),
        "torch.cuda.synchronize()": _outcome(torch.cuda.synchronize),
        "torch.cuda.empty_cache()": _outcome(torch.cuda.empty_cache),
        "torch.cuda.manual_seed_all(0)": _outcome(lambda: torch.cuda.manual_seed_all(0)),
        "torch.cuda.device_count()": _outcome(torch.cuda.device_count),
        "torch.cuda.reset_peak_memory_stats()": _outcome(torch.cuda.reset_peak_memory_stats),
        "torch.zeros(2).pin_memory()": _outcome(lambda: torch.zeros(2).pin_memory().shape),
        "torch.zeros(2).cuda()": _outcome(lambda: torch.zeros(2).cuda()),
        "torch.cuda.memory_allocated()": _outcome(torch.cuda.memory_allocated),
        "torch.backends.cudnn.benchmark = True": _outcome(
            lambda: setattr(torch.backends.cudnn, "benchmark", True)
        ),
        "torch.backends.cuda.matmul.allow_tf32 = True": _outcome(
            lambda: setattr(torch.backends.cuda.matmul, "allow_tf32", True)
        ),
        "DataLoader(pin_memory=True) warns": _pinned_loader_warnings(),
    }


# The torch.cuda calls a training script makes beside its step (logging, profiling, setup),
# measured without CUDA: the ones that raise stop the script where they run
# (trncodemod/data/cuda_calls.toml, `raises`).
_CUDA_RUNTIME_CALLS = {
    "torch.cuda.memory_summary()": lambda: torch.cuda.memory_summary(),
    "torch.cuda.memory_stats()": lambda: len(torch.cuda.memory_stats()),
    "torch.cuda.memory_snapshot()": lambda: torch.cuda.memory_snapshot(),
    "torch.cuda.memory_allocated()": lambda: torch.cuda.memory_allocated(),
    "torch.cuda.max_memory_allocated()": lambda: torch.cuda.max_memory_allocated(),
    "torch.cuda.memory_reserved()": lambda: torch.cuda.memory_reserved(),
    "torch.cuda.max_memory_reserved()": lambda: torch.cuda.max_memory_reserved(),
    "torch.cuda.reset_max_memory_allocated()": lambda: torch.cuda.reset_max_memory_allocated(),
    "torch.cuda.reset_peak_memory_stats()": lambda: torch.cuda.reset_peak_memory_stats(),
    "torch.cuda.mem_get_info()": lambda: torch.cuda.mem_get_info(),
    "torch.cuda.get_device_name()": lambda: torch.cuda.get_device_name(),
    "torch.cuda.get_device_properties(0)": lambda: torch.cuda.get_device_properties(0),
    "torch.cuda.get_device_capability()": lambda: torch.cuda.get_device_capability(),
    "torch.cuda.current_device()": lambda: torch.cuda.current_device(),
    "torch.cuda.set_device(0)": lambda: torch.cuda.set_device(0),
    "torch.cuda.synchronize()": lambda: torch.cuda.synchronize(),
    "torch.cuda.empty_cache()": lambda: torch.cuda.empty_cache(),
    "torch.cuda.manual_seed(0)": lambda: torch.cuda.manual_seed(0),
    "torch.cuda.device_count()": lambda: torch.cuda.device_count(),
    "torch.cuda.is_bf16_supported()": lambda: torch.cuda.is_bf16_supported(),
    "torch.cuda.Stream()": lambda: torch.cuda.Stream() and None,
    "torch.cuda.Event(enable_timing=True).record()": lambda: torch.cuda.Event(
        enable_timing=True
    ).record(),
}


def cuda_raises() -> dict:
    """Which torch.cuda runtime calls raise without CUDA, and which return a value."""
    return {name: _outcome(call) for name, call in _CUDA_RUNTIME_CALLS.items()}


def _pinned_loader_warnings() -> list[str]:
    import warnings

    loader = torch.utils.data.DataLoader(torch.zeros(4, 2), batch_size=2, pin_memory=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        batches = [batch.shape for batch in loader]
    return [f"{len(batches)} batches"] + sorted({str(w.message)[:100] for w in caught})


def fused_optimizer() -> dict:
    """`fused=True` on XLA parameters, against `foreach=True` and `capturable=True`."""

    def step(**options):
        model = torch.nn.Linear(2, 2).to(torch_xla.device())
        optimizer = torch.optim.AdamW(model.parameters(), **options)
        model(torch.ones(1, 2, device=torch_xla.device())).sum().backward()
        optimizer.step()
        torch_xla.sync()
        return "stepped"

    return {
        "AdamW(fused=True)": _outcome(lambda: step(fused=True)),
        "AdamW(foreach=True)": _outcome(lambda: step(foreach=True)),
        "AdamW(capturable=True)": _outcome(lambda: step(capturable=True)),
    }


def syncfree_found_inf() -> dict:
    """`syncfree.AdamW.step(found_inf=...)` after a plain `step()`, and from the start."""
    from torch_xla.amp import syncfree

    def run(first_plain: bool):
        model = torch.nn.Linear(2, 2).to(torch_xla.device())
        optimizer = syncfree.AdamW(model.parameters())
        found_inf = torch.zeros((), device=torch_xla.device())
        for step in range(2):
            model(torch.ones(1, 2, device=torch_xla.device())).sum().backward()
            if first_plain and step == 0:
                optimizer.step()
            else:
                optimizer.step(found_inf=found_inf)
            torch_xla.sync()
        return "stepped"

    return {
        "plain step() then step(found_inf=...)": _outcome(lambda: run(True)),
        "step(found_inf=...) every step": _outcome(lambda: run(False)),
    }


def autocast() -> dict:
    """The dtype a Linear returns under each autocast spelling, on the XLA device."""
    model = torch.nn.Linear(4, 4).to(torch_xla.device())
    x = torch.ones(2, 4, device=torch_xla.device())

    def dtype(context):
        with context:
            return str(model(x).dtype)

    return {
        'torch.autocast("cuda", dtype=torch.float16)': _outcome(
            lambda: dtype(torch.autocast("cuda", dtype=torch.float16))
        ),
        'torch.autocast("xla", dtype=torch.bfloat16)': _outcome(
            lambda: dtype(torch.autocast("xla", dtype=torch.bfloat16))
        ),
        "torch_xla.amp.autocast(device)": _outcome(
            lambda: dtype(torch_xla.amp.autocast(torch_xla.device()))
        ),
    }


def checkpoint_save() -> dict:
    """Where a saved XLA state_dict loads back: `torch.save` against `xm.save`."""
    model = torch.nn.Linear(2, 2).to(torch_xla.device())
    with tempfile.TemporaryDirectory() as folder:
        plain, xla = os.path.join(folder, "plain.pt"), os.path.join(folder, "xla.pt")
        torch.save(model.state_dict(), plain)
        xm.save(model.state_dict(), xla)
        return {
            "torch.save → torch.load device": str(torch.load(plain)["weight"].device),
            "xm.save → torch.load device": str(torch.load(xla)["weight"].device),
        }


def seeding() -> dict:
    """Whether seeding twice with the same seed repeats the XLA device's random numbers."""

    def repeats(seed_call) -> bool:
        draws = []
        for _ in range(2):
            seed_call(0)
            draws.append(torch.randn(3, device=torch_xla.device()).cpu().tolist())
        return draws[0] == draws[1]

    return {
        "torch.manual_seed(0) twice repeats the XLA draws": repeats(torch.manual_seed),
        "torch_xla.manual_seed(0) twice repeats the XLA draws": repeats(torch_xla.manual_seed),
    }


def removed_apis() -> dict:
    """Which `xm` names torch-xla 2.9 still has."""
    names = ("xrt_world_size", "get_ordinal", "get_local_ordinal", "xla_device", "mark_step")
    return {f"xm.{name}": hasattr(xm, name) for name in names}


def float64_on_cpu() -> dict:
    """The IR type of a float64 tensor on XLA:CPU (Neuron computes it as f32)."""
    t = torch.ones(2, dtype=torch.float64, device=torch_xla.device())
    ir = torch_xla._XLAC._get_xla_tensors_text([t])
    return {"dtype": str(t.dtype), "f64 in the IR": "f64" in ir}


def host_reads() -> dict:
    """Executions and device→host copies of 10 steps: `.item()` every step, against one read
    every 5 steps in a step closure, against `.item()` before `backward()`."""
    device = torch_xla.device()
    model = torch.nn.Linear(4, 1).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    x = torch.ones(8, 4, device=device)

    def train(mode: str) -> dict:
        _settle()
        running = torch.zeros((), device=device)
        for step in range(10):
            optimizer.zero_grad()
            loss = model(x).pow(2).mean()
            if mode == "item-before-backward":
                loss.item()
            loss.backward()
            optimizer.step()
            torch_xla.sync()
            if mode == "item-every-step":
                loss.item()
            elif mode == "closure-every-5":
                running += loss.detach()
                if (step + 1) % 5 == 0:
                    xm.add_step_closure(lambda value: value.item(), args=(running / 5,))
                    running = torch.zeros((), device=device)
        torch_xla.sync()
        return _counts()

    return {
        mode: train(mode) for mode in ("item-every-step", "closure-every-5", "item-before-backward")
    }


def shape_compiles() -> dict:
    """Compiles for 10 batches of 10 sequence lengths, padded to the batch's longest against
    padded to a bucket of {16, 32, 64}."""
    device = torch_xla.device()
    model = torch.nn.Linear(1, 1).to(device)
    lengths = [5, 9, 12, 17, 21, 30, 33, 40, 50, 63]

    def run(pad) -> int:
        _settle()
        for length in lengths:
            model(torch.ones(4, pad(length), 1, device=device)).sum().item()
        return met.counter_value("UncachedCompile") or 0

    return {
        "longest in batch": run(lambda n: n),
        "buckets {16, 32, 64}": run(lambda n: min(b for b in (16, 32, 64) if b >= n)),
    }


def offset_slices() -> dict:
    """Compiles for 6 training steps that slice a dataset at the step's Python-int offset
    (`X[i:i + 8]`): the dataset moved to the device whole against kept on the host with each
    slice moved (TRN056, TRN434)."""
    device = torch_xla.device()
    torch.manual_seed(0)
    host_x, host_y = torch.rand(48, 40), torch.rand(48, 1)

    def run(on_device: bool) -> dict:
        model = torch.nn.Linear(40, 1).to(device)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        x_all = host_x.to(device) if on_device else host_x
        y_all = host_y.to(device) if on_device else host_y
        _settle()
        for i in range(0, 48, 8):
            x, y = x_all[i : i + 8], y_all[i : i + 8]
            if not on_device:
                x, y = x.to(device), y.to(device)
            optimizer.zero_grad()
            torch.nn.functional.mse_loss(model(x), y).backward()
            optimizer.step()
            torch_xla.sync()
        xm.wait_device_ops()
        return _counts()

    return {
        "dataset on the device, sliced per step": run(True),
        "dataset on the host, each slice moved": run(False),
    }


def drawn_offsets() -> dict:
    """Compiles and executions for 12 training steps of a super-resolution pair cropped at
    offsets drawn on the host every step (`random.randint(0, h - p)`, a random crop): the crop
    taken of the batch after it was moved to the device, against taken of the CPU batch before
    the move, and against offsets drawn from a fixed set of two per side (TRN448). Each variant
    has its own batch size, so none reuses another's compiled graphs."""
    import random

    device = torch_xla.device()
    torch.manual_seed(0)
    scale, patch = 4, 24  # the high-resolution crop; the low-resolution one is patch // scale
    gt_all, lr_all = torch.rand(8, 3, 96, 96), torch.rand(8, 3, 24, 24)

    def run(batch: int, crop_on_device: bool, draw) -> dict:
        random.seed(0)
        model = torch.nn.Conv2d(3, 3 * scale * scale, 3, padding=1).to(device)
        shuffle = torch.nn.PixelShuffle(scale)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
        _settle()
        offsets = set()
        for _ in range(12):
            gt, lr = gt_all[:batch], lr_all[:batch]
            if crop_on_device:
                gt, lr = gt.to(device), lr.to(device)
            p = patch // scale
            top, left = draw(lr.shape[-2] - p), draw(lr.shape[-1] - p)
            offsets.add((top, left))
            lr = lr[:, :, top : top + p, left : left + p]
            gt = gt[:, :, top * scale : top * scale + patch, left * scale : left * scale + patch]
            if not crop_on_device:
                gt, lr = gt.to(device), lr.to(device)
            optimizer.zero_grad()
            torch.nn.functional.mse_loss(shuffle(model(lr)), gt).backward()
            optimizer.step()
            torch_xla.sync()
        xm.wait_device_ops()
        return {**_counts(), "distinct offsets": len(offsets)}

    return {
        "random.randint offsets, cropped on the device": run(
            2, True, lambda room: random.randint(0, room)
        ),
        "random.randint offsets, cropped on the CPU then moved": run(
            3, False, lambda room: random.randint(0, room)
        ),
        "random.choice of 2 offsets a side, cropped on the device": run(
            4, True, lambda room: random.choice((0, room))
        ),
    }


def drawn_boxes() -> dict:
    """Compiles and executions for 12 training steps of CutMix (clovaai/CutMix-PyTorch's
    `train.py`: `rand_bbox` draws a box with `np.random.randint` centres clipped with
    `np.clip`, then `x[:, :, x1:x2, y1:y2] = x[index, :, x1:x2, y1:y2]` on the device batch):
    the box pasted by that slice assignment, against a mask of a fixed shape (`torch.where`
    over `torch.arange` comparisons with the bounds, given as Python ints or moved as one
    tensor), against the box pasted into the CPU batch before the move, and against no CutMix
    (TRN448). Each variant has its own batch size, so none reuses another's compiled graphs."""
    import numpy as np

    device = torch_xla.device()
    torch.manual_seed(0)
    size = 32
    images, labels = torch.rand(8, 3, size, size), torch.randint(0, 10, (8,))

    def rand_bbox(lam: float) -> tuple[int, int, int, int]:
        cut = int(size * np.sqrt(1.0 - lam))
        cx, cy = np.random.randint(size), np.random.randint(size)
        x1, y1 = np.clip(cx - cut // 2, 0, size), np.clip(cy - cut // 2, 0, size)
        x2, y2 = np.clip(cx + cut // 2, 0, size), np.clip(cy + cut // 2, 0, size)
        return int(x1), int(y1), int(x2), int(y2)

    def masked(x, index, bounds):
        x1, y1, x2, y2 = bounds
        rows = torch.arange(size, device=x.device).view(-1, 1)
        cols = torch.arange(size, device=x.device).view(1, -1)
        box = (rows >= x1) & (rows < x2) & (cols >= y1) & (cols < y2)
        return torch.where(box, x[index], x)

    def run(batch: int, paste) -> dict:
        np.random.seed(0)
        model = torch.nn.Sequential(
            torch.nn.Conv2d(3, 8, 3, padding=1), torch.nn.AdaptiveAvgPool2d(1),
            torch.nn.Flatten(), torch.nn.Linear(8, 10),
        ).to(device)  # fmt: skip
        criterion = torch.nn.CrossEntropyLoss()
        optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
        _settle()
        boxes = set()
        for _ in range(12):
            x, y = images[:batch], labels[:batch]
            lam = np.random.beta(1.0, 1.0)
            index = torch.randperm(batch)
            x1, y1, x2, y2 = rand_bbox(lam)
            boxes.add((x1, y1, x2, y2))
            x, y, y_b = paste(x, y, index, (x1, y1, x2, y2))
            lam = 1 - ((x2 - x1) * (y2 - y1) / (size * size))
            optimizer.zero_grad()
            output = model(x)
            loss = criterion(output, y) * lam + criterion(output, y_b) * (1.0 - lam)
            loss.backward()
            optimizer.step()
            torch_xla.sync()
        xm.wait_device_ops()
        return {**_counts(), "distinct boxes": len(boxes)}

    def on_device_slice(x, y, index, bounds):
        x1, y1, x2, y2 = bounds
        x, y, index = x.to(device), y.to(device), index.to(device)
        x[:, :, x1:x2, y1:y2] = x[index, :, x1:x2, y1:y2]
        return x, y, y[index]

    def on_device_mask(x, y, index, bounds):
        x, y, index = x.to(device), y.to(device), index.to(device)
        return masked(x, index, bounds), y, y[index]

    def on_device_mask_tensor(x, y, index, bounds):
        x, y, index = x.to(device), y.to(device), index.to(device)
        return masked(x, index, torch.tensor(bounds).to(device)), y, y[index]

    def on_cpu(x, y, index, bounds):
        x1, y1, x2, y2 = bounds
        x = x.clone()
        x[:, :, x1:x2, y1:y2] = x[index, :, x1:x2, y1:y2]
        return x.to(device), y.to(device), y[index].to(device)

    def none(x, y, index, bounds):
        x, y, index = x.to(device), y.to(device), index.to(device)
        return x, y, y[index]

    return {
        "box pasted by slice assignment on the device": run(2, on_device_slice),
        "box pasted by torch.where over an arange mask, bounds as Python ints": run(
            3, on_device_mask
        ),
        "box pasted by torch.where over an arange mask, bounds moved as one tensor": run(
            4, on_device_mask_tensor
        ),
        "box pasted into the CPU batch before the move": run(5, on_cpu),
        "no CutMix": run(6, none),
    }


def python_scalars() -> dict:
    """Compiles when a Python float changes every step (a learning-rate schedule)."""
    device = torch_xla.device()
    x = torch.ones(4, device=device)
    (x * 0.5).sum().item()
    _settle()
    for value in (0.1, 0.2, 0.3, 0.4):
        (x * value).sum().item()
    return {"new compiles for 4 distinct floats": met.counter_value("UncachedCompile") or 0}


def clip_nonfinite() -> dict:
    """`clip_grad_norm_` with `error_if_nonfinite=True` against the default."""
    device = torch_xla.device()
    model = torch.nn.Linear(4, 4).to(device)

    def clip(check: bool) -> dict:
        model(torch.ones(2, 4, device=device)).sum().backward()
        _settle()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0, error_if_nonfinite=check)
        counts = _counts()
        torch_xla.sync()
        return {key: counts[key] for key in ("executions", "device_to_host")}

    return {"error_if_nonfinite=True": clip(True), "default": clip(False)}


def dynamo_backends() -> dict:
    """One `torch.compile` training step on XLA tensors: the default backend against "openxla"."""

    def step(**options):
        model = torch.nn.Linear(4, 1).to(torch_xla.device())
        compiled = torch.compile(model, **options)
        compiled(torch.ones(2, 4, device=torch_xla.device())).sum().backward()
        torch_xla.sync()
        return "stepped"

    return {
        "torch.compile(model)": _outcome(step),
        'torch.compile(model, backend="openxla")': _outcome(lambda: step(backend="openxla")),
    }


def host_conversions() -> dict:
    """Conversions that worked on CPU tensors and fail on XLA tensors or with NumPy dtypes."""
    import numpy as np

    device = torch_xla.device()
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "tensor.pt")
        torch.save(torch.ones(2), path)
        load = _outcome(lambda: str(torch.load(path, map_location="xla").device))
    return {
        "xla_tensor.numpy()": _outcome(lambda: torch.ones(2, device=device).numpy()),
        'torch.load(path, map_location="xla")': load,
        "torch.zeros(2, dtype=np.float64)": _outcome(lambda: torch.zeros(2, dtype=np.float64)),
        "(xla float32 tensor * np.float64(2.0)).dtype": str(
            (torch.ones(2, device=device) * np.float64(2.0)).dtype
        ),
        'torch.ones(2).to(torch.device("xla", 1)) on one device': _outcome(
            lambda: str(torch.ones(2).to(torch.device("xla", 1)).device)
        ),
    }


def sparse_tensors() -> dict:
    """A sparse tensor moved to the XLA device, and a sparse embedding's backward there."""
    device = torch_xla.device()

    def embedding_backward():
        embedding = torch.nn.Embedding(10, 4, sparse=True).to(device)
        embedding(torch.tensor([1, 2], device=device)).sum().backward()
        torch_xla.sync()
        return "stepped"

    indices = torch.tensor([[0, 1, 2], [1, 2, 0]])
    values = torch.ones(3)

    def dense_adjacency():
        adjacency = torch.sparse_coo_tensor(indices, values, (3, 3)).to_dense().to(device)
        product = torch.mm(adjacency, torch.ones(3, 2, device=device))
        torch_xla.sync()
        return str(product.device)

    return {
        "torch.eye(3).to_sparse().to(xla)": _outcome(lambda: torch.eye(3).to_sparse().to(device)),
        "torch.sparse_coo_tensor(...).to(xla)": _outcome(
            lambda: torch.sparse_coo_tensor(indices, values, (3, 3)).to(device)
        ),
        "torch.sparse.FloatTensor(...).to(xla)": _outcome(
            lambda: torch.sparse.FloatTensor(indices, values, torch.Size([3, 3])).to(device)
        ),
        "torch.spmm(CPU sparse, xla dense)": _outcome(
            lambda: torch.spmm(
                torch.sparse_coo_tensor(indices, values, (3, 3)), torch.ones(3, 2, device=device)
            )
        ),
        "Embedding(sparse=True) backward": _outcome(embedding_backward),
        "the same adjacency dense, torch.mm on xla": _outcome(dense_adjacency),
    }


def packed_sequences() -> dict:
    """Recurrent modules on the XLA device fed a `PackedSequence` (pack_padded_sequence,
    pack_sequence) against the same padded batch unpacked, and where the pack's lengths may
    live."""
    from torch.nn.utils.rnn import pack_padded_sequence, pack_sequence, pad_packed_sequence

    device = torch_xla.device()
    torch.manual_seed(0)
    padded = torch.randn(3, 5, 4)
    lengths = torch.tensor([5, 3, 2])

    def run(module, make_input):
        module = module.to(device)
        output, _ = module(make_input())
        if not isinstance(output, torch.Tensor):
            output, _ = pad_packed_sequence(output, batch_first=True)
        output.sum().backward()
        torch_xla.sync()
        return str(output.device)

    found = {}
    for name, cls in (("LSTM", torch.nn.LSTM), ("GRU", torch.nn.GRU), ("RNN", torch.nn.RNN)):
        found[f"nn.{name}(pack_padded_sequence(x, cpu lengths)) on xla"] = _outcome(
            lambda cls=cls: run(
                cls(4, 6, batch_first=True),
                lambda: pack_padded_sequence(padded.to(device), lengths, batch_first=True),
            )
        )
        found[f"nn.{name}(padded batch) on xla"] = _outcome(
            lambda cls=cls: run(cls(4, 6, batch_first=True), lambda: padded.to(device))
        )
    found["nn.LSTM(pack_sequence([...])) on xla"] = _outcome(
        lambda: run(
            torch.nn.LSTM(4, 6),
            lambda: pack_sequence([padded[i, : int(n)].to(device) for i, n in enumerate(lengths)]),
        )
    )
    found["pack_padded_sequence(x, lengths on xla)"] = _outcome(
        lambda: (
            type(
                pack_padded_sequence(padded.to(device), lengths.to(device), batch_first=True)
            ).__name__
        )
    )

    def packed_loss(grad: bool) -> str:
        # A decoder's scores packed to drop the padding before the loss (`criterion(
        # pack_padded_sequence(scores, lengths, batch_first=True).data, targets)`).
        scores = padded.to(device).requires_grad_(grad)
        with torch.set_grad_enabled(grad):
            packed = pack_padded_sequence(scores, [5, 3, 2], batch_first=True).data
            loss = packed.pow(2).mean()
        if grad:
            loss.backward()
        torch_xla.sync()
        return f"{float(loss):.4f}" + (f", grad {float(scores.grad.sum()):.4f}" if grad else "")

    found["loss of pack_padded_sequence(scores).data, backward, on xla"] = _outcome(
        lambda: packed_loss(True)
    )
    found["loss of pack_padded_sequence(scores).data, no grad, on xla"] = _outcome(
        lambda: packed_loss(False)
    )
    found["nn.LSTM(pack_padded_sequence(...)) all on the CPU"] = _outcome(
        lambda: str(
            torch.nn.LSTM(4, 6, batch_first=True)(
                pack_padded_sequence(padded, lengths, batch_first=True)
            )[0].data.device
        )
    )
    return found


def teacher_forcing() -> dict:
    """Compiles in 8 batches of a decoder loop (6 steps) whose next input is chosen on the host
    per time step (`trg[t] if random.random() < ratio else top1`), against a choice drawn once
    per batch and a device mask (`torch.where(torch.rand(B) < ratio, trg[t], top1)`). Each
    variant has its own batch size, so no variant reuses another's compiled graphs."""
    import random

    device = torch_xla.device()
    torch.manual_seed(0)
    vocab, steps = 12, 6
    embed = torch.nn.Embedding(vocab, 8).to(device)
    cell = torch.nn.LSTMCell(8, 8).to(device)
    head = torch.nn.Linear(8, vocab).to(device)
    optimizer = torch.optim.SGD(
        [*embed.parameters(), *cell.parameters(), *head.parameters()], lr=0.01
    )

    def run(batch: int, choose) -> int:
        random.seed(0)
        trg = torch.randint(vocab, (steps, batch), device=device)
        _settle()
        for _ in range(8):
            hidden = cell_state = torch.zeros(batch, 8, device=device)
            token, loss = trg[0], 0.0
            per_batch = random.random()
            for t in range(1, steps):
                hidden, cell_state = cell(embed(token), (hidden, cell_state))
                logits = head(hidden)
                loss = loss + torch.nn.functional.cross_entropy(logits, trg[t])
                token = choose(trg, t, logits.argmax(1), per_batch)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            torch_xla.sync()
        return met.counter_value("UncachedCompile") or 0

    def device_mask(trg, t, top1, _):
        return torch.where(torch.rand(top1.shape[0], device=device) < 0.5, trg[t], top1)

    return {
        "random.random() < 0.5 per time step": run(
            4, lambda trg, t, top1, _: trg[t] if random.random() < 0.5 else top1
        ),
        "random.random() < 1.0 per time step": run(
            5, lambda trg, t, top1, _: trg[t] if random.random() < 1.0 else top1
        ),
        "drawn once per batch, < 0.5": run(
            6, lambda trg, t, top1, drawn: trg[t] if drawn < 0.5 else top1
        ),
        "torch.where(torch.rand(B, device) < 0.5, trg[t], top1)": run(7, device_mask),
    }


def float32_schedule() -> dict:
    """How far a diffusion schedule's posterior coefficients move when the 1,000 betas are
    float32 from the start instead of float64 (the largest relative difference)."""

    def coefficients(dtype):
        betas = torch.linspace(1e-4, 0.02, 1000, dtype=dtype)
        alphas = torch.cumprod(1.0 - betas, dim=0)
        previous = torch.cat([torch.ones(1, dtype=dtype), alphas[:-1]])
        return torch.stack(
            [
                betas * previous.sqrt() / (1.0 - alphas),
                (1.0 - previous) * (1.0 - betas).sqrt() / (1.0 - alphas),
            ]
        )

    exact, single = coefficients(torch.float64), coefficients(torch.float32).double()
    nonzero = exact != 0
    relative = (single - exact)[nonzero].abs() / exact[nonzero].abs()
    return {"largest relative difference": float(relative.max())}


def value_reads() -> dict:
    """Reading values the step computed, after its graph cut: a 0-d result against an element
    of a result indexed at read time."""
    device = torch_xla.device()
    x = torch.arange(4.0, device=device)

    def read(make, index: bool) -> dict:
        value = make()
        _settle()
        (value[0] if index else value).item()
        counts = _counts()
        return {key: counts[key] for key in ("executions", "device_to_host")}

    return {
        "0-d result of the step": read(lambda: (x * 2).sum(), index=False),
        "element of a result, indexed to be read (acc[0])": read(lambda: x * 2, index=True),
    }


def gradient_accumulation() -> dict:
    """Graph executions per optimizer step with two micro-batches: a cut after each
    micro-batch's backward against one cut after the optimizer step."""
    device = torch_xla.device()
    model = torch.nn.Linear(4, 1).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    x = torch.ones(8, 4, device=device)

    def run(cut_each_micro_batch: bool) -> float:
        _settle()
        for _ in range(4):
            for _ in range(2):
                model(x).pow(2).mean().backward()
                if cut_each_micro_batch:
                    torch_xla.sync()
            optimizer.step()
            optimizer.zero_grad()
            torch_xla.sync()
        xm.wait_device_ops()  # the last step's execution ends before it is counted
        return _counts()["executions"] / 4

    return {
        "cut after each micro-batch": run(True),
        "one cut per optimizer step": run(False),
    }


def host_read_ops() -> dict:
    """Graph executions and device-to-host copies of each way of reading a value the step has
    just computed (a pending graph): the calls the host-sync and item-hoist rules report."""
    device = torch_xla.device()
    x = torch.arange(4.0, device=device)
    reads = {
        "t.item()": lambda t: t.sum().item(),
        "float(t)": lambda t: float(t.sum()),
        "t.tolist()": lambda t: t.tolist(),
        "t.cpu()": lambda t: t.cpu(),
        "t.to('cpu')": lambda t: t.to("cpu"),
        "print(t)": lambda t: print(t, file=sys.stderr),
        "f'{t}'": lambda t: f"{t}",
        "bool(t.sum() > 0)": lambda t: bool(t.sum() > 0),
    }
    found = {}
    for name, read in reads.items():
        _settle()
        read(x * 2 + 1)
        counts = _counts()
        found[name] = {key: counts[key] for key in ("executions", "device_to_host")}
    return found


def fallback_ops() -> dict:
    """The `aten::` fallback counters of data-dependent ops on XLA:CPU. `multinomial` is
    measured in each spelling: torch-xla lowers some (`xla::multinomial`) and not others."""
    device = torch_xla.device()
    x = torch.arange(8.0, device=device)
    rows = torch.rand(3, 8, device=device)
    generator = torch.Generator().manual_seed(0)
    ops = {
        "torch.nonzero": lambda: torch.nonzero(x),
        "x[mask]": lambda: x[x > 3],
        "torch.masked_select": lambda: torch.masked_select(x, x > 3),
        "torch.unique": lambda: torch.unique(x),
        "torch.multinomial(1-D, 1)": lambda: torch.multinomial(x + 1, 1),
        "torch.multinomial(1-D, 2)": lambda: torch.multinomial(x + 1, 2),
        "torch.multinomial(1-D, 2, replacement=True)": lambda: torch.multinomial(x + 1, 2, True),
        "torch.multinomial(2-D, 1)": lambda: torch.multinomial(rows, 1),
        "torch.multinomial(2-D, 4)": lambda: torch.multinomial(rows, 4),
        "torch.multinomial(2-D, 4, replacement=True)": lambda: torch.multinomial(rows, 4, True),
        "t.multinomial(1)": lambda: rows.multinomial(1),
        "torch.multinomial(2-D, 1, generator=cpu)": lambda: _outcome(
            lambda: torch.multinomial(rows, 1, generator=generator)
        ),
        "torch.bincount": lambda: torch.bincount(x.long()),
        "torch.histc": lambda: torch.histc(x, bins=4),
        "torch.fft.rfft": lambda: torch.fft.rfft(x),
        "torch.where(c, a, b)": lambda: torch.where(x > 3, x, 0.0),
        "torch.topk": lambda: torch.topk(x, 2).values,
        "torch.cumsum": lambda: torch.cumsum(x, 0),
        "torch.einsum": lambda: torch.einsum("i,i->", x, x),
    }
    found = {}
    for name, op in ops.items():
        _settle()
        op()
        torch_xla.sync()
        found[name] = sorted(n for n in met.counter_names() if n.startswith("aten::"))
    return found


def scaled_blas() -> dict:
    """The BLAS-style ops with a scale (`addmm`, `baddbmm`, `addbmm`, `addmv`, `addr`; function,
    method and in-place forms; `alpha`/`beta` absent, spelled 1 or 1.0, scaled, or `beta=0`):
    their `aten::` fallback counters on XLA:CPU; the same for the matmul spellings that replace
    them; a VQ-VAE's codebook distance (4096 x 64 inputs, 512 x 64 codebook) and the other ops'
    rewrites, float32, on random inputs: the largest absolute difference of the rewrite on the XLA
    device from the op on the CPU, beside the matmul alone's (`A @ B` on XLA against the CPU), and
    of the gradients; a training step's executions; the result's dtype under bf16 autocast."""
    device = torch_xla.device()
    generator = torch.Generator().manual_seed(0)

    def randn(*shape):
        return torch.randn(*shape, generator=generator)

    n, k, p, b = 6, 5, 7, 3
    host = {
        "M": randn(n, p), "A": randn(n, k), "B": randn(k, p), "bM": randn(b, n, p),
        "bA": randn(b, n, k), "bB": randn(b, k, p), "v": randn(k), "m": randn(n),
        "x": randn(n), "y": randn(p),
    }  # fmt: skip
    t = {key: value.to(device) for key, value in host.items()}
    ops = {
        "torch.addmm(M, A, B)": lambda **kw: torch.addmm(t["M"], t["A"], t["B"], **kw),
        "M.addmm(A, B)": lambda **kw: t["M"].addmm(t["A"], t["B"], **kw),
        "M.addmm_(A, B)": lambda **kw: t["M"].clone().addmm_(t["A"], t["B"], **kw),
        "torch.addmm(M, A, B, out=o)": lambda **kw: torch.addmm(
            t["M"], t["A"], t["B"], out=torch.empty(n, p, device=device), **kw
        ),
        "torch.baddbmm(bM, bA, bB)": lambda **kw: torch.baddbmm(t["bM"], t["bA"], t["bB"], **kw),
        "bM.baddbmm(bA, bB)": lambda **kw: t["bM"].baddbmm(t["bA"], t["bB"], **kw),
        "bM.baddbmm_(bA, bB)": lambda **kw: t["bM"].clone().baddbmm_(t["bA"], t["bB"], **kw),
        "torch.addbmm(M, bA, bB)": lambda **kw: torch.addbmm(t["M"], t["bA"], t["bB"], **kw),
        "M.addbmm(bA, bB)": lambda **kw: t["M"].addbmm(t["bA"], t["bB"], **kw),
        "M.addbmm_(bA, bB)": lambda **kw: t["M"].clone().addbmm_(t["bA"], t["bB"], **kw),
        "torch.addmv(m, A, v)": lambda **kw: torch.addmv(t["m"], t["A"], t["v"], **kw),
        "m.addmv(A, v)": lambda **kw: t["m"].addmv(t["A"], t["v"], **kw),
        "m.addmv_(A, v)": lambda **kw: t["m"].clone().addmv_(t["A"], t["v"], **kw),
        "torch.addr(M, x, y)": lambda **kw: torch.addr(t["M"], t["x"], t["y"], **kw),
        "M.addr(x, y)": lambda **kw: t["M"].addr(t["x"], t["y"], **kw),
        "M.addr_(x, y)": lambda **kw: t["M"].clone().addr_(t["x"], t["y"], **kw),
    }
    scalings = {
        "": {},
        "alpha=1": {"alpha": 1},
        "alpha=1.0, beta=1.0": {"alpha": 1.0, "beta": 1.0},
        "alpha=-2.0": {"alpha": -2.0},
        "alpha=-2.0, beta=1.0": {"alpha": -2.0, "beta": 1.0},
        "alpha=2": {"alpha": 2},
        "beta=0.5": {"beta": 0.5},
        "alpha=0.1, beta=0.9": {"alpha": 0.1, "beta": 0.9},
        "beta=0": {"beta": 0},
    }

    def fallbacks(op, **scaling) -> str:
        """The `aten::` fallback counters, one string ("" for none) to keep the table short."""
        _settle()
        op(**scaling)
        torch_xla.sync()
        return ", ".join(sorted(n for n in met.counter_names() if n.startswith("aten::")))

    found: dict = {"fallbacks": {}}
    for name, op in ops.items():
        row = {scaling or "none": fallbacks(op, **kw) for scaling, kw in scalings.items()}
        found["fallbacks"][name] = row
    M, A, B, bM, bA, bB, v, m, x, y = t.values()
    rewrites = {
        "M - 2.0 * (A @ B)": lambda: M - 2.0 * (A @ B),
        "0.9 * M + 0.1 * (A @ B)": lambda: 0.9 * M + 0.1 * (A @ B),
        "-2.0 * (A @ B) (beta=0)": lambda: -2.0 * (A @ B),
        "M + (bA @ bB).sum(0)": lambda: M + (bA @ bB).sum(0),
        "0.9 * M + 0.1 * (bA @ bB).sum(0)": lambda: 0.9 * M + 0.1 * (bA @ bB).sum(0),
        "m + A @ v": lambda: m + A @ v,
        "0.9 * m + 0.1 * (A @ v)": lambda: 0.9 * m + 0.1 * (A @ v),
        "M.mul_(0.5).add_(A @ B, alpha=-2.0) (in place)": lambda: (
            M.clone().mul_(0.5).add_(A @ B, alpha=-2.0)
        ),
        "m.add_(A @ v, alpha=0.1) (in place)": lambda: m.clone().add_(A @ v, alpha=0.1),
        "o.copy_(M - 2.0 * (A @ B)) (out=o)": lambda: torch.empty(n, p, device=device).copy_(
            M - 2.0 * (A @ B)
        ),
    }
    found["rewrites: fallbacks"] = {name: fallbacks(op) for name, op in rewrites.items()}

    # The VQ-VAE's nearest-codebook distance, and each other op's rewrite, on random inputs.
    inputs, codebook = randn(4096, 64), randn(512, 64)
    squares = (codebook**2).sum(1) + (inputs**2).sum(1, keepdim=True)
    big = {"squares": squares, "inputs": inputs, "codebook": codebook, "bM": randn(8, 64, 96),
           "bA": randn(8, 64, 128), "bB": randn(8, 128, 96), "M": randn(64, 96), "m": randn(64),
           "A": randn(64, 128), "v": randn(128)}  # fmt: skip
    pairs = {
        "torch.addmm(squares, inputs, codebook.t(), alpha=-2.0, beta=1.0) → "
        "squares - 2.0 * (inputs @ codebook.t())": (
            lambda h: torch.addmm(h["squares"], h["inputs"], h["codebook"].t(), alpha=-2.0, beta=1.0),
            lambda h: h["squares"] - 2.0 * (h["inputs"] @ h["codebook"].t()),
        ),
        "torch.addmm(squares, inputs, codebook.t(), beta=0.9, alpha=0.1) → "
        "0.9 * squares + 0.1 * (inputs @ codebook.t())": (
            lambda h: torch.addmm(h["squares"], h["inputs"], h["codebook"].t(), beta=0.9, alpha=0.1),
            lambda h: 0.9 * h["squares"] + 0.1 * (h["inputs"] @ h["codebook"].t()),
        ),
        "torch.addbmm(M, bA, bB, beta=0.5) → 0.5 * M + (bA @ bB).sum(0)": (
            lambda h: torch.addbmm(h["M"], h["bA"], h["bB"], beta=0.5),
            lambda h: 0.5 * h["M"] + (h["bA"] @ h["bB"]).sum(0),
        ),
        "torch.addmv(m, A, v) → m + A @ v": (
            lambda h: torch.addmv(h["m"], h["A"], h["v"]),
            lambda h: h["m"] + h["A"] @ h["v"],
        ),
        "torch.addmv(m, A, v, alpha=-2.0) → m - 2.0 * (A @ v)": (
            lambda h: torch.addmv(h["m"], h["A"], h["v"], alpha=-2.0),
            lambda h: h["m"] - 2.0 * (h["A"] @ h["v"]),
        ),
        "matmul alone: inputs @ codebook.t()": (
            lambda h: h["inputs"] @ h["codebook"].t(),
            lambda h: h["inputs"] @ h["codebook"].t(),
        ),
    }  # fmt: skip
    differences = {}
    for name, (original, rewrite) in pairs.items():
        on_cpu = {key: value.clone().requires_grad_() for key, value in big.items()}
        on_xla = {key: value.to(device).requires_grad_() for key, value in big.items()}
        expected, result = original(on_cpu), rewrite(on_xla)
        upstream = randn(*expected.shape)
        expected.backward(upstream)
        result.backward(upstream.to(device))
        gradients = [
            float((on_xla[key].grad.cpu() - on_cpu[key].grad).abs().max())
            for key in big
            if on_cpu[key].grad is not None
        ]
        differences[name] = {
            "value": float((result.detach().cpu() - expected.detach()).abs().max()),
            "largest |value|": float(expected.detach().abs().max()),
            "gradients": max(gradients),
        }
    found["largest difference from the op on the CPU (float32)"] = differences

    def step(distance) -> dict:
        torch.manual_seed(0)
        encoder = torch.nn.Linear(32, 64).to(device)
        codebook = torch.nn.Parameter(torch.randn(512, 64, device=device))
        optimizer = torch.optim.SGD([*encoder.parameters(), codebook], lr=0.1)
        batch = torch.randn(256, 32, device=device)
        for index in range(4):
            if index == 1:
                _settle()
            z = encoder(batch)
            squares = (codebook**2).sum(1) + (z**2).sum(1, keepdim=True)
            nearest = distance(squares, z, codebook).argmin(1)
            loss = (z - codebook[nearest]).pow(2).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            torch_xla.sync()
        xm.wait_device_ops()
        fallback = {n: met.counter_value(n) for n in met.counter_names() if n.startswith("aten::")}
        return {"fallbacks in 3 steps": fallback, **_counts()}

    found["VQ-VAE step, 3 steps"] = {
        "torch.addmm(squares, z, codebook.t(), alpha=-2.0, beta=1.0)": step(
            lambda s, z, c: torch.addmm(s, z, c.t(), alpha=-2.0, beta=1.0)
        ),
        "squares - 2.0 * (z @ codebook.t())": step(lambda s, z, c: s - 2.0 * (z @ c.t())),
    }
    with torch.autocast("xla", dtype=torch.bfloat16):
        found["dtype under torch.autocast('xla', dtype=torch.bfloat16)"] = {
            "torch.addmm(M, A, B, alpha=-2.0)": str(torch.addmm(M, A, B, alpha=-2.0).dtype),
            "M - 2.0 * (A @ B)": str((M - 2.0 * (A @ B)).dtype),
            "torch.addmv(m, A, v)": str(torch.addmv(m, A, v).dtype),
            "m + A @ v": str((m + A @ v).dtype),
            "torch.addbmm(M, bA, bB)": str(torch.addbmm(M, bA, bB).dtype),
            "M + (bA @ bB).sum(0)": str((M + (bA @ bB).sum(0)).dtype),
        }
    return found


class _WeightNormInGraph(torch.nn.Module):
    """Weight norm written out, as a parametrization: ``g * v / ||v||`` over every dimension
    but ``dim``, with the parameters ``parametrizations.weight_norm`` registers."""

    def __init__(self, dim: int = 0) -> None:
        super().__init__()
        self.dim = dim

    def forward(self, weight_g, weight_v):
        return weight_g * weight_v / torch.norm_except_dim(weight_v, 2, self.dim)

    def right_inverse(self, weight):
        return torch.norm_except_dim(weight, 2, self.dim), weight


def weight_norm() -> dict:
    """A weight-normed Conv1d trained 3 SGD steps on the XLA device in each spelling: the
    `aten::` fallback counters, graph executions, the state_dict's keys, and how far its
    weights end from torch's `weight_norm` trained on the CPU (no XLA). Then which `dim` of
    `torch._weight_norm` falls back (one forward and backward on a 3-D weight), and whether the
    written-out parametrization loads a `parametrizations.weight_norm` state_dict."""
    from torch.nn.utils import parametrize
    from torch.nn.utils import weight_norm as legacy
    from torch.nn.utils.parametrizations import weight_norm as parametrized

    device = torch_xla.device()

    def in_graph(conv, dim=0):
        parametrize.register_parametrization(conv, "weight", _WeightNormInGraph(dim), unsafe=True)
        return conv

    def in_forward(conv):  # g * v / v.norm(...) with the legacy parameters' names
        weight = conv.weight.detach()
        del conv.weight
        conv.weight_g = torch.nn.Parameter(weight.norm(2, dim=(1, 2), keepdim=True))
        conv.weight_v = torch.nn.Parameter(weight)

        def before(module, _):
            v = module.weight_v
            module.weight = module.weight_g * v / v.norm(2, dim=(1, 2), keepdim=True)

        conv.register_forward_pre_hook(before)
        return conv

    spellings = {
        "no weight norm": lambda conv: conv,
        "torch.nn.utils.weight_norm": legacy,
        "torch.nn.utils.weight_norm(dim=None)": lambda conv: legacy(conv, dim=None),
        "torch.nn.utils.parametrizations.weight_norm": parametrized,
        "register_parametrization(g * v / norm_except_dim(v, 2, 0))": in_graph,
        "forward pre-hook g * v / v.norm(2, dim=(1, 2), keepdim=True)": in_forward,
    }

    def trained(wrap, on):
        torch.manual_seed(0)
        conv = wrap(torch.nn.Conv1d(4, 6, 3)).to(on)
        optimizer = torch.optim.SGD(conv.parameters(), lr=0.5)
        x = torch.randn(2, 4, 10, generator=torch.Generator().manual_seed(1)).to(on)
        if on != "cpu":
            _settle()
        for _ in range(3):
            optimizer.zero_grad()
            conv(x).pow(2).mean().backward()
            optimizer.step()
            if on != "cpu":
                torch_xla.sync()
        return conv

    reference = trained(legacy, "cpu")
    expected = reference(torch.ones(1, 4, 10)).detach()
    found: dict = {}
    for name, wrap in spellings.items():
        conv = trained(wrap, device)
        xm.wait_device_ops()
        fallbacks = {n: met.counter_value(n) for n in met.counter_names() if n.startswith("aten::")}
        counts = _counts()
        out = conv(torch.ones(1, 4, 10, device=device)).detach().cpu()
        found[name] = {
            "fallbacks in 3 steps": fallbacks,
            "executions in 3 steps": counts["executions"],
            "state_dict": sorted(conv.state_dict()),
        }
        if name != "no weight norm" and "dim=None" not in name:  # another function of the weight
            found[name]["largest difference from weight_norm trained on the CPU"] = float(
                (out - expected).abs().max()
            )
    v = torch.randn(6, 4, 3, device=device, requires_grad=True)
    by_dim = {}
    for dim in (0, 1, 2, -1):
        g = torch.norm_except_dim(v.detach(), 2, dim).requires_grad_()
        _settle()
        torch._weight_norm(v, g, dim).sum().backward()
        torch_xla.sync()
        by_dim[f"dim={dim}"] = sorted(n for n in met.counter_names() if n.startswith("aten::"))
    found["torch._weight_norm of a 3-D weight, by dim"] = by_dim
    saved = parametrized(torch.nn.Conv1d(4, 6, 3)).state_dict()
    found["written-out parametrization loads parametrizations.weight_norm's state_dict"] = _outcome(
        lambda: str(in_graph(torch.nn.Conv1d(4, 6, 3)).load_state_dict(saved))
    )
    return found


def ctc_loss() -> dict:
    """A CTC model (Linear over 24 frames, 10 classes) trained 3 SGD steps on the XLA device
    with `nn.CTCLoss` and with `F.ctc_loss`, the lengths as CPU tensors (as
    deep-text-recognition-benchmark passes them) and on the device: the `aten::` fallback
    counters, graph executions and device-to-host copies. Then one forward without a backward
    (an evaluation), and how far the loss is from the same steps on the CPU."""
    import torch.nn.functional as F

    device = torch_xla.device()

    def trained(loss_of, on, lengths_on):
        torch.manual_seed(0)
        model = torch.nn.Linear(16, 10).to(on)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        x = torch.randn(4, 24, 16, generator=torch.Generator().manual_seed(1)).to(on)
        targets = torch.randint(1, 10, (4, 6), generator=torch.Generator().manual_seed(2))
        frames, lengths = torch.IntTensor([24] * 4), torch.IntTensor([6, 5, 4, 6])
        targets = targets.to(on)
        if lengths_on != "cpu":
            frames, lengths = frames.to(lengths_on), lengths.to(lengths_on)
        if on != "cpu":
            _settle()
        for _ in range(3):
            optimizer.zero_grad()
            log_probs = model(x).log_softmax(2).permute(1, 0, 2)
            loss = loss_of(log_probs, targets, frames, lengths)
            loss.backward()
            optimizer.step()
            if on != "cpu":
                torch_xla.sync()
        return float(loss.detach().cpu())

    spellings = {
        "no CTC (the mean of the log-probabilities)": lambda log_probs, *_: -log_probs.mean(),
        "nn.CTCLoss()": torch.nn.CTCLoss(zero_infinity=True),
        "F.ctc_loss": lambda *a: F.ctc_loss(*a, zero_infinity=True),
    }
    found: dict = {}
    for name, loss_of in spellings.items():
        expected = trained(loss_of, "cpu", "cpu")
        for lengths_on in ("cpu", device):
            where = "CPU" if lengths_on == "cpu" else "XLA"
            loss = trained(loss_of, device, lengths_on)
            xm.wait_device_ops()
            counts = _counts()
            found[f"{name}, lengths on the {where}"] = {
                "fallbacks in 3 steps": {
                    n: met.counter_value(n) for n in met.counter_names() if n.startswith("aten::")
                },
                "executions in 3 steps": counts["executions"],
                "device_to_host in 3 steps": counts["device_to_host"],
                "difference from the CPU's loss": abs(loss - expected),
            }
    log_probs = torch.randn(24, 4, 10, device=device).log_softmax(2)
    targets = torch.randint(1, 10, (4, 6), device=device)
    _settle()
    with torch.no_grad():
        torch.nn.CTCLoss()(log_probs, targets, torch.IntTensor([24] * 4), torch.IntTensor([6] * 4))
    torch_xla.sync()
    found["nn.CTCLoss() forward only, under no_grad"] = sorted(
        n for n in met.counter_names() if n.startswith("aten::")
    )
    return found


def _ctc_decode(characters, text_index, length) -> list[str]:
    """clovaai/deep-text-recognition-benchmark's `CTCLabelConverter.decode` (utils.py), as
    written there."""
    texts = []
    for index, size in enumerate(length):
        t = text_index[index, :]
        char_list = []
        for i in range(size):
            if t[i] != 0 and (not (i > 0 and t[i - 1] == t[i])):
                char_list.append(characters[t[i]])
        texts.append("".join(char_list))
    return texts


def element_reads() -> dict:
    """A host loop over a tensor's elements (a greedy CTC decode of 8 rows of 24 indices, an
    attention decode of the same rows by `for i in t[row, :]`) on a device tensor, against the
    same loop after one `.cpu()` of the tensor: graph executions and
    device-to-host copies, and whether the decoded text is the same. Then what each element
    use costs alone: iterating the rows, comparing, `bool()`, and using one as a list index."""
    device = torch_xla.device()
    characters = ["[blank]", *"0123456789abcdefghijklmnopqrstuvwxyz"]
    indices = torch.randint(0, len(characters), (8, 24), generator=torch.Generator().manual_seed(0))
    sizes = torch.IntTensor([24] * 8)

    def measured(decode, on_cpu) -> dict:
        on_device = (indices * 1).to(device)  # a pending graph, as the step's argmax is
        _settle()
        on_device = on_device * 1
        texts = decode(on_device)
        counts = _counts()
        return {
            "executions": counts["executions"],
            "device_to_host": counts["device_to_host"],
            "same text as on the CPU": texts == on_cpu(indices),
        }

    def ctc(t):
        return _ctc_decode(characters, t, sizes)

    def attention(t):  # AttnLabelConverter.decode: `for i in text_index[index, :]`
        return ["".join(characters[i] for i in t[row, :]) for row in range(len(t))]

    found = {
        "CTC decode of the device tensor": measured(ctc, ctc),
        "CTC decode after t = t.cpu()": measured(lambda t: ctc(t.cpu()), ctc),
        "attention decode of the device tensor": measured(attention, attention),
        "attention decode after t = t.cpu()": measured(lambda t: attention(t.cpu()), attention),
    }
    uses = {
        "for row in t (rows not read)": lambda t: [row for row in t],
        "t[0, 0] != 0 (not read)": lambda t: t[0, 0] != 0,
        "bool(t[0, 0] != 0)": lambda t: bool(t[0, 0] != 0),
        "characters[t[0, 0]]": lambda t: characters[t[0, 0]],
        "range(t[0, 0])": lambda t: range(t[0, 0]),
    }
    each = {}
    for name, use in uses.items():
        t = (indices * 1).to(device)
        _settle()
        use(t * 1)
        counts = _counts()
        each[name] = {key: counts[key] for key in ("executions", "device_to_host")}
    found["one use of an element"] = each
    return found


_ISTFT = """
import torch, torch_xla
x = torch.randn(2, 1024)
window = torch.hann_window(256)
spec = torch.stft(x, 256, hop_length=64, window=window, return_complex=True)
device = torch_xla.device()
torch.istft(spec.to(device), 256, hop_length=64, window=window.to(device))
torch_xla.sync()
print("ok")
"""


def fft_ops() -> dict:
    """The `aten::` fallback counters of the spectral ops on XLA:CPU: `torch.stft` (as an audio
    model's mel spectrogram calls it in the step) and the `torch.fft` family; `torch.istft` of
    a complex XLA tensor in a process of its own (it aborts the process)."""
    device = torch_xla.device()
    x = torch.randn(2, 1024, device=device)
    window = torch.hann_window(256, device=device)
    ops = {
        "torch.stft": lambda: torch.stft(
            x, 256, hop_length=64, window=window, return_complex=True
        ).abs(),
        "torch.fft.fft": lambda: torch.fft.fft(x).abs(),
        "torch.fft.ifft": lambda: torch.fft.ifft(x).abs(),
        "torch.fft.rfft": lambda: torch.fft.rfft(x).abs(),
        "torch.fft.irfft": lambda: torch.fft.irfft(x),
        "torch.fft.fft2": lambda: torch.fft.fft2(x).abs(),
    }
    found: dict = {}
    for name, op in ops.items():
        _settle()
        op()
        torch_xla.sync()
        found[name] = sorted(n for n in met.counter_names() if n.startswith("aten::"))
    run = subprocess.run(
        [sys.executable, "-c", _ISTFT], capture_output=True, text=True, timeout=300, check=False
    )
    last = (run.stderr.strip().splitlines() or [""])[-1]
    # The abort's log line starts with its date and time: keep what the check says, not when.
    last = re.sub(r"^\d{4}-\d\d-\d\d [\d:.]+: ", "", last)
    found["torch.istft"] = (
        run.stdout.strip() if run.returncode == 0 else f"exit {run.returncode}: {last[-160:]}"
    )
    return found


def generator_device() -> dict:
    """A random-number generator made on the XLA device, against one on the CPU whose draws
    are moved there."""

    def on_cpu():
        generator = torch.Generator()
        generator.manual_seed(0)
        drawn = torch.randn(3, generator=generator).to(torch_xla.device())
        torch_xla.sync()
        return str(drawn.device)

    return {
        "torch.Generator(device=xla)": _outcome(lambda: str(torch.Generator(torch_xla.device()))),
        "torch.Generator() on the CPU, drawn and moved": _outcome(on_cpu),
    }


def is_cuda_moves() -> dict:
    """A scratch mask made on the CPU and moved only `if x.is_cuda:`, used with an XLA tensor,
    against the mask moved with `.to(x.device)`."""
    x = torch.randn(2, 3, 4).to(torch_xla.device())

    def guarded():
        mask = torch.BoolTensor(x.size()).fill_(0)
        if x.is_cuda:
            mask = mask.cuda()
        return torch.equal(x.masked_fill(mask, 0).cpu(), x.cpu())

    def moved():
        mask = torch.BoolTensor(x.size()).fill_(0)
        mask = mask.to(x.device)
        return torch.equal(x.masked_fill(mask, 0).cpu(), x.cpu())

    return {
        "x.is_cuda on the XLA device": _outcome(lambda: x.is_cuda),
        "mask moved only if x.is_cuda, then x.masked_fill(mask, 0)": _outcome(guarded),
        "mask.to(x.device), then x.masked_fill(mask, 0)": _outcome(moved),
    }


def cuda_type_moves() -> dict:
    """A scratch tensor made on the CPU and moved only `if isinstance(x, torch.cuda.FloatTensor):`
    (ResNet's type-A shortcut), concatenated with an XLA tensor, against `.to(x.device)`."""
    x = torch.randn(2, 3, 4).to(torch_xla.device())

    def guarded():
        pads = torch.zeros(2, 1, 4)
        if isinstance(x.data, torch.cuda.FloatTensor):
            pads = pads.cuda()
        return torch.cat([x.data, pads], dim=1).cpu().shape[1]

    def moved():
        pads = torch.zeros(2, 1, 4)
        pads = pads.to(x.device)
        return torch.cat([x.data, pads], dim=1).cpu().shape[1]

    return {
        "isinstance(x, torch.cuda.FloatTensor) on the XLA device": _outcome(
            lambda: isinstance(x, torch.cuda.FloatTensor)
        ),
        "pads moved only under the isinstance test, then torch.cat": _outcome(guarded),
        "pads.to(x.device), then torch.cat": _outcome(moved),
    }


def optimizer_before_move() -> dict:
    """An optimizer built over a module's parameters before `module.to(xla)`, against one built
    after the move: whether the parameters are the same objects, and whether a step changes the
    weights."""
    device = torch_xla.device()

    def trained(build_first: bool) -> dict:
        torch.manual_seed(0)
        model = torch.nn.Linear(4, 2)
        if build_first:
            optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
            before = model.weight
            model.to(device)
        else:
            model.to(device)
            before = model.weight
            optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
        weights = model.weight.detach().cpu().clone()
        model(torch.ones(2, 4, device=device)).sum().backward()
        optimizer.step()
        torch_xla.sync()
        return {
            "same parameter objects": before is model.weight,
            "optimizer's parameter device": str(optimizer.param_groups[0]["params"][0].device),
            "weights changed by a step": not torch.equal(weights, model.weight.detach().cpu()),
        }

    return {
        "optimizer built, then model.to(xla)": _outcome(lambda: trained(True)),
        "model.to(xla), then optimizer built": _outcome(lambda: trained(False)),
    }


def has_mps() -> dict:
    """`torch.has_mps` and `torch.backends.mps.is_available()` on the Linux host."""
    return {
        "torch.has_mps": _outcome(lambda: torch.has_mps),
        "torch.backends.mps.is_available()": _outcome(torch.backends.mps.is_available),
    }


def cuda_tensor_types() -> dict:
    """The legacy CUDA tensor types called as constructors without CUDA (sizes, data), their
    dtypes, and a PyramidNet block's zero padding made as `torch.empty(sizes, dtype=, device=)`
    instead: forward and backward on the XLA device, against the same block on the CPU."""
    names = ("Float", "Long", "Int", "Short", "Char", "Byte", "Bool", "BFloat16", "Half")
    dtypes = {f"torch.cuda.{n}Tensor.dtype": str(getattr(torch.cuda, f"{n}Tensor").dtype)
              for n in names}  # fmt: skip
    torch.manual_seed(0)
    conv = torch.nn.Conv2d(4, 6, 3, padding=1)
    x = torch.randn(2, 4, 5, 5)

    def block(conv, x, device):
        out = conv(x)
        b, c, h, w = out.size(0), out.size(1) - x.size(1), out.size(2), out.size(3)
        padding = torch.autograd.Variable(
            torch.empty(b, c, h, w, dtype=torch.float32, device=device).fill_(0)
        )
        out = out + torch.cat((x, padding), 1)
        out.sum().backward()
        return out.detach(), conv.weight.grad

    def rewritten():
        device = torch_xla.device()
        moved = torch.nn.Conv2d(4, 6, 3, padding=1).to(device)
        moved.load_state_dict(conv.state_dict())
        out, grad = block(moved, x.to(device), device)
        torch_xla.sync()
        want_out, want_grad = block(conv, x, "cpu")
        return (
            torch.allclose(out.cpu(), want_out, atol=1e-5),
            torch.allclose(grad.cpu(), want_grad, atol=1e-5),
        )

    return {
        "torch.cuda.FloatTensor(2, 3)": _outcome(lambda: torch.cuda.FloatTensor(2, 3)),
        "torch.cuda.FloatTensor(2, 3).fill_(0)": _outcome(
            lambda: torch.cuda.FloatTensor(2, 3).fill_(0)
        ),
        "torch.cuda.LongTensor([1, 2])": _outcome(lambda: torch.cuda.LongTensor([1, 2])),
        "torch.cuda.HalfTensor(2, 3)": _outcome(lambda: torch.cuda.HalfTensor(2, 3)),
        "torch.FloatTensor(2, 3).device": _outcome(lambda: str(torch.FloatTensor(2, 3).device)),
        **dtypes,
        "padding block with torch.empty(..., device=torch_xla.device()): output, grad match CPU": (
            _outcome(rewritten)
        ),
    }


def default_cuda_tensor_type() -> dict:
    """`torch.set_default_tensor_type` given a CUDA type, without CUDA: the call returns and the
    first tensor made after it raises. `torch.set_default_device(torch_xla.device())` in its
    place puts factory calls on the XLA device but not the legacy constructor
    (`torch.Tensor([1e10])`, which a NeRF renderer concatenates with device tensors)."""
    found = {}
    try:
        found["torch.set_default_tensor_type('torch.cuda.FloatTensor')"] = _outcome(
            lambda: torch.set_default_tensor_type("torch.cuda.FloatTensor")
        )
        found["then torch.zeros(3)"] = _outcome(lambda: str(torch.zeros(3).device))
    finally:
        torch.set_default_tensor_type(torch.FloatTensor)
    try:
        torch.set_default_device(torch_xla.device())
        found["set_default_device(xla): torch.linspace(0, 1, 5).device"] = _outcome(
            lambda: str(torch.linspace(0, 1, 5).device)
        )
        found["set_default_device(xla): torch.Tensor([1e10]).device"] = _outcome(
            lambda: str(torch.Tensor([1e10]).device)
        )
        found["set_default_device(xla): torch.cat([torch.ones(2), torch.Tensor([1e10])])"] = (
            _outcome(lambda: str(torch.cat([torch.ones(2), torch.Tensor([1e10])]).device))
        )
    finally:
        torch.set_default_device(None)
    _settle()
    return found


def zero_dim_index() -> dict:
    """A loss indexed as the one-element tensor it was on torch 0.3 (`loss.data[0]`), on the
    CPU and on the XLA device, against `.item()`; a 1-D tensor's `[0]` for contrast."""
    device = torch_xla.device()
    loss = torch.nn.functional.mse_loss(torch.ones(4), torch.zeros(4))
    on_device = torch.nn.CrossEntropyLoss()(
        torch.randn(2, 3).to(device), torch.tensor([0, 1]).to(device)
    )
    found = {
        "mse_loss(...).dim()": _outcome(lambda: loss.dim()),
        "loss.data[0] (CPU)": _outcome(lambda: loss.data[0]),
        "loss[0] (CPU)": _outcome(lambda: loss[0]),
        "loss.item() (CPU)": _outcome(lambda: loss.item()),
        "CrossEntropyLoss()(...).data[0] (XLA)": _outcome(lambda: on_device.data[0]),
        "CrossEntropyLoss()(...).item() (XLA) is a float": _outcome(
            lambda: isinstance(on_device.item(), float)
        ),
        "torch.ones(3).data[0] (1-D, CPU)": _outcome(lambda: float(torch.ones(3).data[0])),
    }
    _settle()
    return found


def reduce_average() -> dict:
    """`all_reduce` with each reduce op in the `xla` process group (one process)."""
    import torch.distributed as dist
    import torch_xla.distributed.xla_backend  # noqa: F401  (registers the "xla" backend)

    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29533")
    dist.init_process_group("xla", init_method="xla://")
    try:

        def reduce(op):
            value = torch.ones(2, device=torch_xla.device()) * 3
            dist.all_reduce(value, op=op)
            torch_xla.sync()
            return value.cpu().tolist()

        found = {}
        for name in ("SUM", "AVG", "MAX", "MIN", "PRODUCT"):
            op = getattr(dist.ReduceOp, name)
            found[name] = _outcome(lambda op=op: reduce(op))
        return found
    finally:
        dist.destroy_process_group()


def sync_batchnorm() -> dict:
    """A model converted with `nn.SyncBatchNorm.convert_sync_batchnorm` on the XLA device, one
    training forward in the `xla` process group (one process), against plain BatchNorm and the
    converted model in eval mode."""
    import torch.distributed as dist
    import torch_xla.distributed.xla_backend  # noqa: F401  (registers the "xla" backend)

    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29534")
    dist.init_process_group("xla", init_method="xla://")
    try:

        def step(convert: bool, train: bool = True):
            model = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.BatchNorm1d(4))
            if convert:
                model = torch.nn.SyncBatchNorm.convert_sync_batchnorm(model)
            model = model.to(torch_xla.device()).train(train)
            out = model(torch.randn(8, 4, device=torch_xla.device())).sum()
            if train:
                out.backward()
            torch_xla.sync()
            return "stepped" if train else "evaluated"

        return {
            "BatchNorm1d, training": _outcome(lambda: step(False)),
            "convert_sync_batchnorm, training": _outcome(lambda: step(True)),
            "convert_sync_batchnorm, eval": _outcome(lambda: step(True, train=False)),
        }
    finally:
        dist.destroy_process_group()


def data_assignment() -> dict:
    """A move to the XLA device assigned to `.data` (`x.data = x.data.to(xla)`), against
    rebinding the name."""

    def assign(make):
        value = make()
        value.data = value.data.to(torch_xla.device())
        return str(value.device)

    def rebind():
        value = torch.rand(1, 1).mul(10).long()
        value = value.data.to(torch_xla.device())
        value.data.fill_(3)
        return value.cpu().item()

    return {
        "tensor.data = tensor.data.to(xla)": _outcome(
            lambda: assign(lambda: torch.rand(1, 1).mul(10).long())
        ),
        "parameter.data = parameter.data.to(xla)": _outcome(
            lambda: assign(lambda: torch.nn.Parameter(torch.rand(3)))
        ),
        "module.weight.data = module.weight.data.to(xla)": _outcome(
            lambda: assign(lambda: torch.nn.Linear(2, 2).weight)
        ),
        "tensor = tensor.data.to(xla); tensor.data.fill_(3)": _outcome(rebind),
    }


def type_string_casts() -> dict:
    """A cast to another tensor's type string (`eye.type(A.type())`, the FID Newton-Schulz
    code's), against `eye.to(A)` and `eye.type_as(A)`, for an XLA tensor `A`."""
    a = torch.randn(3, 3).to(torch_xla.device())
    eye = torch.eye(3, dtype=torch.float64)
    return {
        "A.type() of an XLA tensor": _outcome(lambda: a.type()),
        "eye.type(A.type())": _outcome(lambda: str(eye.type(a.type()).device)),
        "eye.to(A)": _outcome(lambda: f"{eye.to(a).device} {eye.to(a).dtype}"),
        "eye.type_as(A)": _outcome(lambda: f"{eye.type_as(a).device} {eye.type_as(a).dtype}"),
    }


# The torch.optim classes that take `capturable=` on torch 2.9.
_CAPTURABLE = ("ASGD", "Rprop", "Adam", "AdamW", "Adamax", "NAdam", "RAdam", "RMSprop", "Adadelta")


def capturable_optimizers() -> dict:
    """Device-to-host copies and compiles of 6 steps of a small model on the XLA device, for
    each torch.optim class that takes `capturable=`, without and with `capturable=True`."""

    def steps(name, **options):
        torch.manual_seed(0)
        device = torch_xla.device()
        model = torch.nn.Sequential(
            torch.nn.Linear(4, 8), torch.nn.Tanh(), torch.nn.Linear(8, 2)
        ).to(device)
        optimizer = getattr(torch.optim, name)(model.parameters(), lr=0.01, **options)
        batch = torch.ones(3, 4, device=device)
        _settle()
        for _ in range(6):
            optimizer.zero_grad()
            model(batch).sum().backward()
            optimizer.step()
            torch_xla.sync()
        counts = _counts()  # executions vary by one between runs; copies and compiles do not
        return {key: counts[key] for key in ("device_to_host", "uncached_compiles")}

    found = {}
    for name in _CAPTURABLE:
        found[name] = _outcome(lambda name=name: steps(name))
        found[f"{name}(capturable=True)"] = _outcome(lambda name=name: steps(name, capturable=True))
    found["ASGD(capturable=True, foreach=True)"] = _outcome(
        lambda: steps("ASGD", capturable=True, foreach=True)
    )
    return found


def removed_torch_names() -> dict:
    """Private torch names that code written for torch 1.x imports, on this torch."""
    import importlib

    def lookup(module, name):
        found = importlib.import_module(module)
        return "present" if name is None or hasattr(found, name) else "absent"

    names = (
        ("torch._six", None),
        ("torch._utils", "_accumulate"),
        ("torch.utils.data.dataset", "_accumulate"),
        ("torch.utils.ffi", None),
        ("torch.utils.data.dataloader", "_DataLoaderIter"),
        ("torch.utils.data.dataloader", "numpy_type_map"),
        ("torch.utils.data.dataloader", "string_classes"),
        ("torch.utils.data.dataloader", "int_classes"),
        ("torch.utils.data.dataloader", "default_collate"),
        ("torch.optim.lr_scheduler", "_LRScheduler"),
    )
    return {
        f"{module}.{name}" if name else module: _outcome(lambda m=module, n=name: lookup(m, n))
        for module, name in names
    }


def removed_scheduler_keywords() -> dict:
    """Learning-rate schedulers built with `verbose=`, the keyword torch 2.2 deprecated: what
    each does on this torch (the call raises TypeError where it is gone)."""
    from torch.optim import lr_scheduler

    optimizer = torch.optim.SGD([torch.nn.Parameter(torch.ones(1))], lr=0.1)
    made = {
        "ReduceLROnPlateau": lambda **k: lr_scheduler.ReduceLROnPlateau(optimizer, **k),
        "StepLR": lambda **k: lr_scheduler.StepLR(optimizer, 3, **k),
        "MultiStepLR": lambda **k: lr_scheduler.MultiStepLR(optimizer, [3], **k),
        "ExponentialLR": lambda **k: lr_scheduler.ExponentialLR(optimizer, 0.9, **k),
        "CosineAnnealingLR": lambda **k: lr_scheduler.CosineAnnealingLR(optimizer, 10, **k),
        "LambdaLR": lambda **k: lr_scheduler.LambdaLR(optimizer, lambda e: 1.0, **k),
        "OneCycleLR": lambda **k: lr_scheduler.OneCycleLR(optimizer, 0.1, total_steps=10, **k),
    }
    return {
        name: _outcome(lambda make=make: type(make(verbose=True)).__name__)
        for name, make in made.items()
    }


def removed_linalg_calls() -> dict:
    """Linear-algebra functions torch 1.x code calls that this torch has removed: the call
    raises (the names are still there, so an import or `hasattr` does not show it)."""
    a = torch.eye(3)
    b = torch.ones(3, 1)
    calls = {
        "torch.symeig": lambda: torch.symeig(a, eigenvectors=True),
        "torch.eig": lambda: torch.eig(a, eigenvectors=True),
        "torch.lstsq": lambda: torch.lstsq(b, a),
        "torch.solve": lambda: torch.solve(b, a),
        "torch.matrix_rank": lambda: torch.matrix_rank(a),
        "Tensor.symeig": lambda: a.symeig(eigenvectors=True),
        "torch.linalg.eigh": lambda: tuple(t.shape for t in torch.linalg.eigh(a, UPLO="U")),
    }
    return {name: _outcome(call) for name, call in calls.items()}


def stft_return_complex() -> dict:
    """`torch.stft` of a real signal written for torch 1.x (no `return_complex`): whether it
    raises on this torch; whether `torch.view_as_real(torch.stft(..., return_complex=True))`
    equals the legacy real output (`return_complex=False`); and the same on the XLA device,
    with the aten ops that fall back to the CPU there."""
    x = torch.randn(2, 400)
    window = torch.hann_window(64)
    options = {"hop_length": 16, "win_length": 64, "center": False}
    legacy_call = _outcome(lambda: torch.stft(x, 64, window=window, **options))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        legacy = torch.stft(x, 64, window=window, return_complex=False, **options)
    rewritten = torch.view_as_real(torch.stft(x, 64, window=window, return_complex=True, **options))
    device = torch_xla.device()
    met.clear_all()
    on_device = torch.view_as_real(
        torch.stft(x.to(device), 64, window=window.to(device), return_complex=True, **options)
    )
    torch_xla.sync(wait=True)
    return {
        "without_return_complex": legacy_call,
        "rewritten_equals_legacy": bool(torch.equal(legacy, rewritten)),
        "shape": list(rewritten.shape),
        "xla_max_abs_diff": float((on_device.cpu() - legacy).abs().max()),
        "xla_dtype": str(on_device.dtype),
        "xla_fallback_ops": sorted(n for n in met.counter_names() if n.startswith("aten::")),
    }


def batchnorm_eval_backward() -> dict:
    """A backward through BatchNorm in eval mode on the XLA device (an adversarial attack's
    input gradient, a fine-tune with the statistics frozen): for 2d with and without affine
    parameters, 1d, parameters frozen, without running statistics, and in training mode; each
    the gradient of a conv's weight or of the input."""

    def run(bn: torch.nn.Module, mode: str, wrt: str, shape: tuple, frozen: bool = False) -> str:
        device = torch_xla.device()
        first = torch.nn.Conv2d(3, 4, 3) if len(shape) == 4 else torch.nn.Linear(3, 4)
        model = torch.nn.Sequential(first, bn, torch.nn.ReLU()).to(device)
        getattr(model, mode)()
        if frozen:
            for parameter in bn.parameters():
                parameter.requires_grad_(False)
        x = torch.randn(*shape, device=device, requires_grad=wrt == "input")

        def step() -> str:
            loss = model(x).sum()
            if wrt == "input":
                (grad,) = torch.autograd.grad(loss, [x])
            else:
                loss.backward()
                grad = first.weight.grad
            torch_xla.sync()
            return str(tuple(grad.cpu().shape))

        return _outcome(step)

    image, flat = (2, 3, 8, 8), (2, 3)
    return {
        "bn2d_eval_input_grad": run(torch.nn.BatchNorm2d(4), "eval", "input", image),
        "bn2d_eval_weight_grad": run(torch.nn.BatchNorm2d(4), "eval", "weight", image),
        "bn2d_no_affine_eval": run(torch.nn.BatchNorm2d(4, affine=False), "eval", "weight", image),
        "bn2d_frozen_eval": run(torch.nn.BatchNorm2d(4), "eval", "weight", image, frozen=True),
        "bn1d_eval": run(torch.nn.BatchNorm1d(4), "eval", "weight", flat),
        "bn2d_no_running_stats_eval": run(
            torch.nn.BatchNorm2d(4, track_running_stats=False), "eval", "weight", image
        ),
        "bn2d_train_input_grad": run(torch.nn.BatchNorm2d(4), "train", "input", image),
        "bn2d_train_weight_grad": run(torch.nn.BatchNorm2d(4), "train", "weight", image),
    }


def load_weights_only() -> dict:
    """A checkpoint that holds the parsed options (`{"opt": argparse.Namespace, "model": ...}`),
    loaded with this torch's default and with `weights_only=False`."""
    import argparse
    import io

    buffer = io.BytesIO()
    torch.save({"opt": argparse.Namespace(lr=0.1), "model": {"w": torch.ones(2)}}, buffer)

    def load(**options) -> str:
        buffer.seek(0)
        return sorted(torch.load(buffer, map_location="cpu", **options))

    return {
        "default": _outcome(load),
        "weights_only_false": _outcome(lambda: load(weights_only=False)),
    }


def autocast_sliced_output() -> dict:
    """A bf16 autocast block whose output is sliced (`out[:, -3:, :]`, in the model or after the
    block) and meets a float32 target outside the block (`mse_loss(out, y)`), as a port of
    CUDA autocast leaves a loss computed outside it: whether the step compiles, against the
    same with the output cast back (`out.float()`), the loss inside the block, and an integer
    index (`out[:, -1]`) in place of the slice."""

    def step(variant: str) -> str:
        torch.manual_seed(0)
        model = torch.nn.Linear(8, 8).to(torch_xla.device())
        x = torch.randn(4, 6, 8).to(torch_xla.device())
        y = torch.randn(4, 3, 8).to(torch_xla.device())
        with torch.autocast("xla", dtype=torch.bfloat16):
            out = model(x)
            if variant != "index":
                out = out[:, -3:, :]
            if variant == "loss_inside":
                loss = torch.nn.functional.mse_loss(out, y)
        if variant == "float_before_loss":
            out = out.float()
        if variant == "index":
            loss = torch.nn.functional.mse_loss(out[:, -1], y[:, -1])
        elif variant != "loss_inside":
            loss = torch.nn.functional.mse_loss(out, y)
        loss.backward()
        torch_xla.sync()
        return str(model.weight.grad.dtype)

    return {
        variant: _outcome(lambda variant=variant: step(variant))
        for variant in ("sliced", "float_before_loss", "loss_inside", "index")
    }


def grad_scaler_on_xla() -> dict:
    """A CUDA GradScaler beside a bf16 autocast on the XLA device, as a ported script keeps
    it: whether it disables itself, the graph executions a step (5 steps after the first),
    and the same with `enabled=False` (the weights must agree)."""

    def run(enabled: bool | None) -> dict:
        torch.manual_seed(0)
        model = torch.nn.Linear(8, 4).to(torch_xla.device())
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            scaler = torch.cuda.amp.GradScaler(**({} if enabled is None else {"enabled": enabled}))
        x = torch.randn(16, 8).to(torch_xla.device())
        for step in range(6):
            if step == 1:
                _settle()
            with torch.autocast("xla", dtype=torch.bfloat16):
                loss = model(x).float().pow(2).mean()
            optimizer.zero_grad()
            scaler.scale(loss).backward()
            scaler.step(optimizer)
            torch_xla.sync()
            scaler.update()
        torch_xla.sync(wait=True)
        executions = met.metric_data("ExecuteTime")
        return {
            "enabled": scaler.is_enabled(),
            "executions_per_step": round(executions[0] / 5, 2) if executions else 0,
            "weight_sum": round(float(model.weight.sum()), 5),
            "state_dict": sorted(scaler.state_dict()),
        }

    return {"default": run(None), "disabled": run(False)}


def cuda_checkpoint_load() -> dict:
    """A checkpoint a GPU run wrote (its storages tagged "cuda:0"), loaded on a host without
    CUDA: bare, and with `map_location="cpu"` into an XLA model and an Adam state."""
    import torch.serialization as serialization

    torch.manual_seed(0)
    model = torch.nn.Linear(4, 3)
    optimizer = torch.optim.Adam(model.parameters())
    model(torch.ones(2, 4)).sum().backward()
    optimizer.step()
    tag = serialization.location_tag
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "gpu.pt")
        serialization.location_tag = lambda storage: "cuda:0"  # what torch.save wrote on a GPU
        try:
            torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict()}, path)
        finally:
            serialization.location_tag = tag
        bare = _outcome(lambda: sorted(torch.load(path)))
        state = torch.load(path, map_location="cpu")
    device = torch_xla.device()
    resumed = torch.nn.Linear(4, 3).to(device)
    resumed_optimizer = torch.optim.Adam(resumed.parameters())
    resumed.load_state_dict(state["model"])
    resumed_optimizer.load_state_dict(state["optimizer"])
    moments = resumed_optimizer.state[resumed.weight]
    return {
        "torch.load(path)": bare,
        'torch.load(path, map_location="cpu") → model.load_state_dict: weight device': str(
            resumed.weight.device
        ),
        "→ Adam.load_state_dict: state devices": {k: str(v.device) for k, v in moments.items()},
    }


def distribution_validation() -> dict:
    """Graph executions and device-to-host copies of 5 training steps that build a
    `torch.distributions` object every step, with argument validation on (the default),
    `validate_args=False`, and the global `Distribution.set_default_validate_args(False)`;
    one built once before the loop whose `log_prob` runs every step; each class's checks alone;
    and what an invalid parameter does with and without validation."""
    from torch.distributions import (
        Bernoulli,
        Categorical,
        Distribution,
        Independent,
        Normal,
        kl_divergence,
    )

    # Validation on, as a script finds it: a library an earlier check imported may have turned
    # the global default off (the full run measured 5 executions where this check alone gives 40).
    Distribution.set_default_validate_args(True)
    device = torch_xla.device()
    weights: dict[bool | None, list] = {}  # each run's trained weights

    def train(loss_of, parameters: list) -> dict:
        """6 steps of SGD on ``loss_of()``, counted after the first (which compiles)."""
        optimizer = torch.optim.SGD(parameters, lr=0.01)
        for step in range(6):
            if step == 1:
                _settle()
            optimizer.zero_grad()
            loss_of().backward()
            optimizer.step()
            torch_xla.sync()
        xm.wait_device_ops()  # the last step's execution counts once it has run
        counts = _counts()
        return {key: counts[key] for key in ("executions", "device_to_host")}

    def vae(validate: bool | None) -> dict:
        """modules.py's VAE.forward: q(z|x) and p(z) built, rsample, KL; the step's
        `-Normal(x_tilde, 1).log_prob(x)` (vae.py)."""
        torch.manual_seed(0)
        torch_xla.manual_seed(0)  # rsample draws on the device
        encoder = torch.nn.Linear(16, 8).to(device)
        decoder = torch.nn.Linear(4, 16).to(device)
        x = torch.randn(32, 16).to(device)
        given = {} if validate is None else {"validate_args": validate}

        def loss():
            mu, logvar = encoder(x).chunk(2, dim=1)
            q_z_x = Normal(mu, logvar.mul(0.5).exp(), **given)
            p_z = Normal(torch.zeros_like(mu), torch.ones_like(logvar), **given)
            kl = kl_divergence(q_z_x, p_z).sum(1).mean()
            x_tilde = decoder(q_z_x.rsample())
            return -Normal(x_tilde, torch.ones_like(x_tilde), **given).log_prob(x).mean() + kl

        parameters = [*encoder.parameters(), *decoder.parameters()]
        counts = train(loss, parameters)
        weights[validate] = [p.detach().cpu() for p in parameters]
        return counts

    def policy(validate: bool | None) -> dict:
        """A policy-gradient update: Categorical(logits=...) sampled, log_prob and entropy."""
        torch.manual_seed(0)
        net = torch.nn.Linear(8, 4).to(device)
        obs = torch.randn(32, 8).to(device)
        given = {} if validate is None else {"validate_args": validate}

        def loss():
            dist = Categorical(logits=net(obs), **given)
            return -(dist.log_prob(dist.sample()).mean() + 0.01 * dist.entropy().mean())

        return train(loss, list(net.parameters()))

    def prior_once(validate: bool | None) -> dict:
        """A prior built once before the loop; its `log_prob` runs every step."""
        torch.manual_seed(0)
        net = torch.nn.Linear(8, 8).to(device)
        x = torch.randn(32, 8).to(device)
        given = {} if validate is None else {"validate_args": validate}
        prior = Normal(torch.zeros(8, device=device), torch.ones(8, device=device), **given)
        return train(lambda: -prior.log_prob(net(x)).mean(), list(net.parameters()))

    def checks(build) -> dict:
        """One construction, then one `log_prob` of a sample, each alone after a cut."""
        _settle()
        dist = build()
        built = _counts()["device_to_host"]
        value = dist.sample()
        torch_xla.sync()
        _settle()
        dist.log_prob(value)
        return {"construction": built, "log_prob": _counts()["device_to_host"]}

    loc = torch.zeros(4, 3, device=device)
    scale = torch.ones(4, 3, device=device)
    classes = {
        "Normal(loc, scale)": lambda: Normal(loc, scale),
        "Categorical(logits=...)": lambda: Categorical(logits=loc),
        "Bernoulli(logits=...)": lambda: Bernoulli(logits=loc),
        "Independent(Normal(..., validate_args=False), 1)": lambda: Independent(
            Normal(loc, scale, validate_args=False), 1
        ),
    }
    zero = torch.zeros(3)  # an invalid scale: on the CPU, as the outcome is the point
    invalid = {
        "Normal(0, scale=0).log_prob(1), validated": lambda: Normal(zero, zero).log_prob(
            torch.ones(3)
        ),
        "Normal(0, scale=0).log_prob(1), validate_args=False": lambda: Normal(
            zero, zero, validate_args=False
        ).log_prob(torch.ones(3)),
    }
    results = {
        "vae, 5 steps": {
            "validated (default)": vae(None),
            "validate_args=False": vae(False),
        },
        "policy gradient, 5 steps": {
            "validated (default)": policy(None),
            "validate_args=False": policy(False),
        },
        "prior built once, log_prob every step, 5 steps": {
            "validated (default)": prior_once(None),
            "validate_args=False": prior_once(False),
        },
        "one check alone, device-to-host copies": {
            name: checks(build) for name, build in classes.items()
        },
        "invalid parameter": {name: _outcome(call) for name, call in invalid.items()},
    }
    results["vae, 5 steps"]["same weights with and without validation"] = all(
        torch.equal(a, b) for a, b in zip(weights[None], weights[False], strict=True)
    )
    Distribution.set_default_validate_args(False)
    try:
        results["vae, 5 steps"]["set_default_validate_args(False)"] = vae(None)
        results["policy gradient, 5 steps"]["set_default_validate_args(False)"] = policy(None)
    finally:
        Distribution.set_default_validate_args(True)
    return results


def data_parallel_inputs() -> dict:
    """`nn.DataParallel` without CUDA: the devices it keeps, and a batch fed to it as it comes
    (on CUDA its forward scatters the batch onto the GPUs)."""
    device = torch_xla.device()
    conv = torch.nn.DataParallel(torch.nn.Conv2d(3, 4, 3), device_ids=None).to(device)
    linear = torch.nn.DataParallel(torch.nn.Linear(4, 2)).to(device)
    return {
        "DataParallel(...).device_ids": str(conv.device_ids),
        "DataParallel(Conv2d).to(xla)(cpu batch)": _outcome(
            lambda: conv(torch.randn(2, 3, 8, 8)).shape
        ),
        "DataParallel(Linear).to(xla)(cpu batch)": _outcome(
            lambda: linear(torch.randn(2, 4)).shape
        ),
        "DataParallel(Conv2d).to(xla)(batch.to(xla))": _outcome(
            lambda: tuple(conv(torch.randn(2, 3, 8, 8).to(device)).shape)
        ),
    }


def host_round_trip() -> dict:
    """A host array's round trip through the device (a Faster R-CNN's proposal NMS):
    `nms(torch.from_numpy(roi).to(xla), torch.from_numpy(score).to(xla), 0.7)` read back with
    `.cpu().numpy()`, for three proposal counts, against the same op on the CPU: compiles, time
    and whether the kept indices are the same."""
    import numpy as np
    from torchvision.ops import nms

    device = torch_xla.device()
    rng = np.random.default_rng(0)
    results = {}
    for count in (300, 400, 500):
        xy = rng.uniform(0, 500, size=(count, 2)).astype(np.float32)
        roi = np.concatenate([xy, xy + rng.uniform(10, 80, size=(count, 2))], axis=1)
        roi = roi.astype(np.float32)
        score = rng.uniform(size=count).astype(np.float32)
        _settle()
        start = timeit.default_timer()
        on_device = nms(torch.from_numpy(roi).to(device), torch.from_numpy(score).to(device), 0.7)
        on_device = on_device.cpu().numpy()
        device_ms = (timeit.default_timer() - start) * 1000
        counts = _counts()
        start = timeit.default_timer()
        on_host = nms(torch.from_numpy(roi), torch.from_numpy(score), 0.7).numpy()
        host_ms = (timeit.default_timer() - start) * 1000
        results[f"{count} proposals"] = {
            "device compiles": counts["uncached_compiles"],
            "device-to-host copies": counts["device_to_host"],
            "CPU fallbacks": met.executed_fallback_ops(),
            "device ms": round(device_ms, 1),
            "host ms": round(host_ms, 1),
            "same indices": bool(np.array_equal(on_device, on_host)),
        }
    return results


def inference_mode() -> dict:
    """A model on the XLA device called under `torch.inference_mode()` (as a `with`, a decorator
    with and without parentheses, `mode=True`, `False`), against `torch.no_grad()`: what each
    raises or returns, the outputs against the same model on the CPU under inference mode, and
    which single ops raise there."""
    device = torch_xla.device()
    torch.manual_seed(0)
    cpu_model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 3))
    model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 3))
    model.load_state_dict(cpu_model.state_dict())
    model = model.to(device)
    batch = torch.randn(5, 4)
    x = batch.to(device)
    w = torch.randn(4, 4).to(device)
    linear = torch.nn.Linear(4, 4).to(device)
    embedding = torch.nn.Embedding(10, 4).to(device)
    tokens = torch.tensor([1, 2, 3]).to(device)
    mask = torch.tril(torch.ones(8, 8)).to(device)
    convolutions = torch.nn.Sequential(
        torch.nn.Conv2d(3, 4, 3), torch.nn.BatchNorm2d(4), torch.nn.ReLU()
    ).to(device)
    convolutions.eval()
    images = torch.randn(2, 3, 8, 8).to(device)
    with torch.inference_mode():
        expected = cpu_model(batch)

    def under(context, call=lambda: model(x)):
        def run():
            with context:
                return call()

        return run

    @torch.inference_mode()
    def decorated():
        return model(x)

    @torch.inference_mode
    def bare():
        return model(x)

    def fresh():
        with torch.inference_mode():
            return torch.nn.Linear(4, 3).to(device)(torch.randn(5, 4).to(device))

    def rounded(call):
        out = call()
        return [round(v, 4) for v in out.cpu().flatten().tolist()[:3]]

    with torch.no_grad():
        no_grad_out = model(x).cpu()
    ops = {
        "x @ w": lambda: x @ w,
        "relu": lambda: torch.relu(x),
        "x.t()": lambda: x.t(),
        "x.view(-1)": lambda: x.view(-1),
        "x[1:]": lambda: x[1:],
        "x.unsqueeze(0)": lambda: x.unsqueeze(0),
        "nn.Linear": lambda: linear(x),
        "nn.Embedding": lambda: embedding(tokens),
        "a buffer's slice (a causal mask)": lambda: mask[:, :3],
        "Conv2d + BatchNorm2d (eval) + ReLU": lambda: convolutions(images),
    }
    return {
        "with torch.inference_mode()": _outcome(under(torch.inference_mode())),
        "@torch.inference_mode()": _outcome(decorated),
        "@torch.inference_mode": _outcome(bare),
        "torch.inference_mode(mode=True)": _outcome(under(torch.inference_mode(mode=True))),
        "a model and input built under inference_mode": _outcome(lambda: rounded(fresh)),
        "with torch.inference_mode(False)": _outcome(
            lambda: rounded(under(torch.inference_mode(False)))
        ),
        "with torch.no_grad()": _outcome(lambda: rounded(under(torch.no_grad()))),
        "no_grad on XLA == inference_mode on CPU": bool(
            torch.allclose(no_grad_out, expected, atol=1e-6)
        ),
        "requires_grad under no_grad / inference_mode (CPU)": [
            no_grad_out.requires_grad,
            expected.requires_grad,
        ],
        "ops under inference_mode": {
            name: _outcome(under(torch.inference_mode(), op)).split(":")[0]
            for name, op in ops.items()
        },
        "torch.autograd.grad_mode.inference_mode is torch.inference_mode": (
            torch.autograd.grad_mode.inference_mode is torch.inference_mode
        ),
        "torch.autograd.inference_mode is torch.inference_mode": (
            torch.autograd.inference_mode is torch.inference_mode
        ),
    }


def ignite_rank_queries() -> dict:
    """pytorch-ignite's calls on a host where torch_xla imports: its XLA backend asks
    `xm.xrt_world_size()` and `xm.get_ordinal()` (ignite/distributed/comp_models/xla.py, 0.5.5
    and main of 2026-08), which torch-xla 2.9 no longer has. ``{"ignite": "not installed"}``
    where it is missing."""
    try:
        import ignite
        import ignite.distributed as idist
        from ignite.engine import Engine, create_supervised_trainer
        from ignite.handlers import ModelCheckpoint
        from ignite.metrics import Accuracy, RunningAverage
        from ignite.utils import setup_logger
    except ImportError:
        return {"ignite": "not installed"}
    model = torch.nn.Linear(2, 2).to(torch_xla.device())
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    batches = [(torch.ones(4, 2), torch.zeros(4, dtype=torch.long))] * 2

    def supervised() -> int:
        trainer = create_supervised_trainer(
            model, optimizer, torch.nn.functional.cross_entropy, device=torch_xla.device()
        )
        return trainer.run(batches, max_epochs=1).iteration

    def metric_run(make) -> int:
        engine = Engine(lambda e, b: (torch.ones(2, 3), torch.zeros(2, dtype=torch.long)))
        make().attach(engine, "metric")
        return engine.run([1, 2]).iteration

    with tempfile.TemporaryDirectory() as folder:
        return {
            "ignite": ignite.__version__,
            "xm.xrt_world_size exists": hasattr(xm, "xrt_world_size"),
            "xm.get_ordinal exists": hasattr(xm, "get_ordinal"),
            "Engine(step).run": _outcome(lambda: Engine(lambda e, b: 0).run([1, 2]).iteration),
            "create_supervised_trainer(...).run": _outcome(supervised),
            "idist.device()": _outcome(idist.device),
            "idist.get_rank()": _outcome(idist.get_rank),
            "idist.get_world_size()": _outcome(idist.get_world_size),
            "setup_logger(...)": _outcome(lambda: setup_logger("trainer").name),
            "Accuracy().attach(engine); engine.run": _outcome(lambda: metric_run(Accuracy)),
            "RunningAverage(...).attach(engine); engine.run": _outcome(
                lambda: metric_run(lambda: RunningAverage(output_transform=lambda x: x[0].sum()))
            ),
            "ModelCheckpoint(...)": _outcome(
                lambda: type(ModelCheckpoint(folder, "ckpt", require_empty=False)).__name__
            ),
        }


FACTS = {
    function.__name__: function
    for function in (
        device_checks,
        cuda_calls,
        cuda_raises,
        fused_optimizer,
        syncfree_found_inf,
        autocast,
        checkpoint_save,
        seeding,
        removed_apis,
        float64_on_cpu,
        host_reads,
        shape_compiles,
        offset_slices,
        drawn_offsets,
        drawn_boxes,
        python_scalars,
        clip_nonfinite,
        dynamo_backends,
        host_conversions,
        sparse_tensors,
        float32_schedule,
        value_reads,
        host_read_ops,
        gradient_accumulation,
        fallback_ops,
        scaled_blas,
        fft_ops,
        weight_norm,
        ctc_loss,
        element_reads,
        generator_device,
        is_cuda_moves,
        cuda_type_moves,
        has_mps,
        optimizer_before_move,
        cuda_tensor_types,
        default_cuda_tensor_type,
        zero_dim_index,
        reduce_average,
        sync_batchnorm,
        packed_sequences,
        teacher_forcing,
        data_assignment,
        type_string_casts,
        capturable_optimizers,
        removed_torch_names,
        removed_linalg_calls,
        removed_scheduler_keywords,
        stft_return_complex,
        batchnorm_eval_backward,
        load_weights_only,
        autocast_sliced_output,
        grad_scaler_on_xla,
        cuda_checkpoint_load,
        data_parallel_inputs,
        host_round_trip,
        inference_mode,
        distribution_validation,
        ignite_rank_queries,
    )
}


def main(names: list[str]) -> None:
    results = {
        "date": datetime.date.today().isoformat(),
        "versions": {"torch": torch.__version__, "torch_xla": torch_xla.__version__},
        "device": str(torch_xla.device()),
    }
    with contextlib.redirect_stdout(sys.stderr):  # torch_xla's own warnings go to stdout
        for name in names or FACTS:
            results[name] = FACTS[name]()
    print(json.dumps(results, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main(sys.argv[1:])
