# Twin of model-called-with-a-starred-moved-batch: the starred batch's items are copied by the
# generator, not moved (`tuple(d.clone() for d in data)`), while the model is on the device: the
# inputs stay on the CPU, and the step does not train there. (Each batch's data is one tensor
# here, so no test of its type leaves the items undecided.)
import torch
import torch_xla


def train_epoch(loader, model, loss_fn, optimizer, cuda):
    model.train()
    device = torch_xla.device()
    for data, target in loader:
        if cuda:
            data = tuple(d.clone() for d in data)
            target = target.to(device)
        optimizer.zero_grad()
        loss = loss_fn(model(*data), target)
        loss.backward()
        optimizer.step()
        torch_xla.sync()
