# A loop without a counter gets one (`enumerate`) to guard its logging with.
import torch
import wandb


def train(model, loader, optimizer):
    for x, y in loader:
        optimizer.zero_grad()
        loss = model(x.to("xla"), y.to("xla"))
        loss.backward()
        optimizer.step()
        wandb.log({"loss": loss.item()})
