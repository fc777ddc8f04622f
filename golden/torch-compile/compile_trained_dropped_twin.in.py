# Twin of compile_trained_dropped: where dropping is not certain the compile is reported and
# TRN154 gives it `backend="openxla"` - the compiled model is also used for inference, options
# are passed, or the compile is the only statement of its block; a compiled model that is only
# evaluated keeps its compile and gets no TRN436.
import torch


def train_and_evaluate(model, loader, val_loader, optimizer):
    model = torch.compile(model)
    for x, y in loader:
        optimizer.zero_grad()
        torch.nn.functional.cross_entropy(model(x), y).backward()
        optimizer.step()
    with torch.no_grad():
        for x, y in val_loader:
            print(model(x.to("xla")).argmax(1).eq(y.to("xla")).sum())


def train_with_options(model, loader, optimizer):
    model = torch.compile(model, mode="max-autotune")
    for x, y in loader:
        optimizer.zero_grad()
        torch.nn.functional.cross_entropy(model(x), y).backward()
        optimizer.step()


def train_if_asked(model, loader, optimizer, compile_model):
    if compile_model:
        model = torch.compile(model)
    for x, y in loader:
        optimizer.zero_grad()
        torch.nn.functional.cross_entropy(model(x), y).backward()
        optimizer.step()


def evaluate(model, loader):
    model = torch.compile(model)
    with torch.no_grad():
        for x, y in loader:
            print(model(x.to("xla")).argmax(1).eq(y.to("xla")).sum())
