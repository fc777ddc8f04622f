# Class: an evaluation loop's one host read reduces on the host what it copied there
# (`acc += (out.argmax(1) == y).cpu().numpy().mean()`): the `.mean()` after the copy is numpy's,
# so nothing the loop carries is on the device, and the copy runs each batch's graph by itself.
# A cut before it would split that graph in two (measured on XLA:CPU, 4 batches: 8 executions
# and 3 compiles with the cut, 4 and 2 without). No cut.
import torch
import torch_xla

device = torch_xla.device()


def evaluate(model, data_loader):
    model.eval()
    acc = 0
    for batch in data_loader:
        x = batch.text.to(device)
        y = batch.label.to(device)
        out = model(x)
        acc += (out.argmax(1) == y).cpu().numpy().mean()
    print(f"Eval accuracy: {acc / len(data_loader)}")
