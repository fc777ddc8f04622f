# `.item()` outside a training or evaluation loop, and in a loop that is neither: untouched.
import torch


def summary(model, x):
    out = model(x.to("xla"))
    print(out.sum().item())
    total = 0
    for value in [torch.tensor(1.0), torch.tensor(2.0)]:
        total += value.item()
    return total
