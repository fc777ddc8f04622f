# golden: target=neuron
# TorchNeuron also runs unsupported ops on the CPU ([torchneuron-practices]), and neuronx-cc compiles its
# graphs: the same findings as on the XLA targets.
import torch


def train(model, loader, optimizer):
    for x, y in loader:
        x, y = x.to("neuron"), y.to("neuron")
        logits = model(x)
        loss = torch.nn.functional.cross_entropy(logits, y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        wrong = logits.argmax(-1) != y
        hard = x[wrong]
        classes = y.unique()
        spectrum = torch.fft.fft(x.to(torch.complex64))
