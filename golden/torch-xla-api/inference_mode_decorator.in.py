# Class: an evaluation function under `@torch.inference_mode()`, called from the training loop:
# on XLA a model called under inference mode raises, so the decorator becomes no_grad (also the
# `mode=True` spelling and a `with`).
import torch


@torch.inference_mode()
def evaluate(model, x, y):
    return torch.nn.functional.cross_entropy(model(x), y).item()


@torch.inference_mode(mode=True)
def sample(model, x):
    return model(x).argmax(-1)


def train(model, optimizer, batches):
    for x, y in batches:
        loss = torch.nn.functional.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        with torch.inference_mode(True):
            print(evaluate(model, x, y), sample(model, x))
