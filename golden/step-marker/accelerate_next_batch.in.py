# A step that takes its batch with next() from what accelerator.prepare returned (through
# cycle()/iter() and a `self.` attribute) is cut by that loader on XLA (accelerate wraps it in an
# MpDeviceLoader): no marker. Twin: accelerate_next_batch_twin.
import torch
from accelerate import Accelerator
from torch.utils.data import DataLoader


def cycle(dl):
    while True:
        yield from dl


class Trainer:
    def __init__(self, model, dataset, steps):
        self.accelerator = Accelerator()
        dl = DataLoader(dataset, batch_size=16, shuffle=True)
        dl = self.accelerator.prepare(dl)
        self.dl = cycle(dl)
        self.model, self.opt = self.accelerator.prepare(model, torch.optim.Adam(model.parameters()))
        self.steps = steps
        self.step = 0

    def train(self):
        while self.step < self.steps:
            data = next(self.dl)
            loss = self.model(data)
            self.accelerator.backward(loss)
            self.opt.step()
            self.opt.zero_grad()
            self.step += 1


def train_accumulating(model, optimizer, train_dataloader, steps, micro):
    accelerator = Accelerator()
    model, optimizer, train_dataloader = accelerator.prepare(model, optimizer, train_dataloader)
    training_iterator = iter(train_dataloader)
    for _ in range(steps):
        batches = []
        for _ in range(micro):
            batches += [next(training_iterator)]
        for batch in batches:
            accelerator.backward(model(**batch).loss)
        optimizer.step()
        optimizer.zero_grad()
