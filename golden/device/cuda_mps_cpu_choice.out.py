# Class: a device chosen by a chain of availability checks, CUDA first, then Apple's MPS, then the
# CPU (`"cuda" if torch.cuda.is_available() else "mps" if torch.has_mps or
# torch.backends.mps.is_available() else "cpu"`), rebound through `torch.device(device)`. On a
# Trainium host CUDA and MPS are both absent (`torch.has_mps` and `mps.is_available()` are False
# in torch 2.9.0's Linux wheel, measured), so the chain picks the CPU: the whole choice becomes
# the target's device, and the rebinding reads it (no finding at `torch.device(device)`).
# Twin: cuda_mps_cpu_choice_twin.
import torch
import torch_xla


def train_model():
    device = "xla"
    print("Using device:", device)
    device = torch.device(device)
    model = torch.nn.Linear(8, 2).to(device)
    optimizer = torch.optim.Adam(model.parameters())
    for _ in range(3):
        loss = model(torch.randn(4, 8).to(device)).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
