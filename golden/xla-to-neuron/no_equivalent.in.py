# golden: target=neuron
"""torch-xla FSDP, SPMD sharding, collectives, metrics and neuronx-distributed: no TorchNeuron
rewrite the tool can be sure of, each a blocker with the page to read."""
import numpy as np
import torch
import torch_xla.core.xla_model as xm
import torch_xla.debug.metrics as met
import torch_xla.distributed.spmd as xs
import torch_xla.runtime as xr
from neuronx_distributed.parallel_layers import parallel_state
from torch_xla.distributed.fsdp import XlaFullyShardedDataParallel as FSDP


def build(model):
    xr.use_spmd()
    mesh = xs.Mesh(np.arange(8), (8,), ("data",))
    model = FSDP(model)
    tp = parallel_state.get_tensor_model_parallel_size()
    return model, mesh, tp


def report(loss):
    total = xm.all_reduce(xm.REDUCE_SUM, loss)
    print(met.metrics_report())
    return total
