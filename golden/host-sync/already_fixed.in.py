# The migrated form: reads happen at interval steps, in step closures, or after the loop.
import torch
import torch_xla
import torch_xla.core.xla_model as xm


def train(model, loader, optimizer, criterion):
    running = torch.zeros((), device="xla")
    predictions = []
    for step, (x, y) in enumerate(loader):
        optimizer.zero_grad()
        logits = model(x.to("xla"))
        loss = criterion(logits, y.to("xla"))
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        running += loss.detach()
        predictions.append(logits.argmax(-1))
        if step % 10 == 0:
            print(f"step {step} loss {loss}")
            preview = logits.cpu()

            def _log(loss):
                print(loss, loss.cpu())

            xm.add_step_closure(_log, args=(loss,))
        if step % 100 == 0 and torch.isnan(loss):
            break
        torch_xla.sync()
    predictions = torch.cat(predictions).cpu().tolist()
    print(running)
    return predictions
