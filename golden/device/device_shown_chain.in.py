# Class: a device chosen by a CPU default and an availability chain (`device = "cpu"`, then `if
# torch.cuda.is_available(): device = "cuda"`, `elif ... mps`), whose name is printed or logged:
# a read that shows the name takes any name, so the "cuda" is the training device all the same
# and the chain becomes the target's device.
import logging

import torch

logger = logging.getLogger(__name__)

device = "cpu"
if torch.cuda.is_available():
    device = "cuda"
elif hasattr(torch.backends, "mps") and torch.backends.mps.is_available():
    device = "mps"
print(f"using device: {device}")
logger.info("training on %s", device)
print("device {}".format(device))

model = torch.nn.Linear(4, 2).to(device)
x = torch.randn(8, 4, device=device)
