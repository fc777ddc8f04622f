# Twin of device-handed-through-calls: the class the device reaches also prints it (another
# module, through `self.device`), a use other than as a device: the "cuda" stays, a finding for
# a person (TRN006).
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
    device = "cuda"
    model = torch.nn.Linear(4, 4).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    train(model, optimizer, 10, device)
