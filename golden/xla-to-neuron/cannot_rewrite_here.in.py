# golden: target=neuron
"""Calls with a TorchNeuron equivalent that the tool cannot write here: a device index, a cut
whose value is used, xm.save on every process, a save on one line with another statement."""
import torch
import torch_xla.core.xla_model as xm


def run(model, path):
    second = xm.xla_device(1)
    other = torch.zeros(2, device="xla:1")
    result = xm.mark_step()
    xm.save(model.state_dict(), path, master_only=False)
    return second, other, result
