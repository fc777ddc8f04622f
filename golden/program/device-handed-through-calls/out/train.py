# Class: a "cuda" bound to a name that is handed, positionally, to the repository's own
# functions and classes, which hand it on (any depth, across modules, through `self.<attr> =
# param`) and read it only as a device: it is the training device, rewritten (TRN002) rather
# than left to a person (TRN006). Twin (device-handed-through-calls-twin): a class it reaches
# also prints it, so it stays for a person.
import torch
import torch_xla

from augment import Augment
from noise import mixing_noise


def train(model, optimizer, steps, device):
    augment = Augment(0.6, device)
    for _ in range(steps):
        noise = mixing_noise(8, 4, 0.9, device)
        loss = model(augment(noise)).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        torch_xla.sync()


if __name__ == "__main__":
    device = "xla"
    model = torch.nn.Linear(4, 4).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    train(model, optimizer, 10, device)
