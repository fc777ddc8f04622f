# Class: a model attribute set to None in `__init__` and chosen by an `if`/`elif` chain over an
# option no launch line decides (`--model_type=$a` in a shell loop), with no `else`: the way that
# leaves it None raises at its first use, so the run goes on with one of the models, each moved
# to the device; the verdict is shown from them, not "cannot tell".
# Twin: model-chosen-by-elif-chain-twin (the option's value matches no branch).
import torch
import torch.nn.functional as F
import torch_xla
from torch import nn


class UNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 1, 3, padding=1)

    def forward(self, x):
        return self.conv(x)


class AttUNet(UNet):
    pass


class Solver:
    def __init__(self, config):
        self.unet = None
        self.model_type = config.model_type
        self.device = torch_xla.device()
        self.criterion = nn.BCELoss()
        self.build_model()

    def build_model(self):
        if self.model_type == "U_Net":
            self.unet = UNet()
        elif self.model_type == "AttU_Net":
            self.unet = AttUNet()
        self.unet.to(self.device)
        self.optimizer = torch.optim.Adam(list(self.unet.parameters()), 1e-3)

    def train(self):
        for _ in range(2):
            images = torch.randn(2, 3, 8, 8).to(self.device)
            gt = torch.ones(2, 1, 8, 8).to(self.device)
            probs = F.sigmoid(self.unet(images))
            loss = self.criterion(probs.view(2, -1), gt.view(2, -1))
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            torch_xla.sync()
