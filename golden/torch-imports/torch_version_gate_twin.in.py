# Twin of torch_version_gate: checks of torch's version that hold on torch 2.9 (a minimum
# version, a branch for old releases), one whose `if` only warns, and ones the tool cannot
# fold (a name bound to the version, a generator): nothing is reported.
import warnings
from distutils.version import LooseVersion

import torch

assert LooseVersion(torch.__version__) >= LooseVersion("0.4.0"), "PyTorch>=0.4.0 is required"
assert int(torch.__version__.split(".")[0]) >= 1

if torch.__version__ < "1.5":
    raise ImportError("torch 1.5 or later is required")

if torch.__version__ >= "2":
    warnings.warn("torch 2 is not tested")

TORCH_VERSION = torch.__version__
assert TORCH_VERSION.startswith("1.")
assert tuple(int(x) for x in torch.__version__.split(".")[:2]) >= (1, 8)
