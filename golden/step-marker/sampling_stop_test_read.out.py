# Class: a sampling loop that stops when every sequence has produced its end token, tested as a
# tensor's truth (`if is_eos.any(dim=-1).all(): break`). Python asks the tensor for its truth, a
# host read like `bool(...)`: the cut goes right before the test, so the iteration's graph runs
# once (a cut after it ran the forward pass again: 0.034 s against 0.016 s of execution a call,
# measured by a first-sight reviewer on XLA:CPU), and before the `continue`.
import torch
import torch.nn.functional as F
import torch_xla


@torch.no_grad()
def generate(model, start, steps, eos_token=None):
    out = start
    for _ in range(steps):
        logits = model(out)[:, -1]
        sample = torch.multinomial(F.softmax(logits, dim=-1), 1)
        out = torch.cat((out, sample), dim=-1)
        if eos_token is None:
            torch_xla.sync()
            continue
        is_eos = out == eos_token
        torch_xla.sync()
        if is_eos.any(dim=-1).all():
            break
    return out
