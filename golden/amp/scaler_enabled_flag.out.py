# A kept GradScaler (its state is saved with the checkpoint) whose `enabled=` follows a flag:
# after the bf16 rewrite it is disabled outright (TRN306), so it no longer reads its inf check on
# the host every step where torch_xla is installed. The must-not-fire twin is
# computed_fp16_keeps_scaler.in.py: an autocast that may still run in float16 keeps its scaler.
import argparse
import os

import torch

os.environ["NEURON_CC_FLAGS"] = os.environ.get("NEURON_CC_FLAGS", "") + " --auto-cast=none"

parser = argparse.ArgumentParser()
parser.add_argument("--amp", action="store_true")
args = parser.parse_args()


def train(model, loader, optimizer, path):
    scaler = torch.cuda.amp.GradScaler(init_scale=2.0**10, enabled=False)
    for x, y in loader:
        with torch.autocast("xla", dtype=torch.bfloat16, enabled=args.amp):
            loss = model(x, y)
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
    torch.save({"model": model.state_dict(), "scaler": scaler.state_dict()}, path)
