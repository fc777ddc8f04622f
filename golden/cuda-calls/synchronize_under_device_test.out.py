# Class: a CUDA synchronize guarded by a test of the device string (`if args.device.startswith(
# "cuda"):`, makemore's timing barrier) in a loop that reads `loss.item()` every step: the call
# goes (TRN311), and so does the `if` it leaves empty, whose test only reads a string; no
# `if ...: pass` is left behind. The twin, `logged`, also prints under the test: the `if` stays.
import time

import torch


def train(model, loader, optimizer, args):
    for x in loader:
        t0 = time.time()
        loss = model(x).mean()
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        t1 = time.time()
        print(f"loss {loss.item():.4f} | {(t1 - t0) * 1000:.2f}ms")


def logged(model, loader, optimizer, args):
    for x in loader:
        loss = model(x).mean()
        loss.backward()
        optimizer.step()
        if args.device.startswith("cuda"):
            print("synchronized")
        print(loss.item())
