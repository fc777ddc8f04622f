# Twin of inference-beside-autograd-backward: the library the script loads also has a training
# step (`fit`, whose `loss.backward()` is the caller's own, not the gradient machinery's), so a
# step may be behind the layer choice the evaluator cannot decide: "cannot tell", naming it.
import argparse

import torch
import torch_xla
import torch_xla.core.xla_model as xm

from layers import build

parser = argparse.ArgumentParser()
parser.add_argument("--kinds", nargs="+", default=["full"])
args = parser.parse_args()

device = torch_xla.device()
model = build(args.kinds).to(device)
model.eval()
with torch.no_grad():
    for _ in range(4):
        sample = model(torch.randn(2, 8, device=device))
        if _ % 10 == 0:
            def _log(sample):
                print(sample.sum().item())
            xm.add_step_closure(_log, args=(sample,))
        torch_xla.sync()
