# golden: target=neuron
# TorchNeuron synchronises on host reads too ([torchneuron-about]); there are no step closures, so the
# messages say to read every N steps or after the loop.
import torch


def evaluate(model, loader):
    correct = []
    with torch.no_grad():
        for x, y in loader:
            x, y = x.to("neuron"), y.to("neuron")
            logits = model(x)
            correct.append((logits.argmax(-1) == y).cpu())
            print(logits.max())
    return correct
