# golden: target=neuron
"""A suppressed graph cut stays, and so does the import it needs."""
import torch_xla.core.xla_model as xm


def step(optimizer):
    optimizer.step()
    xm.mark_step()  # trncodemod: ignore[TRN032]
