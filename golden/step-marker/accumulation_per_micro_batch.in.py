# golden: accumulation-cut=micro-batch
# The configured choice: a cut after each micro-batch (smaller graphs), and one after the step.
import torch


def train(model, batches, optimizer, steps, accumulate_every):
    step = 0
    while step < steps:
        for _ in range(accumulate_every):
            data = next(batches).to("cuda")
            loss = model(data) / accumulate_every
            loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        step += 1
