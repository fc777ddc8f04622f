# torchrun's device string of the process's own index: a string stays a string ("xla", not a
# device object), so code that reads it as text keeps working; where the name is also read as
# text (nanoGPT's `"cuda" in device`, a log line) it is reported instead.
import os

import torch
import torch.nn as nn
import torch_xla


def setup():
    local_rank = int(os.environ["LOCAL_RANK"])
    device = "xla"
    model = nn.Linear(8, 8).to(device)
    return model(torch.randn(4, 8, device=device))


def setup_logged():
    local_rank = int(os.environ["LOCAL_RANK"])
    device = f"cuda:{local_rank}"
    print("running on " + device)
    return nn.Linear(8, 8).to(device)
