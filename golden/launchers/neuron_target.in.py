# golden: target=neuron
import torch
import torch.multiprocessing as mp


def run(rank, world_size):
    torch.nn.Linear(4, 4)(torch.zeros(2, 4)).sum().backward()


# TorchNeuron counts its devices through torch.accelerator: the launcher works as it is.
world_size = torch.accelerator.device_count()
mp.spawn(run, args=(world_size,), nprocs=world_size)
