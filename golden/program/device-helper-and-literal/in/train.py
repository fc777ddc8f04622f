# Class: the training device returned by a helper of the module (`return "cuda"`) and a
# "cuda" literal handed to a step helper (`train(model, loader, "cuda")`): each is read only as
# a device, so each becomes the target's device, as `device = "cuda"` does.
import torch


def get_device():
    return "cuda"


def train(model, loader, device):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        loss = torch.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


def main(loader):
    device = get_device()
    model = torch.nn.Linear(8, 2).to(device)
    train(model, loader, device)
    head = torch.nn.Linear(8, 2).cuda()
    train(head, loader, "cuda")


if __name__ == "__main__":
    main([])
