import torch
import torch_xla
import torch_xla.core.xla_model as xm


def save_state(model):
    torch_xla.sync()
    xm.save(model.state_dict(), "last.pth")
