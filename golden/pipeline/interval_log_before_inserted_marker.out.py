# The step marker this migration inserts (after `optimizer.step()`, and at the end of the
# evaluation loop's body) follows the interval-guarded logging: the logging runs in a step
# closure (TRN123) in the first run, not only once a second run sees the marker.
import torch
import torch_xla
import torch_xla.core.xla_model as xm


def train(model, loader, optimizer, log_every):
    device = torch_xla.device()
    for step, (x, y) in enumerate(loader):
        x, y = x.to(device), y.to(device)
        loss = model(x, y)
        loss.backward()
        if step % log_every == 0:
            def _log(loss):
                print(loss.item())
            xm.add_step_closure(_log, args=(loss,))
        optimizer.step()
        torch_xla.sync()
        optimizer.zero_grad()


def evaluate(model, loader, log_every):
    device = torch_xla.device()
    with torch.no_grad():
        for step, (x, y) in enumerate(loader):
            x, y = x.to(device), y.to(device)
            hits = (model(x).argmax(1) == y).sum()
            if step % log_every == 0:
                def _log(hits):
                    print(hits.item())
                xm.add_step_closure(_log, args=(hits,))
            torch_xla.sync()
