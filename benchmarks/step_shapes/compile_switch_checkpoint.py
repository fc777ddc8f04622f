"""A compile switch that also steers checkpoint loading (TRN436's "switch read again" decline).

    /work/xla-venv/bin/python benchmarks/step_shapes/compile_switch_checkpoint.py SRGAN_REPO

Lornatang/SRGAN-PyTorch compiles its models under `config["MODEL"]["G"]["COMPILED"]` and passes
the same value to `utils.load_state_dict(model, compile_mode, state_dict)`, which keeps the
`_orig_mod.` prefix of the checkpoint's keys when told the model is compiled. The script loads
the repository's own `utils.py` (its image-quality import stubbed) and loads a checkpoint into
a small model four ways, printing how many of the model's tensors came from the checkpoint:
the program as written (compiled, switch on), the compile dropped with the switch left on
(a checkpoint saved by a compiled model, and one saved by the ported trainer), and the compile
dropped with the switch off. torch only, on the CPU: no model is run.
"""

import sys
import types

import torch

sys.path.insert(0, sys.argv[1])
sys.modules["image_quality_assessment"] = types.SimpleNamespace(PSNR=None, SSIM=None)
from utils import load_state_dict  # noqa: E402  (the repository's own loader)


def model() -> torch.nn.Module:
    return torch.nn.Sequential(torch.nn.Conv2d(3, 8, 3), torch.nn.ReLU(), torch.nn.Conv2d(8, 3, 3))


def loaded(target: torch.nn.Module, checkpoint: dict) -> int:
    values = list(checkpoint.values())
    return sum(any(torch.equal(v, c) for c in values) for v in target.state_dict().values())


torch.manual_seed(0)
compiled_checkpoint = torch.compile(model()).state_dict()  # keys "_orig_mod.0.weight", ...
plain_checkpoint = model().state_dict()  # what a trainer without the compile saves
total = len(plain_checkpoint)
cases = [
    ("as written: compiled, switch on, compiled checkpoint", True, True, compiled_checkpoint),
    ("compile dropped, switch on, compiled checkpoint", False, True, compiled_checkpoint),
    ("compile dropped, switch on, checkpoint of the port", False, True, plain_checkpoint),
    ("compile dropped, switch off, compiled checkpoint", False, False, compiled_checkpoint),
]
for label, compiled, switch, checkpoint in cases:
    torch.manual_seed(1)
    target = torch.compile(model()) if compiled else model()
    try:
        target = load_state_dict(target, switch, checkpoint)
        print(f"{label}: {loaded(target, checkpoint)} of {total} tensors loaded, no error")
    except RuntimeError as error:
        print(f"{label}: RuntimeError: {error}")
