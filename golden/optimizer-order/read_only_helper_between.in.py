# Class: a generator's and a discriminator's optimizers built before the two models are moved,
# with a call between that only prints and counts each model's parameters (a method of the
# same class: `print`, `.parameters()`, `.numel()`, `str.format`, no assignment to an attribute
# or item). Where the model is when it runs changes nothing, so the moves go above the
# optimizers, together. Left as it was, both optimizers step the old CPU parameters and nothing
# trains (measured at first sight in a GAN solver: the generator's weights unchanged after
# training). Twin: read_only_helper_between_twin (the helper also freezes a layer: the moves
# stay, for a person).
import torch


class Solver:
    def __init__(self, device):
        self.device = device

    def build_model(self, generator, discriminator):
        self.G = generator
        self.D = discriminator

        self.g_optimizer = torch.optim.Adam(self.G.parameters(), 1e-4, [0.5, 0.999])
        self.d_optimizer = torch.optim.Adam(self.D.parameters(), 1e-4, [0.5, 0.999])
        self.print_network(self.G, "G")
        self.print_network(self.D, "D")

        self.G.to(self.device)
        self.D.to(self.device)

    def print_network(self, model, name):
        num_params = 0
        for p in model.parameters():
            num_params += p.numel()
        print(model)
        print(name)
        print("The number of parameters: {}".format(num_params))
