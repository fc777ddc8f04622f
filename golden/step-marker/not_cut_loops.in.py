# Loops that must not get a graph cut of their own: a model's forward that moves its parts, a
# generator (its consumer's loop is the step), a walk over a model's parameters (an EMA update
# is one graph, not one per tensor), a per-image loop of a batch loop (the batch loop's cut
# covers it), a loop that only saves or builds models.
import torch
from torch import nn


class Model(nn.Module):
    def forward(self, parts):
        out = 0
        for part in parts:
            part = part.to("xla")
            out = out + self.layer(part)
        return out


class Ema:
    def __init__(self, model):
        self.module = model

    @torch.no_grad()
    def update(self, model, decay):
        for ema_v, model_v in zip(self.module.state_dict().values(), model.state_dict().values()):
            ema_v.lerp_(model_v.to(device="xla"), weight=1.0 - decay)

    @torch.no_grad()
    def update_params(self, model, decay):
        ema_params = tuple(self.module.parameters())
        model_params = tuple(model.parameters())
        for ema_p, model_p in zip(ema_params, model_params):
            ema_p.lerp_(model_p.to(device="xla"), weight=1.0 - decay)


@torch.no_grad()
def stream(model, ids, steps):
    for _ in range(steps):
        logits = model(ids)
        ids = logits.argmax(-1)
        yield ids


def save_all(models, folder):
    for name, model in models.items():
        save_model(model, f"{folder}/{name}.pt")


def save_model(model, path):
    torch.save(model.state_dict(), path)
