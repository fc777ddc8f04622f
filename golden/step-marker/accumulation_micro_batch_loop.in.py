# Gradient accumulation in a micro-batch loop nested in the loop that steps the optimizer: one
# cut per optimizer step, none in the micro-batch loop (accumulation-cut = "optimizer-step").
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
