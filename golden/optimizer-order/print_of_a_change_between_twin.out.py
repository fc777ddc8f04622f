# Twin of read_only_helper_between: the statement between the optimizers and the moves prints
# what a call that changes the generator returns (`print(self.G.apply(init_weights))`): a
# print, but not only a read, so the generator's move stays below its optimizer, for a person
# (the program's verdict names such an optimizer); the discriminator's move, which nothing
# between reads, still goes above its own.
import torch


def init_weights(module):
    if isinstance(module, torch.nn.Linear):
        torch.nn.init.zeros_(module.bias)


class Solver:
    def __init__(self, device):
        self.device = device

    def build_model(self, generator, discriminator):
        self.G = generator
        self.D = discriminator

        self.g_optimizer = torch.optim.Adam(self.G.parameters(), 1e-4, [0.5, 0.999])
        self.D.to(self.device)
        self.d_optimizer = torch.optim.Adam(self.D.parameters(), 1e-4, [0.5, 0.999])
        print(self.G.apply(init_weights))

        self.G.to(self.device)
