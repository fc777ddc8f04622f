# A running mean printed every step, before the step's sync: the total is summed on the device and
# the closure gets a snapshot of it (`+=` on a tensor updates it in place).
import torch_xla


def train(model, loader, optimizer):
    total = 0.0
    for step, (x, y) in enumerate(loader):
        optimizer.zero_grad()
        loss = model(x.to("xla"), y.to("xla"))
        loss.backward()
        optimizer.step()
        total += loss.item()
        print(f"step {step} loss {loss.item():.6f} avg {total / (step + 1):.6f}")
        torch_xla.sync()
    return total / len(loader)
