# Class: a device index bound once (`device = 0  # cuda:0`, `device = f"cuda:{local_rank}"`) and
# handed, as a parameter, to the module's own functions and classes, which read it only as a
# device: it is rewritten where it is bound (TRN024), once, and the uses inside those functions
# are left as written (the module read alone: its own calls are all the calls it shows). Twin
# (index_passed_to_own_functions_twin): the parameter is also printed, so the index stays an
# index and each use is rewritten where it is.
import os

import torch
import torch_xla


class Trainer:
    def __init__(self, model, gpu_id):
        self.gpu_id = gpu_id
        self.model = model.to(gpu_id)

    def run(self, steps, loader):
        for x, y in loader:
            x = x.to(self.gpu_id)
            y = y.to(self.gpu_id)
            loss = torch.nn.functional.mse_loss(self.model(x), y)
            loss.backward()


def evaluate(model, device):
    return model(torch.zeros(2, 4, device=device)).sum()


def main(device, loader):
    model = torch.nn.Linear(4, 4)
    Trainer(model, device).run(10, loader)
    evaluate(model, device)


if __name__ == "__main__":
    device = torch_xla.device()  # cuda:0
    main(device, [])
    main_device = "xla"
    evaluate(torch.nn.Linear(4, 4).to(main_device), main_device)
