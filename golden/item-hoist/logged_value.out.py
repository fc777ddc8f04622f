# A value read from the device only to be printed (`lossf = loss.item() * ...`) moves with the
# print under the interval guard, inside the step closure: no transfer on the other steps.
import torch
import torch_xla
import torch_xla.core.xla_model as xm


def train(model, loader, optimizer, accumulation_steps):
    for step, (x, y) in enumerate(loader):
        loss = model(x.to("xla"), y.to("xla")) / accumulation_steps
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if step % 10 == 0:
            def _log(loss, accumulation_steps, step):
                lossf = loss.item() * accumulation_steps
                print(f"step {step}: loss {lossf:.4f}")
            xm.add_step_closure(_log, args=(loss, accumulation_steps, step))
        torch_xla.sync()
