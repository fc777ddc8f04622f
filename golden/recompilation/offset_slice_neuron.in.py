# golden: target=neuron
# TorchNeuron runs eagerly: a slice at a new offset is the same op on the same shape, no new graph.
import torch

corpus = torch.arange(10000).view(-1, 20).to("neuron")


def train(model, optimizer, window):
    for step, i in enumerate(range(0, corpus.size(0) - window, window)):
        loss = model(corpus[i : i + window]).sum()
        loss.backward()
        optimizer.step()
