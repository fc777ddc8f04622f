import torch
import torch_xla


def train(model, loader, optimizer):
    device = torch_xla.device()
    second = torch_xla.device(index=1)
    model.to(device)
    for x, y in loader:
        loss = torch.nn.functional.mse_loss(model(x.to(device)), y.to(device))
        loss.backward()
        optimizer.step()
        torch_xla.sync()
    torch_xla.sync(wait=True)
    return second
