# golden: target=neuron
# TorchNeuron compiles each new shape too ([torchneuron-compile]: eager ops compile per shape).
import torch


def evaluate(model, loader):
    with torch.no_grad():
        for x, y in loader:
            x, y = x.to("neuron"), y.to("neuron")
            length = x.ne(0).sum(1).max()
            x = x[:, :length]
            wrong = model(x).argmax(-1) != y
            errors = x[wrong]
            if errors.shape[0] > 0:
                print("errors in batch")
