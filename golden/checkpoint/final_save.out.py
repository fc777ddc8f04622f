import torch
import torch_xla
import torch_xla.core.xla_model as xm


def main(model, optimizer, train):
    train(model, optimizer)
    checkpoint = {"state_dict": model.state_dict(), "optimizer": optimizer.state_dict()}
    # XLA: keep the weights
    torch_xla.sync()
    xm.save(checkpoint, "checkpoints/checkpoint.pt")
    xm.save(model.state_dict(), "model.pt")
