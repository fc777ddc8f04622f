import torch


def save_state(model):
    torch.save(model.state_dict(), "last.pth")
