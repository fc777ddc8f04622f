# golden: target=neuron
"""torch.compile with torch-xla's dynamo backends, as a call and as a decorator."""
import torch


@torch.compile(backend="neuron")
def predict(model, x):
    return model(x)


def build(model):
    return torch.compile(model, backend="neuron", dynamic=False)


def build_default(model):
    return torch.compile(model, backend="inductor")
