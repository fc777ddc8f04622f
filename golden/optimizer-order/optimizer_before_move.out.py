# Class: an optimizer built over a model's parameters, then the model moved to the device by the
# next statements of the same block (a solver class's `build_model`; a script's setup). On the
# XLA device `.to()` gives the model new parameters, so the optimizer would step the old CPU ones
# and nothing would train (measured): the move is put first. TRN053.
# Twin: optimizer_before_move_twin.
import torch
from torch import optim


class Solver:
    def build_model(self, net):
        self.unet = net

        self.unet.to(self.device)
        self.optimizer = optim.Adam(list(self.unet.parameters()), 1e-3, [0.5, 0.999])


def setup(device):
    model = torch.nn.Linear(4, 2)
    model = model.to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    scheduler_steps = 10
    return model, optimizer, scheduler_steps
