# Twin of inference-beside-autograd-backward: the library the script loads also has a training
# step (`fit`, whose `loss.backward()` is the caller's own, not the gradient machinery's), so a
# step may be behind the layer choice the evaluator cannot decide: "cannot tell", naming it.
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
