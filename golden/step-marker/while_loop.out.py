import torch
import torch_xla


def train(model, loader, optimizer, device, max_steps):
    batches = iter(loader)
    step = 0
    while True:
        try:
            x, y = next(batches)
        except StopIteration:
            break
        loss = torch.nn.functional.mse_loss(model(x.to(device)), y.to(device))
        loss.backward()
        optimizer.step()
        torch_xla.sync()
        optimizer.zero_grad()
        step += 1
        if step >= max_steps:
            break
    return step
