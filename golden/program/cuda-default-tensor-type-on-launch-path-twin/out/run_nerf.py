import numpy as np
import torch
import torch_xla

device = torch_xla.device()


class NeRF(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.net = torch.nn.Linear(3, 4)

    def forward(self, x):
        return self.net(x)


def render(model, rays):
    far = torch.full((rays.shape[0], 1), 1e10, device=rays.device)
    return model(torch.cat([rays[:, :2], far], -1))


def train():
    model = NeRF().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-4)
    rays = torch.Tensor(np.random.rand(1000, 3)).to(device)
    for i in range(100):
        batch = rays[torch.randint(0, 1000, (64,))]
        loss = render(model, batch).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        torch_xla.sync()


if __name__ == "__main__":
    torch.set_default_tensor_type(torch.FloatTensor)
    train()
