# golden: target=xla-2.1
import torch_xla.core.xla_model as xm


def train(model, loader, optimizer):
    for step, (x, y) in enumerate(loader):
        x, y = x.to(xm.xla_device()), y.to(xm.xla_device())
        optimizer.zero_grad()
        loss = model(x, y)
        loss.backward()
        if step % 10 == 0:
            def _log(step, loss):
                print("step", step, "loss", loss.item())
            xm.add_step_closure(_log, args=(step, loss))
        xm.optimizer_step(optimizer, barrier=True)
