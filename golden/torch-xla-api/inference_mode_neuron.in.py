# golden: target=neuron
# Must not fire on TorchNeuron: the failure is measured on torch-xla's lazy tensor, and no Neuron
# document says inference mode fails on TorchNeuron's eager backend.
import torch


@torch.inference_mode()
def evaluate(model, x):
    return model(x).sum().item()
