# golden: target=neuron
"""XLA_USE_BF16 / XLA_DOWNCAST_BF16 and other XLA-path environment variables: reported, since
TorchNeuron reads none of them; which forward pass to autocast is the author's choice."""
import os

import torch

os.environ["XLA_USE_BF16"] = "1"
os.environ.setdefault("PJRT_DEVICE", "NEURON")
if os.environ.get("XLA_DOWNCAST_BF16") == "1":
    accumulator_dtype = torch.double
LAUNCH_ENV = {"NEURON_NUM_DEVICES": "2", "XLA_FLAGS": "--xla_dump_to=/tmp"}
