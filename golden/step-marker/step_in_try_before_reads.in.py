# Class: a training loop whose step runs inside a `try` (an `except` that logs and goes on to
# the next batch), with values read on the host after the optimizer step inside the same `try`
# (`float(loss)` for a running history and a print). A cut after the `try` block leaves each
# read to run the step's graph again; the cut goes into the `try`, right after the step, and
# before each `continue` (measured on RetinaNet's trainer: 16 graph executions an iteration
# against 20). Found at first sight in an object-detection repository (RetinaNet's train.py).
# Twin: step_in_try_before_reads_twin (nothing read after the step in the `try`: the cut goes
# after the block, as before).
import collections

import torch
import torch.nn.functional as F


def train(model, loader, optimizer, epochs=2):
    history = collections.deque(maxlen=500)
    for epoch in range(epochs):
        for step, (x, y) in enumerate(loader):
            try:
                x, y = x.cuda(), y.cuda()
                optimizer.zero_grad()
                loss = F.cross_entropy(model(x), y)
                if bool(loss == 0):
                    continue
                loss.backward()
                optimizer.step()
                history.append(float(loss))
                print(f"epoch {epoch} step {step} loss {float(loss):.4f}")
            except Exception as e:
                print(e)
                continue
    return history
