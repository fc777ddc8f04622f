# The optimizer step's `if` is not an accumulation boundary (a check of the loss): the cut
# stays once per iteration, after the `if` block, and a `continue` before it gets one too.
import torch
import torch_xla


def train(model, loader, optimizer, device):
    for inputs, labels in loader:
        if inputs is None:
            continue
        loss = torch.nn.functional.cross_entropy(model(inputs.to(device)), labels.to(device))
        loss.backward()
        if torch.isfinite(loss):
            optimizer.step()
        torch_xla.sync()
        optimizer.zero_grad()
