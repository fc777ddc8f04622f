import torch
import torch_xla

# The check guards a CUDA-only call, not the device: it is reported (TRN007), not resolved.
if torch.cuda.is_available():
    torch.cuda.manual_seed_all(0)
model = torch.nn.Linear(2, 2).to("xla")
