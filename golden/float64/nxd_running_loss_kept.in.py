import torch
import torch_xla.core.xla_model as xm
from neuronx_distributed.parallel_layers import parallel_state


def train(model, loader, optimizer):
    # As NxD's own examples: the running loss is accumulated in double on purpose.
    running_loss = torch.zeros(1, dtype=torch.double, device=xm.xla_device())
    for batch in loader:
        loss = model(**batch).loss
        loss.backward()
        optimizer.step()
        running_loss += loss.detach()
        xm.mark_step()
    return running_loss
