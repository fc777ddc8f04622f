# golden: target=neuron
# `float(loss)` is the same sync as `loss.item()`.
def train(model, loader, optimizer):
    total = 0.0
    for step, (x, y) in enumerate(loader, 1):
        optimizer.zero_grad()
        loss = model(x.to("neuron"), y.to("neuron"))
        loss.backward()
        optimizer.step()
        total += loss.detach()
        if step % 10 == 0:
            print(f"step {step}: loss {float(loss):.4f} mean {float(total) / step:.4f}")
    total = float(total)
    return total
