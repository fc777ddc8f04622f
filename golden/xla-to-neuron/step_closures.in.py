# golden: target=neuron
"""Step closures: the arguments tuple, a lambda, an arguments variable, run_async."""
import torch_xla.core.xla_model as xm


def log(step, loss):
    print(f"step {step}: {loss.item():.4f}")


def train(model, loader, optimizer, tracker):
    for step, (x, y) in enumerate(loader):
        loss = model(x, y)
        loss.backward()
        optimizer.step()
        if step % 10 == 0:
            xm.add_step_closure(log, args=(step, loss))
            xm.add_step_closure(lambda: tracker.add(loss), run_async=True)
        values = (step, loss)
        xm.add_step_closure(log, values)
