# A loop without a counter gets one (`enumerate`) to guard its logging with.
import torch
import wandb


def train(model, loader, optimizer):
    for step, (x, y) in enumerate(loader):
        optimizer.zero_grad()
        loss = model(x.to("xla"), y.to("xla"))
        loss.backward()
        optimizer.step()
        if step % 10 == 0:
            wandb.log({"loss": loss.item()})
