# Must not fire: `torch.no_grad()` everywhere, `inference_mode(False)` (inference mode off, measured
# to run on XLA), and a function of the file's own named inference_mode.
import torch


def inference_mode():
    return torch.no_grad()


@torch.no_grad()
def evaluate(model, x):
    return model(x).sum().item()


def train_step(model, x):
    with torch.inference_mode(False):
        return model(x).sum()


def sample(model, x):
    with inference_mode():
        return model(x).argmax(-1)
