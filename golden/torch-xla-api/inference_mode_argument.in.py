# Class: an inference mode whose argument is not a literal, or that is passed as a value, or in
# a file that asks whether inference mode is on: each is reported (where it runs with the mode
# on, the program stops), with the fix, and left as it is.
import torch


def evaluate(model, x, fast):
    with torch.inference_mode(fast):
        return model(x).sum().item()


def context(eval_only):
    return torch.inference_mode if eval_only else torch.enable_grad
