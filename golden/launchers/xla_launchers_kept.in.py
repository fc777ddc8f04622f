import multiprocessing

import torch
import torch_xla
import torch_xla.distributed.xla_multiprocessing as xmp


def run(index):
    torch.nn.Linear(4, 4).to(torch_xla.device())(torch.zeros(2, 4)).sum().backward()


def prepare(shard):
    return shard


# torch-xla's own launchers give each process its NeuronCore: nothing to say.
xmp.spawn(run, args=())
torch_xla.launch(run, args=())
# Python's multiprocessing for host work (no XLA device in the workers): not a launcher.
with multiprocessing.Pool(4) as pool:
    pool.map(prepare, range(8))
