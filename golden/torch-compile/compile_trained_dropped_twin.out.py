# Twin of compile_trained_dropped: where dropping is not certain the compile is reported and
# TRN154 gives it `backend="openxla"` - options are passed, the switch that turns the compile on
# is read again (checkpoint code that follows it would then read keys the model does not have);
# compile_trained_orig_mod: the file reads a compiled model's `_orig_mod`. A compiled model that is only evaluated
# keeps its compile and gets no TRN436, also when an evaluation loop hands it to a function.
import torch


def train_with_options(model, loader, optimizer):
    model = torch.compile(model, mode="max-autotune", backend="openxla")
    for x, y in loader:
        optimizer.zero_grad()
        torch.nn.functional.cross_entropy(model(x), y).backward()
        optimizer.step()


def train_resumed(model, loader, optimizer, args):
    if args.compile:
        model = torch.compile(model, backend="openxla")
    model.load_state_dict(load_checkpoint(args.resume, compiled=args.compile))
    for x, y in loader:
        optimizer.zero_grad()
        torch.nn.functional.cross_entropy(model(x), y).backward()
        optimizer.step()


def evaluate(model, loader):
    model = torch.compile(model, backend="openxla")
    with torch.no_grad():
        for x, y in loader:
            print(model(x.to("xla")).argmax(1).eq(y.to("xla")).sum())


def predict(model, x):
    return model(x.to("xla")).argmax(1)


def evaluate_through_a_function(model, loader):
    model = torch.compile(model, backend="openxla")
    with torch.no_grad():
        for x, y in loader:
            print(predict(model, x).eq(y.to("xla")).sum())
