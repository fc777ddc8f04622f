# golden: target=neuron
# `float(loss)` is the same sync as `loss.item()`.
def train(model, loader, optimizer):
    total = 0.0
    for step, (x, y) in enumerate(loader, 1):
        optimizer.zero_grad()
        loss = model(x.to("neuron"), y.to("neuron"))
        loss.backward()
        optimizer.step()
        total += float(loss)
        print(f"step {step}: loss {float(loss):.4f} mean {total / step:.4f}")
    return total
