# golden: target=neuron
# Twin of compile_trained_dropped on --target neuron: TorchNeuron's backend is the path there,
# so the compile stays and gets backend="neuron" (TRN155), not dropped.
import torch


def train(model, loader, optimizer):
    model = torch.compile(model, backend="neuron", dynamic=False)
    for x, y in loader:
        optimizer.zero_grad()
        torch.nn.functional.cross_entropy(model(x), y).backward()
        optimizer.step()


def train_fast(net, loader, optimizer):
    fast = torch.compile(net, backend="neuron", dynamic=False)
    for x, y in loader:
        optimizer.zero_grad()
        fast(x).sum().backward()
        optimizer.step()


@torch.compile(backend="neuron", dynamic=False)
def train_step(model, x, y):
    return torch.nn.functional.cross_entropy(model(x), y)


def train_steps(model, loader, optimizer):
    for x, y in loader:
        optimizer.zero_grad()
        train_step(model, x, y).backward()
        optimizer.step()
