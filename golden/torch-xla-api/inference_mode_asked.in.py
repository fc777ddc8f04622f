# Class: a file that asks `torch.is_inference_mode_enabled()`: the rewrite would change its
# answer, so the inference mode is reported, not rewritten.
import torch


@torch.inference_mode()
def evaluate(model, x):
    assert torch.is_inference_mode_enabled()
    return model(x).sum().item()
