# Class: `torch.compile` on a model that is trained, where a helper builds and compiles the
# models and returns them to the function that trains them (`g, ema, d = build_models(cfg)`,
# then `train(g, ema, d, ...)`), each compile behind a configuration switch. Trained models (the
# generator and the discriminator: called in the training loop, which steps their optimizers) lose
# the compile, and an `if` left with nothing else goes whole; the EMA copy is only averaged and
# evaluated, so it keeps `backend="openxla"` (TRN154). Twin: compile_trained_helper_twin.
import torch
from torch.optim.swa_utils import AveragedModel


def build_models(cfg, device):
    g = Generator().to(device)
    d = Discriminator().to(device)
    ema = AveragedModel(g, device=device)

    # compile the models
    if cfg["G"]["COMPILED"]:
        g = torch.compile(g)
    if cfg["D"]["COMPILED"]:
        d = torch.compile(d)
    if cfg["EMA"]["COMPILED"] and ema is not None:
        ema = torch.compile(ema)

    return g, ema, d


def train(g, ema, d, loader, g_optimizer, d_optimizer, device):
    for lr_image, hr_image in loader:
        lr_image, hr_image = lr_image.to(device), hr_image.to(device)
        g_optimizer.zero_grad()
        sr = g(lr_image)
        g_loss = (sr - hr_image).abs().mean() - d(sr).mean()
        g_loss.backward()
        g_optimizer.step()
        d_optimizer.zero_grad()
        d_loss = d(sr.detach()).mean() - d(hr_image).mean()
        d_loss.backward()
        d_optimizer.step()
        ema.update_parameters(g)


def validate(ema, loader, device):
    with torch.no_grad():
        for lr_image, hr_image in loader:
            print((ema(lr_image.to(device)) - hr_image.to(device)).abs().mean().item())


def main(cfg):
    device = torch.device("xla")
    g, ema, d = build_models(cfg, device)
    g_optimizer = torch.optim.Adam(g.parameters())
    d_optimizer = torch.optim.Adam(d.parameters())
    for epoch in range(cfg["EPOCHS"]):
        train(g, ema, d, cfg["LOADER"], g_optimizer, d_optimizer, device)
        validate(ema, cfg["VAL_LOADER"], device)
