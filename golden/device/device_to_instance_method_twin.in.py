# Twin of device_to_instance_method: the method also uses the device's name as text (a file
# name), so the parameter is not read only as a device and its "cuda" default stays, reported.
import torch


class Diffusion(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.net = torch.nn.Linear(4, 4)

    def forward(self, x):
        return (self.net(x) - x).pow(2).mean()

    def sample(self, n, device):
        samples = self.net(torch.randn(n, 4).to(device))
        torch.save(samples, device + "_samples.pt")
        return samples


def train(n_epoch: int = 3, device="cuda") -> None:
    model = Diffusion()
    model.to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for _ in range(n_epoch):
        x = torch.randn(8, 4).to(device)
        loss = model(x)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    with torch.no_grad():
        model.sample(16, device)


if __name__ == "__main__":
    train()
