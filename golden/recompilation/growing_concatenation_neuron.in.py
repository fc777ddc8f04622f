# golden: target=neuron
# Must not fire TRN435 on TorchNeuron: it runs eagerly, with no graph per iteration to compile.
import torch


def generate(model, idx, steps):
    for _ in range(steps):
        logits = model(idx)
        nxt = torch.argmax(logits[:, -1], dim=-1, keepdim=True)
        idx = torch.cat((idx, nxt), dim=1)
    return idx
