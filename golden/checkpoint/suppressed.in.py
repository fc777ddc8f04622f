import torch


def finish(model):
    torch.save(model.state_dict(), "model.pt")  # trncodemod: ignore[TRN321]
