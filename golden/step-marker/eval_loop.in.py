import torch


def evaluate(model, test_loader, device):
    model.eval()
    correct = torch.zeros((), device=device)
    with torch.no_grad():
        for data, target in test_loader:
            data, target = data.to(device), target.to(device)
            if data.numel() == 0:
                continue
            output = model(data)
            pred = output.argmax(dim=1)
            correct += (pred == target).sum()
    return correct.item() / len(test_loader.dataset)
