# The running sum decides something every step: the accumulator stays a Python number.
def train(model, loader, optimizer):
    total = 0.0
    for step, (x, y) in enumerate(loader):
        optimizer.zero_grad()
        loss = model(x.to("xla"), y.to("xla"))
        loss.backward()
        optimizer.step()
        total += loss.item()
        if total > 1e6:
            break
    return total
