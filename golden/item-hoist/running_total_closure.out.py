# A running mean printed every step, before the step's sync: the total is summed on the device and
# the closure gets a snapshot of it (`+=` on a tensor updates it in place).
import torch_xla
import torch_xla.core.xla_model as xm


def train(model, loader, optimizer):
    total = 0.0
    for step, (x, y) in enumerate(loader):
        optimizer.zero_grad()
        loss = model(x.to("xla"), y.to("xla"))
        loss.backward()
        optimizer.step()
        total += loss.detach()
        if step % 10 == 0:
            def _log(step, loss, total):
                print(f"step {step} loss {loss.item():.6f} avg {float(total) / (step + 1):.6f}")
            xm.add_step_closure(_log, args=(step, loss, total.clone()))
        torch_xla.sync()
    total = float(total)
    return total / len(loader)
