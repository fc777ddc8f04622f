import torch
from neuronx_distributed.pipeline import NxDPPModel


def train(model, loader, optimizer):
    model = NxDPPModel(model, transformer_layer_cls=Block, num_microbatches=8)
    for batch in loader:
        # The pipeline engine runs forward, backward and the graph cut.
        loss = model.run_train(input_ids=batch["input_ids"], labels=batch["labels"])
        optimizer.step()
        optimizer.zero_grad()
