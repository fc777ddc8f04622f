import torch
import torch_xla.core.xla_model as xm


def train(model, loader, optimizer, device, log_every):
    for step, (x, y) in enumerate(loader):
        x, y = x.to(device), y.to(device)
        loss = torch.nn.functional.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()
        if step % log_every == 0:
            xm.mark_step()
            print(step, loss.item())


def train_skipping(model, loader, optimizer, device):
    for x, y in loader:
        if x is None:
            xm.mark_step()
            continue
        torch.nn.functional.mse_loss(model(x.to(device)), y.to(device)).backward()
        optimizer.step()
