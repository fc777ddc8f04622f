# A library module: a parameter's default, a class attribute and a module-level constant are
# evaluated at import, when a parent process may import the module before xmp.spawn; they get
# the lazy torch.device("xla"), which starts no runtime. The device made inside a function is
# the target's device call.
import torch

DEVICE = torch.device("cuda")


class Trainer:
    device = torch.device("cuda")

    def run(self, batch):
        return batch.to(self.device)


def create_loader(dataset, device=torch.device("cuda")):
    return [x.to(device) for x in dataset]


def place(model):
    device = torch.device("cuda")
    return model.to(device)
