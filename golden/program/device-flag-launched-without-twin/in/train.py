import torch
import torch.nn.functional as F


def train(rank, model, device):
    torch.manual_seed(rank)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    for step in range(10):
        data = torch.randn(8, 4)
        target = torch.randint(0, 2, (8,))
        optimizer.zero_grad()
        loss = F.cross_entropy(model(data.to(device)), target.to(device))
        loss.backward()
        optimizer.step()
