# golden: select=TRN10,TRN43
# A conditional step marker is step-marker's TRN103 and is not reported again by recompilation;
# recompilation reports the shape branch and the trimmed batch.
import torch
import torch_xla.core.xla_model as xm


def train(model, loader, optimizer, batch_size):
    for step, (x, y) in enumerate(loader):
        x, y = x.to("xla"), y.to("xla")
        n = x.ne(0).sum(1).max()
        x = x[:, :n]
        if x.shape[0] == batch_size:
            loss = model(x, y)
        else:
            loss = model(x, y) * 0.5
        loss.backward()
        optimizer.step()
        if step % 10 == 0:
            xm.mark_step()
