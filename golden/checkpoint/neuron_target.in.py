# golden: target=neuron
import torch


def finish(model, optimizer):
    torch.save(model.state_dict(), "model.pt")
    torch.save({"model": model.state_dict(), "optim": optimizer.state_dict()}, "ckpt.pt")
