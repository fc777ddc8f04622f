# Twin of accelerate_next_batch: in an accelerate program, batches taken with next() from a loader
# that accelerator.prepare never saw, or only on some iterations, leave the step without a cut.
import torch
import torch_xla
from accelerate import Accelerator
from torch.utils.data import DataLoader


def train(model, optimizer, dataset, steps, refresh):
    accelerator = Accelerator()
    model, optimizer = accelerator.prepare(model, optimizer)
    it = iter(DataLoader(dataset, batch_size=16))
    for step in range(steps):
        batch = next(it)
        batch = {k: v.to(accelerator.device) for k, v in batch.items()}
        accelerator.backward(model(**batch).loss)
        optimizer.step()
        torch_xla.sync()
        optimizer.zero_grad()


def train_sometimes(model, optimizer, loader, steps, refresh):
    accelerator = Accelerator()
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    it = iter(loader)
    batch = next(it)
    for step in range(steps):
        if step % refresh == 0:
            batch = next(it)
        accelerator.backward(model(**batch).loss)
        optimizer.step()
        torch_xla.sync()
        optimizer.zero_grad()
