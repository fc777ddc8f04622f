# golden: target=neuron
"""Step closures: the arguments tuple, a lambda, an arguments variable, run_async."""


def log(step, loss):
    print(f"step {step}: {loss.item():.4f}")


def train(model, loader, optimizer, tracker):
    for step, (x, y) in enumerate(loader):
        loss = model(x, y)
        loss.backward()
        optimizer.step()
        if step % 10 == 0:
            log(step, loss)
            (lambda: tracker.add(loss))()
        values = (step, loss)
        log(*values)
