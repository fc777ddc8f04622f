# Aliased imports: `xmm` is reused for the closure, `th` for the one transfer of the list.
import torch as th
import torch_xla.core.xla_model as xmm


def train(model, loader, optimizer, log_every):
    history = []
    for it, (x, y) in enumerate(loader):
        optimizer.zero_grad()
        loss = model(x.to(xmm.xla_device()), y.to(xmm.xla_device()))
        loss.backward()
        optimizer.step()
        history.append(loss.detach())
        if it % 10 == 0:
            def _log(it, loss):
                print(it, loss.item())
            xmm.add_step_closure(_log, args=(it, loss))
        xmm.mark_step()
    history = th.stack(history).flatten().tolist() if history else []
    return history
