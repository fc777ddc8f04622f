import torch
import torch_xla


def move_to_device(kwargs, device):
    # Moves one batch's tensors: no loop over batches here, so no graph cut.
    for key, value in kwargs.items():
        if isinstance(value, torch.Tensor):
            kwargs[key] = value.to(device)
    moved = ()
    for layer in kwargs.get("past", ()):
        for state in layer:
            moved += (state.to(device),)
    return kwargs, moved


def evaluate(model, loader, device):
    with torch.no_grad():
        for batch in loader:
            batch = batch.to(device)
            total = model(batch).sum()
            torch_xla.sync()
    return total
