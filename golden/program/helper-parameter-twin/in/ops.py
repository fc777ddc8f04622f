import torch


def uniform(shape, device):
    return torch.rand(shape).to(device)


def normal(shape, device):
    return torch.randn(shape, device=device)


def grad_norm(parameters):
    device = parameters[0].grad.device
    total = torch.zeros(1).to(device)
    for p in parameters:
        total += p.grad.norm() ** 2
    return total.sqrt()


def train_step(model, optimizer, batch):
    loss = model(batch).sum()
    loss.backward()
    optimizer.step()
