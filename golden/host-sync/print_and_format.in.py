# Printing or formatting a device tensor reads it; names bound to model outputs and losses are
# device tensors, other values are not assumed to be.
import torch


def train(model, loader, optimizer, loss_fn, epoch):
    for x, y in loader:
        x, y = x.to("xla"), y.to("xla")
        optimizer.zero_grad()
        out = model(x)
        loss = loss_fn(out.logits, y)
        loss.backward()
        optimizer.step()
        print(loss)
        print(f"epoch {epoch} loss {loss:.4f} first {out.logits[0]}")
        print("loss {}".format(loss.detach()))
        label = str(out.logits.argmax(-1))
        print(f"epoch {epoch} batch {x.shape} lr {optimizer.param_groups[0]['lr']}")
        print(len(y), x.dtype)
