# Class: `torch.compile` on a model that is trained, on XLA. Dynamo training through
# `backend="openxla"` is experimental in torch-xla 2.9 and measured 4.0 graphs a step and 6
# compiles against 1.0 and 1 without it (benchmarks/step_shapes/compile_trained.py): the compile
# is dropped where the compiled name is called in a training loop and nowhere for inference, and
# nothing but the model is passed. Twin: compile_trained_dropped_twin (reported, not dropped).
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
