# A Python branch on a shape inside the step: another graph for each shape that goes the other way.
import torch
import torch.nn.functional as F


def train(model, loader, optimizer, batch_size, max_len):
    for x, y in loader:
        x, y = x.to("xla"), y.to("xla")
        if x.size(0) != batch_size:
            continue
        if x.shape[1] > max_len:
            x = x[:, -max_len:]
        if x.shape[1] < max_len:
            x = F.pad(x, (0, max_len - x.shape[1]))
        scale = 2.0 if y.shape[0] > 16 else 1.0
        optimizer.zero_grad()
        loss = F.cross_entropy(model(x) * scale, y)
        loss.backward()
        optimizer.step()
        if len(loader) > 100:
            print("long epoch")
