# Class: a check of torch's version, written for torch 1.x, that stops the program on the
# target's torch: an `assert` that is False there, or an `if` that is True there and raises or
# exits. Each is folded with torch.__version__ set to the target's torch (2.9.0): a blocker at
# the check. Found at first sight in an object-detection repository (RetinaNet's
# `assert torch.__version__.split('.')[0] == '1'` at the top of each script). Twin:
# torch_version_gate_twin (checks that hold on torch 2, and ones the tool cannot fold).
import sys

import torch
from packaging import version

assert torch.__version__.split(".")[0] == "1"
assert torch.__version__ < "2", "tested with torch 1.x only"

if version.parse(torch.__version__) >= version.parse("1.13"):
    raise RuntimeError("this code uses APIs removed after torch 1.12")

if not torch.__version__.startswith(("1.6", "1.7", "1.8")):
    sys.exit(f"unsupported torch {torch.__version__}")


def build():
    return torch.nn.Linear(2, 2)
