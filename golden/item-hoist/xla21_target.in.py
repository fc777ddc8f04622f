# golden: target=xla-2.1
import torch_xla.core.xla_model as xm


def train(model, loader, optimizer):
    for step, (x, y) in enumerate(loader):
        x, y = x.to(xm.xla_device()), y.to(xm.xla_device())
        optimizer.zero_grad()
        loss = model(x, y)
        loss.backward()
        print("step", step, "loss", loss.item())
        xm.optimizer_step(optimizer, barrier=True)
