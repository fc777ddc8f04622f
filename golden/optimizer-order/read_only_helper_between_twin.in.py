# Twin of read_only_helper_between: the helper between also freezes the model's first
# parameter (an assignment to an attribute), so where the model is when it runs could
# matter: nothing moves, and the verdict names the optimizer for a person.
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
            p.requires_grad = False
        print(model)
        print(name)
        print("The number of parameters: {}".format(num_params))
