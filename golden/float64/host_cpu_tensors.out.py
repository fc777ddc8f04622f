# float64 made on the CPU in so many words is kept, with a note (TRN209): the CPU has float64,
# and such code computes in double on purpose before it casts. float64 for the device is still
# rewritten, and so is a function merely defined inside the CPU block (it may run elsewhere).
import torch


def rope_frequencies(dim, end, theta=10000.0):
    with torch.device("cpu"):
        freqs = 1.0 / (theta ** (torch.arange(0, dim, 2, dtype=torch.float64) / dim))
        steps = torch.arange(end, device=freqs.device, dtype=torch.float64)

        def later(n):
            return torch.ones(n, dtype=torch.float32)

    table = torch.outer(steps, freqs).float()
    return table, later


def statistics(values, device):
    exact = torch.tensor(values, dtype=torch.float64, device="cpu")
    moved = torch.as_tensor(values).to("cpu", dtype=torch.double)
    pinned = torch.zeros(3, dtype=torch.float64, device=torch.device("cpu:0"))
    on_device = torch.zeros(3, dtype=torch.float32, device=device)
    elsewhere = torch.zeros(3, dtype=torch.float32, device="cuda")
    return exact.mean(), moved, pinned, on_device, elsewhere
