# Class: `torch.compile` on a model that is trained, on XLA. Dynamo training through
# `backend="openxla"` is experimental in torch-xla 2.9 and measured 4.0 graphs a step and 6
# compiles against 1.0 and 1 without it (benchmarks/step_shapes/compile_trained.py): the compile
# is dropped where the compiled name is called in a training loop and nothing but the model is
# passed, also where the same model is evaluated (an evaluation loop runs as well without the
# compile), or called by a function the training loop hands it to each step (`forward_loss`).
# The compile alone in an `if` whose test only reads takes the `if` with it.
# Twin: compile_trained_dropped_twin (reported or given `backend="openxla"`, not dropped).
import torch


def train(model, loader, optimizer):
    model = torch.compile(model)
    for x, y in loader:
        optimizer.zero_grad()
        torch.nn.functional.cross_entropy(model(x), y).backward()
        optimizer.step()


def train_fast(net, loader, optimizer):
    fast = torch.compile(net)
    for x, y in loader:
        optimizer.zero_grad()
        fast(x).sum().backward()
        optimizer.step()


@torch.compile
def train_step(model, x, y):
    return torch.nn.functional.cross_entropy(model(x), y)


def train_steps(model, loader, optimizer):
    for x, y in loader:
        optimizer.zero_grad()
        train_step(model, x, y).backward()
        optimizer.step()


def train_and_evaluate(model, loader, val_loader, optimizer):
    model = torch.compile(model)
    for x, y in loader:
        optimizer.zero_grad()
        torch.nn.functional.cross_entropy(model(x), y).backward()
        optimizer.step()
    with torch.no_grad():
        for x, y in val_loader:
            print(model(x.to("xla")).argmax(1).eq(y.to("xla")).sum())


def train_if_asked(model, loader, optimizer, compile_model):
    print("training")
    # compile the model
    if compile_model:
        model = torch.compile(model)
    for x, y in loader:
        optimizer.zero_grad()
        torch.nn.functional.cross_entropy(model(x), y).backward()
        optimizer.step()


def train_if_asked_on_one_line(model, loader, optimizer, compile_model):
    model.train()
    if compile_model: model = torch.compile(model)  # noqa: E701
    for x, y in loader:
        optimizer.zero_grad()
        torch.nn.functional.cross_entropy(model(x), y).backward()
        optimizer.step()


def train_compiled_or_scripted(model, loader, optimizer, compile_model):
    if compile_model:
        model = torch.compile(model)
    else:
        model = torch.jit.script(model)
    for x, y in loader:
        optimizer.zero_grad()
        torch.nn.functional.cross_entropy(model(x), y).backward()
        optimizer.step()


def train_compiled_on_one_line_or_not(model, loader, optimizer, compile_model):
    if compile_model: model = torch.compile(model)  # noqa: E701
    else: print("not compiled")  # noqa: E701
    for x, y in loader:
        optimizer.zero_grad()
        torch.nn.functional.cross_entropy(model(x), y).backward()
        optimizer.step()


def forward_loss(model, x, y):
    return torch.nn.functional.cross_entropy(model(x), y)


def train_through_a_step_function(model, loader, optimizer):
    model = torch.compile(model)
    for x, y in loader:
        optimizer.zero_grad()
        forward_loss(model, x, y).backward()
        optimizer.step()
