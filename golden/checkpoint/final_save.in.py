import torch


def main(model, optimizer, train):
    train(model, optimizer)
    checkpoint = {"state_dict": model.state_dict(), "optimizer": optimizer.state_dict()}
    # XLA: keep the weights
    torch.save(checkpoint, "checkpoints/checkpoint.pt")
    torch.save(model.state_dict(), "model.pt")
