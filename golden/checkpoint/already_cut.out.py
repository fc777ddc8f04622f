import torch
import torch_xla
import torch_xla.core.xla_model as xm


def finish(model):
    torch_xla.sync()
    xm.save(model.state_dict(), "model.pt")
    xm.mark_step(); xm.save(model.state_dict(), "again.pt")
