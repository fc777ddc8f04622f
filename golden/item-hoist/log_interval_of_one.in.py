# Class: logging guarded by an interval that is 1 (`log_interval = 1` at the module's top, or
# the literal): the guard holds every step, so the value it reads is read on the host every
# step, a sync each (TRN125 reports it). Found in a Fabric fine-tune whose XLA port dropped the
# per-step `loss.item()` ("this will considerably slow down the iteration times"), in the
# first-sight port set J. Twin: log_interval_of_one_twin.
import torch

log_interval = 1


def train(model, optimizer, data, max_iters):
    for iter_num in range(max_iters):
        x, y = data[iter_num]
        loss = torch.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if iter_num % log_interval == 0:
            print(f"iter {iter_num}: loss {loss.item():.4f}")
