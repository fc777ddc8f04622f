# Twin of compile_trained_dropped: the file reads a compiled model's `_orig_mod`, which is gone
# once the compile is dropped (AttributeError), so the compile of a trained model is reported and
# TRN154 gives it `backend="openxla"`.
import torch


def train_and_save(model, loader, optimizer):
    model = torch.compile(model)
    for x, y in loader:
        optimizer.zero_grad()
        torch.nn.functional.cross_entropy(model(x), y).backward()
        optimizer.step()
    save(model)


def save(model):
    torch.save(model._orig_mod.state_dict(), "model.pt")
