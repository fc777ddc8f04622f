# Class: a script that only runs a model (sampling, generation), whose layers are chosen where
# the evaluator cannot decide (`islice(cycle(kinds), depth)`), in a program whose only backward
# passes are the gradient machinery's own: a custom autograd Function's `backward` that recomputes its
# forward and calls `torch.autograd.backward`. No training step can be behind the undecided
# choice, so the entry point has none ("no step"), not "cannot tell". Found at first sight in a
# text-to-image repository (DALL-E's generate.py, reversible layers in the library). Twin:
# inference-beside-autograd-backward-twin, where the script also fine-tunes the chosen layer.
import argparse

import torch

from layers import build

parser = argparse.ArgumentParser()
parser.add_argument("--kinds", nargs="+", default=["full"])
args = parser.parse_args()

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = build(args.kinds).to(device)
model.eval()
with torch.no_grad():
    for _ in range(4):
        sample = model(torch.randn(2, 8, device=device))
        print(sample.sum().item())
