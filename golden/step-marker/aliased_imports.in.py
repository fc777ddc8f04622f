# golden: target=xla-2.1
import torch as th
import torch_xla.core.xla_model as xmm
from torch import optim


def train(model, loader, device):
    opt = optim.AdamW(model.parameters())
    for x, y in loader:
        th.nn.functional.mse_loss(model(x.to(device)), y.to(device)).backward()
        opt.step()
        xmm.mark_step()
    for x, y in loader:
        th.nn.functional.mse_loss(model(x.to(device)), y.to(device)).backward()
        opt.step()
        opt.zero_grad()
