# golden: target=neuron
"""A library module: it may run under torchrun or alone, so the master-only statements are
guarded, the rendezvous becomes a barrier only where a process group exists, and the optimizer
step (no DDP in sight) keeps its blocker: the gradients might need reducing."""
import os

import torch
import torch_xla.core.xla_model as xm


def save_checkpoint(model, path):
    if torch.distributed.is_initialized():
        torch.distributed.barrier()
    if int(os.environ.get("LOCAL_RANK", "0")) == 0:
        torch.save(model.state_dict(), path)
    if int(os.environ.get("RANK", "0")) == 0:
        print("saved", path)


def train_step(model, batch, optimizer):
    loss = model(**batch).loss
    loss.backward()
    xm.optimizer_step(optimizer)
    return loss
