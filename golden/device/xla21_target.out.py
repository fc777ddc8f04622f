# golden: target=xla-2.1
import torch
import torch_xla.core.xla_model as xm

model = torch.nn.Linear(4, 4).to(xm.xla_device())
device = xm.xla_device()
